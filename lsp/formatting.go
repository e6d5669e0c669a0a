package lsp

import (
	"context"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/ide"
)

// Formatting lays the whole document out in the canonical style (gdl fmt). A document with
// syntax errors is left alone and the request fails with the reason.
func handleFormatting(ctx context.Context, r *request, snap *Snapshot, p *protocol.DocumentFormattingParams) ([]protocol.TextEdit, error) {
	edits, err := ide.Format(snap.Snapshot)
	if err != nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidRequest, "formatting: %v", err)
	}
	return snap.m.edits(edits), nil
}
