package analysis

import (
	"fmt"

	"github.com/gdl-lsp/gdl/syntax"
)

func init() {
	register(&Check{
		Code:     "recursion-restriction",
		Severity: Error,
		Category: CategorySemantics,
		Summary: "An argument of a recursive body atom is not ground, not a head argument, and not bound by an atom outside the " +
			"recursion: the game may have infinitely many facts.",
		Example: "(<= (count (s ?n)) (count ?n))",
		Fix: "Bound the recursion: bind the argument by a relation outside the cycle (a finite successor " +
			"relation such as (succ ?n ?m)) or pass a head argument through unchanged.",
		Run: func(m *Model, r *Reporter) {
			for _, c := range m.Clauses {
				if c.IsRule {
					recursionRestriction(m, c, r)
				}
			}
		},
	})
}

func recursionRestriction(m *Model, c *Clause, r *Reporter) {
	p := c.Key()
	if !m.Recursive[p] {
		return
	}
	headArgs := map[string]bool{}
	for _, t := range c.Head.Args() {
		headArgs[TermKey(t.Cursor)] = true
	}
	// Variables bound by positive atoms whose relation is not in a cycle with p.
	outside := map[string]bool{}
	walkLiterals(c, func(v literalVisit) {
		if v.Negated || v.Lit.Kind() != syntax.LitAtom || !v.Lit.Atom().Valid() {
			return
		}
		if q := v.Lit.Atom().Name().Key(); !m.InCycle(p, q) {
			for _, k := range LiteralVars(v.Lit.Cursor) {
				outside[k] = true
			}
		}
	})
	walkLiterals(c, func(v literalVisit) {
		if v.Negated || v.Lit.Kind() != syntax.LitAtom || !v.Lit.Atom().Valid() {
			return
		}
		a := v.Lit.Atom()
		q := a.Name().Key()
		if !m.InCycle(p, q) {
			return
		}
		for _, s := range a.Args() {
			vars := LiteralVars(s.Cursor)
			if len(vars) == 0 || headArgs[TermKey(s.Cursor)] {
				continue
			}
			if s.Kind() == syntax.TermVariable && outside[s.Name().Key()] {
				continue
			}
			r.Report(s.Span(), fmt.Sprintf("argument %s of the recursive atom %s is neither ground, nor an argument of the head, nor a variable bound by an atom outside the recursion: the recursion may not terminate",
				s.Text(), a.Name().Name()), nil)
		}
	})
}
