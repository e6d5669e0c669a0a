package analysis

import "github.com/gdl-lsp/gdl/syntax"

func init() {
	register(&Check{
		Code:     "negated-distinct",
		Severity: Warning,
		Category: CategoryStyle,
		Summary:  "(not (distinct a b)): accepted by most players but not GDL; it means a and b are the same term.",
		Example:  "(<= (same ?x ?y) (cell ?x) (cell ?y) (not (distinct ?x ?y)))",
		Fix:      "Use one variable for both terms: (<= (same ?x ?x) (cell ?x)).",
		Clause: func(m *Model, c *Clause, r *Reporter) {
			forEachNot(c, func(l syntax.Literal) {
				if ops := l.Operands(); len(ops) == 1 && ops[0].Kind() == syntax.LitDistinct {
					r.Report(l.Span(), "negated distinct: GDL has no equality test; use the same variable for both terms instead", nil)
				}
			})
		},
	})
}
