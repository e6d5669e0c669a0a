package analysis

import (
	"strings"

	"github.com/gdl-lsp/gdl/syntax"
)

// Variable binding, shared by the safety check, the order hint, the Prolog translation and the
// evaluator's planner: which variables a literal binds and which it needs bound.

// LiteralVars returns the keys of the variables of a literal, in order of appearance, with
// repetitions.
func LiteralVars(c syntax.Cursor) []string {
	var out []string
	forEachVar(c, func(name string, _ syntax.Span) { out = append(out, syntax.VarKey(name)) })
	return out
}

// forEachVar calls fn with the spelling and the span of every variable under c, in source order.
// It walks the nodes directly: building cursors for every element allocates, and the checks run
// this over every literal of every rule on each keystroke.
func forEachVar(c syntax.Cursor, fn func(name string, span syntax.Span)) {
	if !c.Valid() {
		return
	}
	n := c.Node()
	text, base := c.Text(), c.Span().Start
	var walk func(k *syntax.Node)
	walk = func(k *syntax.Node) {
		switch k.Kind {
		case syntax.Variable:
			s, e := int(k.Start-n.Start), int(k.End-n.Start)
			fn(text[s:e], syntax.Span{Start: base + s, End: base + e})
		case syntax.List:
			for i := range k.Kids {
				walk(&k.Kids[i])
			}
		}
	}
	walk(n)
}

// Binds adds to b the variables a literal binds when it succeeds: those of a positive atom, or
// those that every branch of an `or` binds. `not` and `distinct` bind nothing.
func Binds(l syntax.Literal, b map[string]bool) {
	switch l.Kind() {
	case syntax.LitAtom:
		forEachVar(l.Cursor, func(name string, _ syntax.Span) { b[syntax.VarKey(name)] = true })
	case syntax.LitOr:
		var common map[string]bool
		for _, op := range l.Operands() {
			nb := map[string]bool{}
			Binds(op, nb)
			if common == nil {
				common = nb
				continue
			}
			for k := range common {
				if !nb[k] {
					delete(common, k)
				}
			}
		}
		for k := range common {
			b[k] = true
		}
	}
}

// Ready reports whether a literal can run left to right with the variables of b bound: a
// `not` or `distinct` needs all its variables bound; an `or` needs that of its branches that
// are not atoms.
func Ready(l syntax.Literal, b map[string]bool) bool {
	switch l.Kind() {
	case syntax.LitNot, syntax.LitDistinct:
		ready := true
		forEachVar(l.Cursor, func(name string, _ syntax.Span) { ready = ready && b[syntax.VarKey(name)] })
		return ready
	case syntax.LitOr:
		for _, op := range l.Operands() {
			if op.Kind() != syntax.LitAtom && !Ready(op, b) {
				return false
			}
		}
	}
	return true
}

// needsBound returns the keys of the variables that must be bound before a literal can run left
// to right, in order of appearance, without repetitions: all those of a `not` or a `distinct`,
// those the `not`s and `distinct`s inside an `or` need, none for an atom. Ready(l, b) holds
// exactly when b binds all of them.
func needsBound(l syntax.Literal) []string {
	var out []string
	seen := map[string]bool{}
	var walk func(l syntax.Literal)
	walk = func(l syntax.Literal) {
		switch l.Kind() {
		case syntax.LitNot, syntax.LitDistinct:
			forEachVar(l.Cursor, func(name string, _ syntax.Span) {
				if k := syntax.VarKey(name); !seen[k] {
					seen[k] = true
					out = append(out, k)
				}
			})
		case syntax.LitOr:
			for _, op := range l.Operands() {
				walk(op)
			}
		}
	}
	walk(l)
	return out
}

// SafeOrder returns the body in an order in which every `not` and `distinct` comes right after
// the literals that bind its variables, otherwise keeping the author's order. Literals that can
// never be ready (an unsafe rule) keep their relative order at the end.
func SafeOrder(body []syntax.Literal) []syntax.Literal {
	b := map[string]bool{}
	var out, pending []syntax.Literal
	flush := func() {
		for progress := true; progress; {
			progress = false
			for i, l := range pending {
				if Ready(l, b) {
					out = append(out, l)
					Binds(l, b)
					pending = append(pending[:i:i], pending[i+1:]...)
					progress = true
					break
				}
			}
		}
	}
	for _, l := range body {
		if Ready(l, b) {
			out = append(out, l)
			Binds(l, b)
			flush()
		} else {
			pending = append(pending, l)
		}
	}
	return append(out, pending...)
}

// TermKey returns a canonical text of a term or atom: case-folded names, single spaces.
func TermKey(c syntax.Cursor) string {
	var b strings.Builder
	var walk func(c syntax.Cursor)
	walk = func(c syntax.Cursor) {
		if c.Kind() != syntax.List {
			b.WriteString(c.Symbol().Key())
			return
		}
		el := c.Elements()
		if len(el) == 1 { // (f) is the constant f
			walk(el[0])
			return
		}
		b.WriteByte('(')
		for i, e := range el {
			if i > 0 {
				b.WriteByte(' ')
			}
			walk(e)
		}
		b.WriteByte(')')
	}
	walk(c)
	return b.String()
}
