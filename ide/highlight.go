package ide

import (
	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/syntax"
)

// HighlightKind says how an occurrence uses its symbol.
type HighlightKind int

const (
	HighlightText  HighlightKind = iota // a keyword: only itself
	HighlightRead                       // a use
	HighlightWrite                      // a definition: a clause head, a variable's binding occurrence
)

// Highlight is one occurrence of the symbol under the cursor.
type Highlight struct {
	Span syntax.Span
	Kind HighlightKind
}

// Highlights marks every occurrence of the symbol at off in the document, in source order:
// definitions (heads, a variable's binding occurrence) as writes, uses as reads.
func Highlights(snap *Snapshot, off int) []Highlight {
	if st := snap.syntaxStage(); st != nil {
		return st.highlights(off)
	}
	m := snap.Model()
	out := []Highlight{}
	o := occurrenceAt(snap, off)
	if o == nil {
		return out
	}
	if o.Kind == analysis.OccKeyword {
		return append(out, Highlight{Span: o.Span, Kind: HighlightText})
	}
	binding := o
	if o.Kind == analysis.OccVariable {
		binding = bindingOccurrence(m, o)
	}
	for _, x := range occurrencesOf(m, o) {
		kind := HighlightRead
		if (o.Kind == analysis.OccVariable && x.Span == binding.Span) || (o.Kind != analysis.OccVariable && x.Def) {
			kind = HighlightWrite
		}
		out = append(out, Highlight{Span: x.Span, Kind: kind})
	}
	return out
}

// highlights is Highlights from the syntax stage: a variable's and a keyword's in their clause,
// a name's in the forms that spell it.
func (st *syntaxStage) highlights(off int) []Highlight {
	c := st.chunkAt(off)
	o := c.occurrenceAt(off)
	if o == nil {
		return []Highlight{}
	}
	if o.Kind == analysis.OccVariable || o.Kind == analysis.OccKeyword {
		out := Highlights(c.snap, off-c.start)
		for i := range out {
			out[i].Span = c.span(out[i].Span)
		}
		return out
	}
	spans, defs := st.uses(o)
	out := make([]Highlight, len(spans))
	for i, sp := range spans {
		out[i] = Highlight{Span: sp, Kind: HighlightRead}
		if defs[i] {
			out[i].Kind = HighlightWrite
		}
	}
	return out
}
