package eval

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/gdl-lsp/gdl/internal/cputime"
)

// BenchmarkChessStep measures one random step of chess (legal, terminal, next) from the
// initial state: the game whose whole-relation evaluation needs seconds per state.
func BenchmarkChessStep(b *testing.B) {
	g := corpusGame(b, "ggp-org__ggp-repository/war/root/games/chess/chess.kif")
	ctx := context.Background()
	s0, err := g.Initial(ctx)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s := s0
		for d := 0; d < 4; d++ {
			legal, err := g.Legal(ctx, s)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := g.Terminal(ctx, s); err != nil {
				b.Fatal(err)
			}
			joint := make([]Term, len(legal))
			for r, ms := range legal {
				joint[r] = ms[rng.IntN(len(ms))]
			}
			if s, err = g.Next(ctx, s, joint); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkChessPlayout measures random playouts of chess capped at 20 joint moves, the figure
// docs/performance.md compares with SWI-Prolog running the same capped playouts.
func BenchmarkChessPlayout(b *testing.B) {
	g := corpusGame(b, "ggp-org__ggp-repository/war/root/games/chess/chess.kif")
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, 2))
	if _, err := g.Playout(ctx, rng, 20); err != nil {
		b.Fatal(err)
	}
	cpu0 := cputime.Now()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := g.Playout(ctx, rng, 20)
		if err != nil {
			b.Fatal(err)
		}
		for _, v := range res.Violations {
			if v.Kind != ViolationDepth {
				b.Fatalf("violation: %+v", v)
			}
		}
	}
	if cpu := cputime.Now() - cpu0; cpu > 0 {
		b.ReportMetric(float64(b.N)/cpu.Seconds(), "playouts/cpu-s")
	}
}
