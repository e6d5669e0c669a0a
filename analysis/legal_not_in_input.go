package analysis

import (
	"fmt"

	"github.com/gdl-lsp/gdl/syntax"
)

func init() {
	register(&Check{
		Code:     "legal-not-in-input",
		Severity: Warning,
		Category: CategorySemantics,
		Summary: "The game defines input, but a legal rule gives moves (or a role) that no (input R M) covers. Players " +
			"size their tables by input; a legal move it does not list breaks them. Found by matching patterns, so a " +
			"rule whose moves input may cover is not reported (gdl verify checks every reachable state).",
		Example: "(role white)\n(input white (mark 1))\n(<= (legal white (mark ?x)) (free ?x))\n(<= (legal white pass) (true (stuck white)))",
		Fix: "Add the moves to input (the quick fix adds an input fact for a ground move of a named role), or correct " +
			"the move the rule gives.",
		Run: func(m *Model, r *Reporter) {
			input, ok := coveringSet(m, "input")
			if !ok {
				return
			}
			add := factAdder(m, "input")
			for _, c := range m.clausesOf(KeywordRel("legal")) {
				givesRole, role := m.clauseMeets(c, 0, input.sets[0])
				givesMove, move := m.clauseMeets(c, 1, input.sets[1])
				if !givesRole || !givesMove || role && move {
					continue
				}
				arg, which := 1, "move"
				if !role {
					arg, which = 0, "role"
				}
				// The message and the fix, with the clause and the place: written once while it
				// is unchanged.
				texts, at := c.memoFinding("legal-not-in-input", which+m.Notation().String(), func() ([3]string, syntax.Span) {
					args := c.Head.Args()
					msg := fmt.Sprintf("the game defines input, but no (input R M) covers the %s %s that this legal rule gives: players that size their tables by input break",
						which, args[arg].Text())
					if !isGround(args[0]) || !isGround(args[1]) {
						return [3]string{msg}, args[arg].Span()
					}
					fact := m.Notation().Atom("input", args[0].Text(), args[1].Text())
					return [3]string{msg, "Add " + fact + " to input", fact}, args[arg].Span()
				})
				var fixes []syntax.Fix
				if add.ok && texts[1] != "" {
					fixes = append(fixes, add.fix(texts[1], texts[2]))
				}
				r.Report(at, texts[0], nil, fixes...)
			}
		},
	})
}
