package ide

import "github.com/gdl-lsp/gdl/syntax"

// Fold is a foldable region: whole lines, from the line of Span.Start to the line of Span.End.
type Fold struct {
	Span    syntax.Span
	Comment bool // a block of comment lines
}

// FoldingRanges folds every list that spans several lines and every run of two or more comment
// lines.
func FoldingRanges(snap *Snapshot) []Fold {
	out := []Fold{}
	fold := func(c syntax.Cursor) {
		if sp := c.Span(); c.Kind() == syntax.List && snap.Line(sp.End) > snap.Line(sp.Start) {
			out = append(out, Fold{Span: sp})
		}
	}
	for _, f := range snap.File().Forms() {
		fold(f.Cursor)
		for k := range f.Cursor.Descendants() {
			fold(k)
		}
	}
	// Comment blocks: consecutive lines whose first token is a comment.
	var block syntax.Span
	start, prev := -1, -1
	flush := func() {
		if start >= 0 && prev > start {
			out = append(out, Fold{Span: block, Comment: true})
		}
	}
	for _, cm := range comments(snap) {
		l := snap.Line(cm.Start)
		if !startsLine(snap.Text(), cm.Start) {
			continue
		}
		if l != prev+1 || start < 0 {
			flush()
			start, block.Start = l, cm.Start
		}
		prev, block.End = l, cm.End
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
// from the tree, and those between forms by scanning the gaps (outside a form a ';', in infix a
// '%', always starts a comment that runs to the end of the line).
func comments(snap *Snapshot) []syntax.Span {
	var out []syntax.Span
	src := snap.Text()
	mark := snap.Dialect().CommentMarks()[0]
	gap := func(from, to int) {
		for i := from; i < to; i++ {
			if src[i] == mark {
				j := i
				for j < len(src) && src[j] != '\n' && src[j] != '\r' {
					j++
				}
				out = append(out, syntax.Span{Start: i, End: j})
				i = j
			}
		}
	}
	pos := 0
	for _, f := range snap.File().Forms() {
		sp := f.Span()
		gap(pos, sp.Start)
		for k := range f.Cursor.Descendants() {
			if k.Kind() == syntax.Comment {
				out = append(out, k.Span())
			}
		}
		pos = sp.End
	}
	gap(pos, len(src))
	return out
}
