package game

import (
	"context"
	"math/rand/v2"

	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/internal/sched"
)

// Simulation is the end of a random playout from a state.
type Simulation struct {
	Goals    []int // per role: its goal value in the last state, -1 when it has none or several
	Depth    int   // joint moves played
	Terminal bool  // the playout reached a terminal state (else: maxDepth, or a role without a move)
}

// Simulate plays uniformly random legal moves from s until a terminal state, a role without a
// legal move, or maxDepth joint moves, and returns the goals of the last state: the inner loop of
// Monte Carlo search. On the compiled engine it runs on the network without making a State per
// step.
func (g *Game) Simulate(ctx context.Context, s *State, rng *rand.Rand, maxDepth int) (Simulation, error) {
	sim := Simulation{Goals: make([]int, len(g.roles))}
	sched.Yield()
	if g.compiled(s) {
		g.mu.Lock()
		defer g.mu.Unlock()
		r := g.m.Playout(s.bits, rng, maxDepth, nil)
		sim.Depth, sim.Terminal = r.Depth, r.Terminal
		var idx []int
		for role := range g.roles {
			idx = g.m.Goals(role, idx[:0])
			sim.Goals[role] = -1
			if len(idx) == 1 {
				sim.Goals[role] = g.goalVal[role][idx[0]]
			}
		}
		return sim, nil
	}
	ev := g.ev
	es := s.interp()
	joint := make([]eval.Term, len(g.roles))
	for {
		term, err := ev.Terminal(ctx, es)
		if err != nil {
			return sim, err
		}
		if term {
			sim.Terminal = true
			break
		}
		if sim.Depth >= maxDepth {
			break
		}
		legal, err := ev.Legal(ctx, es)
		if err != nil {
			return sim, err
		}
		stuck := false
		for r, ms := range legal {
			if len(ms) == 0 {
				stuck = true
				break
			}
			joint[r] = ms[rng.IntN(len(ms))]
		}
		if stuck {
			break
		}
		if es, err = ev.Next(ctx, es, joint); err != nil {
			return sim, err
		}
		sim.Depth++
	}
	goals, err := ev.Goals(ctx, es)
	if err != nil {
		return sim, err
	}
	for r, vs := range goals {
		sim.Goals[r] = -1
		if len(vs) == 1 {
			if v, ok := ev.Int(vs[0]); ok {
				sim.Goals[r] = v
			}
		}
	}
	return sim, nil
}
