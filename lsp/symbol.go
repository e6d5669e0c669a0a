package lsp

import (
	"github.com/gdl-lsp/gdl/analysis"
)

// Symbol identity shared by definition, references, highlight, rename and hover: two
// occurrences name the same thing when they share a namespace (relation, function, constant) and
// a case-folded name; a variable is the same only within its clause.

// occurrenceAt returns the occurrence under the cursor, or nil.
func occurrenceAt(snap *Snapshot, off int) *analysis.Occurrence {
	return snap.Model().OccurrenceAt(off)
}

// sameSymbol reports whether occurrences a and b name the same thing.
func sameSymbol(a, b *analysis.Occurrence) bool {
	if a.Kind != b.Kind || a.Key != b.Key {
		return false
	}
	switch a.Kind {
	case analysis.OccVariable:
		return a.Clause == b.Clause
	case analysis.OccKeyword:
		return false
	}
	return true
}

// occurrencesOf returns every occurrence of the symbol o names, in source order.
func occurrencesOf(m *analysis.Model, o *analysis.Occurrence) []*analysis.Occurrence {
	var out []*analysis.Occurrence
	switch o.Kind {
	case analysis.OccVariable:
		for _, i := range m.Clauses[o.Clause].Vars[o.Key] {
			out = append(out, &m.Occurrences[i])
		}
		return out
	case analysis.OccKeyword:
		return nil
	}
	var table map[string]*analysis.Symbol
	switch o.Kind {
	case analysis.OccRelation:
		table = m.Relations
	case analysis.OccFunction:
		table = m.Functions
	case analysis.OccConstant:
		table = m.Constants
	}
	if s := table[o.Key]; s != nil {
		for _, i := range s.Occs {
			out = append(out, &m.Occurrences[i])
		}
	}
	return out
}

// bindingOccurrence returns the occurrence that binds a variable in its clause: the first one in
// a positive body atom (not under `not`, not in `distinct`), else the first one at all.
func bindingOccurrence(m *analysis.Model, v *analysis.Occurrence) *analysis.Occurrence {
	occs := m.Clauses[v.Clause].Vars[v.Key]
	for _, i := range occs {
		o := &m.Occurrences[i]
		if !o.Def && !o.Negated && o.Relation != "distinct" {
			return o
		}
	}
	if len(occs) > 0 {
		return &m.Occurrences[occs[0]]
	}
	return v
}

// isKeyword reports whether the occurrence is a GDL keyword or connective, which no rename may
// touch.
func isKeyword(o *analysis.Occurrence) bool {
	return o.Kind == analysis.OccKeyword || (o.Kind == analysis.OccRelation && analysis.IsKeyword(o.Key))
}
