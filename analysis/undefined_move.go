package analysis

import (
	"fmt"

	"github.com/gdl-lsp/gdl/syntax"
)

func init() {
	register(&Check{
		Code:     "undefined-move",
		Severity: Warning,
		Category: CategorySemantics,
		Summary: "A (does R M) whose move, or role, no legal rule can produce: the move is never played, so the literal " +
			"never holds. Usually a typo in the move's name, its number of arguments or a constant. Found by matching " +
			"the patterns of the legal heads (following variables to the atoms that bind them), so a move the game " +
			"allows is never reported.",
		Example: "(role white)\n(<= (legal white (mark ?x)) (true (free ?x)))\n(<= (next (taken ?x)) (does white (mrak ?x)))",
		Fix: "Correct the move: the quick fix offers the legal moves of close spelling (mrak to mark). If the move is " +
			"meant, add a legal rule for it.",
		Run: func(m *Model, r *Reporter) {
			if !m.Defines("legal") {
				return // missing-legal says it
			}
			roles, moves := m.producersAt(KeywordRel("does"), 0), m.producersAt(KeywordRel("does"), 1)
			if roles.any && moves.any {
				return
			}
			suggested := 0 // uses (in source order) given "did you mean": at most maxSuggested
			suggest := func(x syntax.Term, s *termSet) (string, []syntax.Fix) {
				if suggested++; suggested > maxSuggested {
					return "", nil
				}
				return didYouMean(setSuggestions(x, s))
			}
			fails := func(u use) bool {
				args := u.Atom.Args()
				return !moves.matches(args[1]) || !roles.matches(args[0])
			}
			for _, u := range m.failingUses("undefined-move", KeywordRel("does"), [2]*termSet{roles, moves}, fails) {
				args := u.Atom.Args()
				name := u.Atom.Name().Text()
				switch {
				case !moves.matches(args[1]):
					x := args[1]
					more, fixes := suggest(x, moves)
					if more == "" {
						more = arityHint(x, moves)
					}
					r.Report(x.Span(), fmt.Sprintf("no legal rule allows the move %s, so this %s never holds%s", x.Text(), name, more), nil, fixes...)
				case !roles.matches(args[0]):
					x := args[0]
					more, fixes := suggest(x, roles)
					r.Report(x.Span(), fmt.Sprintf("no legal rule gives %s a move, so this %s never holds%s", x.Text(), name, more), nil, fixes...)
				}
			}
		},
	})
}
