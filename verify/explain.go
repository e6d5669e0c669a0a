package verify

import (
	"context"
	"slices"

	"github.com/gdl-lsp/gdl/explain"
	"github.com/gdl-lsp/gdl/game"
)

// ExplainDepth is how deep the explanation of a finding's violating state goes.
const ExplainDepth = 3

// Explain explains the state a finding's witness reaches (package explain): why the role has
// no legal move (a why-not of (legal role ?m)), why it has no goal value, several or a bad one
// (goal role ?v), why a state of the loop or one from which no terminal state is reachable is not
// terminal, why the role never gets 100 in the terminal state shown. Nil for the findings about
// input and base, which are about the game's rules, not a state.
func Explain(ctx context.Context, g *game.Game, f *Finding, opts explain.Options) (*explain.Explanation, error) {
	d := g.Notation()
	role := ""
	if slices.Contains(g.RoleNames(), f.Role) {
		role = f.Role
	}
	v := func(name string) string {
		s, _ := d.Var(name)
		return s
	}
	var literal string
	switch f.Property {
	case Termination:
		literal = "terminal"
	case Playability:
		literal = d.Atom("legal", role, v("?move"))
	case Goal:
		literal = d.Atom("goal", role, v("?value"))
	case Winnability:
		if f.Subject == "" {
			return nil, nil
		}
		literal = d.Atom("goal", role, "100")
	default:
		return nil, nil
	}
	if role == "" && f.Property != Termination {
		return nil, nil
	}
	p, err := g.Replay(ctx, f.Moves)
	if err != nil {
		return nil, err
	}
	if p.Err != nil {
		return nil, p.Err
	}
	if opts.Depth == 0 {
		opts.Depth = ExplainDepth
	}
	return g.Explain(ctx, p.State(), nil, literal, opts)
}
