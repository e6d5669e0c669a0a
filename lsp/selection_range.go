package lsp

import (
	"context"

	"go.lsp.dev/protocol"
)

func handleSelectionRange(ctx context.Context, r *request) (any, error) {
	var p protocol.SelectionRangeParams
	if err := r.decode(&p); err != nil {
		return nil, err
	}
	snap, err := r.doc(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	out := make([]*protocol.SelectionRange, 0, len(p.Positions))
	for _, pos := range p.Positions {
		out = append(out, selectionRange(snap, snap.m.offset(pos)))
	}
	return out, nil
}

// selectionRange grows from the token at off through every enclosing list to the whole form.
func selectionRange(snap *Snapshot, off int) *protocol.SelectionRange {
	leaf, path := snap.File.LeafAt(off)
	var parent *protocol.SelectionRange
	for _, c := range path {
		parent = &protocol.SelectionRange{Range: snap.m.span(c.Span()), Parent: parent}
	}
	if leaf.Valid() {
		r := snap.m.span(leaf.Span())
		if parent == nil || parent.Range != r {
			parent = &protocol.SelectionRange{Range: r, Parent: parent}
		}
	}
	if parent == nil {
		p := snap.m.position(off)
		return &protocol.SelectionRange{Range: protocol.Range{Start: p, End: p}}
	}
	return parent
}
