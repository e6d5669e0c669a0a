package eval

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Existential groups: the restricted relaxed program evaluates a rule with the literals that
// only say "there is some ..." taken apart, while the grounding enumerates the rule whole.
//
// The relaxed program derives atoms; a rule's variables that neither its head nor the
// literals binding the head mention only decide whether the head holds, and a join that binds
// them derives the same head once per witness. In the relaxed program of a grounding they are
// many: the negative literals left out of the rules (kept aside as dropped, for the ground
// rules) often held the variables that tied them to the rest, and splitRule could not take
// them apart. Chess's "a move blocking a rook's check does not leave the king in check" reads
// (true (cell ?kx ?ky ?king)) (blocks_rook_threat ?x ?y ?tx ?ty ?kx ?ky) (true (check ...
// ?tx ?ty)) and, left out, (not (threatened_with_capture ?player ?tx ?ty ?kx ?ky ?u ?v)): its
// relaxed rule derived each of its 3,584 heads about 100 times, once per checking square and
// king square, in 371,000 derivations; and the magic rules made from it (magic sets, which
// have no ground rules) as many.
//
// Each rule of the restricted relaxed program that reads the state is split for evaluation:
// its anchors are the body literals that mention a head variable; the other literals are
// grouped by the variables that neither the head nor an anchor mentions (a union-find), and
// each group with such variables, binding every variable it mentions by its own positive
// atoms, becomes a relation "exists N" of the variables it shares with the rest, with the
// group as its one rule. The rule evaluated (session.evalRules) reads that atom instead of the
// group; the rule keeps every literal and reads the atom too, so that the components see what
// it reads (the atom holds whenever the group does, and no ground rule mentions it: it is
// decided by the join), and is grounded as written (session.groundRules): planned with the
// atom, the enumeration took 20% longer. Groups written alike in several rules (a magic rule copies the body of the rule it
// comes from) are one relation. The atoms that can hold and the ground rules are those of the
// program without the split; only the derivations are fewer.

// existsSplit is the state of splitting the rules of a relaxed program for evaluation.
type existsSplit struct {
	rg     *session
	state  map[*relation]bool // relations that read true or does
	shared map[string]*relation
}

// splitExistentials splits the rules of the relaxed program rg that read the state for their
// evaluation (see above). It runs before the components are made.
func (rg *session) splitExistentials() {
	es := &existsSplit{rg: rg, state: rg.readsState(), shared: map[string]*relation{}}
	for _, r := range slices.Clone(rg.rels) {
		if r == rg.trueRel || r == rg.doesRel || !es.state[r] {
			continue
		}
		for _, ru := range r.rules {
			if ru.excl == nil && ru.head != nil {
				es.split(ru)
			}
		}
	}
}

// readsState returns the relations of rg that read true or does, through their rules.
func (rg *session) readsState() map[*relation]bool {
	state := map[*relation]bool{rg.trueRel: true, rg.doesRel: true}
	for changed := true; changed; {
		changed = false
		for _, r := range rg.rels {
			if state[r] {
				continue
			}
			for _, ru := range r.rules {
				if slices.ContainsFunc(ru.body, func(l lit) bool { return l.rel != nil && state[l.rel] }) {
					state[r], changed = true, true
					break
				}
			}
		}
	}
	return state
}

// split gives ru an evaluation rule when some group of its body can be taken apart.
func (es *existsSplit) split(ru *rule) {
	groups, inner := es.groups(ru)
	if len(groups) == 0 {
		return
	}
	taken := make([]bool, len(ru.body))
	var atoms []lit
	for _, g := range groups {
		atoms = append(atoms, es.groupAtom(ru, g, inner))
		for _, i := range g {
			taken[i] = true
		}
	}
	ev := &rule{rel: ru.rel, head: ru.head, nvars: ru.nvars, varNames: ru.varNames, span: ru.span, clause: ru.clause}
	for i, l := range ru.body {
		if !taken[i] {
			ev.body = append(ev.body, l)
		}
	}
	ev.body = append(ev.body, atoms...)
	written := *ru
	ru.body = append(slices.Clip(ru.body), atoms...)
	if es.rg.evalRules == nil {
		es.rg.evalRules, es.rg.groundRules = map[*rule]*rule{}, map[*rule]*rule{}
	}
	es.rg.evalRules[ru] = ev
	es.rg.groundRules[ru] = &written
}

// groups returns the groups of ru's body to take apart (literal indexes), and per variable
// whether it is inner: mentioned by neither the head nor an anchor.
func (es *existsSplit) groups(ru *rule) ([][]int, []bool) {
	inner := make([]bool, ru.nvars)
	outer := make([]bool, ru.nvars)
	markVars(ru.head, outer, true)
	vars := make([][]bool, len(ru.body))
	for i := range ru.body {
		vars[i] = make([]bool, ru.nvars)
		for _, p := range []*pnode{ru.body[i].atom, ru.body[i].a, ru.body[i].b} {
			if p != nil {
				markVars(p, vars[i], true)
			}
		}
	}
	anchor := binders(ru, vars, outer)
	for i, vs := range vars {
		if anchor[i] {
			for v, in := range vs {
				outer[v] = outer[v] || in
			}
		}
	}
	for v := range inner {
		inner[v] = !outer[v]
	}
	u := newUnionFind(len(ru.body))
	owner := make([]int, ru.nvars)
	linked := make([]bool, len(ru.body))
	for i, vs := range vars {
		if !anchor[i] {
			linked[i] = u.linkVars(i, vs, owner, func(v int) bool { return inner[v] })
		}
	}
	byRoot := map[int][]int{}
	var roots []int
	for i := range ru.body {
		if !linked[i] {
			continue
		}
		root := u.find(i)
		if _, ok := byRoot[root]; !ok {
			roots = append(roots, root)
		}
		byRoot[root] = append(byRoot[root], i)
	}
	var out [][]int
	for _, root := range roots {
		if g := byRoot[root]; len(g) < len(ru.body) && es.worth(ru, g, vars) {
			out = append(out, g)
		}
	}
	return out, inner
}

// binders returns the anchors of ru's body (literals of variables vars): positive atoms that
// together bind the head's variables (set in head), each in turn the one that binds the most
// of those still unbound (the fewest variables on a tie).
func binders(ru *rule, vars [][]bool, head []bool) []bool {
	anchor := make([]bool, len(ru.body))
	left := slices.Clone(head)
	for {
		best, bestNew, bestAll := -1, 0, 0
		for i, vs := range vars {
			if anchor[i] || ru.body[i].kind != litPos || ru.body[i].rel == nil {
				continue
			}
			n, all := 0, 0
			for v, in := range vs {
				if in {
					all++
					if left[v] {
						n++
					}
				}
			}
			if n > 0 && (n > bestNew || n == bestNew && all < bestAll) {
				best, bestNew, bestAll = i, n, all
			}
		}
		if best < 0 {
			return anchor
		}
		anchor[best] = true
		for v, in := range vars[best] {
			left[v] = left[v] && !in
		}
	}
}

// worth reports whether group g of ru's body (literals of variables vars) can be taken apart:
// its positive atoms bind every variable it mentions, and one of them reads the state (a group
// of static literals is exact, and as cheap to join in place).
func (es *existsSplit) worth(ru *rule, g []int, vars [][]bool) bool {
	mentioned := make([]bool, ru.nvars)
	bound := make([]bool, ru.nvars)
	state := false
	for _, i := range g {
		l := &ru.body[i]
		for v, in := range vars[i] {
			mentioned[v] = mentioned[v] || in
		}
		if l.kind == litPos && l.rel != nil {
			markVars(l.atom, bound, true)
			state = state || es.state[l.rel]
		}
	}
	for v := range mentioned {
		if mentioned[v] && !bound[v] {
			return false
		}
	}
	return state
}

// groupAtom returns the atom of group g's relation (made, or shared with a group written
// alike) that ru reads in its place: of the variables g mentions that are not inner.
func (es *existsSplit) groupAtom(ru *rule, g []int, inner []bool) lit {
	canon := make([]int, ru.nvars) // per variable, 1 + its number in the order first met
	next := 0
	var key strings.Builder
	for _, i := range g {
		l := &ru.body[i]
		key.WriteString(strconv.Itoa(int(l.kind)))
		if l.rel != nil {
			key.WriteString(" " + strconv.Itoa(int(l.rel.fn)))
		}
		for _, p := range []*pnode{l.atom, l.a, l.b} {
			if p != nil {
				patternKey(&key, p, canon, &next)
			}
		}
		key.WriteByte(';')
	}
	var iface []int // the variables shared, in the order first met
	for v := range canon {
		if canon[v] > 0 && !inner[v] {
			iface = append(iface, v)
		}
	}
	slices.SortFunc(iface, func(a, b int) int { return canon[a] - canon[b] })
	for _, v := range iface {
		key.WriteString(" " + strconv.Itoa(canon[v]))
	}
	args := make([]*pnode, len(iface))
	for k, v := range iface {
		args[k] = &pnode{kind: pVar, v: v}
	}
	rel, ok := es.shared[key.String()]
	if !ok {
		rel = es.rg.relation(fmt.Sprintf("exists %d", len(es.shared)), len(iface))
		es.shared[key.String()] = rel
		es.rg.auxDynamic[rel.fn] = false // decided by the join: no ground rule mentions it
		er := &rule{rel: rel, head: existsAtom(es.rg, rel, args), nvars: ru.nvars, varNames: ru.varNames, span: ru.span, clause: ru.clause}
		for _, i := range g {
			er.body = append(er.body, ru.body[i])
		}
		rel.rules = append(rel.rules, er)
	}
	return lit{kind: litPos, rel: rel, atom: existsAtom(es.rg, rel, args)}
}

// existsAtom is the atom of relation rel of arguments args (variables).
func existsAtom(rg *session, rel *relation, args []*pnode) *pnode {
	if len(args) == 0 {
		return &pnode{kind: pConst, t: rg.st.intern(rel.fn, nil)}
	}
	return &pnode{kind: pFunc, fn: rel.fn, args: args, flat: true}
}

// patternKey writes pattern p to key, its variables numbered in the order first met (canon).
func patternKey(key *strings.Builder, p *pnode, canon []int, next *int) {
	switch p.kind {
	case pConst:
		key.WriteString(" c" + strconv.Itoa(int(p.t)))
	case pVar, pBind, pCheck:
		if canon[p.v] == 0 {
			*next++
			canon[p.v] = *next
		}
		key.WriteString(" v" + strconv.Itoa(canon[p.v]))
	case pFunc:
		key.WriteString(" (" + strconv.Itoa(int(p.fn)))
		for _, a := range p.args {
			patternKey(key, a, canon, next)
		}
		key.WriteString(")")
	}
}

// mergeCopies makes a magic relation whose one rule copies another whole (chess's magic set of
// the special part of threatened_with_capture/7 is that of the relation: 313,096 atoms
// derived twice) that other relation: its readers read the one copied, and it has no rule. A
// copy capped lower than the one copied (askCap: the size whole of the relation it restricts)
// is kept, so that a pass stops where it stopped.
func (ms *magicRewrite) mergeCopies() {
	into := map[*relation]*relation{}
	for _, m := range ms.magic {
		if len(m.rules) != 1 {
			continue
		}
		if src, ok := copiedWhole(m.rules[0]); ok && src != m && ms.isMagic(src) && (m.askCap == 0 || src.askCap > 0 && src.askCap <= m.askCap) {
			into[m] = src
		}
	}
	final := func(m *relation) *relation {
		for n := 0; n < len(into) && into[m] != nil; n++ { // a cycle of copies stops after one lap
			m = into[m]
		}
		return m
	}
	for m := range into {
		if final(m) == m { // on a cycle: keep it
			delete(into, m)
		}
	}
	for _, r := range ms.rg.rels {
		for _, ru := range r.rules {
			for i := range ru.body {
				if l := &ru.body[i]; l.rel != nil && into[l.rel] != nil {
					src := final(l.rel)
					l.rel = src
					l.atom = &pnode{kind: pFunc, fn: src.fn, args: l.atom.args, flat: l.atom.flat}
				}
			}
		}
	}
	for m := range into {
		m.rules = nil
	}
}

// isMagic reports whether r is a magic relation of ms.
func (ms *magicRewrite) isMagic(r *relation) bool {
	for _, m := range ms.magic {
		if m == r {
			return true
		}
	}
	return false
}

// copiedWhole returns the relation that rule ru copies whole, when its body is one positive
// atom of distinct variables, the head's in the same order.
func copiedWhole(ru *rule) (*relation, bool) {
	if len(ru.body) != 1 || ru.body[0].kind != litPos || ru.head.kind != pFunc {
		return nil, false
	}
	a := ru.body[0].atom
	if a.kind != pFunc || len(a.args) != len(ru.head.args) {
		return nil, false
	}
	seen := map[int]bool{}
	for i, h := range ru.head.args {
		b := a.args[i]
		if h.kind != pVar || b.kind != pVar || h.v != b.v || seen[h.v] {
			return nil, false
		}
		seen[h.v] = true
	}
	return ru.body[0].rel, true
}
