package propnet

import (
	"context"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/internal/corpus"
	"github.com/gdl-lsp/gdl/internal/cputime"
)

// benchGames are the games of the speed targets, from the shared corpus.
var benchGames = []struct{ name, path string }{
	{"ticTacToe", "ggp-org__ggp-base/games/games/ticTacToe/ticTacToe.kif"},
	{"connectFour", "ggp-org__ggp-base/games/games/connectFour/connectFour.kif"},
	{"breakthrough", "ggp-org__ggp-repository/war/root/games/breakthrough/breakthrough.kif"},
	{"speedChess", "ggp-org__ggp-repository/war/root/games/speedChess/speedChess.kif"},
	{"othello", "ggp-org__ggp-repository/war/root/games/othello-comp2007/othello-comp2007.kif"},
}

// load grounds and builds a game; it returns the network and the initial state's bits.
func load(tb testing.TB, src string) (*Net, []uint64) {
	tb.Helper()
	g, _ := eval.Load(src)
	ctx := context.Background()
	gr, err := g.Ground(ctx, eval.GroundLimits{})
	if err != nil {
		tb.Fatal(err)
	}
	n, err := New(ctx, g, gr, Limits{})
	if err != nil {
		tb.Fatal(err)
	}
	return n, initBits(n, gr)
}

// benchPlayouts runs play on each game of benchGames, which plays b.N random playouts of the
// network from its initial state and returns the joint moves they made.
func benchPlayouts(b *testing.B, play func(b *testing.B, n *Net, init []uint64) int) {
	for _, bg := range benchGames {
		b.Run(bg.name, func(b *testing.B) {
			src, err := os.ReadFile(corpus.Dir() + "/" + bg.path)
			if err != nil {
				b.Skipf("SKIPPED: %v", err)
			}
			n, init := load(b, string(src))
			b.ResetTimer()
			cpu0 := cputime.Now()
			steps := play(b, n, init)
			reportCPU(b, cpu0)
			b.ReportMetric(float64(steps)/float64(b.N), "moves/op")
		})
	}
}

// BenchmarkPlayout measures random playouts on the machine alone (no game API, no statistics):
// one op is one playout to a terminal state.
func BenchmarkPlayout(b *testing.B) {
	benchPlayouts(b, func(b *testing.B, n *Net, init []uint64) int {
		m := n.NewMachine()
		rng := rand.New(rand.NewPCG(1, 2))
		steps := 0
		for i := 0; i < b.N; i++ {
			steps += m.Playout(init, rng, 1000, nil).Depth
		}
		return steps
	})
}

// BenchmarkLanes measures random playouts on Lanes alone, 64 at a time: one op is one playout
// to a terminal state.
func BenchmarkLanes(b *testing.B) {
	benchPlayouts(b, func(b *testing.B, n *Net, init []uint64) int {
		steps := 0
		n.NewLanes().Playouts(LaneRun{Start: init, Seed: 1, MaxDepth: 1000, Count: b.N, End: func(e PlayoutEnd) bool {
			steps += e.Depth
			return true
		}})
		return steps
	})
}

// reportCPU reports the CPU time per op since cpu0, in microseconds (cpu-us/op): on a machine
// shared with other jobs the steadier figure.
func reportCPU(b *testing.B, cpu0 time.Duration) {
	b.ReportMetric(float64(cputime.Now()-cpu0)/float64(b.N)/1e3, "cpu-us/op")
}
