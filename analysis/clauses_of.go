package analysis

import (
	"cmp"
	"slices"
)

// The whole-file checks that concern a few relations (init, next, legal, goal, role, the
// recursive ones) take those relations' clauses from the relation index (Model.clausesOf)
// instead of visiting every clause of the file on every edit.

// clausesByIndex returns the clauses of the relations rels, in source order (the clauses of
// each relation merged), without visiting the other clauses of the file.
func (m *Model) clausesByIndex(rels ...Rel) []*Clause {
	var out []*Clause
	for _, rel := range rels {
		cs := m.clausesOf(rel)
		if len(out) == 0 {
			out = cs
			continue
		}
		merged := make([]*Clause, 0, len(out)+len(cs))
		i, j := 0, 0
		for i < len(out) && j < len(cs) {
			if out[i].Index < cs[j].Index {
				merged, i = append(merged, out[i]), i+1
			} else {
				merged, j = append(merged, cs[j]), j+1
			}
		}
		out = append(append(merged, out[i:]...), cs[j:]...)
	}
	return out
}

// clausesOfKey returns the clauses whose head relation is key, of any arity, in source order.
func (m *Model) clausesOfKey(key string) []*Clause {
	s := m.Relations[key]
	if s == nil {
		return nil
	}
	var rels []Rel
	for a := range s.Arities() {
		rels = append(rels, Rel{key, a})
	}
	return m.clausesByIndex(rels...)
}

// clausesOfRels returns the clauses whose head relation rels holds as true, in source order.
func (m *Model) clausesOfRels(rels map[Rel]bool) []*Clause {
	var out []*Clause
	for rel, ok := range rels {
		if ok {
			out = append(out, m.clausesOf(rel)...)
		}
	}
	slices.SortFunc(out, func(a, b *Clause) int { return cmp.Compare(a.Index, b.Index) })
	return out
}
