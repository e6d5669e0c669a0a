package eval

import (
	"fmt"
	"slices"
)

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
// aliases holds, or one of its other ground rules' bodies. A positive literal on a head of one
// alias (and no other rule) reads the alias instead; a head read negated by one ground rule
// only, and not otherwise, is replaced there by the negation of every alias (and of the head,
// for its other rules). A head read otherwise gets its copy rules at the end, as before: read
// negated by several rules, the OR of its aliases is one gate they share.
//
// It is done in the restricted pass only (relaxed with magic sets, made when the grounding as
// written proved too big), as the other choices that trade ground rules for gates: done on
// every grounding, with every negation replaced, it grew the networks of games that ground as
// written (amazons_10x10 17,441 gates to 17,679, doubletoetictac 742 edges to 762), and in that
// pass crissrace's (1,336 gates to 1,381). So that what a head has is known when it is read, the
// relations with copy rules are grounded first, each after those it reads (orderReads); those
// on a cycle of such reads (clear_row_ig/6, whose recursive rule is a copy of itself) keep
// their copy rules. Reads of a head made before its relation's rules (there are none in that
// order) would get its copy rules too.

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
	negReader map[Term]int         // per head read negated: the ground rule reading it, -1 for several
	negOrder  []Term               // heads read negated, in the order first read
}

// markCopyRules finds the copy rules: rules without dropped literals, whose body holds one
// literal that depends on the state, a positive atom. counts are the relations grounded by
// exclusion counting. It orders the relations that have copy rules (first) so that each comes
// after those it reads; those on a cycle of such reads have none.
func (b *grounder) markCopyRules(counts map[*relation]bool) {
	rg := b.rg
	al := &aliases{copyRule: map[*rule]bool{}, aliasable: map[uint32]bool{}, of: map[Term][]GroundLit{},
		real: map[Term]bool{}, needed: map[Term]bool{}, negReader: map[Term]int{}}
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

// resolve returns body, the body of ground rule at (-1: a copy rule's, kept aside), with the
// positive literals on heads of one alias replaced by it, and notes the heads read otherwise:
// needed, or read negated (by rule at). What it returns is valid until its next call (it may be
// the grounder's scratch slice).
func (b *grounder) resolve(body []GroundLit, at int) []GroundLit {
	al := b.alias
	if al == nil || len(al.aliasable) == 0 {
		return body
	}
	out := b.resolved[:0]
	changed := false
	for i, l := range body {
		var as []GroundLit
		ok := false
		if al.aliasable[b.rg.st.rec(l.Atom).fn] {
			if as, ok = al.of[l.Atom]; !ok && !al.complete {
				al.need(l.Atom) // read before its relation's rules: it may get aliases
			}
		}
		if ok && !l.Neg && len(as) == 1 && !al.real[l.Atom] {
			if !changed {
				out = append(out, body[:i]...)
				changed = true
			}
			out = append(out, as[0])
			continue
		}
		if ok && l.Neg && at >= 0 {
			al.negRead(l.Atom, at)
		} else if ok {
			al.need(l.Atom)
		}
		if changed {
			out = append(out, l)
		}
	}
	if !changed {
		return body
	}
	b.resolved = out
	return out
}

func (al *aliases) need(t Term) {
	if !al.needed[t] {
		al.needed[t] = true
		al.order = append(al.order, t)
	}
}

// negRead notes that ground rule at reads head t negated.
func (al *aliases) negRead(t Term, at int) {
	prev, ok := al.negReader[t]
	switch {
	case !ok:
		al.negReader[t] = at
		al.negOrder = append(al.negOrder, t)
	case prev != at:
		al.negReader[t] = -1 // read by several rules
	}
}

// copyRules replaces the negation of a head read negated by one rule only, and by no rule
// otherwise, with the negations of its aliases in that rule (the OR of the aliases had no other
// reader: the network has one gate fewer and no edge more), and adds the copy rules of the
// heads needed.
func (b *grounder) copyRules() error {
	al := b.alias
	expand := map[Term]bool{}
	var rewrite []int
	for _, h := range al.negOrder {
		if at := al.negReader[h]; at >= 0 && !al.needed[h] {
			expand[h] = true
			rewrite = append(rewrite, at)
		} else {
			al.need(h)
		}
	}
	slices.Sort(rewrite)
	for i, at := range slices.Compact(rewrite) {
		r := &b.gr.Rules[at]
		var body []GroundLit
		for _, l := range r.Body {
			if !l.Neg || !expand[l.Atom] {
				body = append(body, l)
				continue
			}
			for _, a := range al.of[l.Atom] {
				body = append(body, GroundLit{Atom: a.Atom, Neg: true})
			}
			if al.real[l.Atom] {
				body = append(body, l)
			}
		}
		b.lits += len(body) - len(r.Body)
		r.Body = body
		if b.lits > b.lim.MaxLits {
			return &GroundError{Reason: fmt.Sprintf("more than %d literals in ground rules", b.lim.MaxLits), tooBig: true}
		}
		if i&0xfff == 0 {
			if err := b.rg.check(nil); err != nil {
				return &GroundError{Reason: "the ground rules cannot be enumerated", Err: err}
			}
		}
	}
	for _, h := range al.order {
		for _, a := range al.of[h] {
			if err := b.add(GroundRule{Head: h, Body: []GroundLit{a}}); err != nil {
				return err
			}
		}
	}
	return nil
}
