package analysis

func init() {
	register(&Check{
		Code:     "variable-in-fact",
		Severity: Error,
		Category: CategorySemantics,
		Summary:  "A fact contains a variable; facts must be ground.",
		Example:  "(cell ?x 1 b)",
		Fix:      "Write one fact per value, or make it a rule whose body binds the variable.",
		Clause: func(m *Model, c *Clause, r *Reporter) {
			if c.IsRule {
				return
			}
			for _, occs := range c.Vars {
				for _, i := range occs {
					o := c.Occurrences(m)[i]
					r.Report(o.Span, "variable "+o.Name+" in a fact: facts must be ground; write a rule whose body binds "+o.Name+", or use a constant", nil)
				}
			}
		},
	})
}
