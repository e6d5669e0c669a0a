package syntax

import (
	"unicode"
	"unicode/utf8"
)

// scanInfix returns the kind and end offset of the infix token that starts at pos
// (pos < len(src)). Like scan, it decides every boundary from the bytes around it (a token's
// end depends on at most utf8.UTFMax bytes after it), so scanning from any token start gives
// the same tokens as scanning from the beginning.
//
// Tokens: whitespace; comments from '%' (or, reported by the parser, from ';') to the end of
// the line; '(' and ')'; the operators ':-' and '~'; the punctuation ',', '&', '|' and '.';
// names made of letters, digits, _ - + * / and non-ASCII characters, which are variables when
// they start with an upper-case letter; names in double quotes (to the closing quote on the same
// line); prefix-style variables ?x (reported by the parser); and Bad runs of anything else.
func scanInfix(src string, pos int) (Kind, int) {
	c := src[pos]
	switch c {
	case ' ', '\t', '\n', '\r', '\f', '\v':
		return Whitespace, scanSpace(src, pos+1)
	case '%', ';':
		i := pos + 1
		for i < len(src) && src[i] != '\n' && src[i] != '\r' {
			i++
		}
		return Comment, i
	case '(':
		return LParen, pos + 1
	case ')':
		return RParen, pos + 1
	case ',', '&', '|', '.':
		return Punct, pos + 1
	case '~':
		return Operator, pos + 1
	case ':':
		if pos+1 < len(src) && src[pos+1] == '-' {
			return Operator, pos + 2
		}
		return Bad, pos + 1
	case '"':
		i := pos + 1
		for i < len(src) && src[i] != '"' && src[i] != '\n' && src[i] != '\r' {
			i++
		}
		if i < len(src) && src[i] == '"' {
			i++
		}
		return Word, i
	case '?':
		return Variable, scanName(src, pos+1)
	}
	if c < utf8.RuneSelf {
		if isNameByte(c) {
			end := scanName(src, pos+1)
			if 'A' <= c && c <= 'Z' {
				return Variable, end
			}
			return Word, end
		}
		if c < 0x20 || c == 0x7f {
			i := pos + 1
			for i < len(src) && (src[i] < 0x20 || src[i] == 0x7f) && classes[src[i]] != clsSpace {
				i++
			}
			return Bad, i
		}
		// Other ASCII punctuation: one Bad token per run of it.
		i := pos + 1
		for i < len(src) && src[i] < utf8.RuneSelf && src[i] > 0x20 && src[i] != 0x7f && !isNameByte(src[i]) && !isInfixPunct(src[i]) {
			i++
		}
		return Bad, i
	}
	return scanInfixRune(src, pos)
}

// scanInfixRune is scanInfix at a byte that is not ASCII: a name, a byte-order mark (blank),
// or a Bad run.
func scanInfixRune(src string, pos int) (Kind, int) {
	r, n := utf8.DecodeRuneInString(src[pos:])
	if r == bom {
		return Whitespace, scanSpace(src, pos+n)
	}
	if !isNameRune(r) {
		// Invalid UTF-8 and characters that cannot be part of a name (spaces and controls
		// beyond ASCII): one Bad token per run of them.
		i := pos + n
		for i < len(src) && src[i] >= utf8.RuneSelf {
			r, n := utf8.DecodeRuneInString(src[i:])
			if isNameRune(r) || r == bom {
				break
			}
			i += n
		}
		return Bad, i
	}
	end := scanName(src, pos+n)
	if unicode.IsUpper(r) {
		return Variable, end
	}
	return Word, end
}

// isInfixPunct reports whether an ASCII byte starts an infix token of its own.
func isInfixPunct(c byte) bool {
	switch c {
	case '%', ';', '(', ')', ',', '&', '|', '.', '~', ':', '"', '?':
		return true
	}
	return false
}

// scanName extends an infix name over name characters.
func scanName(src string, i int) int {
	for i < len(src) {
		c := src[i]
		if c < utf8.RuneSelf {
			if !isNameByte(c) {
				return i
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(src[i:])
		if !isNameRune(r) {
			return i
		}
		i += n
	}
	return i
}
