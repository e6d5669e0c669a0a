package eval

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
func (rg *session) projectMoves(ru *rule) *rule {
	all := ruleVarLits(ru)
	if len(all) < 2 {
		return ru
	}
	uses := make([]int, ru.nvars) // per variable: the head (once) and the literals that mention it
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
	var out *rule
	for i, r := range all {
		if r.dropped || r.l.kind != litPos || r.l.rel != rg.doesRel {
			continue
		}
		keep, own := make([]bool, ru.nvars), 0
		for v, in := range r.vars {
			if in && uses[v] == 1 {
				own++
			} else if in {
				keep[v] = true
			}
		}
		if own < minProjectedVars || len(all) < minProjectedLits {
			continue
		}
		if out == nil {
			out = &rule{rel: ru.rel, head: ru.head, body: append([]lit(nil), ru.body...), dropped: ru.dropped,
				nvars: ru.nvars, varNames: ru.varNames, span: ru.span, clause: ru.clause}
		}
		aux, atom := rg.auxRelation(keep)
		rg.auxDynamic[aux.fn] = true
		aux.rules = append(aux.rules, &rule{rel: aux, head: atom, body: []lit{r.l}, nvars: ru.nvars, varNames: ru.varNames, span: ru.span, clause: ru.clause})
		out.body[i] = lit{kind: litPos, rel: aux, atom: atom} // ruleVarLits lists the body first
	}
	if out == nil {
		return ru
	}
	return out
}

// The least variables of its own a literal of does has, and literals with variables its rule
// has, for projectMoves to project them out.
const (
	minProjectedVars = 2
	minProjectedLits = 5
)
