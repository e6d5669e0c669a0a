package lsp

import (
	"context"

	"github.com/gdl-lsp/gdl/ide"
)

func handleInlayHint(ctx context.Context, r *request) (any, error) {
	var p inlayHintParams
	if err := r.decode(&p); err != nil {
		return nil, err
	}
	snap, err := r.doc(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	hints := []inlayHint{}
	if _, test := r.s.testDoc(r.view, snap); test || !r.view.settings.InlayHints.Enable {
		return hints, nil // a test file's steps are shown in hovers, not hints
	}
	from, to := snap.m.offset(p.Range.Start), snap.m.offset(p.Range.End)
	for _, h := range ide.InlayHints(ctx, snap.Snapshot, from, to, r.session(snap), 0) {
		hints = append(hints, inlayHint{Position: snap.m.position(h.Offset), Label: h.Label, Tooltip: h.Tooltip, PaddingLeft: true})
	}
	return hints, nil
}
