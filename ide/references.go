package ide

import (
	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/syntax"
)

// References lists the uses of the symbol at off, in source order. Definitions are the
// occurrences in clause heads (for a variable: its binding occurrence); they are included only
// when withDecl is set.
func References(snap *Snapshot, off int, withDecl bool) []syntax.Span {
	m := snap.Model()
	out := []syntax.Span{}
	o := occurrenceAt(snap, off)
	if o == nil {
		return out
	}
	binding := o
	if o.Kind == analysis.OccVariable {
		binding = bindingOccurrence(m, o)
	}
	for _, x := range occurrencesOf(m, o) {
		decl := x.Def
		if o.Kind == analysis.OccVariable {
			decl = x == binding
		}
		if decl && !withDecl {
			continue
		}
		out = append(out, x.Span)
	}
	return out
}
