package eval

import "slices"

// Copy rules: ground rules whose body is one atom are not made; their head stands for that atom.
//
// Splitting rules (splitRule) leaves rules of the shape H <= S..., A: static literals S that
// only test H's variables, and one atom A of an auxiliary relation holding the rest. Each atom
// of H the relaxed program can ask then gets a ground rule that copies A: chess's
// threatened_with_capture/7 has four rules, three of them copies ((coordinate ?ignorex)
// (coordinate ?ignorey) (aux ?owner ?cx ?cy ?x ?y): its knights' and pawns' threats do not
// depend on the square ignored), and 860,000 of its ground rules copied an atom of five
// arguments for each pair of squares ignored.
//
// Such a ground rule is kept aside as an alias of its head: the head holds when one of its
// aliases holds, or one of its other ground rules' bodies. A rule that reads the head reads
// the aliases instead: a positive literal the one alias (when the head has no other rule), a
// negative one the negation of every alias (and of the head, for its other rules). A head read
// otherwise (positively with two aliases or more, or negated with more than maxNegAliases) gets
// its copy rules at the end, as before.
//
// It is done in the restricted pass only (relaxed with magic sets, made when the grounding as
// written proved too big), as the other choices that trade ground rules for gates: done on
// every grounding, it grew the networks of games that ground as written (amazons_10x10 17,441
// gates to 17,679, doubletoetictac 742 edges to 762: an OR read negated by many rules becomes
// the negations of its inputs in each). So that what a head has is known when it is read, the
// relations with copy rules are grounded first, each after those it reads (orderReads); those
// on a cycle of such reads (clear_row_ig/6, whose recursive rule is a copy of itself) keep
// their copy rules. Reads of a head made before its relation's rules (there are none in that
// order) would get its copy rules too.

// maxNegAliases is the most aliases a negative literal is replaced with: past it the literal
// stays, and the head gets its copy rules.
const maxNegAliases = 4

// aliases is the state of copy rules kept aside in a grounding.
type aliases struct {
	copyRule  map[*rule]bool
	aliasable map[uint32]bool      // functors of relations with copy rules
	of        map[Term][]GroundLit // per head: its aliases (positive atoms)
	real      map[Term]bool        // heads of aliasable relations with other ground rules
	needed    map[Term]bool        // heads that get their copy rules
	first     []*relation          // the relations with copy rules, each after those it reads
	complete  bool                 // their ground rules are made
	order     []Term               // heads needed, in the order first needed
}

// markCopyRules finds the copy rules: rules without dropped literals, whose body holds one
// literal that depends on the state, a positive atom. counts are the relations grounded by
// exclusion counting. It orders the relations that have copy rules (first) so that each comes
// after those it reads; those on a cycle of such reads have none.
func (b *grounder) markCopyRules(counts map[*relation]bool) {
	rg := b.rg
	al := &aliases{copyRule: map[*rule]bool{}, aliasable: map[uint32]bool{}, of: map[Term][]GroundLit{},
		real: map[Term]bool{}, needed: map[Term]bool{}}
	b.alias = al
	if !b.restricted {
		return
	}
	var cands []*relation
	for _, c := range rg.comps {
		if c.done == 0 {
			continue
		}
		for _, r := range c.rels {
			if r == rg.trueRel || r == rg.doesRel || counts[r] || b.keywordOutput(r) || !b.dynamic(r) {
				continue
			}
			if slices.ContainsFunc(r.rules, b.isCopyRule) {
				cands = append(cands, r)
			}
		}
	}
	al.first = orderReads(cands)
	for _, r := range al.first {
		al.aliasable[r.fn] = true
		for _, ru := range r.rules {
			if b.isCopyRule(ru) {
				al.copyRule[ru] = true
			}
		}
	}
}

func (b *grounder) isCopyRule(ru *rule) bool {
	return ru.excl == nil && len(ru.dropped) == 0 && b.oneDynamicAtom(ru)
}

// orderReads returns the relations of rs so that each comes after those of rs it reads (in
// its rules' bodies and dropped literals, and for a rule marked for exclusion counting, in
// those of its E and of the rules as written), without those on a cycle.
func orderReads(rs []*relation) []*relation {
	in := map[*relation]bool{}
	for _, r := range rs {
		in[r] = true
	}
	reads := map[*relation]map[*relation]bool{} // per relation, the others of rs it reads
	readers := map[*relation][]*relation{}
	for _, r := range rs {
		reads[r] = map[*relation]bool{}
		for _, ru := range readRules(r) {
			for _, ls := range [][]lit{ru.body, ru.dropped} {
				for _, l := range ls {
					if l.rel != nil && in[l.rel] && !reads[r][l.rel] {
						reads[r][l.rel] = true
						readers[l.rel] = append(readers[l.rel], r)
					}
				}
			}
		}
	}
	// Those on a cycle have no copy rules: what they read imposes no order then.
	var kept []*relation
	for _, r := range rs {
		if reaches(reads, r, r) {
			in[r] = false
		} else {
			kept = append(kept, r)
		}
	}
	var out, ready []*relation
	waits := map[*relation]int{}
	for _, r := range kept {
		for d := range reads[r] {
			if in[d] {
				waits[r]++
			}
		}
		if waits[r] == 0 {
			ready = append(ready, r)
		}
	}
	for len(ready) > 0 {
		r := ready[0]
		ready = ready[1:]
		out = append(out, r)
		for _, x := range readers[r] {
			if in[x] {
				if waits[x]--; waits[x] == 0 {
					ready = append(ready, x)
				}
			}
		}
	}
	return out
}

// reaches reports whether relation to is reachable from the relations from reads, following
// reads.
func reaches(reads map[*relation]map[*relation]bool, from, to *relation) bool {
	seen := map[*relation]bool{}
	var stack []*relation
	for d := range reads[from] {
		stack = append(stack, d)
	}
	for len(stack) > 0 {
		r := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if r == to {
			return true
		}
		if seen[r] {
			continue
		}
		seen[r] = true
		for d := range reads[r] {
			stack = append(stack, d)
		}
	}
	return false
}

// readRules returns the rules whose ground rules are made with r's: its own, and for a rule
// marked for exclusion counting, E's and the rules as written.
func readRules(r *relation) []*rule {
	out := slices.Clone(r.rules)
	for _, ru := range r.rules {
		if ru.excl != nil {
			out = append(out, ru.excl.e.rules...)
			out = append(out, ru.excl.origs...)
		}
	}
	return out
}

// oneDynamicAtom reports whether the only literal of ru's body that depends on the state is a
// positive atom.
func (b *grounder) oneDynamicAtom(ru *rule) bool {
	n := 0
	for i := range ru.body {
		l := &ru.body[i]
		if l.rel == nil || !b.dynamic(l.rel) {
			continue
		}
		if l.kind != litPos {
			return false
		}
		n++
	}
	return n == 1
}

// keep records the ground rule of a copy rule: body is its one literal, already resolved.
func (al *aliases) keep(head Term, body []GroundLit) {
	al.of[head] = append(al.of[head], body[0])
}

// resolve returns body with the literals on heads of aliasable relations replaced by their
// aliases (see above), marking needed the heads read otherwise.
func (b *grounder) resolve(body []GroundLit) []GroundLit {
	al := b.alias
	if al == nil || len(al.aliasable) == 0 {
		return body
	}
	var out []GroundLit
	changed := false
	for i, l := range body {
		var as []GroundLit
		ok := false
		if al.aliasable[b.rg.st.rec(l.Atom).fn] {
			if as, ok = al.of[l.Atom]; !ok && !al.complete {
				al.need(l.Atom) // read before its relation's rules: it may get aliases
			}
		}
		if !ok {
			if changed {
				out = append(out, l)
			}
			continue
		}
		if !changed {
			out = append(out, body[:i]...)
			changed = true
		}
		switch {
		case !l.Neg && len(as) == 1 && !al.real[l.Atom]:
			out = append(out, as[0])
		case l.Neg && len(as) <= maxNegAliases:
			for _, a := range as {
				out = append(out, GroundLit{Atom: a.Atom, Neg: true})
			}
			if al.real[l.Atom] {
				out = append(out, l)
			}
		default:
			al.need(l.Atom)
			out = append(out, l)
		}
	}
	if !changed {
		return body
	}
	return out
}

func (al *aliases) need(t Term) {
	if !al.needed[t] {
		al.needed[t] = true
		al.order = append(al.order, t)
	}
}

// copyRules adds the copy rules of the heads needed.
func (b *grounder) copyRules() error {
	if b.alias == nil {
		return nil
	}
	for _, h := range b.alias.order {
		for _, a := range b.alias.of[h] {
			if err := b.add(GroundRule{Head: h, Body: []GroundLit{a}}); err != nil {
				return err
			}
		}
	}
	return nil
}
