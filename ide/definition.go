package ide

import (
	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/syntax"
)

// Definition finds where the symbol at off is defined: a relation's rule heads and facts, a
// role's `role` fact, a variable's binding occurrence, the heads that build a function term.
func Definition(snap *Snapshot, off int) []syntax.Span {
	m := snap.Model()
	o := occurrenceAt(snap, off)
	out := []syntax.Span{}
	if o == nil {
		return out
	}
	switch o.Kind {
	case analysis.OccVariable:
		out = append(out, bindingOccurrence(m, o).Span)
	case analysis.OccConstant:
		for _, role := range m.Roles {
			if role.Key == o.Key {
				out = append(out, role.Span)
			}
		}
	case analysis.OccRelation, analysis.OccFunction:
		for _, x := range occurrencesOf(m, o) {
			if x.Def {
				out = append(out, x.Span)
			}
		}
	}
	return out
}
