package syntax

import (
	"math/bits"
	"strings"
)

// What a request needs from a large file before its whole parse is done: where its top-level
// forms are (FormBounds, a scan of the bytes) and the trees of a few of them (ParseForms). The
// language server answers a hover sent with the opening of a 3 MB file from these in a few ms,
// while the whole parse (about 50 ns a byte) and the model proceed.

// FormBounds returns the spans of the top-level forms of src, a prefix (KIF) text, as
// Parse(src).Forms() has them, found by a scan of its bytes: parentheses, and comments, in which
// they do not count (a comment runs from ';' to the end of its line, and no token but a comment
// holds a ';', a '(' or a ')'; there are no strings in KIF). It costs about 3 ns a byte, against
// about 50 for Parse. ok is false when the bytes alone do not tell what Parse makes of the text:
// a word, a variable or a non-ASCII character at the top level (a constant fact, or an infix
// statement, which the parser reads as one item with what follows it), or a form never closed
// (the parser cuts it at the next form in the file's layout). A ')' that closes nothing is an
// item but no form, as in Parse.
func FormBounds(src string) (spans []Span, ok bool) { return formBounds(src, -1) }

// FirstFormBounds is FormBounds up to the first form: its span (found is false when the text
// has no form), read from the bytes before its end only, so that asking what a large file starts
// with costs the first form. ok is false when the bytes before that end do not tell (see
// FormBounds).
func FirstFormBounds(src string) (first Span, found, ok bool) {
	spans, ok := formBounds(src, 1)
	if !ok || len(spans) == 0 {
		return Span{}, false, ok
	}
	return spans[0], true, true
}

// formBounds is FormBounds, stopping after limit forms when limit > 0.
func formBounds(src string, limit int) (spans []Span, ok bool) {
	depth, start := 0, 0
	for i := 0; i < len(src); {
		if depth > 0 && i+8 <= len(src) {
			// Inside a form only parentheses and comments count: 8 bytes at a time.
			i, depth = formWord(src, i, depth, start, &spans)
			if len(spans) == limit {
				return spans, true
			}
			continue
		}
		c := boundClass[src[i]]
		switch {
		case c == bNone || c == bToken && depth > 0:
		case c == bOpen:
			if depth == 0 {
				start = i
			}
			depth++
		case c == bClose:
			if depth > 0 {
				depth--
				if depth == 0 {
					spans = append(spans, Span{start, i + 1})
					if len(spans) == limit {
						return spans, true
					}
				}
			}
		case c == bSemi:
			i = commentEnd(src, i)
			continue
		case len(src)-i >= 3 && src[i:i+3] == "\uFEFF":
			i += 3 // a byte-order mark: whitespace
			continue
		default: // part of a token at the top level
			return nil, false
		}
		i++
	}
	if depth > 0 {
		return nil, false
	}
	return spans, true
}

// formWord reads the 8 bytes at src[i] inside a form (depth > 0) that started at start: it
// counts their parentheses, and returns where to read on and the depth there: after the word,
// or after the parenthesis that closes the form (whose span it appends), or after the comment
// that a ';' in it starts.
func formWord(src string, i, depth, start int, spans *[]Span) (int, int) {
	x := load8(src, i)
	open, closing := zeros(x^'('*ones), zeros(x^')'*ones)
	if closes := bits.OnesCount64(closing); closes < depth && zeros(x^';'*ones) == 0 {
		// No comment, and too few closing parentheses to end the form: only the count matters.
		return i + 8, depth + bits.OnesCount64(open) - closes
	}
	for m := open | closing | zeros(x^';'*ones); m != 0; m &= m - 1 {
		k := i + bits.TrailingZeros64(m)>>3
		switch src[k] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				*spans = append(*spans, Span{start, k + 1})
				return k + 1, 0
			}
		default: // ';'
			return commentEnd(src, k), depth
		}
	}
	return i + 8, depth
}

const (
	lows  = 0x7f7f7f7f7f7f7f7f
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// load8 is the 8 bytes of s from i, the first in the lowest byte.
func load8(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// zeros returns the high bit of each zero byte of v: (v&lows)+lows sets the high bit of the
// bytes whose low seven bits are not all zero, without a carry out of any byte.
func zeros(v uint64) uint64 {
	return ^((v & lows) + lows | v | lows)
}

// The classes of bytes for FormBounds: those that do not matter (whitespace and control
// characters, which are whitespace and bad tokens at the top level), the parentheses, the
// comment mark, and the rest (part of a word or a variable).
const (
	bNone uint8 = iota
	bOpen
	bClose
	bSemi
	bToken
)

var boundClass = func() (t [256]uint8) {
	for i := range t {
		switch classes[i] {
		case clsSpace, clsControl:
			t[i] = bNone
		case clsLParen:
			t[i] = bOpen
		case clsRParen:
			t[i] = bClose
		case clsSemi:
			t[i] = bSemi
		default:
			t[i] = bToken
		}
	}
	return t
}()

// commentEnd returns the end of the comment that starts at i: the next line break, or the end of
// the text.
func commentEnd(src string, i int) int {
	if j := strings.IndexAny(src[i:], "\n\r"); j >= 0 {
		return i + j
	}
	return len(src)
}

// ParseForms parses the text of src (written in dialect d) from start to end and returns the
// forms in it as Parse(src).Forms() has them: the same spans and trees, and the same errors.
// start must be 0 or the start of a top-level item of Parse(src) and end the end of one (the
// spans of FormBounds are). Only Doc differs: the documentation of the first form is the comment
// lines above it after start, so start a form earlier (at the start of the one before) for its
// Doc to be exact.
func ParseForms(src string, d Dialect, start, end int) []Form {
	p := newParser(src, start, (end-start)/4)
	p.dialect = d
	f := &File{src: src, dialect: d}
	f.items = p.parseItems(nil, func(e int) bool { return e >= end })
	f.collectErrors()
	return f.Forms()
}
