package eval

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/gdl-lsp/gdl/internal/cputime"
)

// corpusDir is the shared corpus, beside the repository.
const corpusDir = "../../shared/games"

// benchGames are the games whose playout speed docs/performance.md records.
var benchGames = []struct{ name, path string }{
	{"ticTacToe", "ggp-org__ggp-base/games/games/ticTacToe/ticTacToe.kif"},
	{"connectFour", "ggp-org__ggp-base/games/games/connectFour/connectFour.kif"},
	{"breakthrough", "ggp-org__ggp-repository/war/root/games/breakthrough/breakthrough.kif"},
}

func corpusGame(tb testing.TB, rel string) *Program {
	tb.Helper()
	src, err := os.ReadFile(filepath.Join(corpusDir, rel))
	if err != nil {
		tb.Skipf("SKIPPED: the shared corpus (%s) is not there: %v", corpusDir, err)
	}
	g, _ := Load(string(src))
	return g
}

// BenchmarkPlayout measures random playouts per second (the figure to compare with SWI-Prolog
// running the same game through `gdl convert --to prolog`).
func BenchmarkPlayout(b *testing.B) {
	for _, bg := range benchGames {
		b.Run(bg.name, func(b *testing.B) {
			g := corpusGame(b, bg.path)
			ctx := context.Background()
			rng := rand.New(rand.NewPCG(1, 2))
			if _, err := g.Playout(ctx, rng, 1000); err != nil {
				b.Fatal(err)
			}
			cpu0 := cputime.Now()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				res, err := g.Playout(ctx, rng, 1000)
				if err != nil {
					b.Fatal(err)
				}
				if !res.Terminal {
					b.Fatalf("playout did not end in a terminal state: %+v", res.Violations)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "playouts/s")
			// CPU time is what SWI-Prolog's statistics(cputime) reports; it is also steadier than
			// wall time on a shared machine.
			if cpu := cputime.Now() - cpu0; cpu > 0 {
				b.ReportMetric(float64(b.N)/cpu.Seconds(), "playouts/cpu-s")
			}
		})
	}
}
