package ggp

import (
	"fmt"
	"math"
	"strings"

	"github.com/gdl-lsp/gdl/syntax"
)

// The messages of the protocol are KIF s-expressions: atoms, lists in parentheses, `;` comments
// to the end of the line. The tokens are those of package syntax's prefix parser
// (syntax.ScanToken), so that a game description reads the same in a START message and in a
// game file (a double quote is part of a name in both). The lists are read here: a message is
// not a game file (a game description is one element of a START message), and its errors are
// about the message.

// Expr is an atom or a list of a message, with its place in the message text.
type Expr struct {
	Atom       string  // the atom's text; "" for a list
	List       []*Expr // a list's elements (none for a list read whole, see Whole)
	IsList     bool
	Start, End int // byte offsets in the message
	// Whole is the text of a list whose elements were not read into List: a list nested below
	// the levels a message's reading needs (a rule of a START, a move of a PLAY).
	Whole string
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
	if e.Whole != "" {
		writeCompact(b, e.Whole)
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
		switch {
		case child.IsList && child.Whole != "":
			writeCompact(b, child.Whole)
		case child.IsList:
			b.WriteByte('(')
			stack = append(stack, frame{child, 0})
		default:
			b.WriteString(child.Atom)
		}
	}
}

// writeCompact writes the well-formed KIF text src compactly: its tokens, single spaces between
// the elements of a list and between top-level expressions, no comments.
func writeCompact(b *strings.Builder, src string) {
	sep := false // an element was written at this level: the next one needs a space
	for i := 0; i < len(src); {
		kind, end := syntax.ScanToken(src, i)
		switch kind {
		case syntax.LParen:
			if sep {
				b.WriteByte(' ')
			}
			b.WriteByte('(')
			sep = false
		case syntax.RParen:
			b.WriteByte(')')
			sep = true
		case syntax.Word, syntax.Variable:
			if sep {
				b.WriteByte(' ')
			}
			b.WriteString(src[i:end])
			sep = true
		}
		i = end
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

// maxExprs bounds the atoms and lists of a message (the largest game we know has about 20,000).
const maxExprs = 1_000_000

// readLimits bound what a reader takes in, and how deep it builds the tree.
type readLimits struct {
	depth, exprs int
	// keep is the nesting below which a list is kept as its text (Expr.Whole) instead of its
	// elements: a message's reading looks two levels deep, and the memory of a game's rules
	// read into Exprs would be many times their text.
	keep int
}

var (
	// The limits of a message received over the network.
	messageLimits = readLimits{depth: maxDepth, exprs: maxExprs, keep: 2}
	// A message from this process (a built-in player's): the game description in it was read
	// by the syntax parser first, which takes games of any size and depth.
	localLimits = readLimits{depth: math.MaxInt, exprs: math.MaxInt, keep: 2}
	// A whole tree (ReadExprs), within the limits of a message.
	treeLimits = readLimits{depth: maxDepth, exprs: maxExprs, keep: math.MaxInt}
)

// ReadExprs reads the expressions of a message text, within the limits of a message.
func ReadExprs(src string) ([]*Expr, error) { return readExprs(src, treeLimits) }

func readExprs(src string, lim readLimits) ([]*Expr, error) {
	r := &exprReader{src: src, lim: lim, wholeStart: -1}
	count := 0
	for i := 0; i < len(src); {
		if count >= lim.exprs {
			return nil, syntaxError(src, i, "the message has more than %d atoms and lists", lim.exprs)
		}
		kind, end := syntax.ScanToken(src, i)
		var err error
		switch kind {
		case syntax.Whitespace, syntax.Comment:
		case syntax.LParen:
			count++
			err = r.open(i)
		case syntax.RParen:
			err = r.close(i, end)
		case syntax.Word, syntax.Variable:
			count++
			if r.wholeStart < 0 {
				r.add(r.alloc(Expr{Atom: src[i:end], Start: i, End: end}))
			}
		default:
			if c := src[i]; c < ' ' || c == 0x7f {
				return nil, syntaxError(src, i, "unexpected control character %q", c)
			}
			return nil, syntaxError(src, i, "bytes that are not UTF-8 text")
		}
		if err != nil {
			return nil, err
		}
		i = end
	}
	if r.wholeStart >= 0 {
		return nil, syntaxError(src, r.wholeStart, "'(' is never closed")
	}
	if len(r.stack) > 0 {
		return nil, syntaxError(src, r.stack[len(r.stack)-1].Start, "'(' is never closed")
	}
	return r.top, nil
}

// exprReader is the state of readExprs: the expressions read, the lists open, and the list
// read as its text, if any.
type exprReader struct {
	src   string
	lim   readLimits
	top   []*Expr
	stack []*Expr // the open lists
	slab  []Expr  // the expressions, allocated in blocks
	// A list nested lim.keep deep or more is read as its text: wholeStart is where the
	// outermost such list starts (-1: none open), wholeDepth how deep its reading is.
	wholeStart, wholeDepth int
}

// alloc places an expression in the current block.
func (r *exprReader) alloc(e Expr) *Expr {
	if len(r.slab) == cap(r.slab) {
		r.slab = make([]Expr, 0, 1024)
	}
	r.slab = append(r.slab, e)
	return &r.slab[len(r.slab)-1]
}

// add appends e to the innermost open list, or to the top level.
func (r *exprReader) add(e *Expr) {
	if len(r.stack) == 0 {
		r.top = append(r.top, e)
		return
	}
	p := r.stack[len(r.stack)-1]
	p.List = append(p.List, e)
}

// open reads the '(' at i.
func (r *exprReader) open(i int) error {
	if depth := len(r.stack) + r.wholeDepth; depth >= r.lim.depth {
		return syntaxError(r.src, i, "the message nests more than %d levels of parentheses", r.lim.depth)
	}
	switch {
	case r.wholeStart >= 0:
		r.wholeDepth++
	case len(r.stack) >= r.lim.keep:
		r.wholeStart, r.wholeDepth = i, 1
	default:
		e := r.alloc(Expr{IsList: true, Start: i, List: []*Expr{}})
		r.add(e)
		r.stack = append(r.stack, e)
	}
	return nil
}

// close reads the ')' at i, which ends at end.
func (r *exprReader) close(i, end int) error {
	switch {
	case r.wholeStart >= 0:
		if r.wholeDepth--; r.wholeDepth == 0 {
			r.add(r.alloc(Expr{IsList: true, Start: r.wholeStart, End: end, Whole: r.src[r.wholeStart:end]}))
			r.wholeStart = -1
		}
	case len(r.stack) == 0:
		return syntaxError(r.src, i, "unexpected ')': no list is open")
	default:
		r.stack[len(r.stack)-1].End = end
		r.stack = r.stack[:len(r.stack)-1]
	}
	return nil
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
