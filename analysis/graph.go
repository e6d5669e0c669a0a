package analysis

import (
	"sort"

	"github.com/gdl-lsp/gdl/syntax"
)

// buildGraph indexes the dependency edges (head relation -> body relation, collected per clause
// by addForm) and computes the strongly connected components, the strata and the recursive
// relations.
func (m *Model) buildGraph() {
	for i, e := range m.Edges {
		m.Out[e.From] = append(m.Out[e.From], i)
	}
	m.components()
	m.strata()
}

func (m *Model) edges(c *Clause, from string, l syntax.Literal, neg bool) {
	switch l.Kind() {
	case syntax.LitAtom:
		if a := l.Atom(); a.Valid() {
			m.Edges = append(m.Edges, Edge{From: from, To: a.Name().Key(), Negative: neg, Span: a.Span(), Clause: c.Index})
		}
	case syntax.LitNot:
		for _, op := range l.Operands() {
			m.edges(c, from, op, true)
		}
	case syntax.LitOr:
		for _, op := range l.Operands() {
			m.edges(c, from, op, neg)
		}
	}
}

// nodes returns every relation of the graph in a deterministic order, and each one's position.
func (m *Model) nodes() ([]string, map[string]int) {
	id := make(map[string]int, len(m.Relations))
	var out []string
	add := func(k string) {
		if _, ok := id[k]; !ok {
			id[k] = len(out)
			out = append(out, k)
		}
	}
	for _, c := range m.Clauses {
		add(c.Key())
	}
	for _, e := range m.Edges {
		add(e.To)
	}
	return out, id
}

// components runs Tarjan's algorithm. Components come out in reverse topological order of the
// condensation, that is dependencies first, which is the order evaluation needs. It works on
// relation numbers; the exported maps are filled at the end.
func (m *Model) components() {
	names, id := m.nodes()
	n := len(names)
	// The edges as adjacency lists of relation numbers, in one array (CSR).
	start := make([]int32, n+1)
	from := make([]int32, len(m.Edges))
	to := make([]int32, len(m.Edges))
	for i, e := range m.Edges {
		from[i], to[i] = int32(id[e.From]), int32(id[e.To])
		start[from[i]+1]++
	}
	for i := 1; i <= n; i++ {
		start[i] += start[i-1]
	}
	adj := make([]int32, len(m.Edges))
	fill := append([]int32(nil), start[:n]...)
	for i := range m.Edges {
		adj[fill[from[i]]] = to[i]
		fill[from[i]]++
	}
	index := make([]int32, n) // 0: not visited; else visiting order + 1
	low := make([]int32, n)
	onStack := make([]bool, n)
	comp := make([]int32, n)
	var stack []int32
	next := int32(1)
	var visit func(v int32)
	visit = func(v int32) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		for _, w := range adj[start[v]:start[v+1]] {
			if index[w] == 0 {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			var members []string
			cid := int32(len(m.SCCs))
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				comp[w] = cid
				members = append(members, names[w])
				if w == v {
					break
				}
			}
			sort.Strings(members)
			m.SCCs = append(m.SCCs, members)
		}
	}
	for v := range int32(n) {
		if index[v] == 0 {
			visit(v)
		}
	}
	m.SCCOf = make(map[string]int, n)
	for v, name := range names {
		m.SCCOf[name] = int(comp[v])
	}
	m.Recursive = map[string]bool{}
	for i := range m.Edges {
		if comp[from[i]] == comp[to[i]] {
			m.Recursive[names[from[i]]] = true
			m.Recursive[names[to[i]]] = true
		}
	}
}

// strata assigns every relation the lowest stratum such that a relation is at least as high as
// what it uses and higher than what it negates. A negative edge inside a component cannot be
// satisfied; it is ignored here and reported by the stratification check.
func (m *Model) strata() {
	m.Stratum = map[string]int{}
	for id, comp := range m.SCCs { // dependencies first
		s := 0
		for _, v := range comp {
			for _, ei := range m.Out[v] {
				e := m.Edges[ei]
				to := m.SCCOf[e.To]
				if to == id {
					continue
				}
				t := m.Stratum[e.To]
				if e.Negative {
					t++
				}
				s = max(s, t)
			}
		}
		for _, v := range comp {
			m.Stratum[v] = s
		}
	}
}

// InCycle reports whether relations a and b lie in one strongly connected component and that
// component is recursive.
func (m *Model) InCycle(a, b string) bool {
	ia, oka := m.SCCOf[a]
	ib, okb := m.SCCOf[b]
	return oka && okb && ia == ib && m.Recursive[a]
}

// DependsOn reports whether relation from depends, directly or transitively, on relation to.
//
// It is safe for concurrent use: the model is shared by the language server's requests.
func (m *Model) DependsOn(from, to string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	memo := m.dependsOn[to]
	if memo == nil {
		memo = map[string]bool{}
		m.dependsOn[to] = memo
		// Everything that reaches `to`, by a backwards search.
		in := map[string][]string{}
		for _, e := range m.Edges {
			in[e.To] = append(in[e.To], e.From)
		}
		work := []string{to}
		for len(work) > 0 {
			v := work[len(work)-1]
			work = work[:len(work)-1]
			for _, u := range in[v] {
				if !memo[u] {
					memo[u] = true
					work = append(work, u)
				}
			}
		}
	}
	return memo[from]
}

// PathTo returns a shortest chain of edges from relation from to relation to, or nil.
func (m *Model) PathTo(from, to string) []Edge {
	prev := map[string]int{from: -1}
	queue := []string{from}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, ei := range m.Out[v] {
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
