package syntax

import "unicode/utf8"

// Kind is the kind of a node of the syntax tree: a token (a leaf) or a list.
type Kind uint8

const (
	Whitespace Kind = iota // spaces, tabs, line breaks, a byte-order mark
	Comment                // from ';' (infix: '%') to the end of the line, without the line break
	LParen                 // (
	RParen                 // )
	Word                   // a constant, relation or function name, keyword or number (infix: also "quoted")
	Variable               // ?name (infix: a name that starts with an upper-case letter)
	Bad                    // bytes that cannot start a token: control characters, invalid UTF-8
	List                   // ( ... ), with its parentheses and trivia as children; in infix also f(...), ~l, (l | l), h :- b
	Operator               // infix: ':-' or '~', or the '(' that opens a disjunction (the head of an Infix list)
	Punct                  // infix: ',', '&', '|' and the '.' that may end a fact or rule
)

var kindNames = [...]string{"Whitespace", "Comment", "LParen", "RParen", "Word", "Variable", "Bad", "List", "Operator", "Punct"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(?)"
}

// IsTrivia reports whether the kind carries no meaning: whitespace and comments.
func (k Kind) IsTrivia() bool { return k == Whitespace || k == Comment }

// byteClass classifies ASCII bytes for the scanner.
type byteClass uint8

const (
	clsSymbol byteClass = iota // part of a symbol
	clsSpace
	clsLParen
	clsRParen
	clsSemi
	clsQuestion
	clsControl
	clsNonASCII
)

var classes = func() (t [256]byteClass) {
	for i := 0; i < 256; i++ {
		switch {
		case i >= utf8.RuneSelf:
			t[i] = clsNonASCII
		case i == ' ' || i == '\t' || i == '\n' || i == '\r' || i == '\f' || i == '\v':
			t[i] = clsSpace
		case i == '(':
			t[i] = clsLParen
		case i == ')':
			t[i] = clsRParen
		case i == ';':
			t[i] = clsSemi
		case i == '?':
			t[i] = clsQuestion
		case i < 0x20 || i == 0x7f:
			t[i] = clsControl
		default:
			t[i] = clsSymbol
		}
	}
	return t
}()

const bom = '\uFEFF'

// scan returns the kind and end offset of the token that starts at pos (pos < len(src)).
//
// Tokenisation does not depend on where scanning started: every token boundary is decided by the
// bytes around it, so scanning from any token start gives the same tokens as scanning from the
// beginning. A token's end depends on at most utf8.UTFMax bytes after it (whether a non-ASCII
// character that follows is well formed). The incremental parser relies on both.
func scan(src string, pos int) (Kind, int) {
	c := src[pos]
	switch classes[c] {
	case clsSpace:
		return Whitespace, scanSpace(src, pos+1)
	case clsLParen:
		return LParen, pos + 1
	case clsRParen:
		return RParen, pos + 1
	case clsSemi:
		i := pos + 1
		for i < len(src) && src[i] != '\n' && src[i] != '\r' {
			i++
		}
		return Comment, i
	case clsQuestion:
		return Variable, scanSymbol(src, pos+1)
	case clsControl:
		i := pos + 1
		for i < len(src) && classes[src[i]] == clsControl {
			i++
		}
		return Bad, i
	case clsNonASCII:
		r, n := utf8.DecodeRuneInString(src[pos:])
		if r == bom {
			return Whitespace, scanSpace(src, pos+n)
		}
		if r == utf8.RuneError && n <= 1 {
			i := pos + 1
			for i < len(src) && src[i] >= utf8.RuneSelf {
				if r, n := utf8.DecodeRuneInString(src[i:]); r != utf8.RuneError || n > 1 {
					break
				}
				i++
			}
			return Bad, i
		}
		return Word, scanSymbol(src, pos+n)
	}
	return Word, scanSymbol(src, pos+1)
}

// ScanToken returns the kind and end offset of the prefix (KIF) token that starts at pos
// (pos < len(src)): Whitespace, Comment, LParen, RParen, Word, Variable or Bad. It is the
// tokenisation of the prefix parser, for readers of KIF outside a game file (the GGP
// protocol's messages), so that a name reads the same in both: a double quote is part of a
// name, a comment ends at a line break ('\n' or '\r').
func ScanToken(src string, pos int) (Kind, int) { return scan(src, pos) }

func scanSpace(src string, i int) int {
	for i < len(src) {
		c := src[i]
		if classes[c] == clsSpace {
			i++
			continue
		}
		if c == 0xEF && len(src)-i >= 3 && src[i+1] == 0xBB && src[i+2] == 0xBF {
			i += 3
			continue
		}
		break
	}
	return i
}

// scanSymbol extends a symbol (or a variable's name) over symbol bytes and well-formed non-ASCII
// characters other than the byte-order mark.
func scanSymbol(src string, i int) int {
	for i < len(src) {
		c := src[i]
		switch classes[c] {
		case clsSymbol, clsQuestion:
			i++
			continue
		case clsNonASCII:
			r, n := utf8.DecodeRuneInString(src[i:])
			if (r == utf8.RuneError && n <= 1) || r == bom {
				return i
			}
			i += n
			continue
		}
		return i
	}
	return i
}

// atLineStart reports whether offset pos begins a line.
func atLineStart(src string, pos int) bool {
	return pos == 0 || src[pos-1] == '\n' || src[pos-1] == '\r'
}
