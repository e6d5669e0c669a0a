package eval

import "slices"

// Lifted parameters: an argument that a family of relations passes along unchanged and tests
// only against a static domain, but in a few rules equates with another argument. Chess's
// threat relations carry a square to ignore: (clear_row_ig ?u ?y ?x ?y ?ignorex ?ignorey)
// holds when the row from u to x is clear but for the square ignored; its base rule holds for
// any square ignored ((coordinate ?ignorex) (coordinate ?ignorey)), one rule passes it on
// unchanged, and one only, "the next square is the one ignored", names it elsewhere. As
// written every atom of the family is made once per square ignored (64 times): threatened/5,
// threatened_with_capture/7 and the threat relations beneath them were 1.7 million ground rules.
//
// A relation R of the family, of arguments a and parameters i, becomes two: R generic (a),
// what R's rules derive without ever naming i but in its domain, and R special (a, i), what a
// derivation that names i somewhere derives; R (a, i) holds when R generic (a) holds and i is
// in the domain, or R special (a, i) holds. A rule is generic when its head's parameters are
// variables that its body mentions only in domain literals (the domain of R, exactly when no
// literal of the family passes them on) and in literals of the family, at their parameters, in
// their order. A generic rule makes a rule of R generic, reading the generic relations of the
// literals of the family, and per such literal a rule of R special reading that literal's
// special relation; any other rule is a rule of R special. A positive literal of the family
// elsewhere (a special rule, or a reader outside the family) reads "generic and in the domain,
// or special" as two alternatives: chess's discovered check, "the opponent moved a piece from
// (u, v) and a rook threatens the king ignoring (u, v)", is then "some move, and a rook
// threatens the king", or the special relation, which holds for squares on the rook's line.
// It is done in the restricted pass only (relaxed with magic sets, made when the grounding as
// written proved too big), on a family where a parameter is passed on by a recursion and named
// by a special rule.

// A paramLift is the state of liftParams: per relation of the family, the positions of its
// parameters among its head's arguments, and the domain of each (the unary static relations
// that test it).
type paramLift struct {
	rg      *session
	static  func(*relation) bool
	params  map[*relation][]int
	domain  map[*relation][][]*relation
	genRel  map[*relation]*relation // per relation of the family, after build: R generic
	specRel map[*relation]*relation // R special
}

// liftParams rewrites the families of relations with lifted parameters (see above) among the
// relations that static says depend on the state.
func (rg *session) liftParams(static func(*relation) bool) {
	pl := &paramLift{rg: rg, static: static, params: map[*relation][]int{}, domain: map[*relation][][]*relation{}}
	for _, r := range rg.rels {
		if pl.candidate(r) {
			pl.seed(r)
		}
	}
	pl.propagate()
	pl.keepPassed()
	if len(pl.params) == 0 {
		return
	}
	pl.build()
}

// candidate reports whether r may be in a family: a relation of the game's that depends on the
// state, derived, not a keyword.
func (pl *paramLift) candidate(r *relation) bool {
	return !pl.static(r) && r.arity > 0 && len(r.rules) > 0 && r.refused == nil && !keywordRel(foldName(r.name))
}

// domainVar returns the variable that l, a positive literal of a unary static relation on a
// variable, tests, or -1.
func (pl *paramLift) domainVar(l *lit) int {
	if l.kind != litPos || l.rel == nil || l.rel.arity != 1 || !pl.static(l.rel) || l.atom.kind != pFunc || l.atom.args[0].kind != pVar {
		return -1
	}
	return l.atom.args[0].v
}

// headCounts returns per variable how often ru's head mentions it.
func headCounts(ru *rule) []int {
	n := make([]int, ru.nvars)
	var walk func(p *pnode)
	walk = func(p *pnode) {
		switch p.kind {
		case pVar:
			n[p.v]++
		case pFunc:
			for _, a := range p.args {
				walk(a)
			}
		}
	}
	walk(ru.head)
	return n
}

// freeArgs returns the positions of ru's head whose variable the head mentions once and the
// body only in domain literals (one at least), with the domain of each.
func (pl *paramLift) freeArgs(ru *rule) ([]int, [][]*relation) {
	if ru.head.kind != pFunc || len(ru.dropped) > 0 {
		return nil, nil
	}
	hc := headCounts(ru)
	var pos []int
	var doms [][]*relation
	for p, a := range ru.head.args {
		if a.kind != pVar || hc[a.v] != 1 {
			continue
		}
		var dom []*relation
		ok := true
		for i := range ru.body {
			l := &ru.body[i]
			vs := make([]bool, ru.nvars)
			litMarks(l, vs)
			if !vs[a.v] {
				continue
			}
			if pl.domainVar(l) != a.v {
				ok = false
				break
			}
			dom = append(dom, l.rel)
		}
		if ok && len(dom) > 0 {
			pos = append(pos, p)
			doms = append(doms, sortedRels(dom))
		}
	}
	return pos, doms
}

// sortedRels returns rs sorted by functor, without repeats.
func sortedRels(rs []*relation) []*relation {
	rs = slices.Clone(rs)
	slices.SortFunc(rs, func(a, b *relation) int { return int(a.fn) - int(b.fn) })
	return slices.Compact(rs)
}

// seed gives r parameters when its rules with free arguments (freeArgs) share some, with the
// same domains: the arguments all of them leave free.
func (pl *paramLift) seed(r *relation) {
	var pos []int
	var doms [][]*relation
	for _, ru := range r.rules {
		ps, ds := pl.freeArgs(ru)
		if len(ps) == 0 {
			continue
		}
		if pos == nil {
			pos, doms = ps, ds
			continue
		}
		var keepP []int
		var keepD [][]*relation
		for k, p := range pos {
			if j := slices.Index(ps, p); j >= 0 && slices.Equal(ds[j], doms[k]) {
				keepP, keepD = append(keepP, p), append(keepD, doms[k])
			}
		}
		pos, doms = keepP, keepD
		if len(pos) == 0 {
			return
		}
	}
	if len(pos) > 0 {
		pl.params[r], pl.domain[r] = pos, doms
	}
}

// genericLits reports whether ru is a generic rule of a relation with parameters at params of
// domains dom, and returns the indexes of its literals of the family that pass them on.
func (pl *paramLift) genericLits(ru *rule, params []int, dom [][]*relation) ([]int, bool) {
	if ru.head.kind != pFunc || len(ru.dropped) > 0 {
		return nil, false
	}
	hc := headCounts(ru)
	pv := make([]int, len(params)) // the parameters' variables
	for j, p := range params {
		a := ru.head.args[p]
		if a.kind != pVar || hc[a.v] != 1 {
			return nil, false
		}
		pv[j] = a.v
	}
	var fam []int
	seen := make([][]*relation, len(params))
	for i := range ru.body {
		l := &ru.body[i]
		if j := slices.Index(pv, pl.domainVar(l)); j >= 0 {
			if !slices.Contains(dom[j], l.rel) {
				return nil, false
			}
			seen[j] = append(seen[j], l.rel)
			continue
		}
		vs := make([]bool, ru.nvars)
		litMarks(l, vs)
		mentions := false
		for _, v := range pv {
			mentions = mentions || vs[v]
		}
		if !mentions {
			continue
		}
		if !pl.passes(l, pv, dom) {
			return nil, false
		}
		fam = append(fam, i)
	}
	if len(fam) == 0 { // a base rule: the domain exactly
		for j := range seen {
			if !slices.Equal(sortedRels(seen[j]), dom[j]) {
				return nil, false
			}
		}
	}
	return fam, true
}

// passes reports whether l is a positive literal of the family with the variables pv at its
// parameters, in their order, and nowhere else, and the domains dom.
func (pl *paramLift) passes(l *lit, pv []int, dom [][]*relation) bool {
	qp, ok := pl.params[l.rel]
	if l.kind != litPos || !ok || len(qp) != len(pv) || l.atom.kind != pFunc {
		return false
	}
	for j := range dom {
		if !slices.Equal(dom[j], pl.domain[l.rel][j]) {
			return false
		}
	}
	for p, a := range l.atom.args {
		j := slices.Index(qp, p)
		if j >= 0 {
			if a.kind != pVar || a.v != pv[j] {
				return false
			}
			continue
		}
		for _, v := range pv {
			if mentionsVar(a, v) {
				return false
			}
		}
	}
	return true
}

// propagate gives parameters to the relations whose rules pass a literal's parameters on from
// their heads, in a generic rule, until none is added.
func (pl *paramLift) propagate() {
	for changed := true; changed; {
		changed = false
		for _, r := range pl.rg.rels {
			if _, ok := pl.params[r]; ok || !pl.candidate(r) {
				continue
			}
			for _, ru := range r.rules {
				if pos, dom, ok := pl.passedOn(ru); ok {
					pl.params[r], pl.domain[r] = pos, dom
					changed = true
					break
				}
			}
		}
	}
}

// passedOn returns the head positions of a literal's parameters when ru is a generic rule with
// them as its parameters, and their domains.
func (pl *paramLift) passedOn(ru *rule) ([]int, [][]*relation, bool) {
	if ru.head.kind != pFunc {
		return nil, nil, false
	}
	for i := range ru.body {
		l := &ru.body[i]
		qp, ok := pl.params[l.rel]
		if l.kind != litPos || !ok || l.atom.kind != pFunc {
			continue
		}
		pos := make([]int, 0, len(qp))
		for _, q := range qp {
			a := l.atom.args[q]
			h := -1
			if a.kind == pVar {
				h = slices.IndexFunc(ru.head.args, func(b *pnode) bool { return b.kind == pVar && b.v == a.v })
			}
			if h < 0 || slices.Contains(pos, h) {
				break
			}
			pos = append(pos, h)
		}
		if len(pos) < len(qp) {
			continue
		}
		if _, ok := pl.genericLits(ru, pos, pl.domain[l.rel]); ok {
			return pos, pl.domain[l.rel], true
		}
	}
	return nil, nil, false
}

// keepPassed keeps the families (relations linked by generic rules that read each other) where
// a generic rule passes a parameter on to its own relation (a recursion, where the atoms per
// value of the parameter multiply) and a special rule names one. Elsewhere R generic would
// mostly add a relation: chineseCheckers6's devoid/2, "a square that no other role's piece
// is on", holds for any role of the 6 where the square is empty, and its count/5 reads it per
// role; lifted, its ground rules grew from 101,485 to 101,581.
func (pl *paramLift) keepPassed() {
	var fam []*relation
	for _, r := range pl.rg.rels {
		if _, ok := pl.params[r]; ok {
			fam = append(fam, r)
		}
	}
	u := newUnionFind(len(fam))
	passed, named := map[int]bool{}, map[int]bool{}
	for k, r := range fam {
		for _, ru := range r.rules {
			lits, ok := pl.genericLits(ru, pl.params[r], pl.domain[r])
			if !ok {
				named[k] = true
				continue
			}
			for _, i := range lits {
				passed[k] = passed[k] || ru.body[i].rel == r
				u[u.find(k)] = u.find(slices.Index(fam, ru.body[i].rel))
			}
		}
	}
	keep := map[int]bool{}
	for k := range fam {
		root := u.find(k)
		if passed[k] {
			keep[-1-root] = true
		}
		if named[k] {
			keep[root] = true
		}
	}
	for k, r := range fam {
		if root := u.find(k); !keep[root] || !keep[-1-root] {
			delete(pl.params, r)
			delete(pl.domain, r)
		}
	}
}

// mentionsVar reports whether pattern p mentions variable v.
func mentionsVar(p *pnode, v int) bool {
	switch p.kind {
	case pVar:
		return p.v == v
	case pFunc:
		for _, a := range p.args {
			if mentionsVar(a, v) {
				return true
			}
		}
	}
	return false
}

// build makes R generic and R special of each relation of the families, and rewrites the
// rules: R's become "R generic and in the domain, or R special"; readers outside the families
// read their positive literals of them as those two alternatives.
func (pl *paramLift) build() {
	rg := pl.rg
	pl.genRel, pl.specRel = map[*relation]*relation{}, map[*relation]*relation{}
	var fam, outside []*relation
	for _, r := range rg.rels {
		if _, ok := pl.params[r]; ok {
			fam = append(fam, r)
		} else if !pl.static(r) {
			outside = append(outside, r)
		}
	}
	for _, r := range fam {
		pl.genRel[r] = rg.relation(r.name+" generic", r.arity-len(pl.params[r]))
		pl.specRel[r] = rg.relation(r.name+" special", r.arity)
		rg.auxDynamic[pl.genRel[r].fn] = true
		rg.auxDynamic[pl.specRel[r].fn] = true
	}
	for _, r := range outside {
		var rules []*rule
		for _, ru := range r.rules {
			rules = append(rules, pl.expandReads(ru)...)
		}
		r.rules = rules
	}
	for _, r := range fam {
		var gen, spec []*rule
		for _, ru := range r.rules {
			lits, ok := pl.genericLits(ru, pl.params[r], pl.domain[r])
			if !ok {
				spec = append(spec, pl.expandReads(pl.retarget(ru, pl.specRel[r], ru.head))...)
				continue
			}
			gen = append(gen, pl.genericRule(ru, r, lits))
			for _, i := range lits {
				sr := pl.retarget(ru, pl.specRel[r], ru.head)
				l := &sr.body[i]
				l.rel, l.atom = pl.specRel[l.rel], pl.atom(pl.specRel[l.rel].fn, l.atom.args)
				spec = append(spec, sr)
			}
		}
		pl.genRel[r].rules, pl.specRel[r].rules = gen, spec
		r.rules = pl.liftRules(r)
	}
}

// atom returns the atom of functor fn with argument patterns args (a constant when ground).
func (pl *paramLift) atom(fn uint32, args []*pnode) *pnode {
	ts := make([]Term, len(args))
	flat, ground := true, true
	for i, a := range args {
		flat = flat && a.kind != pFunc
		ground = ground && a.kind == pConst
		ts[i] = a.t
	}
	if ground {
		return &pnode{kind: pConst, t: pl.rg.st.intern(fn, ts)}
	}
	return &pnode{kind: pFunc, fn: fn, args: args, flat: flat}
}

// without returns args without the positions ps.
func without(args []*pnode, ps []int) []*pnode {
	var out []*pnode
	for p, a := range args {
		if !slices.Contains(ps, p) {
			out = append(out, a)
		}
	}
	return out
}

// retarget returns a copy of ru as a rule of rel with the given head's arguments, its body
// copied.
func (pl *paramLift) retarget(ru *rule, rel *relation, head *pnode) *rule {
	return &rule{rel: rel, head: pl.atom(rel.fn, pl.rg.argPatterns(head)), body: slices.Clone(ru.body), dropped: slices.Clone(ru.dropped),
		nvars: ru.nvars, varNames: ru.varNames, span: ru.span, clause: ru.clause}
}

// genericRule returns the rule of R generic that generic rule ru of r makes: without the
// parameters, their domain literals, and reading the generic relations of lits.
func (pl *paramLift) genericRule(ru *rule, r *relation, lits []int) *rule {
	pv := make([]int, 0, len(pl.params[r]))
	for _, p := range pl.params[r] {
		pv = append(pv, ru.head.args[p].v)
	}
	g := pl.genRel[r]
	out := &rule{rel: g, head: pl.atom(g.fn, without(ru.head.args, pl.params[r])), nvars: ru.nvars, varNames: ru.varNames, span: ru.span, clause: ru.clause}
	for i, l := range ru.body {
		if slices.Contains(pv, pl.domainVar(&l)) {
			continue
		}
		if slices.Contains(lits, i) {
			q := l.rel
			l.rel, l.atom = pl.genRel[q], pl.atom(pl.genRel[q].fn, without(l.atom.args, pl.params[q]))
		}
		out.body = append(out.body, l)
	}
	return out
}

// liftRules returns the rules of r: r (a, i) <= r generic (a), i in the domain; and r (a, i) <=
// r special (a, i).
func (pl *paramLift) liftRules(r *relation) []*rule {
	first := r.rules[0]
	args := make([]*pnode, r.arity)
	names := make([]string, r.arity)
	for i := range args {
		args[i] = &pnode{kind: pVar, v: i}
		names[i] = "?" + string(rune('a'+i%26))
	}
	lift := &rule{rel: r, head: pl.atom(r.fn, args), nvars: r.arity, varNames: names, span: first.span, clause: first.clause}
	lift.body = append(lift.body, pl.liftAlternative(r, args)...)
	copyRule := &rule{rel: r, head: lift.head, nvars: r.arity, varNames: names, span: first.span, clause: first.clause,
		body: []lit{{kind: litPos, rel: pl.specRel[r], atom: pl.atom(pl.specRel[r].fn, args)}}}
	return []*rule{lift, copyRule}
}

// liftAlternative returns the literals "r generic (a), i in the domain" for an atom of r of
// argument patterns args.
func (pl *paramLift) liftAlternative(r *relation, args []*pnode) []lit {
	g := pl.genRel[r]
	out := []lit{{kind: litPos, rel: g, atom: pl.atom(g.fn, without(args, pl.params[r]))}}
	for j, p := range pl.params[r] {
		for _, d := range pl.domain[r][j] {
			out = append(out, lit{kind: litPos, rel: d, atom: pl.atom(d.fn, []*pnode{args[p]})})
		}
	}
	return out
}

// expandReads returns the rules that replace ru when it reads relations of the families: each
// positive literal of one becomes the alternatives "generic and in the domain" and "special"
// (up to maxLiftedReads such literals a rule; past them it reads R).
func (pl *paramLift) expandReads(ru *rule) []*rule {
	var at []int
	for i, l := range ru.body {
		if _, ok := pl.params[l.rel]; ok && l.kind == litPos {
			at = append(at, i)
		}
	}
	if len(at) == 0 || len(at) > maxLiftedReads {
		return []*rule{ru}
	}
	out := []*rule{ru}
	for _, i := range slices.Backward(at) { // the last first: an alternative adds literals
		var next []*rule
		for _, r := range out {
			l := r.body[i]
			q := l.rel
			gen := pl.retarget(r, r.rel, r.head)
			gen.body = slices.Concat(r.body[:i], pl.liftAlternative(q, pl.rg.argPatterns(l.atom)), r.body[i+1:])
			spec := pl.retarget(r, r.rel, r.head)
			spec.body[i] = lit{kind: litPos, rel: pl.specRel[q], atom: pl.atom(pl.specRel[q].fn, pl.rg.argPatterns(l.atom))}
			next = append(next, gen, spec)
		}
		out = next
	}
	return out
}

// maxLiftedReads bounds the literals of the families a rule reads as two alternatives each.
const maxLiftedReads = 2
