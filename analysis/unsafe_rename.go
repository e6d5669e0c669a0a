package analysis

import (
	"fmt"
	"strings"

	"github.com/gdl-lsp/gdl/syntax"
)

// The rename fix of an unsafe variable: an unsafe variable is most often a typo of a variable
// the rule binds ((not (true (control ?who))) where (role ?player) binds ?player). Moving the
// negated atom into a helper relation would keep the typo and change the game ("no role has
// control"), so when the rule binds a variable that the unsafe one is likely a misspelling of,
// renaming it is the first fix offered.

// addRenameFixes puts, first among each unsafe variable's fixes, the renaming to the bound
// variable it likely stands for; when several are as likely, their renamings follow the other
// fixes.
func addRenameFixes(m *Model, ds []*Diagnostic) {
	var cache map[[2]int][]syntax.Fix
	for _, d := range ds {
		c := m.ClauseAt(d.Span.Start)
		if c == nil {
			continue
		}
		key := syntax.VarKey(m.File.Source()[d.Span.Start:d.Span.End])
		occs := c.Vars[key]
		if len(occs) == 0 {
			continue
		}
		id := [2]int{c.Index, occs[0]}
		if cache == nil {
			cache = map[[2]int][]syntax.Fix{}
		}
		fixes, seen := cache[id]
		if !seen {
			fixes = renameFixes(m, c, key, d.Span)
			cache[id] = fixes
		}
		if len(fixes) == 0 {
			continue
		}
		if len(fixes) == 1 {
			d.Fixes = append([]syntax.Fix{fixes[0]}, d.Fixes...)
		} else {
			d.Fixes = append(d.Fixes[:len(d.Fixes):len(d.Fixes)], fixes...)
		}
	}
}

// renameFixes returns the renamings of unsafe variable key of clause c (diagnosed at span) to
// the bound variables it likely stands for: one when one is likely, several when they are
// equally likely, none when none is.
func renameFixes(m *Model, c *Clause, key string, span syntax.Span) []syntax.Fix {
	bound := boundVars(c)
	// The literal of the diagnosed occurrence: a variable already in it is no candidate
	// ((not (adjacent ?x ?y)) does not become (not (adjacent ?x ?x))).
	lit, arg, inHead := literalAt(c, span)
	inLit := map[string]bool{}
	forEachVar(lit, func(name string, _ syntax.Span) { inLit[syntax.VarKey(name)] = true })
	var names []string // candidates, in order of first occurrence
	written := map[string]string{}
	for i := c.occLo; i < c.occHi; i++ {
		o := m.Occ(i)
		if o.Kind != OccVariable || !bound[o.Key] || inLit[o.Key] || o.Key == key {
			continue
		}
		if _, ok := written[o.Key]; !ok {
			written[o.Key] = o.Name
			names = append(names, o.Key)
		}
	}
	if len(names) == 0 {
		return nil
	}
	// By spelling: ?playr for ?player.
	var close []suggestion
	for _, k := range names {
		if d, ok := closeSpelling(strings.TrimPrefix(key, "?"), strings.TrimPrefix(k, "?")); ok {
			close = append(close, suggestion{from: key, to: k, dist: d})
		}
	}
	var likely []string
	if close = bestSuggestions(close); len(close) > 0 {
		for _, s := range close {
			likely = append(likely, s.to)
		}
	} else if len(c.Vars[key]) == 1 && len(inLit) == 1 {
		// By the values, for a variable written once and alone in its literal: the bound
		// variables whose values can stand where it stands. A variable written twice is meant
		// ("no line (line ?c ?c)"), and one beside others in a negated atom is most often the
		// "any" of a frame rule, (not (does ?r (move ?x ?any))): the helper fix keeps that.
		here := varSetAt(m, c, key, lit, arg, inHead)
		for _, k := range names {
			if there := boundVarSet(m, c, k); here != nil && there != nil && here.overlaps(there) {
				likely = append(likely, k)
			}
		}
	}
	var fixes []syntax.Fix
	for _, k := range likely {
		to := written[k]
		cos := c.Occurrences(m)
		fix := syntax.Fix{Title: fmt.Sprintf("Rename %s to %s, the variable the rule binds", cos[c.Vars[key][0]].Name, to)}
		for _, oi := range c.Vars[key] {
			fix.Edits = append(fix.Edits, syntax.TextEdit{Span: cos[oi].Span, NewText: to})
		}
		fixes = append(fixes, fix)
	}
	return fixes
}

// literalAt returns the atom or distinct of clause c that contains span (the head when it is
// there), the index of the argument of the atom that contains it (-1 for a distinct), and
// whether it is the head.
func literalAt(c *Clause, span syntax.Span) (syntax.Cursor, int, bool) {
	argOf := func(a syntax.Atom) int {
		for i, t := range a.ArgSeq() {
			if t.Span().Contains(span.Start) {
				return i
			}
		}
		return -1
	}
	if c.Head.Span().Contains(span.Start) {
		return c.Head.Cursor, argOf(c.Head), true
	}
	var out syntax.Cursor
	arg := -1
	walkLiterals(c, func(v literalVisit) {
		k := v.Kind
		if (k == syntax.LitAtom || k == syntax.LitDistinct) && v.Lit.Span().Contains(span.Start) {
			out, arg = v.Lit.Cursor, -1
			if k == syntax.LitAtom && v.Lit.Atom().Valid() {
				arg = argOf(v.Lit.Atom())
			}
		}
	})
	return out, arg, false
}

// varSetAt returns what may stand where variable key occurs in argument arg of lit (an atom of
// clause c, its head when inHead), or nil when that is not known. In the head, it is what the
// relation's other clauses give that argument.
func varSetAt(m *Model, c *Clause, key string, lit syntax.Cursor, arg int, inHead bool) *termSet {
	if arg < 0 || !lit.Valid() {
		return nil
	}
	a := syntax.Atom{Cursor: lit}
	t := a.Args()[arg]
	vars := map[string]int{}
	p := compilePat(t, vars)
	path, ok := varPath(p, vars[key])
	if !ok {
		return nil
	}
	var set *termSet
	if inHead {
		set = &termSet{}
		for _, o := range m.Definitions(c.Key()) {
			if o != c && o.Head.Arity() == c.Head.Arity() {
				set.addAll(m.clauseArg(o, arg), top)
			}
		}
	} else {
		set = m.producersAt(AtomRel(a), arg)
	}
	if got := set.at(p, path); got != nil && !got.any && !got.empty() {
		return got
	}
	return nil
}

// boundVarSet returns what bound variable key of clause c may stand for, from the first
// positive body atom that contains it, or nil when that is not known.
func boundVarSet(m *Model, c *Clause, key string) *termSet {
	for _, l := range c.Body {
		if l.Kind() != syntax.LitAtom || !l.Atom().Valid() {
			continue
		}
		a := l.Atom()
		for j, t := range a.ArgSeq() {
			vars := map[string]int{}
			p := compilePat(t, vars)
			v, ok := vars[key]
			if !ok {
				continue
			}
			path, _ := varPath(p, v)
			got := m.producersAt(AtomRel(a), j).at(p, path)
			if got == nil || got.any || got.empty() {
				return nil
			}
			return got
		}
	}
	return nil
}
