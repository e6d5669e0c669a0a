package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/ide"
)

// maxSelectionDepth bounds the chain of one position's selection ranges. A reply nests one JSON
// object per range, and Neovim's JSON decoder refuses more than 1,000 levels; past a hundred
// steps nobody expands a selection one list at a time anyway.
const maxSelectionDepth = 100

func handleSelectionRange(ctx context.Context, r *request, snap *Snapshot, p *protocol.SelectionRangeParams) ([]*protocol.SelectionRange, error) {
	out := make([]*protocol.SelectionRange, 0, len(p.Positions))
	for _, pos := range p.Positions {
		spans := ide.SelectionRange(snap.Snapshot, snap.m.offset(pos), maxSelectionDepth)
		var sr *protocol.SelectionRange
		for i := len(spans) - 1; i >= 0; i-- {
			sr = &protocol.SelectionRange{Range: snap.m.span(spans[i]), Parent: sr}
		}
		out = append(out, sr)
	}
	return out, nil
}
