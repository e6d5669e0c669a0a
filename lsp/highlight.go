package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/ide"
	"github.com/gdl-lsp/gdl/syntax"
)

var highlightKinds = map[ide.HighlightKind]protocol.DocumentHighlightKind{
	ide.HighlightText:  protocol.DocumentHighlightKindText,
	ide.HighlightRead:  protocol.DocumentHighlightKindRead,
	ide.HighlightWrite: protocol.DocumentHighlightKindWrite,
}

func handleDocumentHighlight(ctx context.Context, r *request, snap *Snapshot, p *protocol.DocumentHighlightParams) ([]protocol.DocumentHighlight, error) {
	off := snap.m.offset(p.Position)
	// The editor shows those on screen: keep the nearest.
	all := answered(snap, off, func(h *ide.Highlight) *syntax.Span { return &h.Span }, ide.Highlights)
	hs := ide.Nearest(all, func(h ide.Highlight) int { return h.Span.Start }, off, maxReferences)
	out := make([]protocol.DocumentHighlight, len(hs))
	for i, h := range hs {
		out[i] = protocol.DocumentHighlight{Range: snap.m.span(h.Span), Kind: highlightKinds[h.Kind]}
	}
	return out, nil
}
