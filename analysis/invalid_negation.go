package analysis

import (
	"fmt"

	"github.com/gdl-lsp/gdl/syntax"
)

func init() {
	register(&Check{
		Code:     "invalid-negation",
		Severity: Error,
		Category: CategorySemantics,
		Summary:  "not applied to something other than one atom: (not (or ...)), (not (not ...)), (not ?x), or not with several operands.",
		Example:  "(<= (p ?x) (q ?x) (not (or (r ?x) (s ?x))))",
		Fix:      "Negate atoms only: (not (or a b)) is (not a) (not b); (not (not a)) is a.",
		Clause: func(m *Model, c *Clause, r *Reporter) {
			d := m.Notation()
			forEachNot(c, func(l syntax.Literal) {
				ops := l.Operands()
				if len(ops) != 1 {
					r.Report(l.Span(), fmt.Sprintf("not takes exactly one atom, found %d operands", len(ops)), nil)
					return
				}
				switch op := ops[0]; op.Kind() {
				case syntax.LitAtom, syntax.LitDistinct:
				case syntax.LitNot:
					r.Report(op.Span(), "double negation: not applied to a not; "+d.Not(d.Not("a"))+" means a", nil)
				case syntax.LitOr:
					and := d.Not("a") + " " + d.Not("b")
					if d == syntax.Infix {
						and = d.Not("a") + " & " + d.Not("b")
					}
					r.Report(op.Span(), "not applied to an or: negate each branch instead, "+d.Not(d.Or("a", "b"))+" is "+and, nil)
				default:
					r.Report(op.Span(), "not must be applied to an atom, found "+op.Text(), nil)
				}
			})
		},
	})
}

// forEachNot calls fn with every `not` literal of the clause, nested ones included.
func forEachNot(c *Clause, fn func(l syntax.Literal)) {
	walkLiterals(c, func(v literalVisit) {
		if v.Kind == syntax.LitNot {
			fn(v.Lit)
		}
	})
}
