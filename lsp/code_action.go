package lsp

import (
	"context"

	"go.lsp.dev/protocol"
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
	if len(p.Context.Only) > 0 && !kindWanted(p.Context.Only, protocol.QuickFix) {
		return []protocol.CodeAction{}, nil
	}
	return quickFixes(ctx, snap, r.view.settings, snap.m.offset(p.Range.Start), snap.m.offset(p.Range.End))
}

func kindWanted(only []protocol.CodeActionKind, k protocol.CodeActionKind) bool {
	for _, o := range only {
		if o == k || o == "quickfix" || o == "" {
			return true
		}
	}
	return false
}

// quickFixes turns every fix the analyzer attached to a problem touching [start, end] into a
// quick fix that carries its diagnostic.
func quickFixes(ctx context.Context, snap *Snapshot, settings Settings, start, end int) ([]protocol.CodeAction, error) {
	probs, err := snap.problems(ctx)
	if err != nil {
		return nil, err
	}
	out := []protocol.CodeAction{}
	for _, p := range probs {
		if len(p.fixes) == 0 || p.span.End < start || p.span.Start > end {
			continue
		}
		d, on := toDiagnostic(snap, settings, p)
		if !on {
			continue
		}
		for i, f := range p.fixes {
			out = append(out, protocol.CodeAction{
				Title:       f.Title,
				Kind:        protocol.QuickFix,
				Diagnostics: []protocol.Diagnostic{d},
				IsPreferred: i == 0,
				Edit: &protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{
					snap.URI: textEdits(snap, f.Edits),
				}},
			})
		}
	}
	return out, nil
}
