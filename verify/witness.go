package verify

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/game"
)

// CheckWitness replays a finding's joint moves on g and checks that the violation is there:
// the state reached is what the finding says (a non-terminal state where the role has no legal
// move, a terminal state with the goal values named, a cycle back to an earlier state, a legal
// move or a fluent that input or base does not cover). Verify checks every finding this way
// before it returns it; an error means a bug of the verifier or of an engine.
func CheckWitness(ctx context.Context, g *game.Game, f *Finding) error {
	p, err := g.Replay(ctx, f.Moves)
	if err != nil {
		return err
	}
	if p.Err != nil {
		return fmt.Errorf("%s witness does not replay: %w", f.Property, p.Err)
	}
	s := p.State()
	role := slices.Index(g.RoleNames(), f.Role)
	if f.Role != "" && role < 0 {
		return fmt.Errorf("%s witness: no role %s", f.Property, f.Role)
	}
	term, err := g.Terminal(ctx, s)
	if err != nil {
		return err
	}
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%s witness %v: "+format, append([]any{f.Property, f.Joints}, args...)...)
	}
	switch f.Property {
	case Termination:
		if term {
			return bad("the state reached is terminal")
		}
		if f.Kind == "cycle" {
			if f.Loop < 1 || f.Loop > len(f.Moves) || !p.States[len(f.Moves)-f.Loop].Equal(s) {
				return bad("the last %d joint moves do not return to the state before them", f.Loop)
			}
		}
	case Playability:
		legal, err := g.Legal(ctx, s)
		if err != nil {
			return err
		}
		if term || len(legal[role]) > 0 {
			return bad("%s has a legal move, or the state is terminal", f.Role)
		}
	case Goal:
		goals, err := g.Goals(ctx, s)
		if err != nil {
			return err
		}
		ts := goals[role]
		ok := term && (f.Kind == "no-goal" && len(ts) == 0 || f.Kind == "several-goals" && len(ts) > 1 ||
			f.Kind == "bad-goal" && len(ts) == 1 && goalValue(g, ts[0]) < 0)
		if !ok {
			return bad("%s's goal values %v are not a %s violation in a terminal state", f.Role, g.Strings(ts), f.Kind)
		}
	case Winnability:
		if f.Subject == "" {
			return nil // no terminal state with a goal value: the search's verdict, not a state
		}
		goals, err := g.Goals(ctx, s)
		if err != nil {
			return err
		}
		if !term || len(goals[role]) != 1 || strconv.Itoa(goalValue(g, goals[role][0])) != f.Subject || f.Subject == "100" {
			return bad("the state reached is not terminal with goal %s for %s", f.Subject, f.Role)
		}
	case Input:
		legal, err := g.Legal(ctx, s)
		if err != nil {
			return err
		}
		m, err := g.ParseTerm(f.Subject)
		if err != nil {
			return err
		}
		covered, err := covers(ctx, g, "input", 2, func(a eval.Answer) bool { return a.Values[0] == g.Roles()[role] && a.Values[1] == m })
		if err != nil {
			return err
		}
		if !slices.Contains(legal[role], m) || covered {
			return bad("%s is not a legal move of %s there, or input covers it", f.Subject, f.Role)
		}
	case Base:
		fl, err := g.ParseTerm(f.Subject)
		if err != nil {
			return err
		}
		covered, err := covers(ctx, g, "base", 1, func(a eval.Answer) bool { return a.Values[0] == fl })
		if err != nil {
			return err
		}
		if !slices.Contains(s.Fluents(), fl) || covered {
			return bad("%s does not hold there, or base covers it", f.Subject)
		}
	}
	return nil
}

// covers reports whether some answer of a relation matches.
func covers(ctx context.Context, g *game.Game, name string, arity int, match func(eval.Answer) bool) (bool, error) {
	answers, _, err := relationAnswers(ctx, g, name, arity)
	if err != nil {
		return false, err
	}
	return slices.ContainsFunc(answers, match), nil
}
