package analysis

import "github.com/gdl-lsp/gdl/syntax"

func init() {
	register(&Check{
		Code:     "unnecessary-parentheses",
		Severity: Warning,
		Category: CategoryStyle,
		Summary:  "A relation or constant without arguments written in parentheses, like (terminal). Most players accept it, some do not.",
		Example:  "(<= (terminal) (true (step 10)))",
		Fix:      "Remove the parentheses: terminal (the quick fix does).",
		Clause: func(m *Model, c *Clause, r *Reporter) {
			// The model noted the lists as it walked the clause (finding a list from its name
			// would walk down from the form: quadratic when they nest deep).
			d := c.Form.Span().Start - c.visitsAt
			for _, b := range c.bare {
				if b.key == "and" && b.rel == "and" {
					continue // and-not-gdl reports (and), and its fix removes it
				}
				msg := "unnecessary parentheses around " + b.name + ": a relation without arguments is written " + b.name
				if b.function {
					msg = "unnecessary parentheses around the constant " + b.name
				}
				span := syntax.Span{Start: b.span.Start + d, End: b.span.End + d}
				r.Report(span, msg, nil, safe(replace("Write "+b.name, span, b.name)))
			}
		},
	})
}
