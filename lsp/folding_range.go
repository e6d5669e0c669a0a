package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/syntax"
)

func handleFoldingRange(ctx context.Context, r *request) (any, error) {
	var p protocol.FoldingRangeParams
	if err := r.decode(&p); err != nil {
		return nil, err
	}
	snap, err := r.doc(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	return foldingRanges(snap), nil
}

// foldingRanges folds every list that spans several lines and every run of two or more
// comment lines. Ranges are whole lines, which is what clients show.
func foldingRanges(snap *Snapshot) []protocol.FoldingRange {
	out := []protocol.FoldingRange{}
	line := func(off int) uint32 { return snap.m.position(off).Line }
	var walk func(c syntax.Cursor)
	walk = func(c syntax.Cursor) {
		if c.Kind() != syntax.List {
			return
		}
		sp := c.Span()
		if a, b := line(sp.Start), line(sp.End); b > a {
			out = append(out, protocol.FoldingRange{StartLine: a, EndLine: b})
		}
		for _, k := range c.Elements() {
			walk(k)
		}
	}
	for _, f := range snap.File.Forms() {
		walk(f.Cursor)
	}
	// Comment blocks: consecutive lines whose first token is a comment.
	var start, prev int = -1, -1
	flush := func() {
		if start >= 0 && prev > start {
			out = append(out, protocol.FoldingRange{StartLine: uint32(start), EndLine: uint32(prev), Kind: protocol.CommentFoldingRange})
		}
	}
	for _, cm := range comments(snap) {
		l := int(line(cm.Start))
		if !startsLine(snap.Text(), cm.Start) {
			continue
		}
		if l != prev+1 || start < 0 {
			flush()
			start = l
		}
		prev = l
	}
	flush()
	return out
}

// startsLine reports whether only blanks precede off on its line.
func startsLine(src string, off int) bool {
	for i := off - 1; i >= 0; i-- {
		switch src[i] {
		case ' ', '\t':
			continue
		case '\n', '\r':
			return true
		}
		return false
	}
	return true
}

// comments returns the spans of every comment in the document, in order: those inside forms
// from the tree, and those between forms by scanning the gaps (outside a form a ';' always
// starts a comment that runs to the end of the line).
func comments(snap *Snapshot) []syntax.Span {
	var out []syntax.Span
	src := snap.Text()
	gap := func(from, to int) {
		for i := from; i < to; i++ {
			if src[i] == ';' {
				j := i
				for j < len(src) && src[j] != '\n' && src[j] != '\r' {
					j++
				}
				out = append(out, syntax.Span{Start: i, End: j})
				i = j
			}
		}
	}
	var walk func(c syntax.Cursor)
	walk = func(c syntax.Cursor) {
		for _, k := range c.Children() {
			switch k.Kind() {
			case syntax.Comment:
				out = append(out, k.Span())
			case syntax.List:
				walk(k)
			}
		}
	}
	pos := 0
	for _, f := range snap.File.Forms() {
		sp := f.Span()
		gap(pos, sp.Start)
		walk(f.Cursor)
		pos = sp.End
	}
	gap(pos, len(src))
	return out
}
