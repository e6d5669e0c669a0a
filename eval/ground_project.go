package eval

import "slices"

// projectMoves takes out of a rule the variables that only a literal of does mentions. Chess's
// discovered check, (next (check ?player queen ?x ?y)) <= (does ?opponent (move ?piece ?u ?v
// ?x1 ?y1)) ... (queen_threatens ?opponent ?x ?y ?kx ?ky ?u ?v), asks only whether the opponent
// moved some piece from (u, v): as written, each atom of queen_threatens/7 (186,368) is joined
// with every move from (u, v). Such a literal becomes an atom of an auxiliary relation of its
// other variables, whose one rule is the literal: a ground rule per move, and one per atom of
// queen_threatens. It is done in the restricted pass only (relaxed with magic sets, made when
// the grounding as written proved too big): done on every rule, it grew the networks of games
// that ground as written (checkers 3,571 gates to 4,249, breakthrough 1,003 to 1,099), where
// a move's variables are few and each rule's instances were one per move anyway.
//
// It is done only where the join is big: a literal of does with at least minProjectedVars
// variables of its own, in a rule of at least minProjectedLits literals with variables. Chess's
// discovered-check rules have 6 and 7 (its next: 413,262 ground rules, more than 9 million
// unprojected). Done on shorter rules or single own variables, it grew the networks of crissrace
// (1,336 gates to 1,352, rules of 2 to 4 literals) and merrills (13,032 to 13,127; makes_a_mill,
// one own variable).
func (rg *session) projectMoves(ru *rule, dynamic func(*lit) bool) *rule {
	all := ruleVarLits(ru)
	if len(all) < 2 {
		return ru
	}
	uses := varUses(ru, all)
	var out *rule
	absorbed := make([]bool, len(ru.body))
	for i, r := range all {
		if r.dropped || r.l.kind != litPos || r.l.rel != rg.doesRel {
			continue
		}
		keep, own, with := moveVars(all, i, uses, dynamic)
		if own < minProjectedVars || len(all) < minProjectedLits {
			continue
		}
		if out == nil {
			out = &rule{rel: ru.rel, head: ru.head, body: append([]lit(nil), ru.body...), dropped: ru.dropped,
				nvars: ru.nvars, varNames: ru.varNames, span: ru.span, clause: ru.clause}
		}
		aux, atom := rg.auxRelation(keep)
		rg.auxDynamic[aux.fn] = true
		ar := &rule{rel: aux, head: atom, body: []lit{r.l}, nvars: ru.nvars, varNames: ru.varNames, span: ru.span, clause: ru.clause}
		for _, j := range with {
			ar.body = append(ar.body, all[j].l)
			absorbed[j] = true
		}
		aux.rules = append(aux.rules, ar)
		out.body[i] = lit{kind: litPos, rel: aux, atom: atom} // ruleVarLits lists the body first
	}
	if out == nil {
		return ru
	}
	body := out.body[:0]
	for i, l := range out.body {
		if !absorbed[i] {
			body = append(body, l)
		}
	}
	out.body = body
	return out
}

// varUses returns per variable of ru how many of its head (once) and literals all mention it.
func varUses(ru *rule, all []varLit) []int {
	uses := make([]int, ru.nvars)
	head := make([]bool, ru.nvars)
	markVars(ru.head, head, true)
	for v, in := range head {
		if in {
			uses[v]++
		}
	}
	for _, r := range all {
		for v, in := range r.vars {
			if in {
				uses[v]++
			}
		}
	}
	return uses
}

// moveVars returns, for the literal of does all[i], the variables it shares with the rest of
// the rule, how many are its own, and the static literals of the body it takes with it: those
// that mention only its variables, one of its own among them (chess's discovered check reads
// the square moved from, (coordinate ?u), once the threat ignoring it is taken apart: "some
// move from a square").
func moveVars(all []varLit, i int, uses []int, dynamic func(*lit) bool) (keep []bool, own int, with []int) {
	d := all[i].vars
	uses = slices.Clone(uses)
	var cands []int
	for j, r := range all {
		if j == i || r.dropped || r.l.rel != nil && dynamic(&r.l) || !subsetVars(r.vars, d) {
			continue
		}
		cands = append(cands, j)
		for v, in := range r.vars {
			if in {
				uses[v]--
			}
		}
	}
	keep = make([]bool, len(d))
	for v, in := range d {
		if in && uses[v] == 1 {
			own++
		} else if in {
			keep[v] = true
		}
	}
	for _, j := range cands {
		for v, in := range all[j].vars {
			if in && !keep[v] {
				with = append(with, j)
				break
			}
		}
	}
	return keep, own, with
}

// subsetVars reports whether the variables set in a, one at least, are all set in b.
func subsetVars(a, b []bool) bool {
	some := false
	for v, in := range a {
		if in && !b[v] {
			return false
		}
		some = some || in
	}
	return some
}

// The least variables of its own a literal of does has, and literals with variables its rule
// has, for projectMoves to project them out.
const (
	minProjectedVars = 2
	minProjectedLits = 5
)
