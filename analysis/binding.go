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
// this over every literal of every rule on each keystroke. An explicit stack: nesting may be
// deep.
func forEachVar(c syntax.Cursor, fn func(name string, span syntax.Span)) {
	if !c.Valid() {
		return
	}
	n := c.Node()
	text, base := c.Text(), c.Span().Start
	variable := func(k *syntax.Node) {
		s, e := int(k.Start-n.Start), int(k.End-n.Start)
		fn(text[s:e], syntax.Span{Start: base + s, End: base + e})
	}
	if n.Kind != syntax.List {
		if n.Kind == syntax.Variable {
			variable(n)
		}
		return
	}
	// A frame is a list being walked and its next child.
	type frame struct {
		list *syntax.Node
		next int
	}
	var buf [16]frame
	stack := append(buf[:0], frame{n, 0})
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if f.next == len(f.list.Kids) {
			stack = stack[:len(stack)-1]
			continue
		}
		k := &f.list.Kids[f.next]
		f.next++
		switch k.Kind {
		case syntax.Variable:
			variable(k)
		case syntax.List:
			stack = append(stack, frame{k, 0})
		}
	}
}

// Binds adds to b the variables a literal binds when it succeeds: those of a positive atom, or
// those that every branch of an `or` binds. `not` and `distinct` bind nothing. Nested `or`s are
// walked with an explicit stack.
func Binds(l syntax.Literal, b map[string]bool) {
	switch l.Kind() {
	case syntax.LitAtom:
		forEachVar(l.Cursor, func(name string, _ syntax.Span) { b[syntax.VarKey(name)] = true })
		return
	case syntax.LitOr:
	default:
		return
	}
	// A frame is an or being walked: its branches, the next one, and the variables that every
	// branch walked so far binds. Once none is left, the other branches cannot add one: the or
	// is done without walking them.
	type frame struct {
		ops     []syntax.Literal
		next    int
		started bool
		common  map[string]bool
	}
	merge := func(f *frame, binds map[string]bool) {
		if !f.started {
			f.common, f.started = binds, true
			return
		}
		for k := range f.common {
			if !binds[k] {
				delete(f.common, k)
			}
		}
	}
	stack := []frame{{ops: l.Operands()}}
	for {
		f := &stack[len(stack)-1]
		if f.next == len(f.ops) || f.started && len(f.common) == 0 {
			common := f.common
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				for k := range common {
					b[k] = true
				}
				return
			}
			merge(&stack[len(stack)-1], common)
			continue
		}
		op := f.ops[f.next]
		f.next++
		if op.Kind() == syntax.LitOr {
			stack = append(stack, frame{ops: op.Operands()})
			continue
		}
		nb := map[string]bool{}
		Binds(op, nb) // an atom, or a literal that binds nothing
		merge(f, nb)
	}
}

// Ready reports whether a literal can run left to right with the variables of b bound: a
// `not` or `distinct` needs all its variables bound; an `or` needs that of its branches that
// are not atoms.
func Ready(l syntax.Literal, b map[string]bool) bool {
	ready := true
	forEachNeeded(l, func(v string) bool {
		ready = b[v]
		return ready
	})
	return ready
}

// needsBound returns the keys of the variables that must be bound before a literal can run left
// to right, in order of appearance, without repetitions: all those of a `not` or a `distinct`,
// those the `not`s and `distinct`s inside an `or` need, none for an atom. Ready(l, b) holds
// exactly when b binds all of them.
func needsBound(l syntax.Literal) []string {
	var out []string
	seen := map[string]bool{}
	forEachNeeded(l, func(k string) bool {
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
		return true
	})
	return out
}

// forEachNeeded calls fn with the key of every variable that must be bound before l can run left
// to right, in order of appearance (with repetitions), while fn returns true. Nested `or`s are
// walked with an explicit stack.
func forEachNeeded(l syntax.Literal, fn func(key string) bool) {
	stack := []syntax.Literal{l}
	for len(stack) > 0 {
		l := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch l.Kind() {
		case syntax.LitNot, syntax.LitDistinct:
			more := true
			forEachVar(l.Cursor, func(name string, _ syntax.Span) {
				more = more && fn(syntax.VarKey(name))
			})
			if !more {
				return
			}
		case syntax.LitOr:
			ops := l.Operands()
			for i := len(ops) - 1; i >= 0; i-- {
				stack = append(stack, ops[i])
			}
		}
	}
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

// TermKey returns a canonical text of a term or atom: case-folded names, single spaces. An
// explicit stack: terms may nest to any depth.
func TermKey(c syntax.Cursor) string {
	var b strings.Builder
	type piece struct {
		c    syntax.Cursor // written when valid
		text string        // else this
	}
	stack := []piece{{c: c}}
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch {
		case !p.c.Valid():
			b.WriteString(p.text)
		case p.c.Kind() != syntax.List:
			b.WriteString(p.c.Symbol().Key())
		default:
			el := p.c.Elements()
			if len(el) == 1 { // (f) is the constant f
				stack = append(stack, piece{c: el[0]})
				continue
			}
			b.WriteByte('(')
			stack = append(stack, piece{text: ")"})
			for i := len(el) - 1; i >= 0; i-- {
				stack = append(stack, piece{c: el[i]})
				if i > 0 {
					stack = append(stack, piece{text: " "})
				}
			}
		}
	}
	return b.String()
}
