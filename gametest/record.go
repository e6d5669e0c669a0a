package gametest

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/game"
	"github.com/gdl-lsp/gdl/syntax"
)

// Record writes a snapshot test named name, in notation d: the joint moves played from the
// initial state, then what holds in the state they reach: each fluent, each role's legal moves
// (exactly), whether it is terminal, and in a terminal state each role's goal. It pins today's
// behaviour, so that a refactoring of the rules that changes it fails the test. The error is
// for a name d cannot write, a joint move that cannot be played, and evaluation errors.
func Record(ctx context.Context, g *game.Game, name string, moves [][]eval.Term, d syntax.Dialect) (string, error) {
	written, ok := d.Name(name)
	if !ok || strings.ContainsAny(name, " \t\r\n()") {
		return "", fmt.Errorf("%q cannot be a test's name: give a constant such as x-wins-diagonal", name)
	}
	p, err := g.Replay(ctx, moves)
	if err != nil {
		return "", err
	}
	if p.Err != nil {
		return "", p.Err
	}
	s := p.State()
	term := func(t eval.Term) string { return g.StringIn(t, d) }
	list := func(head string, args ...string) string {
		if d == syntax.Infix {
			return head + "(" + strings.Join(args, ",") + ")"
		}
		if len(args) == 0 {
			return "(" + head + ")"
		}
		return "(" + head + " " + strings.Join(args, " ") + ")"
	}
	var steps []string
	for _, joint := range moves {
		var ms []string
		for _, m := range joint {
			ms = append(ms, term(m))
		}
		steps = append(steps, list("play", ms...))
	}
	for _, f := range SortedTexts(g, s.Fluents(), d) {
		steps = append(steps, list("holds", list("true", f)))
	}
	isTerminal, err := g.Terminal(ctx, s)
	if err != nil {
		return "", err
	}
	roles := g.Roles()
	if isTerminal {
		steps = append(steps, "terminal")
		goals, err := g.Goals(ctx, s)
		if err != nil {
			return "", err
		}
		for r, vs := range goals {
			if len(vs) == 1 {
				steps = append(steps, list("goal", term(roles[r]), term(vs[0])))
			}
		}
	} else {
		steps = append(steps, list("not", "terminal"))
		legal, err := g.Legal(ctx, s)
		if err != nil {
			return "", err
		}
		for r, ms := range legal {
			args := append([]string{term(roles[r])}, SortedTexts(g, ms, d)...)
			steps = append(steps, list("legal-moves", args...))
		}
	}
	comment := "; "
	if d == syntax.Infix {
		comment = "% "
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%sRecorded by gdl test --record: what holds after these joint moves.\n", comment)
	if d == syntax.Infix {
		fmt.Fprintf(&b, "test(%s,\n    %s)\n", written, strings.Join(steps, ",\n    "))
	} else {
		fmt.Fprintf(&b, "(test %s\n    %s)\n", written, strings.Join(steps, "\n    "))
	}
	return b.String(), nil
}

// SortedTexts writes terms in notation d, sorted by text.
func SortedTexts(g *game.Game, ts []eval.Term, d syntax.Dialect) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = g.StringIn(t, d)
	}
	slices.Sort(out)
	return out
}
