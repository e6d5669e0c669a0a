package analysis

import "github.com/gdl-lsp/gdl/syntax"

// literalVisit is one literal met by walkLiterals: the literal, whether it sits under a `not`,
// and the `or` or `not` that contains it directly (invalid when it is a body literal).
type literalVisit struct {
	Lit     syntax.Literal
	Negated bool
	Parent  syntax.Literal
	// Kind is Lit.Kind(), computed once with the visit: the whole-file checks ask it of every
	// literal of the file on every analysis.
	Kind syntax.LiteralKind
}

// walkLiterals calls fn for every body literal of the clause and every literal nested in a
// `not` or an `or`, outermost first.
func walkLiterals(c *Clause, fn func(v literalVisit)) {
	d := c.Form.Span().Start - c.visitsAt
	for _, v := range c.visits {
		if d != 0 {
			v = v.moved(d)
		}
		fn(v)
	}
}

// atomVisit returns the visit of the clause's atom literal at span sp.
func (c *Clause) atomVisit(sp syntax.Span) (literalVisit, bool) {
	d := c.Form.Span().Start - c.visitsAt
	for _, v := range c.visits {
		if v.Kind == syntax.LitAtom && v.Lit.Span().Start+d == sp.Start && v.Lit.Span().End+d == sp.End {
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
	return literalVisit{Lit: syntax.Literal{Cursor: v.Lit.Cursor.Moved(d)}, Negated: v.Negated,
		Parent: syntax.Literal{Cursor: v.Parent.Cursor.Moved(d)}, Kind: v.Kind}
}

// literalVisits lists the literals walkLiterals visits; the model computes it once per clause.
func literalVisits(body []syntax.Literal) []literalVisit {
	var out []literalVisit
	var walk func(l syntax.Literal, neg bool, parent syntax.Literal)
	walk = func(l syntax.Literal, neg bool, parent syntax.Literal) {
		k := l.Kind()
		out = append(out, literalVisit{l, neg, parent, k})
		switch k {
		case syntax.LitNot:
			for _, op := range l.Operands() {
				walk(op, true, l)
			}
		case syntax.LitOr:
			for _, op := range l.Operands() {
				walk(op, neg, l)
			}
		}
	}
	for _, l := range body {
		walk(l, false, syntax.Literal{})
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
