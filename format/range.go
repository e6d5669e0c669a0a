package format

import (
	"errors"
	"unicode/utf8"

	"github.com/gdl-lsp/gdl/syntax"
)

// Range formats the part of a file between the byte offsets start and end: it returns the edits,
// in order and not overlapping, that take the whitespace there to what File would write, and
// leave the rest of the file as it is. The formatter changes nothing but whitespace (blanks, line
// breaks, the trailing blanks of comments), so the edits come from aligning the file with its
// formatted text: the two have the same characters but whitespace, and each run of whitespace
// that differs is an edit. An edit is kept when its span meets [start, end]; applying every
// edit of the whole file gives File's result. A file with syntax errors is refused with
// ErrSyntax, as by File.
func Range(f *syntax.File, start, end int) ([]syntax.TextEdit, error) {
	if len(f.Errors()) > 0 {
		return nil, ErrSyntax
	}
	src, out := f.Source(), File(f)
	var edits []syntax.TextEdit
	i, j := 0, 0
	for {
		// The blanks before the next character (none on either side, or both).
		si, sj := i, j
		for i < len(src) && isBlank(src, i) {
			i += blankLen(src, i)
		}
		for j < len(out) && isBlank(out, j) {
			j += blankLen(out, j)
		}
		if src[si:i] != out[sj:j] && si <= end && i >= start {
			edits = append(edits, syntax.TextEdit{Span: syntax.Span{Start: si, End: i}, NewText: out[sj:j]})
		}
		if i == len(src) && j == len(out) {
			return edits, nil
		}
		if i == len(src) || j == len(out) || src[i] != out[j] {
			return nil, errMismatch
		}
		i, j = i+1, j+1
	}
}

// errMismatch would mean that formatting changed more than whitespace: a bug.
var errMismatch = errors.New("format: the formatted text differs from the file in more than whitespace")

// isBlank reports whether the text at i is whitespace for the formatter: a blank, a line break or
// the byte order mark.
func isBlank(s string, i int) bool {
	switch s[i] {
	case ' ', '\t', '\n', '\r', '\f', '\v':
		return true
	case 0xEF:
		r, _ := utf8.DecodeRuneInString(s[i:])
		return r == '\uFEFF'
	}
	return false
}

func blankLen(s string, i int) int {
	if s[i] == 0xEF {
		return len(bom)
	}
	return 1
}
