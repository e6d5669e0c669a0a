package eval

import (
	"fmt"
	"slices"
)

// Exclusion counting: "some witness other than this one".
//
// A rule whose head has variables C that its body mentions only in one static literal S, which
// also holds local variables U, says "there is a U such that the rest of the body holds and
// S(C, U)". Chess's threatened_with_capture/7 is one: "some opponent's piece, at (u, v), attacks
// (x, y), and (u, v) is not (cx, cy)", (different_cells ?cx ?cy ?u ?v). Grounded as written it
// makes one ground rule per value of C, per value of the other head variables and per witness
// U: 14,780,508 for chess's 313,096 atoms of threatened_with_capture (with the relaxed program
// restricted by magic sets).
//
// The rule is rewritten into an auxiliary relation E of the rest of the body, of the other head
// variables H and of U (the witnesses), and the rule H, C <= E(H, U), S(C, U), marked. Its ground
// rules are then made per head atom from the witnesses of its H (the atoms of E that can hold):
// when S excludes none of them, the head is "one witness or more"; when it excludes one, x,
// "two witnesses or more, or one witness or more and not x" (two OR-chains per H, shared by all
// the values of C); when it excludes more, or keeps two or fewer, one ground rule per witness it
// keeps, as before. The alternatives of an or count their witnesses together (mergeExclusions),
// and a rule counted for fewer than half its atoms, or recursive, is grounded as written
// (excluder.rule): chess's threatened_with_capture then has 1,334,540 ground rules. The rewrite
// is valid for any program: E is a projection, and the counting is the same disjunction written
// with fewer gates.

// exclusion marks a rule rewritten for exclusion counting: H, C <= E(H, U), S(C, U, H).
type exclusion struct {
	e     *relation
	eAtom *pnode  // E(H..., U...)
	s     lit     // the static literal
	h, u  []int   // the variables of H and U, in E's order
	origs []*rule // the rules as written (more than one when merged), grounded when counting does not pay
}

// excludeOthers rewrites rule ru for exclusion counting when it has the shape (see above): it
// returns the marked rule that replaces ru, and adds E's rule to E (ru itself when the rule
// does not have the shape). dynamic says which literals depend on the state. S is one static
// literal: of those that have the shape, the first whose relation is defined with distinct
// (different_cells), which is what makes it exclude few witnesses, else the first.
func (rg *session) excludeOthers(ru *rule, dynamic func(*lit) bool) *rule {
	all := ruleVarLits(ru)
	head := make([]bool, ru.nvars)
	markVars(ru.head, head, true)
	best, bestDistinct := -1, false
	for i, r := range all {
		if r.dropped || r.l.kind != litPos || r.l.rel == nil || dynamic(&r.l) || rg.auxDynamic[r.l.rel.fn] || !flatVars(r.l.atom) {
			continue
		}
		if !excludes(ru, all, head, i) {
			continue
		}
		if d := definedWithDistinct(r.l.rel); best < 0 || d && !bestDistinct {
			best, bestDistinct = i, d
		}
	}
	if best < 0 {
		return ru
	}
	return rg.exclusionOf(ru, all, head, best, dynamic)
}

// excludes reports whether literal all[i] can be a rule's S: it mentions a head variable that
// no other literal mentions (C), and variables not in the head (U) that the other positive
// literals bind.
func excludes(ru *rule, all []varLit, head []bool, i int) bool {
	inRest, boundRest := restVars(ru, all, i)
	hasC, hasU := false, false
	for v, in := range all[i].vars {
		switch {
		case !in:
		case head[v]:
			hasC = hasC || !inRest[v]
		case !boundRest[v]:
			return false
		default:
			hasU = true
		}
	}
	return hasC && hasU
}

// definedWithDistinct reports whether a rule of relation r has a distinct in its body.
func definedWithDistinct(r *relation) bool {
	for _, ru := range r.rules {
		for _, l := range ru.body {
			if l.kind == litDistinct {
				return true
			}
		}
	}
	return false
}

// restVars returns the variables the literals but all[s] mention, and those their positive
// literals bind.
func restVars(ru *rule, all []varLit, s int) (inRest, boundRest []bool) {
	inRest, boundRest = make([]bool, ru.nvars), make([]bool, ru.nvars)
	for i, r := range all {
		if i == s {
			continue
		}
		for v, in := range r.vars {
			inRest[v] = inRest[v] || in
		}
		if !r.dropped && r.l.kind == litPos {
			markVars(r.l.atom, boundRest, true)
		}
	}
	return inRest, boundRest
}

// flatVars reports whether an atom pattern has only variables as its arguments.
func flatVars(p *pnode) bool {
	if p.kind != pFunc || len(p.args) == 0 {
		return false
	}
	for _, a := range p.args {
		if a.kind != pVar {
			return false
		}
	}
	return true
}

// exclusionOf returns ru rewritten with literal all[si] as S (see excludeOthers), or ru when the
// rest has no literal that depends on the state or does not bind the head's other variables.
func (rg *session) exclusionOf(ru *rule, all []varLit, head []bool, si int, dynamic func(*lit) bool) *rule {
	inRest, boundRest := restVars(ru, all, si)
	s := all[si]
	var hs, us []int
	for v := range head {
		switch {
		case head[v] && inRest[v]:
			if !boundRest[v] {
				return ru // an unsafe rule: left as written
			}
			hs = append(hs, v)
		case !head[v] && s.vars[v]:
			us = append(us, v)
		}
	}
	dyn := false
	for i, r := range all {
		dyn = dyn || i != si && r.l.rel != nil && (dynamic(&r.l) || rg.auxDynamic[r.l.rel.fn])
	}
	if !dyn {
		return ru
	}
	vars := append(slices.Clone(hs), us...)
	args := make([]*pnode, len(vars))
	for i, v := range vars {
		args[i] = &pnode{kind: pVar, v: v}
	}
	e := rg.relation(fmt.Sprintf("aux %d", len(rg.auxDynamic)), len(args))
	eAtom := &pnode{kind: pFunc, fn: e.fn, args: args, flat: true}
	er := &rule{rel: e, head: eAtom, nvars: ru.nvars, varNames: ru.varNames, span: ru.span, clause: ru.clause}
	for i, r := range all {
		switch {
		case i == si:
		case r.dropped:
			er.dropped = append(er.dropped, r.l)
		default:
			er.body = append(er.body, r.l)
		}
	}
	rg.auxDynamic[e.fn] = true
	e.rules = append(e.rules, er)
	main := &rule{rel: ru.rel, head: ru.head, nvars: ru.nvars, varNames: ru.varNames, span: ru.span, clause: ru.clause,
		body: []lit{{kind: litPos, rel: e, atom: eAtom}, s.l}}
	main.excl = &exclusion{e: e, eAtom: eAtom, s: s.l, h: hs, u: us, origs: []*rule{ru}}
	return main
}

// A witness is an atom of E, with the values of U in it.
type witness struct {
	u    []Term
	atom Term
}

// excluder makes the ground rules of the rules marked for exclusion counting.
type excluder struct {
	b    *grounder
	made int // rules grounded: numbers the functors of their atoms
	// Of the rule being grounded: the functors of the atoms "one or more" (prefixes, of H and
	// U) and "two or more" (of H), and the chains per value of H.
	prefixFn, twoFn uint32
	chains          map[string]*countChain
}

// countChain is the atoms "one witness or more" and "two or more" of the witnesses of a value of
// H.
type countChain struct {
	one, two Term
}

// valuesOf returns the values of variables vs in env.
func valuesOf(env []Term, vs []int) []Term {
	out := make([]Term, len(vs))
	for i, v := range vs {
		out[i] = env[v]
	}
	return out
}

// termsKey encodes terms as a map key.
func termsKey(ts []Term) string {
	b := make([]byte, 0, 4*len(ts))
	for _, t := range ts {
		b = append(b, byte(t), byte(t>>8), byte(t>>16), byte(t>>24))
	}
	return string(b)
}

// A headWitnesses is a head atom of a marked rule with its witnesses: those S keeps, and the last
// one it excludes (-1 for none).
type headWitnesses struct {
	t        Term
	hv       []Term
	ws       []witness
	kept     []int
	excluded int
}

// counted reports whether the head is counted: three witnesses kept or more, one excluded at
// most.
func (h *headWitnesses) counted() bool {
	return len(h.kept) > 2 && len(h.ws)-len(h.kept) <= 1
}

// rule makes the ground rules of rule ru, marked for exclusion counting, for every atom of its
// relation that can hold. When counting does not pay, for fewer than half of the atoms it
// derives, or the rule is recursive, the rules as written are grounded instead, and E's rules
// are not.
func (x *excluder) rule(ru *rule) error {
	rg, ex := x.b.rg, ru.excl
	st := rg.st
	heads, err := x.witnesses(ru)
	if err != nil {
		return err
	}
	// A recursive rule (E depends on the head's relation) is not counted: "and not the excluded
	// witness" would make a cycle through a negation.
	if !x.pays(ex, heads) || ex.e.scc == ru.rel.scc {
		for _, o := range ex.origs {
			if err := x.b.enumerate(o, true); err != nil {
				return err
			}
		}
		return nil
	}
	for _, er := range ex.e.rules {
		if err := x.b.enumerate(er, false); err != nil {
			return err
		}
	}
	x.made++
	x.chains = map[string]*countChain{}
	x.prefixFn = st.functor(st.sym(fmt.Sprintf("one or more %d", x.made)), len(ex.h)+len(ex.u))
	x.twoFn = st.functor(st.sym(fmt.Sprintf("two or more %d", x.made)), len(ex.h))
	for i := range heads {
		if err := x.head(&heads[i]); err != nil {
			return err
		}
	}
	return nil
}

// pays reports whether counting the witnesses of heads pays: for half of them at least; in the
// restricted pass (made when the grounding as written proved too big), when it makes fewer
// ground rules, E's and the chains' included. Chess's threatened_with_capture, once the square
// ignored is lifted (ground_lift.go), has a special part of 79,792 atoms, 42% of them with three
// witnesses or more: 392,240 ground rules as written.
func (x *excluder) pays(ex *exclusion, heads []headWitnesses) bool {
	counted, written := 0, 0
	cost := len(ex.e.facts)
	chains := map[string]bool{}
	for i := range heads {
		h := &heads[i]
		written += len(h.kept)
		if !h.counted() {
			cost += len(h.kept)
			continue
		}
		counted++
		cost += 2
		if k := termsKey(h.hv); !chains[k] {
			chains[k] = true
			cost += 3 * (len(h.ws) - 1)
		}
	}
	if x.b.restricted {
		return cost < written
	}
	return 2*counted >= len(heads)
}

// witnesses returns the atoms of ru's relation that ru derives, with their witnesses.
func (x *excluder) witnesses(ru *rule) ([]headWitnesses, error) {
	rg, ex := x.b.rg, ru.excl
	env := make([]Term, ru.nvars)
	byH := map[string][]witness{}
	for _, t := range ex.e.facts {
		clear(env)
		if matchFact(rg.st, ex.eAtom, t, env) {
			k := termsKey(valuesOf(env, ex.h))
			byH[k] = append(byH[k], witness{valuesOf(env, ex.u), t})
		}
	}
	var heads []headWitnesses
	for n, t := range ru.rel.facts {
		clear(env)
		if !matchFact(rg.st, ru.head, t, env) {
			continue
		}
		h := headWitnesses{t: t, hv: valuesOf(env, ex.h), excluded: -1}
		h.ws = byH[termsKey(h.hv)]
		for w := range h.ws {
			for j, v := range ex.u {
				env[v] = h.ws[w].u[j]
			}
			if a := rg.atomOf(ex.s.rel, ex.s.atom, env, false); a != 0 && rg.has(ex.s.rel, a) {
				h.kept = append(h.kept, w)
			} else {
				h.excluded = w
			}
		}
		if len(h.kept) > 0 {
			heads = append(heads, h)
		}
		if n&0xfff == 0 {
			if err := rg.check(nil); err != nil {
				return nil, &GroundError{Reason: "the ground rules cannot be enumerated", Err: err}
			}
		}
	}
	return heads, nil
}

// head makes the ground rules of a head atom from its witnesses.
func (x *excluder) head(h *headWitnesses) error {
	b := x.b
	if !h.counted() {
		for _, w := range h.kept {
			if err := b.add(GroundRule{Head: h.t, Body: []GroundLit{{Atom: h.ws[w].atom}}}); err != nil {
				return err
			}
		}
		return nil
	}
	c, err := x.chain(h.hv, h.ws)
	if err != nil {
		return err
	}
	if len(h.kept) == len(h.ws) {
		return b.add(GroundRule{Head: h.t, Body: []GroundLit{{Atom: c.one}}})
	}
	if err := b.add(GroundRule{Head: h.t, Body: []GroundLit{{Atom: c.two}}}); err != nil {
		return err
	}
	return b.add(GroundRule{Head: h.t, Body: []GroundLit{{Atom: c.one}, {Atom: h.ws[h.excluded].atom, Neg: true}}})
}

// chain returns the counting atoms of the witnesses ws of value hv of H, making their ground
// rules on first use: prefix i is "one of the first i+1 witnesses or more", and "two or more"
// holds when a witness holds with the prefix before it.
func (x *excluder) chain(hv []Term, ws []witness) (*countChain, error) {
	k := termsKey(hv)
	if c := x.chains[k]; c != nil {
		return c, nil
	}
	st := x.b.rg.st
	c := &countChain{two: st.intern(x.twoFn, hv)}
	prev := ws[0].atom
	for _, w := range ws[1:] {
		if err := x.b.add(GroundRule{Head: c.two, Body: []GroundLit{{Atom: prev}, {Atom: w.atom}}}); err != nil {
			return nil, err
		}
		p := st.intern(x.prefixFn, append(slices.Clone(hv), w.u...))
		for _, l := range []Term{prev, w.atom} {
			if err := x.b.add(GroundRule{Head: p, Body: []GroundLit{{Atom: l}}}); err != nil {
				return nil, err
			}
		}
		prev = p
	}
	c.one = prev
	x.chains[k] = c
	return c, nil
}

// mergeExclusions merges the rules of relation r marked for exclusion counting that differ only
// in E's rule: the alternatives of an or, such as chess's "a bishop, a rook or a queen other than
// the one on (cx, cy) attacks (x, y)". Their E relations become one, of each alternative's rule,
// so that one count covers the witnesses of them all (two ground rules per head atom instead of
// two per alternative).
func (rg *session) mergeExclusions(r *relation) {
	var out []*rule
	var firsts []*rule
	for _, ru := range r.rules {
		ex := ru.excl
		if ex == nil {
			out = append(out, ru)
			continue
		}
		i := slices.IndexFunc(firsts, func(f *rule) bool { return sameExclusion(f, ru) })
		if i < 0 {
			firsts = append(firsts, ru)
			out = append(out, ru)
			continue
		}
		into := firsts[i].excl.e
		firsts[i].excl.origs = append(firsts[i].excl.origs, ex.origs...)
		for _, er := range ex.e.rules {
			moved := *er
			moved.rel, moved.head = into, firsts[i].excl.eAtom
			into.rules = append(into.rules, &moved)
		}
		ex.e.rules = nil
	}
	r.rules = out
}

// sameExclusion reports whether two marked rules have the same head, S and variables of E.
func sameExclusion(a, b *rule) bool {
	x, y := a.excl, b.excl
	return a.nvars == b.nvars && equalPattern(a.head, b.head) && x.s.rel == y.s.rel && equalPattern(x.s.atom, y.s.atom) &&
		slices.Equal(x.h, y.h) && slices.Equal(x.u, y.u)
}

// equalPattern reports whether two build patterns are the same, variable numbers included (an
// explicit stack: a head can be nested as deep as its source).
func equalPattern(p, q *pnode) bool {
	stack := [][2]*pnode{{p, q}}
	for len(stack) > 0 {
		x, y := stack[len(stack)-1][0], stack[len(stack)-1][1]
		stack = stack[:len(stack)-1]
		if x.kind != y.kind || x.v != y.v || x.t != y.t || x.fn != y.fn || len(x.args) != len(y.args) {
			return false
		}
		for i := range x.args {
			stack = append(stack, [2]*pnode{x.args[i], y.args[i]})
		}
	}
	return true
}
