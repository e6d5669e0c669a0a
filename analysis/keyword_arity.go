package analysis

import "fmt"

func init() {
	register(&Check{
		Code:     "keyword-arity",
		Severity: Error,
		Category: CategorySemantics,
		Summary:  "A GDL keyword with the wrong number of arguments (role 1, init 1, true 1, does 2, next 1, legal 2, goal 2, terminal 0, distinct 2, base 1, input 2, sees 2).",
		Example:  "(<= (legal ?p) (role ?p))",
		Fix:      "Give the keyword its fixed number of arguments, e.g. (legal ?p noop).",
		Clause: func(m *Model, c *Clause, r *Reporter) {
			for _, o := range c.Occurrences(m) {
				want, kw := RelationKeywords[o.Key]
				if !kw || int(o.Arity) == want || lateKeywords[o.Key] {
					continue
				}
				if o.Kind == OccRelation || (o.Kind == OccKeyword && o.Key == "distinct") {
					r.Report(o.Span, fmt.Sprintf("%s takes %s, not %d", o.Name, counted(want, "argument", "arguments"), o.Arity), nil)
				}
			}
		},
	})
}
