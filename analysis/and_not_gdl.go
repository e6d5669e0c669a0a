package analysis

import (
	"strings"

	"github.com/gdl-lsp/gdl/syntax"
)

func init() {
	register(&Check{
		Code:     "and-not-gdl",
		Severity: Error,
		Category: CategorySemantics,
		Summary:  "(and ...) in a rule body: GDL has no and; the literals of a body are already a conjunction.",
		Example:  "(<= (p ?x) (and (q ?x) (r ?x)))",
		Fix:      "Write the literals directly in the body (the quick fix does).",
		Clause: func(m *Model, c *Clause, r *Reporter) {
			walkLiterals(c, func(v literalVisit) {
				if v.Lit.Kind() != syntax.LitAtom || v.Lit.Atom().Name().Key() != "and" {
					return
				}
				msg := "GDL has no and: the literals of a rule body are already a conjunction"
				if v.Parent.Valid() { // inside a not or an or
					r.Report(v.Lit.Atom().Name().Span(), msg+"; inside an or, write one rule per branch instead", nil)
					return
				}
				var parts []string
				for _, e := range v.Lit.Elements()[1:] {
					parts = append(parts, e.Text())
				}
				r.Report(v.Lit.Atom().Name().Span(), msg, nil,
					replace("Put the literals of and in the body", v.Lit.Span(), strings.Join(parts, " ")))
			})
		},
	})
}
