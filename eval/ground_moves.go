package eval

import "slices"

// splitByMove takes a role's move apart in a rule that joins it with static tests per value of
// head variables the move does not mention. Chess's frame rule, (next (cell ?x ?y ?p)) <= (does
// ?player (move ?piece ?x1 ?y1 ?x2 ?y2)) (true (cell ?x ?y ?p)) (not (is_castle_move ...))
// (not (pawn_capture_en_passant ...)) (different_cells ?x ?y ?x1 ?y1) (different_cells ?x ?y
// ?x2 ?y2), split off "the move does not touch (x, y)" with a ground rule per move and square
// (472,192). A role does one move at a time, so "some move of r that is not a castle nor en
// passant, and leaves some other square than (x, y), and enters some other square" is "some
// move of r that is not a castle nor en passant, and no move of r leaves (x, y), and none
// enters it": a ground rule per move, and per square a move leaves (enters), each read negated
// per square (failedPart). The network is smaller too: per square, the moves that touch it.
//
// The literals other than the move are grouped by the local variables they share other than
// the move's own (those of the `does` literal only) and its role's. A static group that reads
// part of the move's own variables and a head variable is read through its failures; the
// other groups that read the move are read with it, once per move (moved); those that read
// none stay in the rule. It is done only where such a static group binds its variables by
// itself, the move has two own variables or more and the rule head variables the move does
// not mention; and in the restricted pass only (relaxed with magic sets, made when the
// grounding as written proved too big), as the other choices that trade ground rules for an
// auxiliary relation's gates.
func (rg *session) splitByMove(ru *rule, dynamic func(*lit) bool) *rule {
	ms, ok := newMoveSplit(ru, rg.doesRel)
	if !ok {
		return ru
	}
	ms.group()
	if ms.classify(dynamic) == 0 || !ms.groupsBound() {
		return ru
	}
	return rg.assembleMoveSplit(ms)
}

// A moveSplit is splitByMove's view of one rule: its literals, the move among them, the
// variables of the head, of the move's role and the move's own, and the groups of the other
// literals by the local variables they share.
type moveSplit struct {
	ru              *rule
	all             []varLit
	di              int // the move's index in all
	d               varLit
	head, role, own []bool
	nown            int
	u               unionFind
	reads           map[int][]bool // per group's root: the own variables it reads
	roots           []int
	members         map[int][]int
	full            int // the root of the groups read with the move, or -1
}

// newMoveSplit finds ru's one positive move literal and its own variables; ok is false where
// splitByMove does not apply.
func newMoveSplit(ru *rule, doesRel *relation) (ms *moveSplit, ok bool) {
	ms = &moveSplit{ru: ru, all: ruleVarLits(ru), di: -1, full: -1}
	for i, r := range ms.all {
		if r.l.rel != doesRel {
			continue
		}
		if r.dropped || r.l.kind != litPos || ms.di >= 0 || r.l.atom.kind != pFunc {
			return nil, false
		}
		ms.di = i
	}
	if ms.di < 0 {
		return nil, false
	}
	ms.head = make([]bool, ru.nvars)
	markVars(ru.head, ms.head, true)
	ms.d = ms.all[ms.di]
	ms.role = make([]bool, ru.nvars)
	markVars(ms.d.l.atom.args[0], ms.role, true)
	ms.own = make([]bool, ru.nvars) // the move's own variables: W
	mult := false
	for v := range ms.own {
		ms.own[v] = ms.d.vars[v] && !ms.head[v] && !ms.role[v]
		if ms.own[v] {
			ms.nown++
		}
		mult = mult || ms.head[v] && !ms.d.vars[v]
	}
	return ms, ms.nown >= minProjectedVars && mult
}

// group groups the literals other than the move by the local variables they share, but the
// move's own and its role's, and notes the own variables each group reads.
func (ms *moveSplit) group() {
	ru, all := ms.ru, ms.all
	ms.u = newUnionFind(len(all))
	owner := make([]int, ru.nvars)
	local := func(v int) bool { return !ms.head[v] && !ms.own[v] && !ms.role[v] }
	for i, r := range all {
		if i != ms.di {
			ms.u.linkVars(i, r.vars, owner, local)
		}
	}
	ms.reads = map[int][]bool{}
	for i, r := range all {
		if i == ms.di {
			continue
		}
		root := ms.u.find(i)
		ws, ok := ms.reads[root]
		if !ok {
			ws = make([]bool, ru.nvars)
			ms.reads[root] = ws
			ms.roots = append(ms.roots, root)
		}
		for v, in := range r.vars {
			ws[v] = ws[v] || in && ms.own[v]
		}
	}
}

// static tells whether the group of root is static, reads part of the move and a head variable:
// it is read through its failures (failedPart).
func (ms *moveSplit) static(root int, dynamic func(*lit) bool) bool {
	n := count(ms.reads[root])
	if n == 0 || n == ms.nown {
		return false
	}
	perHead := false // a group of no head variable only filters the move
	for i, r := range ms.all {
		if i == ms.di || ms.u.find(i) != root {
			continue
		}
		if r.dropped || r.l.rel != nil && dynamic(&r.l) {
			return false
		}
		for v, in := range r.vars {
			perHead = perHead || in && ms.head[v]
		}
	}
	return perHead
}

// classify joins the groups that read the move but are not static into one (full), read with
// the move once per move (moved); those that read none stay in the rule. It returns the number
// of static groups and notes each group's members.
func (ms *moveSplit) classify(dynamic func(*lit) bool) (part int) {
	for _, root := range ms.roots {
		switch {
		case ms.static(root, dynamic):
			part++
		case count(ms.reads[root]) == 0:
		case ms.full >= 0:
			ms.u[root] = ms.full
		default:
			ms.full = root
		}
	}
	ms.members = map[int][]int{}
	for i := range ms.all {
		if i != ms.di {
			root := ms.u.find(i)
			ms.members[root] = append(ms.members[root], i)
		}
	}
	return part
}

// groupsBound tells whether each group binds its variables by itself (with the move, for the
// groups read with it): a static one becomes a relation of its own.
func (ms *moveSplit) groupsBound() bool {
	for root, members := range ms.members {
		if count(ms.reads[root]) == 0 && root != ms.full {
			continue // left in the rule as it was
		}
		bound := make([]bool, ms.ru.nvars)
		if root == ms.full {
			markVars(ms.d.l.atom, bound, true)
		}
		for _, i := range members {
			if !ms.all[i].dropped && ms.all[i].l.kind == litPos {
				markVars(ms.all[i].l.atom, bound, true)
			}
		}
		for _, i := range members {
			for v, in := range ms.all[i].vars {
				if in && !bound[v] {
					return false
				}
			}
		}
	}
	return true
}

// assembleMoveSplit makes the rule that replaces ms.ru: the move with the groups read with it,
// of the role and the head variables they mention (moved); the static groups through their
// failures; the rest as it was.
func (rg *session) assembleMoveSplit(ms *moveSplit) *rule {
	ru, all, d := ms.ru, ms.all, ms.d
	main := &rule{rel: ru.rel, head: ru.head, nvars: ru.nvars, varNames: ru.varNames, span: ru.span, clause: ru.clause}
	move := &rule{nvars: ru.nvars}
	appendLit(move, d)
	ev := slices.Clone(ms.role)
	for v, in := range d.vars {
		ev[v] = ev[v] || in && ms.head[v]
	}
	if ms.full >= 0 {
		for _, i := range ms.members[ms.full] {
			appendLit(move, all[i])
			for v, in := range all[i].vars {
				ev[v] = ev[v] || in && ms.head[v]
			}
		}
	}
	moved, matom := rg.auxRelation(ev)
	rg.auxDynamic[moved.fn] = true
	moved.rules = append(moved.rules, &rule{rel: moved, head: matom, body: move.body, dropped: move.dropped,
		nvars: ru.nvars, varNames: ru.varNames, span: ru.span, clause: ru.clause})
	main.body = append(main.body, lit{kind: litPos, rel: moved, atom: matom})
	for _, root := range ms.roots {
		switch {
		case ms.u.find(root) != root || root == ms.full:
		case count(ms.reads[root]) == 0:
			for _, i := range ms.members[root] {
				appendLit(main, all[i])
			}
		default:
			rg.failedPart(ru, main, all, ms.members[root], d, ms.role, ms.reads[root], ms.head)
		}
	}
	return main
}

// failedPart adds to main, the rule that replaces ru, what a static group of literals ms that
// reads the own variables reads of the move d says: the group holds for the move, (dom s)
// (not (fails r s)), where s are the group's head variables and r the move's role:
//
//	(holds s w) <= the group        a static relation of s and w: exact, no ground rule
//	(dom s) <= the group            the values of s it can hold for: static
//	(part r w) <= d                 the move projected onto w: a ground rule per move
//	(fails r s) <= (part r w) (dom s) (not (holds s w))
//
// A role does one move at a time: the group holds for it when no move of the role projects onto
// a w for which it fails. Chess's (different_cells ?x ?y ?x1 ?y1) fails for the square the move
// leaves only: fails has a ground rule per square a move can leave.
func (rg *session) failedPart(ru, main *rule, all []varLit, ms []int, d varLit, role, reads, head []bool) {
	vars := make([]bool, ru.nvars)
	for _, i := range ms {
		for v, in := range all[i].vars {
			vars[v] = vars[v] || in
		}
	}
	mk := func(vs []bool, dyn bool, body []lit) (*relation, *pnode) {
		r, atom := rg.auxRelation(vs)
		rg.auxDynamic[r.fn] = dyn
		r.rules = append(r.rules, &rule{rel: r, head: atom, body: body, nvars: ru.nvars, varNames: ru.varNames, span: ru.span, clause: ru.clause})
		return r, atom
	}
	var group []lit
	for _, i := range ms {
		group = append(group, all[i].l)
	}
	hv, sv, pv, fv := make([]bool, ru.nvars), make([]bool, ru.nvars), make([]bool, ru.nvars), make([]bool, ru.nvars)
	for v := range vars {
		sv[v] = vars[v] && head[v]
		hv[v] = sv[v] || reads[v] || vars[v] && role[v]
		pv[v] = role[v] || reads[v]
		fv[v] = role[v] || sv[v]
	}
	holds, hatom := mk(hv, false, slices.Clone(group))
	dom, datom := mk(sv, false, group)
	part, patom := mk(pv, true, []lit{d.l})
	fails, fatom := mk(fv, true, []lit{{kind: litPos, rel: part, atom: patom}, {kind: litPos, rel: dom, atom: datom}, {kind: litNeg, rel: holds, atom: hatom}})
	main.body = append(main.body, lit{kind: litPos, rel: dom, atom: datom})
	main.dropped = append(main.dropped, lit{kind: litNeg, rel: fails, atom: fatom})
}

// appendLit adds literal r to ru's body, or to its dropped literals.
func appendLit(ru *rule, r varLit) {
	if r.dropped {
		ru.dropped = append(ru.dropped, r.l)
	} else {
		ru.body = append(ru.body, r.l)
	}
}

// count returns the number of true values of bs.
func count(bs []bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

// A unionFind groups the literals of a rule: per literal, its parent in its group's tree.
type unionFind []int

func newUnionFind(n int) unionFind {
	u := make(unionFind, n)
	for i := range u {
		u[i] = i
	}
	return u
}

// find returns the root of i's group.
func (u unionFind) find(i int) int {
	for u[i] != i {
		u[i] = u[u[i]]
		i = u[i]
	}
	return i
}

// linkVars joins literal i, of variables vs, with the literal that first held each of them that
// links (owner: per variable, that literal + 1, 0 for none yet), and reports whether any did.
func (u unionFind) linkVars(i int, vs []bool, owner []int, links func(v int) bool) bool {
	linked := false
	for v, in := range vs {
		if !in || !links(v) {
			continue
		}
		linked = true
		if owner[v] == 0 {
			owner[v] = i + 1
		} else {
			u[u.find(i)] = u.find(owner[v] - 1)
		}
	}
	return linked
}
