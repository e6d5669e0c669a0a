package eval

// splitByMove takes a role's move apart in a rule that joins it with other literals per value
// of head variables the move does not mention. A role does one move at a time, so "some move
// of r such that A and B" is "some move of r such that A, and some move of r such that B": the
// literals that read different parts of the move become auxiliary relations of their own, each
// reading only its part (the move projected onto the variables it needs). Chess's frame rule,
// (next (cell ?x ?y ?p)) <= (does ?player (move ?piece ?x1 ?y1 ?x2 ?y2)) (true (cell ?x ?y ?p))
// (not (is_castle_move ...)) (not (pawn_capture_en_passant ...)) (different_cells ?x ?y ?x1
// ?y1) (different_cells ?x ?y ?x2 ?y2), split off "the move does not touch (x, y)" with a
// ground rule per move and square (472,192); taken apart, it reads per move the square a move
// that is not a castle nor en passant leaves, and the square it enters, and those per square
// (x, y).
//
// The literals other than the move are grouped by the local variables they share other than
// the move's own and its role's. The groups that read all the move's own variables (the
// castle and en passant tests) are read with the move by every projection; each group that
// reads part of them becomes an auxiliary relation of its head variables and the role, of
// the group and the projection of the move onto the own variables it reads (another
// auxiliary relation: a ground rule per move). It is done only where a group reads part of
// the move's own variables, with another group, every group binds its variables by itself
// (and its projection), the move has two own variables or more and the rule head variables
// the move does not mention; and in the restricted pass only (relaxed with magic sets, made
// when the grounding as written proved too big), as the other choices that trade ground rules
// for an auxiliary relation's gates.
func (rg *session) splitByMove(ru *rule) *rule {
	all := ruleVarLits(ru)
	di := -1
	for i, r := range all {
		if r.l.rel != rg.doesRel {
			continue
		}
		if r.dropped || r.l.kind != litPos || di >= 0 || r.l.atom.kind != pFunc {
			return ru
		}
		di = i
	}
	if di < 0 {
		return ru
	}
	head := make([]bool, ru.nvars)
	markVars(ru.head, head, true)
	d := all[di]
	role := make([]bool, ru.nvars)
	markVars(d.l.atom.args[0], role, true)
	own := make([]bool, ru.nvars) // the move's own variables: W
	nown, mult := 0, false
	for v := range own {
		own[v] = d.vars[v] && !head[v] && !role[v]
		if own[v] {
			nown++
		}
		mult = mult || head[v] && !d.vars[v]
	}
	if nown < minProjectedVars || !mult {
		return ru
	}
	// Group the other literals by the local variables they share, but the move's and its role's.
	u := newUnionFind(len(all))
	owner := make([]int, ru.nvars)
	for i, r := range all {
		if i != di {
			u.linkVars(i, r.vars, owner, func(v int) bool { return !head[v] && !own[v] && !role[v] })
		}
	}
	find := u.find
	reads := map[int][]bool{} // per group's root: the own variables it reads
	var roots []int
	for i, r := range all {
		if i == di {
			continue
		}
		root := find(i)
		ws, ok := reads[root]
		if !ok {
			ws = make([]bool, ru.nvars)
			reads[root] = ws
			roots = append(roots, root)
		}
		for v, in := range r.vars {
			ws[v] = ws[v] || in && own[v]
		}
	}
	// The groups that read the whole move are one; those that read none stay in the rule.
	full := -1
	part, split := 0, 0
	for _, root := range roots {
		n := count(reads[root])
		switch {
		case n == 0:
			continue
		case n == nown && full >= 0:
			u[root] = full
			continue
		case n == nown:
			full = root
		default:
			part++
		}
		split++
	}
	if part == 0 || split < 2 {
		return ru
	}
	members := map[int][]int{}
	for i := range all {
		if i != di {
			members[find(i)] = append(members[find(i)], i)
		}
	}
	// Each group binds its variables by itself and its part of the move.
	for root, ms := range members {
		if count(reads[root]) == 0 && root != full {
			continue
		}
		bound := make([]bool, ru.nvars)
		for v := range bound {
			bound[v] = role[v] || own[v] && reads[root][v]
		}
		if root == full {
			markVars(d.l.atom, bound, true)
		}
		for _, i := range ms {
			if !all[i].dropped && all[i].l.kind == litPos {
				markVars(all[i].l.atom, bound, true)
			}
		}
		for _, i := range ms {
			for v, in := range all[i].vars {
				if in && !bound[v] {
					return ru
				}
			}
		}
	}
	// The move, with the literals that read all of it: what each projection reads.
	move := &rule{nvars: ru.nvars}
	appendLit(move, d)
	if full >= 0 {
		for _, i := range members[full] {
			appendLit(move, all[i])
		}
	}
	main := &rule{rel: ru.rel, head: ru.head, nvars: ru.nvars, varNames: ru.varNames, span: ru.span, clause: ru.clause}
	for _, root := range roots {
		ms := members[root]
		if find(root) != root || root == full {
			continue // merged into the full group, or read by every projection
		}
		if count(reads[root]) == 0 {
			for _, i := range ms {
				appendLit(main, all[i])
			}
			continue
		}
		iface := make([]bool, ru.nvars)
		for _, i := range ms {
			for v, in := range all[i].vars {
				iface[v] = iface[v] || in && head[v]
			}
		}
		for v := range role {
			iface[v] = iface[v] || role[v]
		}
		pv := make([]bool, ru.nvars)
		for v := range pv {
			pv[v] = role[v] || reads[root][v]
		}
		proj, patom := rg.auxRelation(pv)
		rg.auxDynamic[proj.fn] = true
		proj.rules = append(proj.rules, &rule{rel: proj, head: patom, body: move.body, dropped: move.dropped,
			nvars: ru.nvars, varNames: ru.varNames, span: ru.span, clause: ru.clause})
		aux, atom := rg.auxRelation(iface)
		rg.auxDynamic[aux.fn] = true
		ar := &rule{rel: aux, head: atom, body: []lit{{kind: litPos, rel: proj, atom: patom}}, nvars: ru.nvars, varNames: ru.varNames, span: ru.span, clause: ru.clause}
		for _, i := range ms {
			appendLit(ar, all[i])
		}
		aux.rules = append(aux.rules, ar)
		main.body = append(main.body, lit{kind: litPos, rel: aux, atom: atom})
	}
	return main
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
