package lsp

import (
	"context"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/ide"
)

func handleInlayHint(ctx context.Context, r *request, snap *Snapshot, p *inlayHintParams) ([]inlayHint, error) {
	hints := []inlayHint{}
	if _, test := r.s.testDoc(r.view, snap); test || !r.view.settings.InlayHints.Enable {
		return hints, nil // a test file's steps are shown in hovers, not hints
	}
	from, to := snap.m.offset(p.Range.Start), snap.m.offset(p.Range.End)
	links := r.view.settingsFor(snap.URI).Hover.ExplainLinks
	for _, h := range ide.InlayHints(ctx, snap.Snapshot, from, to, r.session(snap), 0) {
		var tip any
		if h.Tooltip != "" {
			tip = h.Tooltip
		}
		if links && (h.Literal != "" || h.Fluent != "") {
			// The tooltip links to why: as Markdown, its answers as code.
			text := "[Why?](" + explainCommandLink(explainArgs{URI: snap.URI, Literal: h.Literal, Fluent: h.Fluent}) + ")"
			if h.Tooltip != "" {
				text = "```\n" + strings.ReplaceAll(h.Tooltip, "```", "` ` `") + "\n```\n\n" + text
			}
			tip = protocol.MarkupContent{Kind: protocol.Markdown, Value: text}
		}
		hints = append(hints, inlayHint{Position: snap.m.position(h.Offset), Label: h.Label, Tooltip: tip, PaddingLeft: true})
	}
	return hints, nil
}
