package analysis

import (
	"slices"
	"sort"

	"github.com/gdl-lsp/gdl/syntax"
)

// literalVisit is one literal met by walkLiterals: the literal, whether it sits under a `not`,
// and the `or` or `not` that contains it directly. A clause's visits are kept with its model
// for every literal of the file, so the parent is an index, not a literal: the visits of a
// million nested literals take 40 bytes each.
type literalVisit struct {
	Lit     syntax.Literal
	Negated bool
	// Kind is Lit.Kind(), computed once with the visit: the whole-file checks ask it of every
	// literal of the file on every analysis.
	Kind syntax.LiteralKind
	// ParentKind is the Kind of the literal that contains this one directly (LitNot or LitOr),
	// LitInvalid for a body literal; Parent is that literal's index among the clause's visits
	// (-1 for a body literal).
	ParentKind syntax.LiteralKind
	Parent     int32
}

// walkLiterals calls fn for every body literal of the clause and every literal nested in a
// `not` or an `or`, outermost first, in the order of the clause's visits (which a visit's Parent
// indexes): depth first, so the literals nested in one come right after it.
func walkLiterals(c *Clause, fn func(v literalVisit)) {
	d := c.Form.Span().Start - c.visitsAt
	for _, v := range c.visits {
		if d != 0 {
			v = v.moved(d)
		}
		fn(v)
	}
}

// atomVisit returns the visit of the clause's atom literal at span sp. The visits are in source
// order (a literal starts before or where its first operand does), so a binary search finds it;
// a linear search backs it up in case a notation ever breaks that order.
func (c *Clause) atomVisit(sp syntax.Span) (literalVisit, bool) {
	d := c.Form.Span().Start - c.visitsAt
	match := func(v literalVisit) bool {
		return v.Kind == syntax.LitAtom && v.Lit.Span().Start+d == sp.Start && v.Lit.Span().End+d == sp.End
	}
	i := sort.Search(len(c.visits), func(i int) bool { return c.visits[i].Lit.Span().Start+d >= sp.Start })
	for ; i < len(c.visits) && c.visits[i].Lit.Span().Start+d == sp.Start; i++ {
		if match(c.visits[i]) {
			return c.visits[i].moved(d), true
		}
	}
	for _, v := range c.visits {
		if match(v) {
			return v.moved(d), true
		}
	}
	return literalVisit{}, false
}

// moved returns the visit of a literal moved by d bytes.
func (v literalVisit) moved(d int) literalVisit {
	if d == 0 {
		return v
	}
	v.Lit = syntax.Literal{Cursor: v.Lit.Cursor.Moved(d)}
	return v
}

// literalVisits lists the literals walkLiterals visits; the model computes it once per clause.
// An explicit stack: a body may nest `not` a million levels deep.
func literalVisits(body []syntax.Literal) []literalVisit {
	out := make([]literalVisit, 0, len(body))
	var buf [16]literalVisit
	stack := buf[:0] // still to visit, the next one last
	for i := len(body) - 1; i >= 0; i-- {
		stack = append(stack, literalVisit{Lit: body[i], Parent: -1})
	}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		v.Kind = v.Lit.Kind()
		at := int32(len(out))
		out = append(out, v)
		if v.Kind != syntax.LitNot && v.Kind != syntax.LitOr {
			continue
		}
		base := len(stack)
		for _, op := range v.Lit.OperandSeq() {
			stack = append(stack, literalVisit{Lit: op, Negated: v.Negated || v.Kind == syntax.LitNot, ParentKind: v.Kind, Parent: at})
		}
		slices.Reverse(stack[base:]) // the first operand is visited first
	}
	return out
}

// replace is a fix that replaces one span with new text.
func replace(title string, span syntax.Span, text string) syntax.Fix {
	return syntax.Fix{Title: title, Edits: []syntax.TextEdit{{Span: span, NewText: text}}}
}

// safe marks a fix as safe: it keeps the game's meaning (see syntax.Fix.Safe).
func safe(f syntax.Fix) syntax.Fix {
	f.Safe = true
	return f
}
