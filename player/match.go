package player

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/game"
)

// MatchOptions configure a match.
type MatchOptions struct {
	// MoveTime is each player's time per move (0: none; the players' own budgets bound them).
	MoveTime time.Duration
	// MaxSteps stops a match that has not ended after this many joint moves (0: 1000).
	MaxSteps int
	// Seed seeds the moves of GDL-II's random role when no player plays it, and the players'
	// beliefs.
	Seed uint64
}

// Match is a match played.
type Match struct {
	Moves    [][]eval.Term // the joint moves, in order
	Goals    []int         // per role, its goal value at the end (-1: none, or several)
	Terminal bool          // the match ended in a terminal state (else at MaxSteps)
}

// PlayMatch plays a match from the initial state: at each step every player (one per role, in
// role order) chooses its move in turn, each under MoveTime, and the joint move is played.
// Each player chooses from what its role knows: in a GDL game the state; in GDL-II (GDLII)
// the states its own moves and percepts allow (a Belief, kept up to date after every joint
// move, each update also under MoveTime). GDL-II's random role plays uniformly at random in
// the true state when its player is nil (it is chance, not a player), and a player given for
// it is told the true state.
func PlayMatch(ctx context.Context, g *game.Game, players []Player, opts MatchOptions) (*Match, error) {
	if len(players) != len(g.Roles()) {
		return nil, fmt.Errorf("a match needs one player per role: %d roles, %d players", len(g.Roles()), len(players))
	}
	for r, pl := range players {
		if pl == nil && !g.IsRandom(r) {
			return nil, fmt.Errorf("role %s has no player", g.RoleNames()[r])
		}
	}
	if opts.MaxSteps <= 0 {
		opts.MaxSteps = 1000
	}
	s, err := g.Initial(ctx)
	if err != nil {
		return nil, err
	}
	ii := GDLII(g)
	rng := rand.New(rand.NewPCG(opts.Seed, 0x72616e646f6d))
	beliefs := make([]*Belief, len(players)) // GDL-II; in GDL every role knows the state
	for r, pl := range players {
		if ii && pl != nil && !g.IsRandom(r) {
			if beliefs[r], err = NewBelief(ctx, g, r, opts.Seed*31+uint64(r)); err != nil {
				return nil, err
			}
		}
	}
	within := func() (context.Context, context.CancelFunc) {
		if opts.MoveTime > 0 {
			return context.WithTimeout(ctx, opts.MoveTime)
		}
		return ctx, func() {}
	}
	m := &Match{}
	for len(m.Moves) < opts.MaxSteps {
		t, err := g.Terminal(ctx, s)
		if err != nil {
			return nil, err
		}
		if t {
			m.Terminal = true
			break
		}
		joint := make([]eval.Term, len(players))
		for r, pl := range players {
			if pl == nil {
				legal, err := g.Legal(ctx, s)
				if err != nil {
					return nil, err
				}
				if len(legal[r]) == 0 {
					return nil, fmt.Errorf("step %d: role %s: %w", len(m.Moves)+1, g.RoleNames()[r], ErrNoMove)
				}
				joint[r] = legal[r][rng.IntN(len(legal[r]))]
				continue
			}
			b := beliefs[r]
			if b == nil {
				b = Known(g, r, s)
			}
			mctx, cancel := within()
			joint[r], err = pl.Move(mctx, b)
			cancel()
			if err != nil {
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				return nil, fmt.Errorf("step %d: role %s: %w", len(m.Moves)+1, g.RoleNames()[r], err)
			}
		}
		var sees [][]eval.Term
		if ii {
			if sees, err = g.Sees(ctx, s, joint); err != nil {
				return nil, fmt.Errorf("step %d: %w", len(m.Moves)+1, err)
			}
		}
		if s, err = g.Next(ctx, s, joint); err != nil {
			return nil, fmt.Errorf("step %d: %w", len(m.Moves)+1, err)
		}
		m.Moves = append(m.Moves, joint)
		for r, b := range beliefs {
			if b == nil {
				continue
			}
			octx, cancel := within()
			b.Observe(octx, joint[r], Percepts(g, sees[r]))
			cancel()
		}
	}
	if m.Goals, err = g.GoalValues(ctx, s); err != nil {
		return nil, err
	}
	return m, nil
}
