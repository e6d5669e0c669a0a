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
		i, ok := prev.byKey[c.key]
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
		i, ok := prev.byKey[k]
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
