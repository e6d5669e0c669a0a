package ide

import (
	"github.com/gdl-lsp/gdl/format"
	"github.com/gdl-lsp/gdl/syntax"
)

// Format lays the whole document out in the canonical style (gdl fmt): no edit when it is laid
// out so already, else one that replaces the text. A document with syntax errors is left alone:
// the error is format.ErrSyntax.
func Format(snap *Snapshot) ([]syntax.TextEdit, error) {
	if len(snap.File().Errors()) > 0 {
		return nil, format.ErrSyntax
	}
	text := snap.Text()
	out := format.File(snap.File())
	if out == text {
		return []syntax.TextEdit{}, nil
	}
	return []syntax.TextEdit{{Span: syntax.Span{Start: 0, End: len(text)}, NewText: out}}, nil
}
