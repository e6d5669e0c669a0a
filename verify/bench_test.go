package verify

import (
	"context"
	"os"
	"testing"

	"github.com/gdl-lsp/gdl/game"
	"github.com/gdl-lsp/gdl/internal/corpus"
	"github.com/gdl-lsp/gdl/internal/cputime"
)

// The games of the speed targets, from the shared corpus.
const (
	benchTicTacToe   = "ggp-org__ggp-base/games/games/ticTacToe/ticTacToe.kif"
	benchConnectFour = "ggp-org__ggp-base/games/games/connectFour/connectFour.kif"
)

func benchGame(b *testing.B, path string) *game.Game {
	b.Helper()
	src, err := os.ReadFile(corpus.Dir() + "/" + path)
	if err != nil {
		b.Skipf("SKIPPED: %v", err)
	}
	g, _, err := game.Load(context.Background(), string(src), game.Options{Engine: game.Compiled})
	if err != nil {
		b.Fatal(err)
	}
	return g
}

// BenchmarkVerifyTicTacToe is the exhaustive verification of tic-tac-toe (5,478 states); the
// target is 50 ms.
func BenchmarkVerifyTicTacToe(b *testing.B) {
	g := benchGame(b, benchTicTacToe)
	b.ResetTimer()
	cpu := cputime.Now()
	for i := 0; i < b.N; i++ {
		r, err := Verify(context.Background(), g, Options{})
		if err != nil || !r.Complete || r.States != 5478 {
			b.Fatalf("%v %+v", err, r)
		}
	}
	cputime.Report(b, cpu, b.N)
}

// BenchmarkVerifyConnectFour is a bounded run on connectFour: one op explores 100,000 states;
// the target is a million states a minute (6 s an op).
func BenchmarkVerifyConnectFour(b *testing.B) {
	g := benchGame(b, benchConnectFour)
	b.ResetTimer()
	cpu := cputime.Now()
	for i := 0; i < b.N; i++ {
		r, err := Verify(context.Background(), g, Options{MaxStates: 100_000})
		if err != nil || r.States != 100_000 {
			b.Fatalf("%v %d states", err, r.States)
		}
	}
	spent := cputime.Now() - cpu
	cputime.Report(b, cpu, b.N)
	if spent > 0 {
		b.ReportMetric(float64(100_000*b.N)/spent.Minutes(), "states/cpu-min")
	}
}

// BenchmarkSolveTicTacToe solves tic-tac-toe from the initial state, with the value of every
// first move; the target is 20 ms.
func BenchmarkSolveTicTacToe(b *testing.B) {
	g := benchGame(b, benchTicTacToe)
	b.ResetTimer()
	cpu := cputime.Now()
	states := 0
	for i := 0; i < b.N; i++ {
		s, err := Solve(context.Background(), g, SolveOptions{})
		if err != nil || !s.Solved || s.Values[0] != 50 {
			b.Fatalf("%v %+v", err, s)
		}
		states = s.States
	}
	cputime.Report(b, cpu, b.N)
	b.ReportMetric(float64(states), "positions")
}
