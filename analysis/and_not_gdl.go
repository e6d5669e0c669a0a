package analysis

import (
	"strings"

	"github.com/gdl-lsp/gdl/syntax"
)

// An `and` is a relation-shaped atom to the model: its name is a relation occurrence, what
// follows it in its list is terms. It comes in every shape an atom has: `(and a b)`, `(and)`
// and the bare word `and`, so its operands are read through the atom view (Args), which is
// defined for all of them, never by indexing the list's elements.

func init() {
	register(&Check{
		Code:     "and-not-gdl",
		Severity: Error,
		Category: CategorySemantics,
		Summary: "(and ...) in a rule body, or a fact or rule defining and: GDL has no and; the literals of a body are " +
			"already a conjunction.",
		Example: "(<= (p ?x) (and (q ?x) (r ?x)))",
		Fix: "Write the literals directly in the body (the quick fix does, and removes an and without literals; " +
			"gdl check --fix does not, since players read and as a relation: the rule's meaning changes). " +
			"Inside an or, write one rule per branch; inside a not, define a relation for the conjunction and negate it.",
		Clause: func(m *Model, c *Clause, r *Reporter) {
			const msg = "GDL has no and: the literals of a rule body are already a conjunction"
			if c.Key() == "and" {
				r.Report(c.Head.Name().Span(), "GDL has no and, so a fact or rule cannot define it: a body literal "+
					"named and would be read as a conjunction", nil)
			}
			walkLiterals(c, func(v literalVisit) {
				if v.Kind != syntax.LitAtom || v.Lit.Atom().Name().Key() != "and" {
					return
				}
				name := v.Lit.Atom().Name().Span()
				switch {
				case v.ParentKind == syntax.LitNot:
					r.Report(name, msg+"; to negate a conjunction, define a relation for it and negate that", nil)
				case v.ParentKind == syntax.LitOr:
					r.Report(name, msg+"; inside an or, write one rule per branch instead", nil)
				default:
					r.Report(name, msg, nil, spliceAnd(c, v.Lit, m.Notation()))
				}
			})
		},
	})
}

// andChangesMeaning ends the titles of the fixes of and: they restore what the author meant, but
// to the players (and to gdl's evaluator) an and is an atom of a relation named and, which no
// rule defines (a rule defining it is reported too), so the rule never held before the fix. A fix
// that changes the evaluated meaning is not Safe: gdl check --fix leaves it to the author.
const andChangesMeaning = " (changes the meaning: players read and as a relation)"

// spliceAnd is the fix of an and that is a body literal: its literals, with those of the ands
// nested in it, take its place in the body; an and without literals (the empty conjunction)
// goes, with the blanks before it on its line.
func spliceAnd(c *Clause, and syntax.Literal, d syntax.Dialect) syntax.Fix {
	parts := conjuncts(and.Atom())
	if len(parts) > 0 {
		sep := " "
		if d == syntax.Infix {
			sep = " & "
		}
		return replace("Put the literals of and in the body"+andChangesMeaning, and.Span(), strings.Join(parts, sep))
	}
	span := and.Span()
	text, base := c.Form.Text(), c.Form.Span().Start
	for span.Start > base && (text[span.Start-base-1] == ' ' || text[span.Start-base-1] == '\t') {
		span.Start--
	}
	return replace("Remove the empty and"+andChangesMeaning, span, "")
}

// conjuncts returns the texts of the operands of an and, each nested and replaced by its own
// operands: (and a (and b (and)) c) gives a, b and c. An explicit stack: nesting may be deep.
func conjuncts(and syntax.Atom) []string {
	var out []string
	stack := reversed(and.Args())
	for len(stack) > 0 {
		t := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if k := t.Kind(); (k == syntax.TermConstant || k == syntax.TermFunction) && t.Name().Key() == "and" {
			stack = append(stack, reversed(t.Args())...)
			continue
		}
		out = append(out, t.Text())
	}
	return out
}

func reversed(ts []syntax.Term) []syntax.Term {
	for i, j := 0, len(ts)-1; i < j; i, j = i+1, j-1 {
		ts[i], ts[j] = ts[j], ts[i]
	}
	return ts
}
