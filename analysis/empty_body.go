package analysis

func init() {
	register(&Check{
		Code:     "empty-body",
		Severity: Warning,
		Category: CategoryStyle,
		Summary:  "A rule with an empty body, (<= head). It means the same as the fact head; some players reject it.",
		Example:  "(<= (legal robot move))",
		Fix:      "Write the fact: (legal robot move) (the quick fix does when the head is ground).",
		Clause: func(m *Model, c *Clause, r *Reporter) {
			if !c.IsRule || len(c.Body) > 0 {
				return
			}
			head := c.Head.Text()
			msg := "rule without a body: it says the same as the fact " + head
			if len(c.Vars) > 0 {
				r.Report(c.Form.Rule().Arrow().Span(), msg, nil)
				return
			}
			r.Report(c.Form.Rule().Arrow().Span(), msg, nil, safe(replace("Turn the rule into a fact", c.Form.Span(), head)))
		},
	})
}
