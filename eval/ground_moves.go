package eval

// splitByMove takes a role's move apart in a rule that joins it with other literals per value
// of head variables the move does not mention. A role does one move at a time, so "some move
// of r such that A and B" is "some move of r such that A, and some move of r such that B": the
// literals that read different parts of the move become auxiliary relations of their own, each
// reading only its part (the move projected onto the variables it needs). Chess's frame rule,
// (next (cell ?x ?y ?p)) <= (does ?player (move ?piece ?x1 ?y1 ?x2 ?y2)) (true (cell ?x ?y ?p))
// (not (is_castle_move ...)) (not (pawn_capture_en_passant ...)) (different_cells ?x ?y ?x1
// ?y1) (different_cells ?x ?y ?x2 ?y2), split off "the move does not touch (x, y)" with a
// ground rule per move and square (472,192); taken apart, the move is read once per move for
// its kind (not a castle, not en passant), once per move for the square it leaves and once for
// the square it enters, and those squares per square (x, y): about 40,000.
//
// The literals other than the move are grouped by the local variables they share other than
// the move's own and its role; a group that reads the move's own variables becomes an
// auxiliary relation of its head variables and the role, whose rule reads the move projected
// onto the own variables it mentions (one more auxiliary relation, a ground rule per move), or
// the move itself when it mentions them all (those groups are one). It is done only where a
// group reads part of the move's own variables, every group binds its variables by itself (and
// the projected move), and the rule has head variables the move does not mention; and in the
// restricted pass only (relaxed with magic sets, made when the grounding as written proved too
// big), as the other choices that trade ground rules for an auxiliary relation's gates.
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
	parent := make([]int, len(all))
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	owner := make([]int, ru.nvars)
	for i, r := range all {
		if i == di {
			continue
		}
		for v, in := range r.vars {
			if !in || head[v] || own[v] || role[v] {
				continue
			}
			if owner[v] == 0 {
				owner[v] = i + 1
			} else {
				parent[find(i)] = find(owner[v] - 1)
			}
		}
	}
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
			parent[root] = full
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
	main := &rule{rel: ru.rel, head: ru.head, nvars: ru.nvars, varNames: ru.varNames, span: ru.span, clause: ru.clause}
	for _, root := range roots {
		ms := members[find(root)]
		if find(root) != root {
			continue // merged into the full group
		}
		if count(reads[root]) == 0 && root != full {
			for _, i := range ms {
				appendLit(main, all[i])
			}
			continue
		}
		iface := make([]bool, ru.nvars)
		for _, i := range ms {
			for v, in := range all[i].vars {
				iface[v] = iface[v] || in && (head[v] || role[v])
			}
		}
		for v := range role {
			iface[v] = iface[v] || role[v]
		}
		aux, atom := rg.auxRelation(iface)
		rg.auxDynamic[aux.fn] = true
		ar := &rule{rel: aux, head: atom, nvars: ru.nvars, varNames: ru.varNames, span: ru.span, clause: ru.clause}
		if root == full {
			ar.body = append(ar.body, d.l)
		} else {
			pv := make([]bool, ru.nvars)
			for v := range pv {
				pv[v] = role[v] || reads[root][v]
			}
			proj, patom := rg.auxRelation(pv)
			rg.auxDynamic[proj.fn] = true
			proj.rules = append(proj.rules, &rule{rel: proj, head: patom, body: []lit{d.l}, nvars: ru.nvars, varNames: ru.varNames, span: ru.span, clause: ru.clause})
			ar.body = append(ar.body, lit{kind: litPos, rel: proj, atom: patom})
		}
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
