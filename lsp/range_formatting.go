package lsp

import (
	"context"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/ide"
)

// RangeFormatting lays out the selected part of the document in the canonical style, changing
// whitespace only there. A document with syntax errors is left alone and the request fails with
// the reason.
func handleRangeFormatting(ctx context.Context, r *request, snap *Snapshot, p *protocol.DocumentRangeFormattingParams) ([]protocol.TextEdit, error) {
	start, end := snap.m.offset(p.Range.Start), snap.m.offset(p.Range.End)
	if end < start {
		start, end = end, start
	}
	edits, err := ide.FormatRange(snap.Snapshot, start, end)
	if err != nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidRequest, "range formatting: %v", err)
	}
	return snap.m.edits(edits), nil
}
