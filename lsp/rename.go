package lsp

import (
	"context"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/syntax"
)

func handlePrepareRename(ctx context.Context, r *request) (any, error) {
	var p protocol.PrepareRenameParams
	if err := r.decode(&p); err != nil {
		return nil, err
	}
	snap, err := r.doc(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	o, err := renameTarget(snap, snap.m.offset(p.Position))
	if err != nil {
		return nil, err
	}
	return struct {
		Range       protocol.Range `json:"range"`
		Placeholder string         `json:"placeholder"`
	}{snap.m.span(o.Span), o.Name}, nil
}

func handleRename(ctx context.Context, r *request) (any, error) {
	var p protocol.RenameParams
	if err := r.decode(&p); err != nil {
		return nil, err
	}
	snap, err := r.doc(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	edits, err := rename(snap, snap.m.offset(p.Position), p.NewName)
	if err != nil {
		return nil, err
	}
	return protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{snap.URI: edits}}, nil
}

// renameTarget returns the renamable occurrence at off, or an error saying why there is none.
func renameTarget(snap *Snapshot, off int) (*analysis.Occurrence, error) {
	o := occurrenceAt(snap, off)
	if o == nil {
		return nil, jsonrpc2.Errorf(codeRequestFailed, "no relation, function, constant or variable here")
	}
	if isKeyword(o) {
		return nil, jsonrpc2.Errorf(codeRequestFailed, "%s is a GDL keyword and cannot be renamed", o.Name)
	}
	return o, nil
}

// rename replaces every occurrence of the symbol at off (compared case-insensitively, so every
// spelling) with newName.
func rename(snap *Snapshot, off int, newName string) ([]protocol.TextEdit, error) {
	o, err := renameTarget(snap, off)
	if err != nil {
		return nil, err
	}
	if o.Kind == analysis.OccVariable && !strings.HasPrefix(newName, "?") {
		newName = "?" + newName
	}
	if err := validName(newName, o.Kind == analysis.OccVariable); err != nil {
		return nil, err
	}
	var edits []protocol.TextEdit
	for _, x := range occurrencesOf(snap.Model(), o) {
		edits = append(edits, protocol.TextEdit{Range: snap.m.span(x.Span), NewText: newName})
	}
	return edits, nil
}

// validName checks that name scans as one symbol (or variable) token and is not a keyword.
func validName(name string, variable bool) error {
	f, errs := syntax.Parse(name)
	forms := f.Forms()
	bad := len(errs) > 0 && !(variable && len(errs) == 1 && errs[0].Code == syntax.CodeTopLevelVariable)
	if variable {
		leaf, _ := f.LeafAt(0)
		if bad || !leaf.Valid() || leaf.Kind() != syntax.Variable || leaf.Span() != (syntax.Span{Start: 0, End: len(name)}) || len(name) < 2 {
			return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%q is not a valid variable name", name)
		}
		return nil
	}
	if bad || len(forms) != 1 || forms[0].Kind() != syntax.Word || forms[0].Span() != (syntax.Span{Start: 0, End: len(name)}) {
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%q is not a valid GDL name", name)
	}
	if analysis.IsKeyword(syntax.Fold(name)) {
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%q is a GDL keyword", name)
	}
	return nil
}
