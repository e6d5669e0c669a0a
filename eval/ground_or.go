package eval

// factorOrs keeps an or of positive atoms as one literal: the rules of one clause that differ
// only in one positive atom (the alternatives of its or, expanded by the compiler) become one
// rule that reads an auxiliary relation whose rules are the alternatives, of the variables the
// alternatives share with the rest of the rule. Chess's "block a rook's threat", (or (true
// (check ?player rook ?tx ?ty)) (true (check ?player queen ?tx ?ty))) ..., was two rules of
// 351,232 ground rules each, the same but for the check read; it is one, and the auxiliary
// relation has two ground rules per square of the checking piece. It is done in the restricted
// pass only (relaxed with magic sets, made when the grounding as written proved too big), as
// the other choices that trade fewer ground rules for an auxiliary relation's gates.
func (rg *session) factorOrs(r *relation, dynamic func(*lit) bool) {
	var out []*rule
	for i := 0; i < len(r.rules); {
		j := i + 1
		for j < len(r.rules) && r.rules[i].clause >= 0 && r.rules[j].clause == r.rules[i].clause {
			j++
		}
		if merged := rg.factorOr(r.rules[i:j], dynamic); merged != nil {
			out = append(out, merged)
		} else {
			out = append(out, r.rules[i:j]...)
		}
		i = j
	}
	r.rules = out
}

// factorOr returns the rule that replaces rules, the alternatives of one clause, when they
// differ in one literal only, a positive atom of one relation in each, and those atoms mention
// every variable they share with the rest of the rule; else nil. The alternatives of an or of
// several relations are left to exclusion counting (mergeExclusions), which counts their
// witnesses together: chess's threatened_with_capture/7, "a bishop, a rook or a queen other
// than the one on (cx, cy)", had 1,334,540 ground rules with its or kept as one literal, and
// 475,000 counted.
func (rg *session) factorOr(rules []*rule, dynamic func(*lit) bool) *rule {
	if len(rules) < 2 {
		return nil
	}
	first := rules[0]
	n := len(first.body)
	if n < 2 || len(first.dropped) > 0 {
		return nil
	}
	at := -1
	for _, ru := range rules[1:] {
		if len(ru.body) != n || len(ru.dropped) > 0 || ru.nvars != first.nvars || !equalPattern(ru.head, first.head) {
			return nil
		}
		for p := range n {
			if equalLit(&ru.body[p], &first.body[p]) {
				continue
			}
			if at >= 0 && at != p {
				return nil
			}
			at = p
		}
	}
	if at < 0 {
		return nil
	}
	// The variables the alternatives share with the head and the other literals.
	rest := make([]bool, first.nvars)
	markVars(first.head, rest, true)
	for p := range first.body {
		if p != at {
			litMarks(&first.body[p], rest)
		}
	}
	shared := make([]bool, first.nvars)
	dyn := false
	for k, ru := range rules {
		l := &ru.body[at]
		if l.kind != litPos || l.rel == nil || l.rel != first.body[at].rel {
			return nil
		}
		vs := make([]bool, first.nvars)
		markVars(l.atom, vs, true)
		for v := range vs {
			in := vs[v] && rest[v]
			if k == 0 {
				shared[v] = in
			} else if shared[v] != in {
				return nil // an alternative that leaves a shared variable to the rest
			}
		}
		dyn = dyn || dynamic(l)
	}
	aux, atom := rg.auxRelation(shared)
	rg.auxDynamic[aux.fn] = dyn
	for _, ru := range rules {
		aux.rules = append(aux.rules, &rule{rel: aux, head: atom, body: []lit{ru.body[at]}, nvars: ru.nvars, varNames: ru.varNames, span: ru.span, clause: ru.clause})
	}
	merged := *first
	merged.body = append([]lit(nil), first.body...)
	merged.body[at] = lit{kind: litPos, rel: aux, atom: atom}
	return &merged
}

// litMarks marks in vs the variables literal l mentions.
func litMarks(l *lit, vs []bool) {
	for _, p := range []*pnode{l.atom, l.a, l.b} {
		if p != nil {
			markVars(p, vs, true)
		}
	}
}

// equalLit reports whether two literals are the same, variable numbers included.
func equalLit(a, b *lit) bool {
	if a.kind != b.kind || a.rel != b.rel {
		return false
	}
	eq := func(p, q *pnode) bool { return p == nil && q == nil || p != nil && q != nil && equalPattern(p, q) }
	return eq(a.atom, b.atom) && eq(a.a, b.a) && eq(a.b, b.b)
}
