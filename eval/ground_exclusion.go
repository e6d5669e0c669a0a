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
// U: chess's 190,000 atoms of threatened_with_capture times 27 squares times three kinds of
// attacker.
//
// The rule is rewritten into an auxiliary relation E of the rest of the body, of the other head
// variables H and of U (the witnesses), and the rule H, C <= E(H, U), S(C, U), marked. Its ground
// rules are then made per head atom from the witnesses of its H (the atoms of E that can hold):
// when S excludes none of them, the head is "one witness or more"; when it excludes one, x,
// "two witnesses or more, or one witness or more and not x" (two OR-chains per H, shared by all
// the values of C); when it excludes more, one ground rule per witness it keeps, as before. The
// rewrite is valid for any program: E is a projection, and the counting is the same disjunction
// written with fewer gates.

// exclusion marks a rule rewritten for exclusion counting: H, C <= E(H, U), S1, ..., Sk, each
// static literal Si over some of the variables C (in no other literal), U, and H.
type exclusion struct {
	e     *relation
	eAtom *pnode // E(H..., U...)
	ss    []lit  // the static literals
	h, u  []int  // the variables of H and U, in E's order
}

// excludeOthers rewrites rule ru for exclusion counting when it has the shape (see above): it
// returns the marked rule that replaces ru, and adds E's rule to E (ru itself when the rule
// does not have the shape). dynamic says which literals depend on the state.
func (rg *Game) excludeOthers(ru *rule, dynamic func(*lit) bool) *rule {
	all := ruleVarLits(ru)
	if len(all) > 64 {
		return ru
	}
	head := make([]bool, ru.nvars)
	markVars(ru.head, head, true)
	inS := make([]bool, len(all))
	for i, r := range all {
		inS[i] = !r.dropped && r.l.kind == litPos && r.l.rel != nil && !dynamic(&r.l) && !rg.auxDynamic[r.l.rel.fn] &&
			flatVars(r.l.atom)
	}
	// A static literal belongs to S when it mentions a head variable of no other literal (C),
	// and the rest binds its other variables that are not in the head (U); one that does not
	// goes back to the rest, which can take C variables from the others.
	for changed := true; changed; {
		changed = false
		inRest, boundRest := restVars(ru, all, inS)
		for i, r := range all {
			if !inS[i] {
				continue
			}
			hasC, ok := false, true
			for v, in := range r.vars {
				hasC = hasC || in && head[v] && !inRest[v]
				ok = ok && (!in || head[v] || boundRest[v])
			}
			if !hasC || !ok {
				inS[i], changed = false, true
			}
		}
	}
	return rg.exclusionOf(ru, all, head, inS, dynamic)
}

// restVars returns the variables the literals not in S mention, and those their positive
// literals bind.
func restVars(ru *rule, all []varLit, inS []bool) (inRest, boundRest []bool) {
	inRest, boundRest = make([]bool, ru.nvars), make([]bool, ru.nvars)
	for i, r := range all {
		if inS[i] {
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

// exclusionOf returns ru rewritten with the static literals inS as S (see excludeOthers), or ru
// when there are none, or the rest has no literal that depends on the state or does not bind
// the head's other variables.
func (rg *Game) exclusionOf(ru *rule, all []varLit, head []bool, inS []bool, dynamic func(*lit) bool) *rule {
	inRest, boundRest := restVars(ru, all, inS)
	var hs, us []int
	var ss []lit
	for i, r := range all {
		if inS[i] {
			ss = append(ss, r.l)
		}
	}
	for v := range head {
		if head[v] && inRest[v] {
			if !boundRest[v] {
				return ru // an unsafe rule: left as written
			}
			hs = append(hs, v)
		}
	}
	for v := range head {
		if !head[v] && boundRest[v] && slices.ContainsFunc(ss, func(l lit) bool { return mentions(l.atom, v) }) {
			us = append(us, v)
		}
	}
	dyn := false
	for i, r := range all {
		dyn = dyn || !inS[i] && r.l.rel != nil && (dynamic(&r.l) || rg.auxDynamic[r.l.rel.fn])
	}
	if len(ss) == 0 || len(us) == 0 || !dyn {
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
		case inS[i]:
		case r.dropped:
			er.dropped = append(er.dropped, r.l)
		default:
			er.body = append(er.body, r.l)
		}
	}
	rg.auxDynamic[e.fn] = true
	e.rules = append(e.rules, er)
	main := &rule{rel: ru.rel, head: ru.head, nvars: ru.nvars, varNames: ru.varNames, span: ru.span, clause: ru.clause,
		body: append([]lit{{kind: litPos, rel: e, atom: eAtom}}, ss...)}
	main.excl = &exclusion{e: e, eAtom: eAtom, ss: ss, h: hs, u: us}
	return main
}

// mentions reports whether pattern p holds variable v.
func mentions(p *pnode, v int) bool {
	if p.kind == pVar || p.kind == pBind || p.kind == pCheck {
		return p.v == v
	}
	return slices.ContainsFunc(p.args, func(a *pnode) bool { return mentions(a, v) })
}

// A witness is an atom of E, with the values of U in it.
type witness struct {
	u    []Term
	atom Term
}

// excluder makes the ground rules of the rules marked for exclusion counting.
type excluder struct {
	b    *grounder
	made int // functors made: numbers them
	// Of the rule being grounded: per static literal j left out of the count, the functors of
	// the atoms "one or more" (prefixes) and "two or more", and their chains.
	fns    map[int][2]uint32
	chains map[string]*countChain
}

// countChain is the atoms "one witness or more" and "two or more" of a set of witnesses.
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

// rule makes the ground rules of rule ru, marked for exclusion counting, for every atom of its
// relation that can hold.
func (x *excluder) rule(ru *rule) error {
	rg, ex := x.b.rg, ru.excl
	x.fns, x.chains = map[int][2]uint32{}, map[string]*countChain{}
	env := make([]Term, ru.nvars)
	witnesses := map[string][]witness{}
	for _, t := range ex.e.facts {
		clear(env)
		if matchFact(rg.st, ex.eAtom, t, env) {
			k := termsKey(valuesOf(env, ex.h))
			witnesses[k] = append(witnesses[k], witness{valuesOf(env, ex.u), t})
		}
	}
	var pass []uint64
	for n, t := range ru.rel.facts {
		clear(env)
		if !matchFact(rg.st, ru.head, t, env) {
			continue
		}
		ws := witnesses[termsKey(valuesOf(env, ex.h))]
		pass = pass[:0]
		for _, w := range ws {
			for j, v := range ex.u {
				env[v] = w.u[j]
			}
			var bits uint64
			for i := range ex.ss {
				l := &ex.ss[i]
				if a := rg.atomOf(l.rel, l.atom, env, false); a != 0 && rg.has(l.rel, a) {
					bits |= 1 << i
				}
			}
			pass = append(pass, bits)
		}
		if err := x.head(ru, t, env, ws, pass); err != nil {
			return err
		}
		if n&0xfff == 0 {
			if err := rg.check(nil); err != nil {
				return &GroundError{Reason: "the ground rules cannot be enumerated", Err: err}
			}
		}
	}
	return nil
}

// head makes the ground rules of head atom t (its variables bound in env), whose witnesses are
// ws, pass[w] saying which static literals hold for witness w.
func (x *excluder) head(ru *rule, t Term, env []Term, ws []witness, pass []uint64) error {
	b, ex := x.b, ru.excl
	every := uint64(1)<<len(ex.ss) - 1
	var kept []int
	for w, bits := range pass {
		if bits == every {
			kept = append(kept, w)
		}
	}
	if len(kept) == 0 {
		return nil
	}
	// The count pays from three witnesses kept, and needs a static literal that excludes at
	// most one of the witnesses the others keep.
	out, excluded := -1, -1
	for j := 0; j < len(ex.ss) && len(kept) > 2 && out < 0; j++ {
		others, n := every&^(1<<j), 0
		for w, bits := range pass {
			if bits&others == others && bits != every {
				n, excluded = n+1, w
			}
		}
		if n <= 1 {
			out = j
			if n == 0 {
				excluded = -1
			}
		}
	}
	if out < 0 {
		for _, w := range kept {
			if err := b.add(GroundRule{Head: t, Body: []GroundLit{{Atom: ws[w].atom}}}); err != nil {
				return err
			}
		}
		return nil
	}
	c, err := x.chain(ru, out, env, ws, pass)
	if err != nil {
		return err
	}
	if excluded < 0 {
		return b.add(GroundRule{Head: t, Body: []GroundLit{{Atom: c.one}}})
	}
	if err := b.add(GroundRule{Head: t, Body: []GroundLit{{Atom: c.two}}}); err != nil {
		return err
	}
	return b.add(GroundRule{Head: t, Body: []GroundLit{{Atom: c.one}, {Atom: ws[excluded].atom, Neg: true}}})
}

// chain returns the counting atoms of the witnesses ws that every static literal but out keeps
// (pass), making their ground rules on first use. The witnesses depend on the values of H and of
// the head's variables that the other static literals mention (env), the key of the chain.
// Prefix i is "one of the first i+1 witnesses or more"; "two or more" holds when a witness holds
// with the prefix before it.
func (x *excluder) chain(ru *rule, out int, env []Term, ws []witness, pass []uint64) (*countChain, error) {
	ex, st := ru.excl, x.b.rg.st
	keyVars := slices.Clone(ex.h)
	for i := range ex.ss {
		if i != out {
			for _, v := range ex.ss[i].atom.args {
				if !slices.Contains(keyVars, v.v) && !slices.Contains(ex.u, v.v) {
					keyVars = append(keyVars, v.v)
				}
			}
		}
	}
	kv := valuesOf(env, keyVars)
	k := termsKey(append([]Term{Term(out)}, kv...))
	if c := x.chains[k]; c != nil {
		return c, nil
	}
	fns, ok := x.fns[out]
	if !ok {
		x.made++
		fns = [2]uint32{st.functor(st.sym(fmt.Sprintf("one or more %d", x.made)), len(kv)+len(ex.u)),
			st.functor(st.sym(fmt.Sprintf("two or more %d", x.made)), len(kv))}
		x.fns[out] = fns
	}
	others := (uint64(1)<<len(ex.ss) - 1) &^ (1 << out)
	c := &countChain{two: st.intern(fns[1], kv)}
	prev := Term(0)
	for w, bits := range pass {
		if bits&others != others {
			continue
		}
		cur := ws[w].atom
		if prev == 0 {
			prev = cur
			continue
		}
		if err := x.b.add(GroundRule{Head: c.two, Body: []GroundLit{{Atom: prev}, {Atom: cur}}}); err != nil {
			return nil, err
		}
		p := st.intern(fns[0], append(slices.Clone(kv), ws[w].u...))
		for _, l := range []Term{prev, cur} {
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
