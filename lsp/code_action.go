package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/ide"
)

func handleCodeAction(ctx context.Context, r *request) (any, error) {
	var p protocol.CodeActionParams
	if err := r.decode(&p); err != nil {
		return nil, err
	}
	snap, err := r.doc(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	out := []protocol.CodeAction{}
	if len(p.Context.Only) > 0 && !kindWanted(p.Context.Only, protocol.QuickFix) {
		return out, nil
	}
	fixes, err := ide.QuickFixes(ctx, snap.Snapshot, snap.m.offset(p.Range.Start), snap.m.offset(p.Range.End))
	if err != nil {
		return nil, err
	}
	out = append(out, witnessActions(snap.URI, p.Context.Diagnostics)...)
	settings := r.view.settings
	for _, f := range fixes {
		d, on := snap.diagnostic(settings, f.Diagnostic)
		if !on {
			continue
		}
		out = append(out, protocol.CodeAction{
			Title:       f.Title,
			Kind:        protocol.QuickFix,
			Diagnostics: []protocol.Diagnostic{d},
			IsPreferred: f.Preferred,
			Edit:        &protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{snap.URI: snap.m.edits(f.Edits)}},
		})
	}
	return out, nil
}

func kindWanted(only []protocol.CodeActionKind, k protocol.CodeActionKind) bool {
	for _, o := range only {
		if o == k || o == "quickfix" || o == "" {
			return true
		}
	}
	return false
}
