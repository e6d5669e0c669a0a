package analysis

import (
	"strings"

	"github.com/gdl-lsp/gdl/syntax"
)

func init() {
	register(&Check{
		Code:     "bad-disjunction",
		Severity: Error,
		Category: CategorySemantics,
		Summary:  "An empty (or), or an or nested directly inside another or.",
		Example:  "(<= (p ?x) (q ?x) (or (r ?x) (or (s ?x) (t ?x))))",
		Fix:      "Remove an empty or; write the branches of an inner or as branches of the outer one (the quick fix does).",
		Clause: func(m *Model, c *Clause, r *Reporter) {
			walkLiterals(c, func(v literalVisit) {
				if v.Kind != syntax.LitOr {
					return
				}
				ops := v.Lit.Operands()
				if len(ops) == 0 {
					r.Report(v.Lit.Span(), "empty disjunction: "+m.Notation().Or()+" has no branch and can never hold", nil)
					return
				}
				if v.Parent.Valid() && v.Parent.Kind() == syntax.LitOr {
					texts := make([]string, len(ops))
					for i, op := range ops {
						texts[i] = op.Text()
					}
					sep := " "
					if m.Notation() == syntax.Infix {
						sep = " | "
					}
					r.Report(v.Lit.Span(), "nested disjunction: an or directly inside an or", nil,
						safe(replace("Merge into the outer or", v.Lit.Span(), strings.Join(texts, sep))))
				}
			})
		},
	})
}
