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
			// Only the rules of recursive relations are restricted: those, in source order.
			for _, c := range m.clausesOfRels(m.Recursive) {
				if c.IsRule {
					recursionRestriction(m, c, r)
				}
			}
		},
	})
}

func recursionRestriction(m *Model, c *Clause, r *Reporter) {
	p := c.Rel()
	if !m.Recursive[p] {
		return
	}
	headArgs := map[string]bool{}
	for _, t := range c.Head.Args() {
		headArgs[TermKey(t.Cursor)] = true
	}
	// Variables bound by positive atoms whose relation is not in a cycle with p. Inside an `or`,
	// a branch stands for its own rule (the body with that branch), so an atom of a branch may
	// also use what that branch binds; the rest of the body sees only what every branch binds.
	var binds func(l syntax.Literal, b map[string]bool)
	binds = func(l syntax.Literal, b map[string]bool) {
		switch l.Kind() {
		case syntax.LitAtom:
			if a := l.Atom(); a.Valid() && !m.InCycle(p, AtomRel(a)) {
				forEachVar(l.Cursor, func(name string, _ syntax.Span) { b[syntax.VarKey(name)] = true })
			}
		case syntax.LitOr:
			var common map[string]bool
			for _, op := range l.Operands() {
				nb := map[string]bool{}
				binds(op, nb)
				if common != nil {
					for k := range common {
						if !nb[k] {
							delete(common, k)
						}
					}
				} else {
					common = nb
				}
			}
			for k := range common {
				b[k] = true
			}
		}
	}
	outside := map[string]bool{}
	for _, l := range c.Body {
		binds(l, outside)
	}
	var visit func(l syntax.Literal, outside map[string]bool)
	visit = func(l syntax.Literal, outside map[string]bool) {
		switch l.Kind() {
		case syntax.LitOr:
			for _, op := range l.Operands() {
				inner := outside
				nb := map[string]bool{}
				binds(op, nb)
				if len(nb) > 0 {
					inner = make(map[string]bool, len(outside)+len(nb))
					for k := range outside {
						inner[k] = true
					}
					for k := range nb {
						inner[k] = true
					}
				}
				visit(op, inner)
			}
		case syntax.LitAtom:
			if l.Atom().Valid() {
				checkRecursiveAtom(m, p, l.Atom(), headArgs, outside, r)
			}
		}
	}
	for _, l := range c.Body {
		visit(l, outside)
	}
}

// checkRecursiveAtom reports the arguments of a body atom a, in a cycle with the head relation
// p, that are not ground, not a head argument and not a variable of outside.
func checkRecursiveAtom(m *Model, p Rel, a syntax.Atom, headArgs, outside map[string]bool, r *Reporter) {
	if !m.InCycle(p, AtomRel(a)) {
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
			s.Text(), a.Name().Text()), nil)
	}
}
