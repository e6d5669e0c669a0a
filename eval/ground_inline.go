package eval

import (
	"slices"
	"strings"
)

// Negations read through their rules: in the restricted pass, a relation T that the relaxed
// program reads only in the negative literals it leaves out of its rules (dropped), and whose
// every rule is a copy rule without variables of its own, (T ?x...) <= S... A with static
// literals S and one atom A that depends on the state, is not evaluated: a ground rule that
// reads (not (T a...)) reads instead (not A') for each rule of T whose static literals hold at
// a..., A' its atom there, when A' can hold.
//
// That is what the copy rules kept aside as aliases (ground_alias.go) make of a head read
// negated by one ground rule; made before the relaxed program's evaluation, it saves deriving
// T's atoms and grounding its copy rules. Chess's threatened_with_capture/7, read only negated
// by legal, is "the generic threat (of five arguments) and the squares ignored are
// coordinates, or the special threat": 313,096 atoms asked, derived 392,888 times, and as many
// copy rules. T's magic set (magicSets) is still made: the magic sets of what T's rules read
// derive from it. Its magic literal is taken to hold, since the atoms a reader asks are in it by
// construction; the other static literals are read in their order, each asked (by its magic
// set) when those before it hold. A head read negated by several rules, which the aliases made
// one OR of its aliases, is read through its rules in each.

// inlinable returns the relations of the restricted relaxed program rg to read through their
// rules (see above); dynamic says which relations depend on the state.
func (rg *session) inlinable(dynamic func(*relation) bool) map[*relation]bool {
	read := map[*relation]bool{} // read by a rule's body, or by exclusion counting
	for _, r := range rg.rels {
		for _, ru := range r.rules {
			for _, l := range ru.body {
				if l.rel != nil {
					read[l.rel] = true
				}
			}
			if ru.excl != nil {
				read[ru.excl.e] = true
				for _, o := range ru.excl.origs {
					for _, l := range o.body {
						if l.rel != nil {
							read[l.rel] = true
						}
					}
				}
			}
		}
	}
	out := map[*relation]bool{}
	for _, r := range rg.rels {
		if r == rg.trueRel || r == rg.doesRel || r.arity == 0 || len(r.rules) == 0 || read[r] || keywordRel(foldName(r.name)) {
			continue
		}
		if !slices.ContainsFunc(r.rules, func(ru *rule) bool { return !rg.copiesOne(ru, dynamic) }) {
			out[r] = true
		}
	}
	return out // none reads another: that one is read
}

// copiesOne reports whether ru is a copy rule without variables of its own: a head of distinct
// variables, no dropped literal, one positive atom that depends on the state and static
// literals besides, every variable the head's.
func (rg *session) copiesOne(ru *rule, dynamic func(*relation) bool) bool {
	if ru.excl != nil || len(ru.dropped) > 0 || ru.head.kind != pFunc || rg.evalRules[ru] != nil {
		return false
	}
	head := make([]bool, ru.nvars)
	for _, a := range ru.head.args {
		if a.kind != pVar || head[a.v] {
			return false
		}
		head[a.v] = true
	}
	dyn := 0
	for _, l := range ru.body {
		vs := make([]bool, ru.nvars)
		for _, p := range []*pnode{l.atom, l.a, l.b} {
			if p != nil {
				markVars(p, vs, true)
			}
		}
		for v, in := range vs {
			if in && !head[v] {
				return false
			}
		}
		if l.rel != nil && dynamic(l.rel) {
			if l.kind != litPos {
				return false
			}
			dyn++
		}
	}
	return dyn == 1
}

// isMagicRel reports whether r is a magic relation of a restricted relaxed program (magicSets):
// its name has a space, which no symbol of a game has.
func isMagicRel(r *relation) bool { return strings.HasPrefix(r.name, "magic ") }

// readThrough appends to body, for the dropped literal l (not (T a...)) of a relation T read
// through its rules, at the bindings env, the negation of each rule's atom that depends on the
// state, where its static literals hold and the atom can hold.
func (b *grounder) readThrough(body []GroundLit, l *lit, env []Term) []GroundLit {
	rg := b.rg
	vals := b.vals[:0]
	for _, a := range rg.argPatterns(l.atom) {
		vals = append(vals, rg.build(a, env))
	}
	b.vals = vals
	for _, tr := range l.rel.rules {
		tenv := b.tenv[:0]
		for range tr.nvars {
			tenv = append(tenv, 0)
		}
		b.tenv = tenv
		for i, h := range tr.head.args {
			tenv[h.v] = vals[i]
		}
		var atom Term
		holds := true
		for i := range tr.body {
			tl := &tr.body[i]
			if tl.rel != nil && b.dynamic(tl.rel) {
				atom = rg.atomOf(tl.rel, tl.atom, tenv, false)
				if atom == 0 || !rg.has(tl.rel, atom) {
					holds = false
				}
			} else {
				holds = rg.staticHolds(tl, tenv)
			}
			if !holds {
				break
			}
		}
		if holds {
			body = append(body, GroundLit{Atom: atom, Neg: true})
		}
	}
	return body
}

// staticHolds reports whether literal l, on no relation that depends on the state, holds at
// the bindings env in the relaxed program (a magic literal is taken to hold: see above).
func (rg *session) staticHolds(l *lit, env []Term) bool {
	switch l.kind {
	case litPos, litCheck:
		if isMagicRel(l.rel) {
			return true
		}
		a := rg.atomOf(l.rel, l.atom, env, false)
		return a != 0 && rg.has(l.rel, a)
	case litNeg:
		a := rg.atomOf(l.rel, l.atom, env, false)
		return a == 0 || !rg.has(l.rel, a)
	case litDistinct:
		return rg.build(l.a, env) != rg.build(l.b, env)
	}
	return rg.build(l.a, env) == rg.build(l.b, env) // litEqual
}
