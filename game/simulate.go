package game

import (
	"context"
	"math/rand/v2"

	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/internal/sched"
	"github.com/gdl-lsp/gdl/propnet"
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

// SimulateAll plays one random playout from each state of states, as Simulate does, and returns
// their ends in the same order. On the compiled engine, when every state is a compiled one,
// they run at once, 64 at a time (propnet.Lanes), each with a generator of its own seeded from
// seed; otherwise one after the other from one generator seeded from seed.
func (g *Game) SimulateAll(ctx context.Context, states []*State, seed uint64, maxDepth int) ([]Simulation, error) {
	out := make([]Simulation, len(states))
	compiled := g.net != nil
	for _, s := range states {
		compiled = compiled && s.bits != nil
	}
	if !compiled {
		rng := rand.New(rand.NewPCG(seed, seed^0x9E3779B97F4A7C15))
		for i, s := range states {
			sim, err := g.Simulate(ctx, s, rng, maxDepth)
			if err != nil {
				return nil, err
			}
			out[i] = sim
		}
		return out, nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.lanes == nil {
		g.lanes = g.net.NewLanes()
	}
	var idx []int
	for lo := 0; lo < len(states); lo += 64 {
		starts := make([][]uint64, min(64, len(states)-lo))
		for i := range starts {
			starts[i] = states[lo+i].bits
		}
		g.lanes.Playouts(propnet.LaneRun{Starts: starts, Seed: seed + uint64(lo), MaxDepth: maxDepth,
			Stop: func() bool {
				sched.Yield()
				return ctx.Err() != nil
			},
			End: func(e propnet.PlayoutEnd) bool {
				sim := Simulation{Goals: make([]int, len(g.roles)), Depth: e.Depth, Terminal: e.Terminal}
				for r := range g.roles {
					idx = g.lanes.Goals(e.Lane, r, idx[:0])
					sim.Goals[r] = -1
					if len(idx) == 1 {
						sim.Goals[r] = g.goalVal[r][idx[0]]
					}
				}
				out[lo+e.Lane] = sim
				return true
			}})
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}
