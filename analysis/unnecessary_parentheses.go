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
			report := func(list syntax.Cursor, name, msg string) {
				r.Report(list.Span(), msg, nil, safe(replace("Write "+name, list.Span(), name)))
			}
			forEachAtomAndTerm(c, func(a syntax.Atom) {
				if !a.Parenthesized() || a.Arity() != 0 {
					return
				}
				if name := a.Name(); name.Key() != "and" { // and-not-gdl reports (and), and its fix removes it
					report(a.Cursor, name.Text(), "unnecessary parentheses around "+name.Text()+": a relation without arguments is written "+name.Text())
				}
			}, func(t syntax.Term, rel string) {
				// (and) inside an and is part of the and-not-gdl report too.
				if t.Kind() == syntax.TermFunction && t.Arity() == 0 && !(rel == "and" && t.Name().Key() == "and") {
					report(t.Cursor, t.Name().Text(), "unnecessary parentheses around the constant "+t.Name().Text())
				}
			})
		},
	})
}
