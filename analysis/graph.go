package analysis

import (
	"sort"
	"strings"

	"github.com/gdl-lsp/gdl/syntax"
)

// buildGraph indexes the dependency edges (head relation -> body relation, collected per clause
// by addForm) and computes the strongly connected components, the strata and the recursive
// relations. The relations are numbered once (nodes), and the graph is computed on the numbers:
// the maps keyed by relation are filled once per relation, not once per edge. When the clauses'
// heads and the edges are those of prev (an edit that changed no relation of the graph: inside a
// term, a comment, the layout), prev's graph is the model's (it is never changed once built).
func (m *Model) buildGraph(prev *Model) {
	if prev != nil && prev.sameGraph(m) {
		m.nodeNames, m.edgeTo, m.rels, m.heads, m.headNodes = prev.nodeNames, prev.edgeTo, prev.rels, prev.heads, prev.headNodes
		m.outStart, m.outEdges = prev.outStart, prev.outEdges
		m.SCCs, m.sccOf, m.stratum, m.Recursive = prev.SCCs, prev.sccOf, prev.stratum, prev.Recursive
		m.groupClauses()
		return
	}
	g := &depGraph{}
	var ok bool
	if g.names, g.from, g.to, ok = m.renumber(prev); !ok {
		g.names, g.from, g.to = m.nodes()
	}
	m.nodeNames, m.edgeTo = g.names, g.to
	out := g.adjacency(m)
	g.comp = tarjan(len(g.names), out)
	g.groupComponents(m)
	m.Recursive = map[Rel]bool{}
	for i := range g.from {
		if g.comp[g.from[i]] == g.comp[g.to[i]] {
			m.Recursive[g.names[g.from[i]]] = true
			m.Recursive[g.names[g.to[i]]] = true
		}
	}
	g.strata(m)
}

// A depGraph is the dependency graph on node numbers while buildGraph computes on it.
type depGraph struct {
	names    []Rel   // per node: its relation
	from, to []int32 // per edge: its nodes
	// The edges of node v, in source order: byEdge[deg[v]:deg[v+1]] (edge indexes).
	deg    []int32
	byEdge []int
	comp   []int // per node: its component (tarjan)
	ncomp  int
	// The members of component c, ascending: byComp[cstart[c]:cstart[c+1]].
	cstart, byComp []int32
}

// adjacency indexes the edges by node (one block, cut per node; OutEdges reads it) and returns the
// target nodes of each node, for tarjan.
func (g *depGraph) adjacency(m *Model) [][]int {
	n := len(g.names)
	g.deg = make([]int32, n+1)
	for _, v := range g.from {
		g.deg[v+1]++
	}
	for v := 1; v <= n; v++ {
		g.deg[v] += g.deg[v-1]
	}
	g.byEdge = make([]int, len(g.from)) // edge indexes grouped by their from node
	fill := append([]int32(nil), g.deg[:n]...)
	for i, v := range g.from {
		g.byEdge[fill[v]] = i
		fill[v]++
	}
	m.outStart, m.outEdges = g.deg, g.byEdge
	out := make([][]int, n)
	targets := make([]int, len(g.from))
	for v := range n {
		lo, hi := g.deg[v], g.deg[v+1]
		for k := lo; k < hi; k++ {
			targets[k] = int(g.to[g.byEdge[k]])
		}
		out[v] = targets[lo:hi:hi]
	}
	return out
}

// OutEdges returns the indexes (into Edges) of the edges out of relation r, in source order: its
// dependencies, one per body atom of its rules.
func (m *Model) OutEdges(r Rel) []int {
	v, ok := m.relNum(r)
	if !ok || int(v)+1 >= len(m.outStart) {
		return nil
	}
	lo, hi := m.outStart[v], m.outStart[v+1]
	return m.outEdges[lo:hi:hi]
}

// edgeComps returns the components (see SCCOf) of the ends of edge ei, by their numbers.
func (m *Model) edgeComps(ei int) (from, to int) {
	return m.sccOf[m.heads[m.Edges[ei].Clause]], m.sccOf[m.edgeTo[ei]]
}

// members returns the nodes of component c, ascending.
func (g *depGraph) members(c int) []int32 { return g.byComp[g.cstart[c]:g.cstart[c+1]] }

// groupComponents groups the members of each component in one block and sets m.SCCs (each
// sorted) and m.sccOf.
func (g *depGraph) groupComponents(m *Model) {
	n := len(g.names)
	for _, c := range g.comp {
		g.ncomp = max(g.ncomp, c+1)
	}
	g.cstart = make([]int32, g.ncomp+1)
	for _, c := range g.comp {
		g.cstart[c+1]++
	}
	for c := 1; c <= g.ncomp; c++ {
		g.cstart[c] += g.cstart[c-1]
	}
	g.byComp = make([]int32, n)
	cfill := append([]int32(nil), g.cstart[:g.ncomp]...)
	for v, c := range g.comp {
		g.byComp[cfill[c]] = int32(v)
		cfill[c]++
	}
	rels := make([]Rel, n)
	m.SCCs = make([][]Rel, g.ncomp)
	for c := range m.SCCs {
		lo, hi := g.cstart[c], g.cstart[c+1]
		for k, v := range g.members(c) {
			rels[int(lo)+k] = g.names[v]
		}
		m.SCCs[c] = rels[lo:hi:hi]
	}
	m.sccOf = g.comp
	for _, c := range m.SCCs {
		if len(c) > 1 {
			sort.Slice(c, func(i, j int) bool { return c[i].Key < c[j].Key || c[i].Key == c[j].Key && c[i].Arity < c[j].Arity })
		}
	}
}

// strata sets m.stratum: every relation gets the lowest stratum such that a relation is at
// least as high as what it uses and higher than what it negates. A negative edge inside a
// component cannot be satisfied; it is ignored here and reported by the stratification check.
// Components come dependencies first.
func (g *depGraph) strata(m *Model) {
	stratum := make([]int, len(g.names))
	for id := range g.ncomp {
		vs := g.members(id)
		s := 0
		for _, v := range vs {
			for k := g.deg[v]; k < g.deg[v+1]; k++ {
				ei := g.byEdge[k]
				w := g.to[ei]
				if g.comp[w] == id {
					continue
				}
				t := stratum[w]
				if m.Edges[ei].Negative {
					t++
				}
				s = max(s, t)
			}
		}
		for _, v := range vs {
			stratum[v] = s
		}
	}
	m.stratum = stratum
}

// edges adds the dependency edges of the clause's body: one per atom, nested ones included, in
// source order (the clause's visits, so nesting of any depth takes no stack).
func (m *Model) edges(c *Clause) {
	from := c.Rel()
	m.Edges = room(m.Edges, len(c.visits))
	for _, v := range c.visits {
		if v.Kind != syntax.LitAtom {
			continue
		}
		if a := v.Lit.Atom(); a.Valid() {
			m.Edges = append(m.Edges, Edge{From: from, To: AtomRel(a), Negative: v.Negated, Span: a.Span(), Clause: c.Index})
		}
	}
}

// nodes numbers every relation of the graph in a deterministic order (the clauses' heads, then
// the edges' targets, in source order) and returns the relations by number and the numbers of
// each edge's ends.
func (m *Model) nodes() (names []Rel, from, to []int32) {
	// Sized like the previous version's, or else for a relation per clause at least (growing a
	// map of 150,000 relations step by step moved each entry several times).
	id := make(map[Rel]int32, max(m.nodeHint, len(m.Clauses)))
	m.rels = &relIndex{base: id}
	add := func(k Rel) int32 {
		v, ok := id[k]
		if !ok {
			v = int32(len(names))
			id[k] = v
			names = append(room(names, 1), k)
		}
		return v
	}
	from, to = make([]int32, len(m.Edges)), make([]int32, len(m.Edges))
	m.heads = make([]int32, len(m.Clauses))
	for i, c := range m.Clauses {
		m.heads[i] = add(c.Rel())
	}
	m.headNodes = len(names)
	m.groupClauses()
	for i := range m.Edges { // an edge's source is its clause's head
		from[i] = m.heads[m.Edges[i].Clause]
	}
	for i := range m.Edges {
		to[i] = add(m.Edges[i].To)
	}
	return names, from, to
}

// groupClauses fills m.defs, the clauses of each relation (by number) in source order, cut from
// one block.
func (m *Model) groupClauses() {
	n := m.headNodes
	start := make([]int32, n+1)
	for _, v := range m.heads {
		start[v+1]++
	}
	for v := 1; v <= n; v++ {
		start[v] += start[v-1]
	}
	block := make([]*Clause, len(m.Clauses))
	m.defs = make([][]*Clause, n)
	for v := range m.defs {
		m.defs[v] = block[start[v]:start[v]:start[v+1]]
	}
	for i, v := range m.heads {
		m.defs[v] = append(m.defs[v], m.Clauses[i])
	}
}

// sameGraph reports whether m's clauses have the heads of n's, in order, and m's edges are n's
// but for their places: then the graphs are the same, relations numbered alike.
func (m *Model) sameGraph(n *Model) bool {
	if m.heads == nil || len(m.Clauses) != len(n.Clauses) || len(m.Edges) != len(n.Edges) {
		return false
	}
	for i, c := range m.Clauses {
		if c.key != n.Clauses[i].key || c.arity != n.Clauses[i].arity {
			return false
		}
	}
	for i := range m.Edges {
		a, b := &m.Edges[i], &n.Edges[i]
		if a.From != b.From || a.To != b.To || a.Negative != b.Negative {
			return false
		}
	}
	return true
}

// clausesOf returns the clauses whose head is relation rel, in source order.
func (m *Model) clausesOf(rel Rel) []*Clause {
	if v, ok := m.relNum(rel); ok && int(v) < len(m.defs) {
		return m.defs[v]
	}
	return nil
}

// InCycle reports whether relations a and b lie in one strongly connected component and that
// component is recursive.
func (m *Model) InCycle(a, b Rel) bool {
	ia, oka := m.SCCOf(a)
	ib, okb := m.SCCOf(b)
	return oka && okb && ia == ib && m.Recursive[a]
}

// SCCOf returns the strongly connected component of relation r (an index into SCCs), and
// whether r is a relation of the dependency graph.
func (m *Model) SCCOf(r Rel) (int, bool) {
	v, ok := m.relNum(r)
	if !ok {
		return 0, false
	}
	return m.sccOf[v], true
}

// sccIndex is SCCOf's component, 0 for a relation not in the graph.
func (m *Model) sccIndex(r Rel) int {
	c, _ := m.SCCOf(r)
	return c
}

// Stratum returns the stratum of relation r (negation raises the stratum by one), and whether r
// is a relation of the dependency graph.
func (m *Model) Stratum(r Rel) (int, bool) {
	v, ok := m.relNum(r)
	if !ok {
		return 0, false
	}
	return m.stratum[v], true
}

// DependsOn reports whether relation from depends, directly or transitively, on relation to.
//
// It is safe for concurrent use: the model is shared by the language server's requests.
func (m *Model) DependsOn(from, to Rel) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok := m.relNum(from)
	return ok && m.reachers(to)[v]
}

// edgeDependsOn reports whether the target of edge ei depends, directly or transitively, on
// relation to: DependsOn(m.Edges[ei].To, to), by the edge's number of its target.
func (m *Model) edgeDependsOn(ei int, to Rel) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.reachers(to)[m.edgeTo[ei]]
}

// reachers returns, by relation number, whether each relation reaches relation to in the graph;
// made once per relation asked, by a backwards search on the relations' numbers. m.mu must be
// held.
func (m *Model) reachers(to Rel) []bool {
	if r, ok := m.dependsOn[to]; ok {
		return r
	}
	reach := make([]bool, len(m.nodeNames))
	m.dependsOn[to] = reach
	v, ok := m.relNum(to)
	if !ok {
		return reach
	}
	m.edgesIn()
	work := []int32{v}
	for len(work) > 0 {
		w := work[len(work)-1]
		work = work[:len(work)-1]
		for _, ei := range m.inEdges[m.inStart[w]:m.inStart[w+1]] {
			if u := m.heads[m.Edges[ei].Clause]; !reach[u] {
				reach[u] = true
				work = append(work, u)
			}
		}
	}
	return reach
}

// edgesIn groups the edges by the numbers of their targets (buildGraph's), made on first use:
// the edges into relation number v are inEdges[inStart[v]:inStart[v+1]], in source order.
// m.mu must be held.
func (m *Model) edgesIn() {
	if m.inStart != nil {
		return
	}
	n := len(m.nodeNames)
	start := make([]int, n+1)
	for _, w := range m.edgeTo {
		start[w+1]++
	}
	for v := 1; v <= n; v++ {
		start[v] += start[v-1]
	}
	byTarget := make([]int, len(m.edgeTo))
	fill := append([]int(nil), start[:n]...)
	for i, w := range m.edgeTo {
		byTarget[fill[w]] = i
		fill[w]++
	}
	m.inStart, m.inEdges = start, byTarget
}

// edgesInto returns the indexes of the edges into relation rel (its uses in rule bodies), in
// source order. m.mu must be held.
func (m *Model) edgesInto(rel Rel) []int {
	m.edgesIn()
	v, ok := m.relNum(rel)
	if !ok {
		return nil
	}
	lo, hi := m.inStart[v], m.inStart[v+1]
	return m.inEdges[lo:hi:hi]
}

// failingUses returns the uses of relation rel (its atoms in the rule bodies, nested in not and
// or included) that fail, in source order. fails must answer from the use's atom and the sets
// alone, which never change once made: a clause remembers which of its uses failed against the
// very sets (code names the check), so that a version whose sets are the previous version's
// (the producers keep a set that no changed clause can reach) asks fails only about the clauses
// the edit made, and the clauses it reused cost a look at their memo.
//
// It visits only the clauses that use rel (the graph's edges into it): the others have nothing to
// remember, and a version whose sets changed (an edit of a legal rule changes does's) would
// otherwise store a memo in every clause of the file.
func (m *Model) failingUses(code string, rel Rel, sets [2]*termSet, fails func(use) bool) []use {
	m.mu.Lock()
	in := m.edgesInto(rel)
	m.mu.Unlock()
	var out []use
	last := -1
	for _, ei := range in {
		if m.Edges[ei].Clause == last {
			continue
		}
		last = m.Edges[ei].Clause
		c := m.Clauses[last]
		if bad, ok := c.failingMemo(code, sets); ok {
			if len(bad) > 0 {
				us := m.clauseUses(c, rel)
				for _, i := range bad {
					out = append(out, us[i])
				}
			}
			continue
		}
		var bad []int32
		for i, u := range m.clauseUses(c, rel) {
			if fails(u) {
				bad = append(bad, int32(i))
				out = append(out, u)
			}
		}
		c.storeFailing(code, sets, bad)
	}
	return out
}

// clauseUses returns the atoms of relation rel in c's body, nested ones included, in source
// order, with whether each stands under a not.
func (m *Model) clauseUses(c *Clause, rel Rel) []use {
	var out []use
	for i := c.edgeLo; i < c.edgeHi; i++ {
		if e := &m.Edges[i]; e.To == rel {
			if v, ok := c.atomVisit(e.Span); ok {
				out = append(out, use{Atom: v.Lit.Atom(), Clause: c, Negated: e.Negative})
			}
		}
	}
	return out
}

// failingMemo is what failingUses found in a clause for one check: the indexes, among the
// clause's uses, of those that failed against sets.
type failingMemo struct {
	code string
	sets [2]*termSet
	bad  []int32
}

// failingMemo returns what failingUses remembers of c for check code and sets.
func (c *Clause) failingMemo(code string, sets [2]*termSet) ([]int32, bool) {
	if memos := c.failing.Load(); memos != nil {
		for _, e := range *memos {
			if e.code == code && e.sets == sets {
				return e.bad, true
			}
		}
	}
	return nil, false
}

// storeFailing remembers bad for c, check code and sets, in place of the check's older entry.
// Two checks that store at once may lose one's entry, which is then found again.
func (c *Clause) storeFailing(code string, sets [2]*termSet, bad []int32) {
	replaceMemo(&c.failing, failingMemo{code: code, sets: sets, bad: bad}, func(e failingMemo) bool { return e.code != code })
}

// use is a body atom of a relation: see clauseUses.
type use struct {
	Atom    syntax.Atom
	Clause  *Clause
	Negated bool
}

// PathTo returns a shortest chain of edges from relation from to relation to, or nil.
func (m *Model) PathTo(from, to Rel) []Edge {
	prev := map[Rel]int{from: -1}
	queue := []Rel{from}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, ei := range m.OutEdges(v) {
			w := m.Edges[ei].To
			if _, seen := prev[w]; seen {
				continue
			}
			prev[w] = ei
			if w == to {
				var path []Edge
				for x := to; x != from || len(path) == 0; {
					e := m.Edges[prev[x]]
					path = append(path, e)
					x = e.From
					if x == from {
						break
					}
				}
				for l, r := 0, len(path)-1; l < r; l, r = l+1, r-1 {
					path[l], path[r] = path[r], path[l]
				}
				return path
			}
			queue = append(queue, w)
		}
	}
	return nil
}

// splitStrata is what splitting relations by the constants in their rules' heads makes of the
// negation inside dependency cycles. Many published games write
// (<= (goal robot 100) (not (goal robot 0))): goal depends negatively on itself, yet no ground
// instance does, and once the rules of goal are told apart by their constant arguments
// (goal robot 100 and goal robot 0) the program is stratified. GGP-Base's validator rejects
// such games; its prover, Prolog-based players and our evaluator play them.
type splitStrata struct {
	// cyclic holds the negated atoms (by span) that stay inside a cycle after the split: their
	// negation has no defined meaning.
	cyclic map[syntax.Span]bool
	// relations holds the relations of the components whose negation the split stratifies.
	relations map[Rel]bool
}

// SplitRelations returns the relations that lie on a dependency cycle through negation which
// splitting the relations by the constants in their rules' heads removes, sorted. The evaluator
// evaluates each such group of rules as a relation of its own.
func (m *Model) SplitRelations() []Rel {
	var out []Rel
	for r := range m.split().relations {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].Key < out[j].Key || out[i].Key == out[j].Key && out[i].Arity < out[j].Arity
	})
	return out
}

// StaysUnstratified reports whether the negated atom at span lies on a cycle through negation
// even after the split (see SplitRelations).
func (m *Model) StaysUnstratified(span syntax.Span) bool { return m.split().cyclic[span] }

func (m *Model) split() *splitStrata {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.splitMemo != nil {
		return m.splitMemo
	}
	s := &splitStrata{cyclic: map[syntax.Span]bool{}, relations: map[Rel]bool{}}
	m.splitMemo = s
	negative := map[int]bool{} // components with a negative edge inside
	for ei := range m.Edges {
		if m.Edges[ei].Negative {
			if from, to := m.edgeComps(ei); from == to {
				negative[from] = true
			}
		}
	}
	for comp := range negative {
		if cyc := m.splitComponent(comp); len(cyc) == 0 {
			for _, r := range m.SCCs[comp] {
				s.relations[r] = true
			}
		} else {
			for _, sp := range cyc {
				s.cyclic[sp] = true
			}
		}
	}
	return s
}

// headPattern is a relation with the constants of an atom's arguments; "" stands for an
// argument that is a variable or a function term.
type headPattern struct {
	rel  string
	args []string
}

func patternOf(a syntax.Atom) headPattern {
	p := headPattern{rel: a.Name().Key(), args: make([]string, a.Arity())}
	for i, t := range a.ArgSeq() {
		if t.Kind() == syntax.TermConstant {
			p.args[i] = t.Name().Key()
		}
	}
	return p
}

// unifies reports whether an atom of pattern p can match a fact derived by a rule whose head
// has pattern q.
func (p headPattern) unifies(q headPattern) bool {
	if p.rel != q.rel || len(p.args) != len(q.args) {
		return false
	}
	for i := range p.args {
		if p.args[i] != "" && q.args[i] != "" && p.args[i] != q.args[i] {
			return false
		}
	}
	return true
}

// splitComponent builds the dependency graph of component comp's rules with each relation split
// by the patterns of its heads, and returns the spans of the negated atoms that still lie on a
// cycle in it.
func (m *Model) splitComponent(comp int) []syntax.Span {
	in := map[Rel]bool{}
	for _, r := range m.SCCs[comp] {
		in[r] = true
	}
	// The component's own clauses, not every clause of the file: a file of many games has many
	// such components.
	var clauses []*Clause
	for _, r := range m.SCCs[comp] {
		clauses = append(clauses, m.clausesOf(r)...)
	}
	var nodes []headPattern
	nodeOf := map[string]int{}
	clauseNode := map[int]int{}
	for _, c := range clauses {
		p := patternOf(c.Head)
		k := p.rel + "\x00" + strings.Join(p.args, "\x00")
		id, ok := nodeOf[k]
		if !ok {
			id = len(nodes)
			nodeOf[k] = id
			nodes = append(nodes, p)
		}
		clauseNode[c.Index] = id
	}
	type edge struct {
		from, to int
		neg      bool
		span     syntax.Span
	}
	var edges []edge
	out := make([][]int, len(nodes))
	for _, c := range clauses {
		from := clauseNode[c.Index]
		walkLiterals(c, func(v literalVisit) {
			if v.Kind != syntax.LitAtom || !v.Lit.Atom().Valid() || !in[AtomRel(v.Lit.Atom())] {
				return
			}
			p := patternOf(v.Lit.Atom())
			for to, q := range nodes {
				if p.unifies(q) {
					out[from] = append(out[from], to)
					edges = append(edges, edge{from, to, v.Negated, v.Lit.Span()})
				}
			}
		})
	}
	sccOf := tarjan(len(nodes), out)
	var cyclic []syntax.Span
	for _, e := range edges {
		if e.neg && sccOf[e.from] == sccOf[e.to] {
			cyclic = append(cyclic, e.span)
		}
	}
	return cyclic
}

// tarjan returns the strongly connected component of each node of a graph given by adjacency
// lists.
func tarjan(n int, out [][]int) []int {
	index, low, comp := make([]int, n), make([]int, n), make([]int, n)
	onStack := make([]bool, n)
	var stack []int
	next, ncomp := 1, 0
	var visit func(v int)
	visit = func(v int) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		for _, w := range out[v] {
			if index[w] == 0 {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				comp[w] = ncomp
				if w == v {
					break
				}
			}
			ncomp++
		}
	}
	for v := range n {
		if index[v] == 0 {
			visit(v)
		}
	}
	return comp
}
