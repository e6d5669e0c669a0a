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
		Run: func(m *Model, r *Reporter) {
			atom := func(a syntax.Atom) {
				if a.Valid() && a.Parenthesized() && a.Arity() == 0 {
					name := a.Name().Name()
					r.Report(a.Span(), "unnecessary parentheses around "+name+": a relation without arguments is written "+name,
						nil, replace("Write "+name, a.Span(), name))
				}
			}
			terms := func(ts []syntax.Term) {
				walkTerms(ts, func(t syntax.Term) {
					if t.Kind() == syntax.TermFunction && len(t.Args()) == 0 {
						name := t.Name().Name()
						r.Report(t.Span(), "unnecessary parentheses around the constant "+name,
							nil, replace("Write "+name, t.Span(), name))
					}
				})
			}
			for _, c := range m.Clauses {
				atom(c.Head)
				terms(c.Head.Args())
				walkLiterals(c, func(v literalVisit) {
					switch v.Lit.Kind() {
					case syntax.LitAtom:
						atom(v.Lit.Atom())
						terms(v.Lit.Atom().Args())
					case syntax.LitDistinct:
						terms(v.Lit.Terms())
					}
				})
			}
		},
	})
}
