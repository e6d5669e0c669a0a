package analysis

// relIndex is the number of each relation of a model's dependency graph (buildGraph's numbering:
// the clauses' heads, then the edges' targets, each relation at its first appearance). A full
// build makes one map of every relation (base). A version that reuses prev's graph numbering
// (renumber) keeps prev's base map, read through remap (base's number -> the number here, -1 for
// a relation this version no longer has), and in extra the relations base does not know or that
// came back after an earlier version lost them: an
// edit of a file of 150,000 relations fills a map of a few entries and a slice, not a map of
// 150,000 (30 ms of each edit, and a part that grew faster than the file: its look-ups miss the
// caches more the larger it is). It is never changed once made.
type relIndex struct {
	base  map[Rel]int32
	remap []int32 // nil: base's numbers are the numbers
	extra map[Rel]int32
}

// num returns relation r's number, and whether r is a relation of the graph.
func (x *relIndex) num(r Rel) (int32, bool) {
	if x == nil {
		return 0, false
	}
	if v, ok := x.base[r]; ok {
		if x.remap == nil {
			return v, true
		}
		if w := x.remap[v]; w >= 0 {
			return w, true
		}
		// Lost since base was made; it may be back, numbered in extra.
	}
	v, ok := x.extra[r]
	return v, ok
}

// relNum returns relation r's number in m's graph, and whether r is a relation of it.
func (m *Model) relNum(r Rel) (int32, bool) { return m.rels.num(r) }

// prevClause says which clause of the previous version a clause of the model under construction
// is (reuseClause), and where that clause's edges began there; clause -1 for a clause walked anew.
type prevClause struct{ clause, edgeLo int32 }

// numbering assigns the relations of a model's graph their numbers, from prev's numbers where
// the relation is prev's (renumber).
type numbering struct {
	m, prev  *Model
	names    []Rel
	fromPrev []int32       // prev's number -> the number here, or -1
	fresh    map[Rel]int32 // the relations prev's graph does not have
}

// renumber numbers m's relations as nodes does, in the same order, from prev's numbering: a
// clause taken over from prev has the head prev numbered, and its edges the targets prev
// numbered, so that only the clauses walked anew are looked up by relation. It returns false,
// having done nothing, when prev's numbering cannot serve (the model has no record of its
// clauses' origins, or the relations prev's index knows but this version lost, or that it
// does not know, have grown past a quarter of the graph: then nodes makes a new base).
func (m *Model) renumber(prev *Model) (names []Rel, from, to []int32, ok bool) {
	if prev == nil || prev.rels == nil || len(m.prevOf) != len(m.Clauses) || len(prev.heads) != len(prev.Clauses) {
		return nil, nil, nil, false
	}
	nb := &numbering{m: m, prev: prev, names: make([]Rel, 0, len(prev.nodeNames)+8), fromPrev: make([]int32, len(prev.nodeNames))}
	for i := range nb.fromPrev {
		nb.fromPrev[i] = -1
	}
	m.heads = make([]int32, len(m.Clauses))
	for i, c := range m.Clauses {
		if p := m.prevOf[i]; p.clause >= 0 {
			m.heads[i] = nb.byPrev(prev.heads[p.clause])
		} else {
			m.heads[i] = nb.byRel(c.Rel())
		}
	}
	m.headNodes = len(nb.names)
	from, to = make([]int32, len(m.Edges)), make([]int32, len(m.Edges))
	for i := range m.Edges {
		from[i] = m.heads[m.Edges[i].Clause]
	}
	for ci, c := range m.Clauses {
		p := m.prevOf[ci]
		for i := c.edgeLo; i < c.edgeHi; i++ {
			if p.clause >= 0 {
				to[i] = nb.byPrev(prev.edgeTo[int(p.edgeLo)+i-c.edgeLo])
			} else {
				to[i] = nb.byRel(m.Edges[i].To)
			}
		}
	}
	rels, ok := nb.index()
	if !ok {
		m.heads, m.headNodes = nil, 0
		return nil, nil, nil, false
	}
	m.rels = rels
	m.groupClauses()
	return nb.names, from, to, true
}

// byPrev returns the number here of the relation prev numbered p, numbering it when it is new.
func (nb *numbering) byPrev(p int32) int32 {
	if v := nb.fromPrev[p]; v >= 0 {
		return v
	}
	v := int32(len(nb.names))
	nb.fromPrev[p] = v
	nb.names = append(nb.names, nb.prev.nodeNames[p])
	return v
}

// byRel returns the number here of relation r, of a clause walked anew, numbering it when it is
// new.
func (nb *numbering) byRel(r Rel) int32 {
	if p, ok := nb.prev.relNum(r); ok {
		return nb.byPrev(p)
	}
	if v, ok := nb.fresh[r]; ok {
		return v
	}
	if nb.fresh == nil {
		nb.fresh = map[Rel]int32{}
	}
	v := int32(len(nb.names))
	nb.fresh[r] = v
	nb.names = append(nb.names, r)
	return v
}

// index returns the relation index of the numbering, on prev's base map: false when the
// relations prev's base knows but this version lost, or the ones it does not know, are more than
// a quarter of the graph (nodes then makes a new base, and later versions read that one).
func (nb *numbering) index() (*relIndex, bool) {
	pr := nb.prev.rels
	x := &relIndex{base: pr.base, remap: make([]int32, len(pr.base))}
	lost := 0
	for v := range x.remap {
		w := int32(v)
		if pr.remap != nil {
			w = pr.remap[v]
		}
		if w >= 0 {
			w = nb.fromPrev[w]
		}
		if x.remap[v] = w; w < 0 {
			lost++
		}
	}
	n := len(pr.extra) + len(nb.fresh)
	if limit := len(nb.names)/4 + 64; lost > limit || n > limit {
		return nil, false
	}
	if n > 0 {
		x.extra = make(map[Rel]int32, n)
		for r, v := range pr.extra {
			if w := nb.fromPrev[v]; w >= 0 {
				x.extra[r] = w
			}
		}
		for r, v := range nb.fresh {
			x.extra[r] = v
		}
	}
	return x, true
}
