package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/analysis"
)

func handleDocumentHighlight(ctx context.Context, r *request) (any, error) {
	var p protocol.DocumentHighlightParams
	if err := r.decode(&p); err != nil {
		return nil, err
	}
	snap, err := r.doc(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	hs := highlights(snap, snap.m.offset(p.Position))
	if len(hs) > maxReferences { // the editor shows those on screen: keep the nearest
		hs = nearest(hs, func(h protocol.DocumentHighlight) protocol.Position { return h.Range.Start }, p.Position, maxReferences)
	}
	return hs, nil
}

// highlights marks every occurrence of the symbol at off in the document: definitions (heads,
// a variable's binding occurrence) as writes, uses as reads.
func highlights(snap *Snapshot, off int) []protocol.DocumentHighlight {
	m := snap.Model()
	out := []protocol.DocumentHighlight{}
	o := occurrenceAt(snap, off)
	if o == nil {
		return out
	}
	if o.Kind == analysis.OccKeyword {
		return append(out, protocol.DocumentHighlight{Range: snap.m.span(o.Span), Kind: protocol.DocumentHighlightKindText})
	}
	binding := o
	if o.Kind == analysis.OccVariable {
		binding = bindingOccurrence(m, o)
	}
	for _, x := range occurrencesOf(m, o) {
		kind := protocol.DocumentHighlightKindRead
		if (o.Kind == analysis.OccVariable && x == binding) || (o.Kind != analysis.OccVariable && x.Def) {
			kind = protocol.DocumentHighlightKindWrite
		}
		out = append(out, protocol.DocumentHighlight{Range: snap.m.span(x.Span), Kind: kind})
	}
	return out
}
