package player

import (
	"context"
	"fmt"
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
}

// Match is a match played.
type Match struct {
	Moves    [][]eval.Term // the joint moves, in order
	Goals    []int         // per role, its goal value at the end (-1: none, or several)
	Terminal bool          // the match ended in a terminal state (else at MaxSteps)
}

// PlayMatch plays a match from the initial state: at each step every player (one per role, in
// role order) chooses its move in turn, each under MoveTime, and the joint move is played.
func PlayMatch(ctx context.Context, g *game.Game, players []Player, opts MatchOptions) (*Match, error) {
	if len(players) != len(g.Roles()) {
		return nil, fmt.Errorf("a match needs one player per role: %d roles, %d players", len(g.Roles()), len(players))
	}
	if opts.MaxSteps <= 0 {
		opts.MaxSteps = 1000
	}
	s, err := g.Initial(ctx)
	if err != nil {
		return nil, err
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
			mctx, cancel := ctx, context.CancelFunc(func() {})
			if opts.MoveTime > 0 {
				mctx, cancel = context.WithTimeout(ctx, opts.MoveTime)
			}
			joint[r], err = pl.Move(mctx, s)
			cancel()
			if err != nil {
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				return nil, fmt.Errorf("step %d: role %s: %w", len(m.Moves)+1, g.RoleNames()[r], err)
			}
		}
		if s, err = g.Next(ctx, s, joint); err != nil {
			return nil, fmt.Errorf("step %d: %w", len(m.Moves)+1, err)
		}
		m.Moves = append(m.Moves, joint)
	}
	if m.Goals, err = g.GoalValues(ctx, s); err != nil {
		return nil, err
	}
	return m, nil
}
