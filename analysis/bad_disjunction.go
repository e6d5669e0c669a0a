package analysis

import "github.com/gdl-lsp/gdl/syntax"

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
					r.Report(v.Lit.Span(), "nested disjunction: an or directly inside an or", nil, mergeDisjunction(v.Lit, ops)...)
				}
			})
		},
	})
}

// mergeDisjunction is the fix of an or nested in an or: its branches become the outer or's. It
// removes what stands before its first branch ("(or " in prefix, "(" in infix) and after its
// last (")"), so the branches, the separators between them and the comments stay as written,
// and the fixes of an or nested a thousand deep are a thousand small edits that apply at once.
func mergeDisjunction(or syntax.Literal, ops []syntax.Literal) []syntax.Fix {
	sp := or.Span()
	fix := syntax.Fix{Title: "Merge into the outer or"}
	for _, e := range []syntax.Span{{Start: sp.Start, End: ops[0].Span().Start}, {Start: ops[len(ops)-1].Span().End, End: sp.End}} {
		if e.Start < e.End { // an or written without its parentheses has nothing around its branches
			fix.Edits = append(fix.Edits, syntax.TextEdit{Span: e})
		}
	}
	if len(fix.Edits) == 0 {
		return nil
	}
	return []syntax.Fix{safe(fix)}
}
