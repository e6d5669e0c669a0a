package eval

import (
	"fmt"
	"strings"

	"github.com/gdl-lsp/gdl/syntax"
)

// A game is written in one notation (its file's dialect): String, Strings and FormatJoint write
// terms in it. Queries, terms, states and joint moves given as text may be written in either;
// a query's answers are written in the query's own notation.

// formatIn writes t in notation d: KIF `(cell 1 1 b)`, or infix `cell(1,1,b)` with names that
// infix cannot write bare in double quotes.
func (g *shared) formatIn(b *strings.Builder, t Term, d syntax.Dialect) {
	if d == syntax.Prefix {
		g.st.format(b, t)
		return
	}
	r := g.st.rec(t)
	name := g.st.fnName(r.fn)
	if w, ok := d.Name(name); ok {
		name = w
	}
	b.WriteString(name)
	if r.arity == 0 {
		return
	}
	b.WriteByte('(')
	for i, a := range g.st.argsOf(t) {
		if i > 0 {
			b.WriteByte(',')
		}
		g.formatIn(b, a, d)
	}
	b.WriteByte(')')
}

// strStart returns the first n bytes of t written in the game's notation, then "..." if there
// is more. A term too deep for the limits may share its arguments (terms are hash-consed), so
// that written out whole it would be exponentially long: the writing stops at n, with an
// explicit stack.
func (g *shared) strStart(t Term, n int) string {
	if t == 0 {
		return "<none>"
	}
	prefix := g.notation == syntax.Prefix
	type frame struct {
		t    Term
		next int // the argument to write next
	}
	var b strings.Builder
	stack := []frame{{t, -1}}
	for len(stack) > 0 && b.Len() <= n {
		f := &stack[len(stack)-1]
		r := g.st.rec(f.t)
		if f.next < 0 {
			name := g.st.fnName(r.fn)
			if w, ok := g.notation.Name(name); ok && !prefix {
				name = w
			}
			switch {
			case r.arity == 0:
				b.WriteString(name)
			case prefix:
				b.WriteString("(" + name)
			default:
				b.WriteString(name + "(")
			}
		}
		if f.next++; f.next >= int(r.arity) {
			if r.arity > 0 {
				b.WriteByte(')')
			}
			stack = stack[:len(stack)-1]
			continue
		}
		switch {
		case prefix:
			b.WriteByte(' ')
		case f.next > 0:
			b.WriteByte(',')
		}
		stack = append(stack, frame{g.st.argsOf(f.t)[f.next], -1})
	}
	if s := b.String(); len(s) <= n && len(stack) == 0 {
		return s
	}
	return b.String()[:n] + "..."
}

// textNotation returns the notation a text given by a user (a query, terms, joint moves) is
// written in: the one its content shows, else the game's.
func (g *shared) textNotation(text string) syntax.Dialect {
	if d, ok := syntax.DetectText(text); ok {
		return d
	}
	return g.notation
}

// parseText parses a text given by a user in its notation, and reports its first syntax error
// (except that in prefix a list may start with a list: a joint move's first move can be a
// function term).
func parseText(text string, d syntax.Dialect) (*syntax.File, error) {
	f, _ := syntax.ParseDialect(text, d)
	for _, e := range f.Errors() {
		if e.Code == syntax.CodeListHead && d == syntax.Prefix {
			continue
		}
		return nil, fmt.Errorf("%q: %s at offset %d", text, e.Message, e.Span.Start)
	}
	return f, nil
}

// infixQuery parses an infix query, a conjunction of literals `a & ~b(X)`, as the body of a
// rule, and returns its literals.
func infixQuery(text string) ([]syntax.Literal, error) {
	const head = "query :- "
	f, _ := syntax.ParseDialect(head+text, syntax.Infix)
	for _, e := range f.Errors() {
		return nil, fmt.Errorf("query %q: %s at offset %d", text, e.Message, max(0, e.Span.Start-len(head)))
	}
	forms := f.Forms()
	if len(forms) != 1 || !forms[0].IsRule() {
		at := len(text)
		if len(forms) > 1 {
			at = forms[1].Span().Start - len(head)
		}
		return nil, fmt.Errorf("query %q: expected literals joined by '&', found more at offset %d", text, at)
	}
	return forms[0].Rule().Body(), nil
}

// infixTuples parses infix joint moves: groups of moves in parentheses, separated by commas,
// like `(mark(1,1), noop) (noop, mark(2,2))`. Each group is read as the arguments of a call.
func infixTuples(text string) ([][]syntax.Term, error) {
	var out [][]syntax.Term
	depth, start := 0, -1
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case c == '(':
			if depth == 0 {
				start = i
			}
			depth++
		case c == ')':
			depth--
			if depth < 0 {
				return nil, fmt.Errorf("%q: unmatched ')' at offset %d", text, i)
			}
			if depth == 0 {
				const name = "joint"
				group := text[start : i+1]
				f, _ := syntax.ParseDialect(name+group, syntax.Infix)
				for _, e := range f.Errors() {
					return nil, fmt.Errorf("%q: %s at offset %d", text, e.Message, start+max(0, e.Span.Start-len(name)))
				}
				forms := f.Forms()
				if len(forms) != 1 {
					return nil, fmt.Errorf("%q: expected a joint move in parentheses at offset %d", text, start)
				}
				out = append(out, forms[0].Fact().Args())
			}
		case c == '"':
			for i++; i < len(text) && text[i] != '"'; i++ {
			}
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		default:
			if depth == 0 {
				return nil, fmt.Errorf("%q: a joint move is written in parentheses, (move1, move2), at offset %d", text, i)
			}
		}
	}
	if depth > 0 {
		return nil, fmt.Errorf("%q: '(' at offset %d is never closed", text, start)
	}
	return out, nil
}

// jointInfix reports whether joint moves are written in infix: a name directly followed by '('
// or a comma tells.
func jointInfix(text string) bool {
	for i := 0; i+1 < len(text); i++ {
		c := text[i]
		if text[i+1] == '(' && c != '(' && c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return true
		}
	}
	return strings.Contains(text, ",")
}

// formatJoint writes a joint move in the game's notation (see FormatJoint).
func (g *shared) formatJoint(joint []Term, d syntax.Dialect) string {
	var b strings.Builder
	b.WriteByte('(')
	for i, m := range joint {
		if i > 0 {
			if d == syntax.Infix {
				b.WriteByte(',')
			}
			b.WriteByte(' ')
		}
		g.formatIn(&b, m, d)
	}
	b.WriteByte(')')
	return b.String()
}
