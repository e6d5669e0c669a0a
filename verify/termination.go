package verify

import (
	"context"
	"fmt"
)

// termination: every sequence of legal joint moves from the initial state reaches a terminal
// state. In a finite space it fails exactly when the joint moves can lead from a state back to
// itself (a terminal state has no joint moves, so none lies on such a cycle). The witness is the
// shortest way to the nearest state on a cycle, then the shortest cycle back to it. A state from
// which no terminal state can be reached at all (and no state where a role has no move, which
// is a playability finding) is reported as well: every match that gets there goes on forever.
type termination struct{}

func newTermination() check { return termination{} }

func (termination) visit(x *explorer, v *visit) {}

func (termination) finish(ctx context.Context, x *explorer, r *Result) error {
	sc := sccResult{entry: -1, trap: -1}
	if !x.layered() {
		sc = x.sccs()
	}
	found := false
	if sc.entry >= 0 {
		cycle := x.shortestCycle(sc.comp, sc.entry)
		gr := &group{kind: "cycle", role: -1, id: sc.entry, count: sc.onCycles}
		d := int(x.nodes[sc.entry].depth)
		from := "the initial state"
		if d > 0 {
			from = fmt.Sprintf("the state after joint move %d", d)
		}
		msg := fmt.Sprintf("the last %s lead from %s back to it, and none of the states between is terminal: a match can go on forever",
			plural(len(cycle), "joint move"), from)
		if len(cycle) == 1 {
			msg = fmt.Sprintf("the last joint move leads from %s back to it: a match can go on forever", from)
		}
		if sc.onCycles > 1 {
			msg += fmt.Sprintf(" (%d reachable states lie on cycles)", sc.onCycles)
		}
		moves, err := x.witness(ctx, sc.entry, cycle)
		if err != nil {
			return err
		}
		r.Findings = append(r.Findings, Finding{Property: Termination, Kind: gr.kind, Moves: moves,
			Joints: kifJoints(x.g, moves), Infix: infixJoints(x.g, moves), Loop: len(cycle), Count: gr.count, Message: msg,
			Relations: []string{"terminal", "next"}})
		found = true
	}
	if sc.trap >= 0 {
		gr := &group{kind: "no-terminal", role: -1, id: sc.trap, count: sc.traps}
		msg := "no terminal state can be reached from this state: every match that gets here goes on forever"
		if sc.traps > 1 {
			msg += fmt.Sprintf(" (%d reachable states are like it)", sc.traps)
		}
		f, err := x.finding(ctx, Termination, gr, msg, "terminal", "next")
		if err != nil {
			return err
		}
		r.Findings = append(r.Findings, f)
		found = true
	}
	r.Properties[Termination] = x.verdict(found)
	return nil
}

// layered reports whether every edge of the explored graph leads to a state deeper than the
// one it leaves (a breadth-first search's new states, in a game whose states count their
// steps). Then no state lies on a cycle, and every state can reach an end (what sccs looks
// for, and termination needs): following edges gets deeper, so it stops at a state without a
// successor in the table, which is terminal, a dead end, partial (a successor past the budget)
// or not explored. Checking this is a pass over the edges, cheaper than sccs's walk.
func (x *explorer) layered() bool {
	for v := range len(x.edgeOff) - 1 {
		d := x.nodes[v].depth
		for _, w := range x.edges[x.edgeOff[v]:x.edgeOff[v+1]] {
			if w >= 0 && x.nodes[w].depth <= d {
				return false
			}
		}
	}
	return true
}

// sccResult are the strongly connected components of the explored graph.
type sccResult struct {
	comp     []int32 // per state, its component
	entry    int32   // the nearest state on a cycle (-1: none)
	onCycles int     // states on cycles
	trap     int32   // the nearest explored state from which no end can be reached (-1: none)
	traps    int
	order    []int32 // the states component by component, each after every state it leads to
}

// sccs finds the strongly connected components (Tarjan's algorithm with an explicit stack) and
// which of them can reach an end: a terminal state, a state where a role has no move, or a
// state not explored (which may end, as far as the search knows).
func (x *explorer) sccs() sccResult {
	n := len(x.nodes)
	t := &tarjan{
		x:       x,
		res:     sccResult{comp: make([]int32, n), entry: -1, trap: -1},
		index:   make([]int32, n),
		low:     make([]int32, n),
		onStack: make([]bool, n),
		next:    1,
	}
	for root := int32(0); int(root) < n; root++ {
		if t.index[root] == 0 {
			t.walk(root)
		}
	}
	return t.res
}

// tarjan is the state of sccs's walk of the explored graph.
type tarjan struct {
	x       *explorer
	res     sccResult
	index   []int32 // 1 + visiting order; 0: not visited
	low     []int32
	onStack []bool
	stack   []int32       // the states of the components not yet closed
	calls   []tarjanFrame // the depth-first walk's path
	canEnd  []bool        // per component closed, whether it can reach an end
	next    int32         // the next visiting order
}

// tarjanFrame is a state on the walk's path and the number of its successors walked.
type tarjanFrame struct{ v, e int32 }

// push visits state v.
func (t *tarjan) push(v int32) {
	t.index[v], t.low[v] = t.next, t.next
	t.next++
	t.stack = append(t.stack, v)
	t.onStack[v] = true
	t.calls = append(t.calls, tarjanFrame{v, 0})
}

// walk visits every state reachable from root not visited yet, closing each component when
// the walk leaves its root.
func (t *tarjan) walk(root int32) {
	t.push(root)
	for len(t.calls) > 0 {
		top := &t.calls[len(t.calls)-1]
		v := top.v
		succ := t.x.succ(v)
		if int(top.e) < len(succ) {
			w := succ[top.e]
			top.e++
			if w < 0 {
				continue
			}
			if t.index[w] == 0 {
				t.push(w)
			} else if t.onStack[w] {
				t.low[v] = min(t.low[v], t.index[w])
			}
			continue
		}
		t.calls = t.calls[:len(t.calls)-1]
		if len(t.calls) > 0 {
			u := t.calls[len(t.calls)-1].v
			t.low[u] = min(t.low[u], t.low[v])
		}
		if t.low[v] == t.index[v] {
			t.close(v)
		}
	}
}

// close pops the component whose root is v and decides whether it can reach an end: one of its
// states may end, or a successor in a component closed before can.
func (t *tarjan) close(v int32) {
	c := int32(len(t.canEnd))
	i := len(t.stack) - 1
	for t.stack[i] != v {
		i--
	}
	members := t.stack[i:]
	t.stack = t.stack[:i]
	end := false
	cyclic := len(members) > 1
	for _, m := range members {
		t.onStack[m] = false
		t.res.comp[m] = c
	}
	for _, m := range members {
		if t.x.mayEnd(m) {
			end = true
		}
		for _, w := range t.x.succ(m) {
			if w == m {
				cyclic = true
			}
			if w >= 0 && t.res.comp[w] != c && t.canEnd[t.res.comp[w]] {
				end = true
			}
		}
	}
	t.canEnd = append(t.canEnd, end)
	t.res.order = append(t.res.order, members...)
	for _, m := range members {
		if cyclic {
			t.res.onCycles++
			if t.res.entry < 0 || nearer(t.x, m, t.res.entry) {
				t.res.entry = m
			}
		}
		if !end {
			t.res.traps++
			if t.res.trap < 0 || nearer(t.x, m, t.res.trap) {
				t.res.trap = m
			}
		}
	}
}

// mayEnd reports whether state v may end the game: it is terminal, a role has no move in it,
// or it was not (fully) explored.
func (x *explorer) mayEnd(v int32) bool {
	f := x.nodes[v].flags
	return f&fExplored == 0 || f&(fTerminal|fDeadEnd|fPartial) != 0
}

// nearer reports whether state a is nearer the initial state than b (then found first).
func nearer(x *explorer, a, b int32) bool {
	da, db := x.nodes[a].depth, x.nodes[b].depth
	return da < db || da == db && a < b
}

// shortestCycle returns the numbers of the joint moves of a shortest cycle from state e back
// to itself, within its component (breadth-first).
func (x *explorer) shortestCycle(comp []int32, e int32) []int32 {
	type step struct{ from, num int32 }
	prev := map[int32]step{}
	queue := []int32{e}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for k, w := range x.succ(v) {
			if w < 0 || comp[w] != comp[e] {
				continue
			}
			if w == e {
				out := []int32{int32(k)}
				for u := v; u != e; u = prev[u].from {
					out = append(out, prev[u].num)
				}
				for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
					out[i], out[j] = out[j], out[i]
				}
				return out
			}
			if _, seen := prev[w]; !seen {
				prev[w] = step{v, int32(k)}
				queue = append(queue, w)
			}
		}
	}
	return nil
}
