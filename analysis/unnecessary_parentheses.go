package analysis

import "github.com/gdl-lsp/gdl/syntax"

// enclosingList returns the span of the list whose head is the token at span.
func enclosingList(f *syntax.File, span syntax.Span) syntax.Span {
	if _, path := f.LeafAt(span.Start); len(path) > 0 {
		return path[len(path)-1].Span()
	}
	return span
}

func init() {
	register(&Check{
		Code:     "unnecessary-parentheses",
		Severity: Warning,
		Category: CategoryStyle,
		Summary:  "A relation or constant without arguments written in parentheses, like (terminal). Most players accept it, some do not.",
		Example:  "(<= (terminal) (true (step 10)))",
		Fix:      "Remove the parentheses: terminal (the quick fix does).",
		Clause: func(m *Model, c *Clause, r *Reporter) {
			for _, o := range c.Occurrences(m) {
				if !o.Parenthesized || o.Arity != 0 || o.Key == "and" && o.Relation == "and" {
					continue // and-not-gdl reports (and), and its fix removes it
				}
				var msg string
				switch o.Kind {
				case OccRelation:
					msg = "unnecessary parentheses around " + o.Name + ": a relation without arguments is written " + o.Name
				case OccFunction:
					msg = "unnecessary parentheses around the constant " + o.Name
				default:
					continue
				}
				span := enclosingList(m.File, o.Span)
				r.Report(span, msg, nil, safe(replace("Write "+o.Name, span, o.Name)))
			}
		},
	})
}
