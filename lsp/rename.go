package lsp

import (
	"context"
	"errors"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/ide"
)

func handlePrepareRename(ctx context.Context, r *request, snap *Snapshot, p *protocol.PrepareRenameParams) (*prepareRenameResult, error) {
	span, name, err := ide.PrepareRename(snap.Snapshot, snap.m.offset(p.Position))
	if err != nil {
		return nil, renameError(err)
	}
	return &prepareRenameResult{snap.m.span(span), name}, nil
}

// prepareRenameResult is the range to rename and the text the client shows in its box.
type prepareRenameResult struct {
	Range       protocol.Range `json:"range"`
	Placeholder string         `json:"placeholder"`
}

func handleRename(ctx context.Context, r *request, snap *Snapshot, p *protocol.RenameParams) (*protocol.WorkspaceEdit, error) {
	edits, err := ide.Rename(snap.Snapshot, snap.m.offset(p.Position), p.NewName)
	if err != nil {
		return nil, renameError(err)
	}
	return &protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{snap.URI: snap.m.edits(edits)}}, nil
}

// renameError answers a refused rename: InvalidParams for a bad new name, RequestFailed when
// there is nothing to rename.
func renameError(err error) error {
	var bad *ide.InvalidNameError
	if errors.As(err, &bad) {
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s", bad.Msg)
	}
	return jsonrpc2.Errorf(codeRequestFailed, "%v", err)
}
