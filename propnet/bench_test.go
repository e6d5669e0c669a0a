package propnet

import (
	"context"
	"math"
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

// chessDepth is the length of the chess playouts of the speed target: 20 joint moves, as the
// Prolog side plays them (scripts/bench-playouts.sh).
const chessDepth = 20

// chessRates plays playouts of chessDepth joint moves on the Machine and on Lanes for budget of
// CPU each and returns their numbers per CPU second.
func chessRates(n *Net, init []uint64, budget time.Duration) (machine, lanes float64) {
	m := n.NewMachine()
	rng := rand.New(rand.NewPCG(1, 2))
	count := 0
	cpu0 := cputime.Now()
	for cputime.Now()-cpu0 < budget {
		m.Playout(init, rng, chessDepth, nil)
		count++
	}
	machine = float64(count) / (cputime.Now() - cpu0).Seconds()
	l := n.NewLanes()
	cpu0 = cputime.Now()
	ended := l.Playouts(LaneRun{Start: init, Seed: 1, MaxDepth: chessDepth, Count: math.MaxInt32,
		End: func(PlayoutEnd) bool { return true }, Stop: func() bool { return cputime.Now()-cpu0 >= budget }})
	lanes = float64(ended) / (cputime.Now() - cpu0).Seconds()
	return machine, lanes
}

// On chess's network (GDL_CHESS_GROUND=1, chessNet), every lane of Lanes agrees with the
// Machine, and the first two with the interpreter, along random walks: 12 steps of 64 lanes.
// It logs the playouts of 20 joint moves per CPU second on both.
func TestChessLanes(t *testing.T) {
	c := chessNet(t)
	states, err := laneWalkNet(c.g, c.gr, c.n, 12, 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d lane states agree", states)
	machine, lanes := chessRates(c.n, initBits(c.n, c.gr), 3*time.Second)
	t.Logf("playouts of %d joint moves per CPU second: Machine %.1f, Lanes %.1f", chessDepth, machine, lanes)
}

// BenchmarkChess measures random playouts of 20 joint moves through chess's network
// (GDL_CHESS_GROUND=1, chessNet) on the Machine and on Lanes: one op is one playout.
func BenchmarkChess(b *testing.B) {
	c := chessNet(b)
	init := initBits(c.n, c.gr)
	b.Run("Machine", func(b *testing.B) {
		m := c.n.NewMachine()
		rng := rand.New(rand.NewPCG(1, 2))
		cpu0 := cputime.Now()
		for range b.N {
			m.Playout(init, rng, chessDepth, nil)
		}
		reportCPU(b, cpu0)
	})
	b.Run("Lanes", func(b *testing.B) {
		cpu0 := cputime.Now()
		c.n.NewLanes().Playouts(LaneRun{Start: init, Seed: 1, MaxDepth: chessDepth, Count: b.N, End: func(PlayoutEnd) bool { return true }})
		reportCPU(b, cpu0)
	})
}
