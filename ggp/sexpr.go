package ggp

import (
	"fmt"
	"strings"
)

// The messages of the protocol are KIF s-expressions: atoms, lists in parentheses, `;` comments
// to the end of the line, and (rarely) strings in double quotes. This reader is separate from
// package syntax on purpose: a message is not a game file (a game description is one element of
// a START message), and its errors are about the message.

// Expr is an atom or a list of a message, with its place in the message text.
type Expr struct {
	Atom       string  // the atom's text (a string keeps its quotes); "" for a list
	List       []*Expr // a list's elements
	IsList     bool
	Start, End int // byte offsets in the message
}

// Keyword reports whether e is the atom kw, in any case.
func (e *Expr) Keyword(kw string) bool { return !e.IsList && strings.EqualFold(e.Atom, kw) }

// String writes e compactly: single spaces between a list's elements, no comments.
func (e *Expr) String() string {
	var b strings.Builder
	e.write(&b)
	return b.String()
}

func (e *Expr) write(b *strings.Builder) {
	if !e.IsList {
		b.WriteString(e.Atom)
		return
	}
	// An explicit stack: a hostile message may nest deeply.
	type frame struct {
		e *Expr
		i int
	}
	b.WriteByte('(')
	stack := []frame{{e, 0}}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.i == len(top.e.List) {
			b.WriteByte(')')
			stack = stack[:len(stack)-1]
			continue
		}
		child := top.e.List[top.i]
		if top.i > 0 {
			b.WriteByte(' ')
		}
		top.i++
		if child.IsList {
			b.WriteByte('(')
			stack = append(stack, frame{child, 0})
		} else {
			b.WriteString(child.Atom)
		}
	}
}

// SyntaxError is a message that is not well-formed, at a byte offset of the message.
type SyntaxError struct {
	Offset       int
	Line, Column int // 1-based; the column counts bytes
	Msg          string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Msg)
}

func syntaxError(src string, off int, format string, args ...any) *SyntaxError {
	off = min(max(off, 0), len(src))
	line := 1 + strings.Count(src[:off], "\n")
	col := off - strings.LastIndexByte(src[:off], '\n')
	return &SyntaxError{Offset: off, Line: line, Column: col, Msg: fmt.Sprintf(format, args...)}
}

// maxDepth bounds the nesting of a message: game descriptions nest a few levels; a message
// nested deeper is refused rather than walked.
const maxDepth = 1000

// maxExprs bounds the atoms and lists of a message (the largest game we know has about 20,000),
// and so the memory reading it takes.
const maxExprs = 1_000_000

// ReadExprs reads the expressions of a message text.
func ReadExprs(src string) ([]*Expr, error) {
	var top []*Expr
	var stack []*Expr // the open lists
	var slab []Expr   // the expressions, allocated in blocks
	count := 0
	alloc := func(e Expr) *Expr {
		if len(slab) == cap(slab) {
			slab = make([]Expr, 0, 1024)
		}
		slab = append(slab, e)
		count++
		return &slab[len(slab)-1]
	}
	add := func(e *Expr) {
		if len(stack) == 0 {
			top = append(top, e)
		} else {
			p := stack[len(stack)-1]
			p.List = append(p.List, e)
		}
	}
	i := 0
	for i < len(src) {
		if count >= maxExprs {
			return nil, syntaxError(src, i, "the message has more than %d atoms and lists", maxExprs)
		}
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
		case c == ';':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '(':
			if len(stack) >= maxDepth {
				return nil, syntaxError(src, i, "the message nests more than %d levels of parentheses", maxDepth)
			}
			e := alloc(Expr{IsList: true, Start: i, List: []*Expr{}})
			add(e)
			stack = append(stack, e)
			i++
		case c == ')':
			if len(stack) == 0 {
				return nil, syntaxError(src, i, "unexpected ')': no list is open")
			}
			stack[len(stack)-1].End = i + 1
			stack = stack[:len(stack)-1]
			i++
		case c == '"':
			start := i
			i++
			for i < len(src) && src[i] != '"' {
				if src[i] == '\\' {
					i++
				}
				i++
			}
			if i >= len(src) {
				return nil, syntaxError(src, start, "unterminated string: no closing '\"'")
			}
			i++
			add(alloc(Expr{Atom: src[start:i], Start: start, End: i}))
		case c < ' ' || c == 0x7f:
			return nil, syntaxError(src, i, "unexpected control character %q", c)
		default:
			start := i
			for i < len(src) && !isDelimiter(src[i]) {
				i++
			}
			add(alloc(Expr{Atom: src[start:i], Start: start, End: i}))
		}
	}
	if len(stack) > 0 {
		return nil, syntaxError(src, stack[len(stack)-1].Start, "'(' is never closed")
	}
	return top, nil
}

func isDelimiter(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '\f', '\v', '(', ')', ';', '"':
		return true
	}
	return c < ' ' || c == 0x7f
}

// ReadExpr reads a text that must hold exactly one expression (a player's reply, a move).
func ReadExpr(src string) (*Expr, error) {
	es, err := ReadExprs(src)
	if err != nil {
		return nil, err
	}
	switch len(es) {
	case 0:
		return nil, syntaxError(src, len(src), "empty: expected one term")
	case 1:
		return es[0], nil
	}
	return nil, syntaxError(src, es[1].Start, "expected one term, found %d", len(es))
}
