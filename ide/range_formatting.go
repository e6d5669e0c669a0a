package ide

import (
	"github.com/gdl-lsp/gdl/format"
	"github.com/gdl-lsp/gdl/syntax"
)

// FormatRange lays out the part of the document between the byte offsets start and end in the
// canonical style (gdl fmt), leaving the rest as it is: the edits of the whitespace that differs
// from the whole document's layout and meets the range (format.Range). A document with syntax
// errors is left alone: the error is format.ErrSyntax.
func FormatRange(snap *Snapshot, start, end int) ([]syntax.TextEdit, error) {
	edits, err := format.Range(snap.File(), start, end)
	if err != nil {
		return nil, err
	}
	if edits == nil {
		edits = []syntax.TextEdit{}
	}
	return edits, nil
}
