package lsp

import (
	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/syntax"
)

// mapper converts between byte offsets of one document version and LSP positions in the
// encoding negotiated at initialize. It is the only place in the server that does so; it wraps
// syntax.LineIndex, the module's single position mapper.
type mapper struct {
	lines *syntax.LineIndex
	enc   syntax.Encoding
}

// position returns the LSP position of byte offset off.
func (m mapper) position(off int) protocol.Position {
	p := m.lines.Position(off, m.enc)
	return protocol.Position{Line: uint32(p.Line), Character: uint32(p.Column)}
}

// rng returns the LSP range of the byte span [start, end).
func (m mapper) rng(start, end int) protocol.Range {
	s, e := m.lines.Range(start, end, m.enc)
	return protocol.Range{Start: fromSyntax(s), End: fromSyntax(e)}
}

// span returns the LSP range of a syntax span.
func (m mapper) span(s syntax.Span) protocol.Range { return m.rng(s.Start, s.End) }

// offset returns the byte offset of an LSP position; positions beyond a line or the text clamp.
func (m mapper) offset(p protocol.Position) int {
	return m.lines.Offset(syntax.Position{Line: int(p.Line), Column: int(p.Character)}, m.enc)
}

// encodingName is the LSP name of a syntax encoding.
func encodingName(e syntax.Encoding) string {
	switch e {
	case syntax.UTF8:
		return encodingUTF8
	case syntax.UTF32:
		return encodingUTF32
	}
	return encodingUTF16
}

// negotiateEncoding picks UTF-8 when the client offers it (our offsets are bytes, so it is the
// cheapest) and UTF-16, the mandatory default, otherwise.
func negotiateEncoding(offered []string) syntax.Encoding {
	for _, e := range offered {
		if e == encodingUTF8 {
			return syntax.UTF8
		}
	}
	return syntax.UTF16
}

// fromSyntax returns the LSP position of a line and column computed in the negotiated encoding
// (the workspace index keeps such positions for files it holds no text of).
func fromSyntax(p syntax.Position) protocol.Position {
	return protocol.Position{Line: uint32(p.Line), Character: uint32(p.Column)}
}

// spans returns the LSP ranges of syntax spans.
func (m mapper) spans(ss []syntax.Span) []protocol.Range {
	out := make([]protocol.Range, len(ss))
	for i, s := range ss {
		out[i] = m.span(s)
	}
	return out
}

// edits returns the LSP text edits of syntax edits.
func (m mapper) edits(es []syntax.TextEdit) []protocol.TextEdit {
	out := make([]protocol.TextEdit, len(es))
	for i, e := range es {
		out[i] = protocol.TextEdit{Range: m.span(e.Span), NewText: e.NewText}
	}
	return out
}
