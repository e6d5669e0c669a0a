package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/analysis"
)

func handleReferences(ctx context.Context, r *request) (any, error) {
	var p protocol.ReferenceParams
	if err := r.decode(&p); err != nil {
		return nil, err
	}
	snap, err := r.doc(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	return references(snap, snap.m.offset(p.Position), p.Context.IncludeDeclaration), nil
}

// references lists the uses of the symbol at off. Definitions are the occurrences in clause
// heads (for a variable: its binding occurrence); they are included only when asked.
func references(snap *Snapshot, off int, withDecl bool) []protocol.Location {
	m := snap.Model()
	out := []protocol.Location{}
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
		out = append(out, protocol.Location{URI: snap.URI, Range: snap.m.span(x.Span)})
	}
	return out
}
