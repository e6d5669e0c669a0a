package analysis

import (
	"slices"
	"strings"
)

// patchCandidates returns the relations a misspelt name may stand for (candidateList's list and
// index) made from prev's list, and the keys of the relations that differ from it (added,
// removed, or with other arities or spelling): none when prev's list is the list. It reads each
// clause once, with one look-up in prev's index, and builds the entries of the relations that
// differ only, then merges them into prev's sorted list: on an edit of a file of 150,000
// relations, building the list anew (a map of every relation and a sort of its keys) cost
// 100 ms. ok is false when more than maxChanged relations differ, or in a case it does not
// decide; the caller then builds the list.
func (m *Model) patchCandidates(prev *relCandidates) (list []relCandidate, byKey map[string]int, changed []string, ok bool) {
	if m.touchedOK {
		return m.patchTouched(prev)
	}
	dirty, ok := m.candidatesDiffering(prev)
	if !ok || len(dirty) == 0 {
		return nil, nil, nil, ok
	}
	b := m.newCandidateBuilder(len(dirty))
	for _, c := range m.Clauses {
		if dirty[c.key] {
			b.add(c.key, c.arity)
		}
	}
	for k := range inputs {
		if dirty[k] {
			b.addInput(k)
		}
	}
	fresh, _ := b.sorted()
	list = make([]relCandidate, 0, len(prev.list)+len(fresh))
	for _, c := range prev.list {
		for len(fresh) > 0 && fresh[0].key < c.key {
			list, fresh = append(list, fresh[0]), fresh[1:]
		}
		if !dirty[c.key] {
			list = append(list, c)
		}
	}
	list = append(list, fresh...)
	byKey = make(map[string]int, len(list))
	for i, c := range list {
		byKey[c.key] = i
	}
	for k := range dirty {
		changed = append(changed, k)
	}
	slices.SortFunc(changed, strings.Compare)
	return list, byKey, changed, true
}

// candidatesDiffering returns the keys of the relations whose candidate (candidateList) differs
// from prev's entry, or that one of them has and the other not; ok is false when there are more
// than maxChanged. A relation of more than 64 arities counts as differing.
func (m *Model) candidatesDiffering(prev *relCandidates) (dirty map[string]bool, ok bool) {
	list := prev.list
	found := make([]uint64, len(list)) // per candidate, which of its arities a clause has
	named := make([]bool, len(list))   // the candidate's name was compared
	dirty = map[string]bool{}
	var unwritable map[string]bool // keys of clauses whose name cannot be written
	mark := func(key string) bool {
		dirty[key] = true
		return len(dirty) <= maxChanged
	}
	for _, c := range m.Clauses {
		if dirty[c.key] || unwritable[c.key] {
			continue
		}
		i, ok := prev.index(c.key)
		if !ok {
			// candidateList leaves out a relation whose name cannot be written.
			if _, writable := m.candidateName(c.key); writable {
				if !mark(c.key) {
					return nil, false
				}
			} else {
				if unwritable == nil {
					unwritable = map[string]bool{}
				}
				unwritable[c.key] = true
			}
			continue
		}
		if !named[i] {
			if name, writable := m.candidateName(c.key); !writable || name != list[i].name {
				if !mark(c.key) {
					return nil, false
				}
				continue
			}
			named[i] = true
		}
		if !foundArity(found, list, i, c.arity) && !mark(c.key) {
			return nil, false
		}
	}
	for k := range inputs {
		if dirty[k] {
			continue
		}
		i, ok := prev.index(k)
		if !ok || !named[i] && list[i].name != k || !foundArity(found, list, i, RelationKeywords[k]) {
			if !mark(k) {
				return nil, false
			}
		}
	}
	for i, c := range list {
		// (1<<65 is 0: a candidate of more than 64 arities is always made again.)
		if !dirty[c.key] && found[i] != 1<<len(c.arities)-1 && !mark(c.key) {
			return nil, false
		}
	}
	return dirty, true
}

// foundArity marks arity as found for candidate i; false when the candidate does not have it (or
// has too many arities to be marked).
func foundArity(found []uint64, list []relCandidate, i, arity int) bool {
	j := slices.Index(list[i].arities, arity)
	if j < 0 || len(list[i].arities) > 64 {
		return false
	}
	found[i] |= 1 << j
	return true
}

// maxTouched bounds the relations touchedRelations lists; past it the candidates are compared
// with the previous version's relation by relation (candidatesDiffering).
const maxTouched = 4 * maxChanged

// touchedRelations returns the keys of the relations that have an occurrence in a clause walked
// anew or in a clause of prev that m did not reuse (used[i] says prev's clause i was reused),
// sorted: a relation's candidate (the arities of its clauses, its most common spelling) depends
// on its occurrences alone, so only these may have another candidate than in prev. ok is false
// when they are more than maxTouched or the notations differ.
func (m *Model) touchedRelations(prev *Model, used []bool) (keys []string, ok bool) {
	if prev.File.Dialect() != m.File.Dialect() || len(used) != len(prev.Clauses) {
		return nil, false
	}
	seen := map[string]bool{}
	add := func(mm *Model, c *Clause) bool {
		for i := c.occLo; i < c.occHi; i++ {
			if o := mm.rawOcc(i); o.Kind == OccRelation && !seen[o.Key] {
				seen[o.Key] = true
				keys = append(keys, o.Key)
			}
		}
		return len(keys) <= maxTouched
	}
	for _, i := range m.walked {
		if !add(m, m.Clauses[i]) {
			return nil, false
		}
	}
	for i, u := range used {
		if !u && !add(prev, prev.Clauses[i]) {
			return nil, false
		}
	}
	slices.Sort(keys)
	return keys, true
}

// patchTouched is patchCandidates when m knows the relations an edit touched (touchedRelations):
// only their candidates are made and compared with prev's, and the list is not indexed by a map
// (relCandidates.index searches it): an edit of a file of 150,000 relations read every clause
// and made a map of every relation.
func (m *Model) patchTouched(prev *relCandidates) (list []relCandidate, byKey map[string]int, changed []string, ok bool) {
	var fresh []relCandidate
	for _, k := range m.touched {
		nc, has := m.candidateOf(k)
		i, had := prev.index(k)
		if has != had || has && !sameCandidate(prev.list[i], nc) {
			if changed = append(changed, k); len(changed) > maxChanged {
				return nil, nil, nil, false
			}
			if has {
				fresh = append(fresh, nc)
			}
		}
	}
	if len(changed) == 0 {
		return nil, nil, nil, true
	}
	list = make([]relCandidate, 0, len(prev.list)+len(fresh))
	gone := changed // sorted, as fresh is
	for _, c := range prev.list {
		for len(fresh) > 0 && fresh[0].key < c.key {
			list, fresh = append(list, fresh[0]), fresh[1:]
		}
		for len(gone) > 0 && gone[0] < c.key {
			gone = gone[1:]
		}
		if len(gone) == 0 || gone[0] != c.key {
			list = append(list, c)
		}
	}
	return append(list, fresh...), nil, changed, true
}

// candidateOf returns the candidate of relation key as candidateList makes it, and whether there
// is one (a relation some clause defines, or one GDL gives, whose name the notation can write).
func (m *Model) candidateOf(key string) (relCandidate, bool) {
	b := m.newCandidateBuilder(1)
	if s := m.Relations[key]; s != nil {
		for a := range s.Arities() {
			if len(m.clausesOf(Rel{key, a})) > 0 {
				b.add(key, a)
			}
		}
	}
	if inputs[key] {
		b.addInput(key)
	}
	out, _ := b.sorted()
	if len(out) == 0 {
		return relCandidate{}, false
	}
	return out[0], true
}

// index returns the position of key in the list, and whether it is there.
func (c *relCandidates) index(key string) (int, bool) {
	if c.byKey != nil {
		i, ok := c.byKey[key]
		return i, ok
	}
	return slices.BinarySearchFunc(c.list, key, func(rc relCandidate, k string) int { return strings.Compare(rc.key, k) })
}
