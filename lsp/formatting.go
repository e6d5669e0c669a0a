package lsp

import (
	"context"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/format"
)

// Formatting lays the whole document out in the canonical style (gdl fmt). A document with
// syntax errors is left alone and the request fails with the reason.
func handleFormatting(ctx context.Context, r *request) (any, error) {
	var p protocol.DocumentFormattingParams
	if err := r.decode(&p); err != nil {
		return nil, err
	}
	snap, err := r.doc(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	if len(snap.File.Errors()) > 0 {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidRequest, "formatting: %v", format.ErrSyntax)
	}
	text := snap.Text()
	out := format.File(snap.File)
	if out == text {
		return []protocol.TextEdit{}, nil
	}
	return []protocol.TextEdit{{Range: snap.m.rng(0, len(text)), NewText: out}}, nil
}
