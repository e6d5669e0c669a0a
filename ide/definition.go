package ide

import (
	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/syntax"
)

// Definition finds where the symbol at off is defined: a relation's rule heads and facts, a
// role's `role` fact, a variable's binding occurrence, the heads that build a function term.
func Definition(snap *Snapshot, off int) []syntax.Span {
	if st := snap.syntaxStage(); st != nil {
		return st.definition(off)
	}
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

// definition is Definition from the syntax stage: a variable's in its clause, a relation's heads,
// a role's role fact, the heads that build a function term (the forms that spell its name).
func (st *syntaxStage) definition(off int) []syntax.Span {
	c := st.chunkAt(off)
	o := c.occurrenceAt(off)
	out := []syntax.Span{}
	if o == nil {
		return out
	}
	switch o.Kind {
	case analysis.OccVariable:
		return c.spans(Definition(c.snap, off-c.start))
	case analysis.OccConstant:
		if sp, ok := st.isRole(o.Key); ok {
			out = append(out, sp)
		}
	case analysis.OccRelation:
		return st.definitions(o.Key)
	case analysis.OccFunction:
		spans, defs := st.uses(o)
		for i, sp := range spans {
			if defs[i] {
				out = append(out, sp)
			}
		}
	}
	return out
}
