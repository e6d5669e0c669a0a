package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/ide"
)

func handleHover(ctx context.Context, r *request) (any, error) {
	var p protocol.HoverParams
	if err := r.decode(&p); err != nil {
		return nil, err
	}
	snap, err := r.doc(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	opts := ide.HoverOptions{Markdown: r.s.hoverMarkdown(), Eval: r.session(snap)}
	if r.view.settingsFor(snap.URI).Hover.ExplainLinks {
		opts.Why = explainLink(snap.URI)
	}
	h := ide.Hover(ctx, snap.Snapshot, snap.m.offset(p.Position), opts)
	if h == nil {
		return nil, nil
	}
	kind := protocol.PlainText
	if h.Markdown {
		kind = protocol.Markdown
	}
	rg := snap.m.span(h.Span)
	return &protocol.Hover{Contents: protocol.MarkupContent{Kind: kind, Value: h.Text}, Range: &rg}, nil
}

// hoverMarkdown reports whether the client shows hovers in Markdown. Its contentFormat lists the
// formats it takes in order of preference; without the capability we send Markdown, which every
// client we know renders.
func (s *Server) hoverMarkdown() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	td := s.clientCaps.TextDocument
	if td == nil || td.Hover == nil || len(td.Hover.ContentFormat) == 0 {
		return true
	}
	for _, f := range td.Hover.ContentFormat {
		switch protocol.MarkupKind(f) {
		case protocol.Markdown:
			return true
		case protocol.PlainText:
			return false
		}
	}
	return false
}
