package lsp

import (
	"context"
	"fmt"

	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/ide"
	"github.com/gdl-lsp/gdl/syntax"
)

// maxReferences bounds a references reply (and a documentHighlight one): a relation used 10,000
// times made 1.4 MB of JSON that editors are slow to show, and a big file can have far more.
// The ones nearest the cursor are kept.
const maxReferences = 2000

func handleReferences(ctx context.Context, r *request, snap *Snapshot, p *protocol.ReferenceParams) ([]protocol.Location, error) {
	off := snap.m.offset(p.Position)
	refs := answered(snap, off, func(sp *syntax.Span) *syntax.Span { return sp }, func(s *ide.Snapshot, off int) []syntax.Span {
		return ide.References(s, off, p.Context.IncludeDeclaration)
	})
	if len(refs) > maxReferences {
		r.s.notify("window/showMessage", protocol.ShowMessageParams{Type: protocol.MessageTypeInfo,
			Message: fmt.Sprintf("gdl: %d references; showing the %d nearest the cursor.", len(refs), maxReferences)})
		refs = ide.Nearest(refs, func(s syntax.Span) int { return s.Start }, off, maxReferences)
	}
	return snap.locations(refs), nil
}

// locations are the LSP locations of spans of the snapshot.
func (s *Snapshot) locations(spans []syntax.Span) []protocol.Location {
	out := make([]protocol.Location, len(spans))
	for i, sp := range spans {
		out[i] = protocol.Location{URI: s.URI, Range: s.m.span(sp)}
	}
	return out
}
