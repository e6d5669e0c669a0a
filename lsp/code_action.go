package lsp

import (
	"context"
	"fmt"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/ide"
)

// sourceFixAll is the LSP 3.15 kind of a code action that applies every safe fix of a file
// (VS Code's "source.fixAll" on save); go.lsp.dev/protocol v0.12.0 does not name it.
const sourceFixAll protocol.CodeActionKind = "source.fixAll"

func handleCodeAction(ctx context.Context, r *request, snap *Snapshot, p *protocol.CodeActionParams) ([]protocol.CodeAction, error) {
	out := []protocol.CodeAction{}
	if _, test := r.s.testDoc(r.view, snap); test {
		return out, nil // the fixes of a game are not a test file's
	}
	settings := r.view.settingsFor(snap.URI)
	var err error
	if len(p.Context.Only) == 0 || kindWanted(p.Context.Only, protocol.QuickFix) {
		if out, err = quickFixes(ctx, snap, settings, p.Range, p.Context.Diagnostics, out); err != nil {
			return nil, err
		}
	}
	if len(p.Context.Only) == 0 || kindWanted(p.Context.Only, sourceFixAll) {
		if out, err = fixAll(ctx, snap, settings, out); err != nil {
			return nil, err
		}
	}
	if len(p.Context.Only) == 0 {
		out = append(out, explainActions(snap, p.Range)...)
	}
	return out, nil
}

// quickFixes adds the quick fixes of the diagnostics in rg that the settings leave on, and the
// "replay the witness" actions of the client's verification diagnostics diags.
func quickFixes(ctx context.Context, snap *Snapshot, settings Settings, rg protocol.Range, diags []protocol.Diagnostic, out []protocol.CodeAction) ([]protocol.CodeAction, error) {
	fixes, err := ide.QuickFixes(ctx, snap.Snapshot, snap.m.offset(rg.Start), snap.m.offset(rg.End))
	if err != nil {
		return nil, err
	}
	out = append(out, witnessActions(snap.URI, diags)...)
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

// fixAll adds the source.fixAll action, every safe fix of the document at once, when there is
// one to apply.
func fixAll(ctx context.Context, snap *Snapshot, settings Settings, out []protocol.CodeAction) ([]protocol.CodeAction, error) {
	edits, applied, err := ide.FixAll(ctx, snap.Snapshot, func(code string) bool {
		_, on := settings.severity(code, protocol.DiagnosticSeverityHint)
		return on
	})
	if err != nil || len(applied) == 0 {
		return out, err
	}
	title := "Fix all: apply the safe fix"
	if len(applied) > 1 {
		title = fmt.Sprintf("Fix all: apply %d safe fixes", len(applied))
	}
	return append(out, protocol.CodeAction{
		Title: title,
		Kind:  sourceFixAll,
		Edit:  &protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{snap.URI: snap.m.edits(edits)}},
	}), nil
}

// kindWanted reports whether a code action of kind k passes the client's filter: a kind is
// wanted when it or one of its parents (source for source.fixAll) is listed.
func kindWanted(only []protocol.CodeActionKind, k protocol.CodeActionKind) bool {
	for _, o := range only {
		if o == "" || o == k || strings.HasPrefix(string(k), string(o)+".") {
			return true
		}
	}
	return false
}
