package analysis

import (
	"fmt"

	"github.com/gdl-lsp/gdl/syntax"
)

func init() {
	register(&Check{
		Code:     "undefined-fluent",
		Severity: Warning,
		Category: CategorySemantics,
		Summary: "A (true F) whose fluent no init or next rule can produce: it never holds, and its negation always does. " +
			"Usually a typo in the fluent's name, its number of arguments or a constant. Found by matching the patterns " +
			"of the init and next heads (following variables to the atoms that bind them), so a fluent the game can " +
			"produce is never reported.",
		Example: "(init (cell 1 1 b))\n(<= (next (cell ?x ?y ?c)) (true (cell ?x ?y ?c)))\n(<= (open ?x ?y) (true (cel ?x ?y b)))",
		Fix: "Correct the fluent: the quick fix offers the produced fluents of close spelling (cel to cell). If the " +
			"fluent is meant, produce it in init or next.",
		Run: func(m *Model, r *Reporter) {
			if !m.Defines("init") && !m.Defines("next") {
				return // not a game yet: no fluent is ever produced
			}
			fluents := m.producersAt(KeywordRel("true"), 0)
			if fluents.any {
				return
			}
			suggested := 0 // uses (in source order) given "did you mean": at most maxSuggested
			fails := func(u use) bool { return !fluents.matches(atomArg(u.Atom, 0)) }
			for _, u := range m.failingUses("undefined-fluent", KeywordRel("true"), [2]*termSet{fluents}, fails) {
				x := atomArg(u.Atom, 0)
				var more string
				var fixes []syntax.Fix
				if suggested++; suggested <= maxSuggested {
					more, fixes = didYouMean(setSuggestions(x, fluents))
				}
				if more == "" {
					more = arityHint(x, fluents)
				}
				r.Report(x.Span(), fmt.Sprintf("no init or next rule produces the fluent %s, so this %s never holds%s",
					x.Text(), u.Atom.Name().Text(), more), nil, fixes...)
			}
		},
	})
}
