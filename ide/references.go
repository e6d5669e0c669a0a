package ide

import (
	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/syntax"
)

// References lists the uses of the symbol at off, in source order. Definitions are the
// occurrences in clause heads (for a variable: its binding occurrence); they are included only
// when withDecl is set.
func References(snap *Snapshot, off int, withDecl bool) []syntax.Span {
	if st := snap.syntaxStage(); st != nil {
		return st.references(off, withDecl)
	}
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
			decl = x.Span == binding.Span
		}
		if decl && !withDecl {
			continue
		}
		out = append(out, x.Span)
	}
	return out
}

// references is References from the syntax stage: a variable's in its clause, a name's in the
// forms that spell it.
func (st *syntaxStage) references(off int, withDecl bool) []syntax.Span {
	c := st.chunkAt(off)
	o := c.occurrenceAt(off)
	switch {
	case o == nil || o.Kind == analysis.OccKeyword:
		return []syntax.Span{}
	case o.Kind == analysis.OccVariable:
		return c.spans(References(c.snap, off-c.start, withDecl))
	}
	spans, defs := st.uses(o)
	out := []syntax.Span{}
	for i, sp := range spans {
		if withDecl || !defs[i] {
			out = append(out, sp)
		}
	}
	return out
}
