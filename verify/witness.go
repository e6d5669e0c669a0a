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
	w := &witness{ctx: ctx, g: g, f: f, p: p, s: p.State(), role: slices.Index(g.RoleNames(), f.Role)}
	if f.Role != "" && w.role < 0 {
		return fmt.Errorf("%s witness: no role %s", f.Property, f.Role)
	}
	if w.term, err = g.Terminal(ctx, w.s); err != nil {
		return err
	}
	check, ok := witnessChecks[f.Property]
	if !ok {
		return nil
	}
	return check(w)
}

// witness is a finding replayed: the state its joint moves reach.
type witness struct {
	ctx  context.Context
	g    *game.Game
	f    *Finding
	p    *game.Position
	s    *game.State // the state reached
	role int         // the finding's role, -1 for none
	term bool        // whether s is terminal
}

// witnessChecks check a replayed finding of each property.
var witnessChecks = map[Property]func(w *witness) error{
	Termination: (*witness).termination,
	Playability: (*witness).playability,
	Goal:        (*witness).goal,
	Winnability: (*witness).winnability,
	Input:       (*witness).input,
	Base:        (*witness).base,
}

// bad is the error of a witness that does not show its violation.
func (w *witness) bad(format string, args ...any) error {
	return fmt.Errorf("%s witness %v: "+format, append([]any{w.f.Property, w.f.Joints}, args...)...)
}

// termination: a non-terminal state, and for a cycle, the last Loop joint moves return to it.
func (w *witness) termination() error {
	f := w.f
	if w.term {
		return w.bad("the state reached is terminal")
	}
	if f.Kind == "cycle" {
		if f.Loop < 1 || f.Loop > len(f.Moves) || !w.p.States[len(f.Moves)-f.Loop].Equal(w.s) {
			return w.bad("the last %d joint moves do not return to the state before them", f.Loop)
		}
	}
	return nil
}

// playability: a non-terminal state where the role has no legal move.
func (w *witness) playability() error {
	legal, err := w.g.Legal(w.ctx, w.s)
	if err != nil {
		return err
	}
	if w.term || len(legal[w.role]) > 0 {
		return w.bad("%s has a legal move, or the state is terminal", w.f.Role)
	}
	return nil
}

// goal: a terminal state where the role has no goal value, several, or one out of range.
func (w *witness) goal() error {
	f := w.f
	goals, err := w.g.Goals(w.ctx, w.s)
	if err != nil {
		return err
	}
	ts := goals[w.role]
	ok := w.term && (f.Kind == "no-goal" && len(ts) == 0 || f.Kind == "several-goals" && len(ts) > 1 ||
		f.Kind == "bad-goal" && len(ts) == 1 && goalValue(w.g, ts[0]) < 0)
	if !ok {
		return w.bad("%s's goal values %v are not a %s violation in a terminal state", f.Role, w.g.Strings(ts), f.Kind)
	}
	return nil
}

// winnability: a terminal state where the role has the goal value named, below 100.
func (w *witness) winnability() error {
	f := w.f
	if f.Subject == "" {
		return nil // no terminal state with a goal value: the search's verdict, not a state
	}
	goals, err := w.g.Goals(w.ctx, w.s)
	if err != nil {
		return err
	}
	if !w.term || len(goals[w.role]) != 1 || strconv.Itoa(goalValue(w.g, goals[w.role][0])) != f.Subject || f.Subject == "100" {
		return w.bad("the state reached is not terminal with goal %s for %s", f.Subject, f.Role)
	}
	return nil
}

// input: a legal move of the role that input does not cover.
func (w *witness) input() error {
	g, f := w.g, w.f
	legal, err := g.Legal(w.ctx, w.s)
	if err != nil {
		return err
	}
	m, err := g.ParseTerm(f.Subject)
	if err != nil {
		return err
	}
	covered, err := covers(w.ctx, g, "input", 2, func(a eval.Answer) bool { return a.Values[0] == g.Roles()[w.role] && a.Values[1] == m })
	if err != nil {
		return err
	}
	if !slices.Contains(legal[w.role], m) || covered {
		return w.bad("%s is not a legal move of %s there, or input covers it", f.Subject, f.Role)
	}
	return nil
}

// base: a fluent that holds and base does not cover.
func (w *witness) base() error {
	g, f := w.g, w.f
	fl, err := g.ParseTerm(f.Subject)
	if err != nil {
		return err
	}
	covered, err := covers(w.ctx, g, "base", 1, func(a eval.Answer) bool { return a.Values[0] == fl })
	if err != nil {
		return err
	}
	if !slices.Contains(w.s.Fluents(), fl) || covered {
		return w.bad("%s does not hold there, or base covers it", f.Subject)
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
