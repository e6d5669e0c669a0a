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

// maxSelectionDepth bounds the chain of one position's selection ranges. A reply nests one JSON
// object per range, and Neovim's JSON decoder refuses more than 1,000 levels; past a hundred
// steps nobody expands a selection one list at a time anyway.
const maxSelectionDepth = 100

// selectionRange grows from the token at off through every enclosing list to the whole form.
// Under deep nesting it keeps the token, the innermost maxSelectionDepth-2 lists and the whole
// form, so that expanding still ends on the form.
func selectionRange(snap *Snapshot, off int) *protocol.SelectionRange {
	leaf, path := snap.File.LeafAt(off)
	if keep := maxSelectionDepth - 2; len(path) > keep+1 {
		inner := path[len(path)-keep:]
		path = append(path[:1:1], inner...)
	}
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
