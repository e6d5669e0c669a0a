package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/ide"
)

func handleHover(ctx context.Context, r *request, snap *Snapshot, p *protocol.HoverParams) (*protocol.Hover, error) {
	if td, ok := r.s.testDoc(r.view, snap); ok {
		return testHover(ctx, r, snap, td, snap.m.offset(p.Position)), nil
	}
	opts := ide.HoverOptions{Markdown: r.view.client.hoverMarkdown, Eval: r.session(snap)}
	if r.view.settingsFor(snap.URI).Hover.ExplainLinks {
		opts.Why = explainLink(snap.URI)
	}
	off := snap.m.offset(p.Position)
	// While this version's model is being built, a hover outside what changed answers from the
	// newest version that has one; the evaluated answers are this version's (they are asked by
	// the relation's name, which is outside the change).
	if from, at, back := snap.Answering(off); from != snap.Snapshot {
		h := ide.Hover(ctx, from, at, opts)
		if h == nil {
			return nil, nil
		}
		if sp, ok := back(h.Span); ok {
			h.Span = sp
			return toHover(snap, h), nil
		}
	}
	return toHover(snap, ide.Hover(ctx, snap.Snapshot, off, opts)), nil
}

// toHover converts a hover of the snapshot (nil: there is none).
func toHover(snap *Snapshot, h *ide.HoverText) *protocol.Hover {
	if h == nil {
		return nil
	}
	kind := protocol.PlainText
	if h.Markdown {
		kind = protocol.Markdown
	}
	rg := snap.m.span(h.Span)
	return &protocol.Hover{Contents: protocol.MarkupContent{Kind: kind, Value: h.Text}, Range: &rg}
}
