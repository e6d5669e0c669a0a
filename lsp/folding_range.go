package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/ide"
)

func handleFoldingRange(ctx context.Context, r *request, snap *Snapshot, p *protocol.FoldingRangeParams) ([]protocol.FoldingRange, error) {
	out := []protocol.FoldingRange{}
	for _, f := range ide.FoldingRanges(snap.Snapshot) {
		fr := protocol.FoldingRange{StartLine: snap.m.position(f.Span.Start).Line, EndLine: snap.m.position(f.Span.End).Line}
		if f.Comment {
			fr.Kind = protocol.CommentFoldingRange
		}
		out = append(out, fr)
	}
	return out, nil
}
