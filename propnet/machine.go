package propnet

import (
	"math/bits"
	"math/rand/v2"
	"slices"
)

// A Machine runs a network: it holds a current state (and, inside Next, a joint move) and the
// value of every gate in it. A Machine is not safe for concurrent use; make one per goroutine.
type Machine struct {
	n *Net
	// cnt is per node the number of its inputs that hold minus its threshold: the node holds
	// when cnt >= 0. Sources (base and input propositions) are -1 or 0.
	cnt     []int32
	stack   []uint32    // pending changes: node<<1 | its new value (cycles), node (otherwise)
	src     []uint32    // changed sources not yet passed on: node<<1 | its new value
	prop    []bool      // per node: the value its readers count (nets without cycles)
	cur     []int32     // per role: the input node set, -1 if none
	state   []uint64    // the current state: bit f is fluent f
	sets    [][][]int32 // per role and group: the moves whose condition (without the guard) holds
	pos     [][]int32   // per role and move: its position in its group's set, -1 if not there
	legal   [][]int32   // per role: scratch for Legal
	next    []uint64    // the next state as the current inputs make it (kept up to date)
	joint   []int32     // scratch for Playout
	scratch []uint64

	// The words of next that changed since the state was last made the next state (step), each
	// once; all: the state was set otherwise since (SetState), so any word may differ.
	changed []int32
	isDirty []bool
	all     bool

	// Cycles (nets with atoms that depend on each other): the value of each node of a cycle
	// (its count does not decide it: its least fixpoint does), and the cycles whose inputs from
	// outside changed since they were last computed.
	sval  []bool
	dirty []bool
	ndirt int
	old   []bool
	work  []int32

	// Lazy inputs (Net.lazyEdges): per gate with a lazy input, the number of its other inputs
	// that decide it (miss), and when none does, its position in its lazy input's ready list
	// (apos); per node, the length of its ready list (alen), at ready[Net.lazyOff[node]:].
	miss  []int32
	apos  []int32
	alen  []int32
	ready []int32

	// edges counts the edges the machine has passed changes along (Work).
	edges uint64

	// snap is the machine in the state of its first Playout's start: the next playouts from
	// there copy it back (restore) instead of passing on every change back to it, once that has
	// proved the cheaper (restoreOK).
	snap      *Machine
	restoreOK bool
}

// Work returns the number of edges the machine has passed changes along since it was made: a
// measure of its work, the same on any machine.
func (m *Machine) Work() uint64 { return m.edges }

// snapshot returns a copy of the machine's state: what restore copies back.
func (m *Machine) snapshot() *Machine {
	c := &Machine{state: slices.Clone(m.state), next: slices.Clone(m.next), cnt: slices.Clone(m.cnt),
		prop: slices.Clone(m.prop), cur: slices.Clone(m.cur), sval: slices.Clone(m.sval), miss: slices.Clone(m.miss),
		apos: slices.Clone(m.apos), alen: slices.Clone(m.alen), ready: slices.Clone(m.ready)}
	c.sets = make([][][]int32, len(m.sets))
	for r, gs := range m.sets {
		c.sets[r] = make([][]int32, len(gs))
		for g, ms := range gs {
			c.sets[r][g] = slices.Clone(ms)
		}
	}
	c.pos = make([][]int32, len(m.pos))
	for r, ps := range m.pos {
		c.pos[r] = slices.Clone(ps)
	}
	return c
}

// bytes is the size of what restore copies.
func (c *Machine) bytes() uint64 {
	n := 8*(len(c.state)+len(c.next)) + 4*(len(c.cnt)+len(c.cur)+len(c.miss)+len(c.apos)+len(c.alen)+len(c.ready)) +
		len(c.prop) + len(c.sval)
	for r, gs := range c.sets {
		for _, ms := range gs {
			n += 4 * len(ms)
		}
		n += 4 * len(c.pos[r])
	}
	return uint64(n)
}

// restore makes the machine its snapshot again.
func (m *Machine) restore() {
	c := m.snap
	copy(m.state, c.state)
	copy(m.next, c.next)
	copy(m.cnt, c.cnt)
	copy(m.prop, c.prop)
	copy(m.cur, c.cur)
	copy(m.sval, c.sval)
	copy(m.miss, c.miss)
	copy(m.apos, c.apos)
	copy(m.alen, c.alen)
	copy(m.ready, c.ready)
	for r, gs := range c.sets {
		for g, ms := range gs {
			m.sets[r][g] = append(m.sets[r][g][:0], ms...)
		}
		copy(m.pos[r], c.pos[r])
	}
	for _, w := range m.changed {
		m.isDirty[w] = false
	}
	m.changed = m.changed[:0]
	m.all = true
}

// Words returns the length of a state bit vector of this network, in 64-bit words.
func (n *Net) Words() int { return (len(n.base) + 63) / 64 }

// NewMachine makes a machine in the empty state (no fluent true, no move made).
func (n *Net) NewMachine() *Machine {
	nn := len(n.kind)
	m := &Machine{n: n, cnt: make([]int32, nn), state: make([]uint64, n.Words()), next: make([]uint64, n.Words()), scratch: make([]uint64, n.Words()),
		isDirty: make([]bool, n.Words()), all: true}
	if len(n.cycles) > 0 {
		m.sval = make([]bool, nn)
		m.dirty = make([]bool, len(n.cycles))
	}
	if n.lazyIn != nil {
		m.miss = make([]int32, nn)
		m.apos = make([]int32, nn)
		m.alen = make([]int32, nn)
		m.ready = make([]int32, n.lazyOff[nn])
	}
	for i := 0; i < nn; i++ {
		if n.lazyIn != nil && n.lazyIn[i] != noLazy {
			m.initLazy(int32(i))
			continue
		}
		c := -n.thresh[i]
		for _, in := range n.ins[n.inOff[i]:n.inOff[i+1]] {
			if (n.scc[i] == 0 || n.scc[in.node()] != n.scc[i]) && m.val(in) {
				c++
			}
		}
		m.cnt[i] = c
		if k := n.scc[i]; k != 0 && n.cycles[k-1][len(n.cycles[k-1])-1] == int32(i) {
			// The last node of a cycle: every input from outside is counted.
			m.fixpoint(n.cycles[k-1])
		}
	}
	m.prop = make([]bool, nn)
	for i := range m.prop {
		m.prop[i] = m.value(int32(i))
	}
	m.cur = make([]int32, len(n.input))
	for r := range m.cur {
		m.cur[r] = -1
	}
	for f, x := range n.next {
		if m.val(x) {
			m.next[f>>6] |= 1 << uint(f&63)
		}
	}
	nr := len(n.legal)
	m.sets = make([][][]int32, nr)
	m.pos = make([][]int32, nr)
	m.legal = make([][]int32, nr)
	for r, rs := range n.legal {
		m.sets[r] = make([][]int32, len(n.groups[r]))
		m.pos[r] = make([]int32, len(rs))
		for j := range rs {
			m.pos[r][j] = -1
			m.update(int32(r), int32(j), m.val(rs[j]))
		}
	}
	return m
}

// initLazy sets up gate t with a lazy input from the values of its inputs.
func (m *Machine) initLazy(t int32) {
	n := m.n
	l := n.lazyIn[t]
	miss := int32(0)
	for _, in := range n.ins[n.inOff[t]:n.inOff[t+1]] {
		if in != l && m.val(in) == (n.kind[t] == kOr) {
			miss++
		}
	}
	m.miss[t] = miss
	m.cnt[t] = m.lazyCount(t, miss == 0)
	if miss == 0 {
		m.addReady(l.node(), t)
	}
}

// lazyCount is the count of gate t with a lazy input (0 when it holds, -1 when not): when
// ready, its lazy input's value as its readers count it, else what its other inputs decide.
func (m *Machine) lazyCount(t int32, ready bool) int32 {
	if ready {
		l := m.n.lazyIn[t]
		if m.value(l.node()) != l.inv() {
			return 0
		}
		return -1
	}
	if m.n.kind[t] == kOr {
		return 0
	}
	return -1
}

func (m *Machine) addReady(x, t int32) {
	off := m.n.lazyOff[x]
	m.apos[t] = m.alen[x]
	m.ready[off+m.alen[x]] = t
	m.alen[x]++
}

func (m *Machine) removeReady(x, t int32) {
	off := m.n.lazyOff[x]
	m.alen[x]--
	last := m.ready[off+m.alen[x]]
	p := m.apos[t]
	m.ready[off+p] = last
	m.apos[last] = p
}

func (m *Machine) val(r ref) bool {
	return m.value(r.node()) != r.inv()
}

// value is a node's value.
func (m *Machine) value(i int32) bool {
	if m.sval != nil && m.n.scc[i] != 0 {
		return m.sval[i]
	}
	return m.cnt[i] >= 0
}

// fixpoint computes the least fixpoint of a cycle whose nodes count their inputs from outside
// the cycle only: nodes that hold on those alone hold, and pass it on inside the cycle.
func (m *Machine) fixpoint(members []int32) {
	n := m.n
	work := m.work[:0]
	for _, t := range members {
		m.sval[t] = m.cnt[t] >= 0
		if m.sval[t] {
			work = append(work, t)
		}
	}
	for len(work) > 0 {
		u := work[len(work)-1]
		work = work[:len(work)-1]
		k := n.scc[u]
		for _, o := range n.outs[n.outOff[u]:n.outOff[u+1]] {
			t := int32(o >> 1)
			if n.scc[t] != k {
				continue
			}
			m.cnt[t]++
			if !m.sval[t] && m.cnt[t] >= 0 {
				m.sval[t] = true
				work = append(work, t)
			}
		}
	}
	m.work = work
}

// recompute computes a cycle again after inputs from outside changed, and passes on the changes
// of its nodes.
func (m *Machine) recompute(k int32, stack []uint32) []uint32 {
	n := m.n
	members := n.cycles[k-1]
	if cap(m.old) < len(members) {
		m.old = make([]bool, len(members))
	}
	old := m.old[:len(members)]
	// Take out what the nodes of the cycle gave each other.
	for i, u := range members {
		old[i] = m.sval[u]
		if !old[i] {
			continue
		}
		for _, o := range n.outs[n.outOff[u]:n.outOff[u+1]] {
			if t := int32(o >> 1); n.scc[t] == k {
				m.cnt[t]--
			}
		}
	}
	m.fixpoint(members)
	for i, u := range members {
		if m.sval[u] != old[i] {
			stack = append(stack, uint32(u)<<1|b2u(m.sval[u]))
		}
	}
	return stack
}

// setSource gives source node i (a base or input proposition) the value v and queues the change
// in m.src; propagate passes the queued changes on.
func (m *Machine) setSource(i int32, v bool) {
	if (m.cnt[i] >= 0) == v {
		return
	}
	if v {
		m.cnt[i] = 0
	} else {
		m.cnt[i] = -1
	}
	m.src = append(m.src, uint32(i)<<1|b2u(v))
}

// propagate passes on the changes of the sources queued by setSource. The sources are passed on
// first, all of them, and only then the gates they changed: a gate that two sources change in
// opposite directions (the OR of two roles' moves when one role's move replaces the other's) is
// then not passed on at all. A gate is passed on when its value differs from the one that its
// readers count (prop), so a gate queued twice, or one that changed back before its turn, costs
// one look.
func (m *Machine) propagate() {
	src := m.src
	m.src = src[:0]
	if len(src) == 0 {
		return
	}
	n := m.n
	if m.sval != nil {
		m.stack = m.propagateCycles(append(m.stack[:0], src...))
		return
	}
	if m.miss != nil {
		m.propagateLazy(src)
		return
	}
	cnt, prop := m.cnt, m.prop
	stack := m.stack[:0]
	work := int32(0) // edges passed along (Work)
	defer func() { m.edges += uint64(work) }()
	// The sources first, then the gates, last queued first.
	for i := 0; ; i++ {
		var node int32
		if i < len(src) {
			node = int32(src[i] >> 1)
		} else if len(stack) > 0 {
			node = int32(stack[len(stack)-1])
			stack = stack[:len(stack)-1]
		} else {
			break
		}
		v := cnt[node] >= 0
		if prop[node] == v {
			continue
		}
		prop[node] = v
		if w := n.watched[node]; w != 0 {
			m.watchChanged(node, w)
		}
		// An input that turns true adds one to a gate that reads it as is, and takes one from a
		// gate that reads it inverted; a gate crosses when the sign of its count changes.
		up := b2u(v)
		lo, hi := n.outOff[node], n.outOff[node+1]
		work += hi - lo
		for _, o := range n.outs[lo:hi] {
			t := o >> 1
			d := 2*int32((uint32(o)&1)^up) - 1
			c := cnt[t]
			nc := c + d
			cnt[t] = nc
			if c^nc < 0 {
				stack = append(stack, uint32(t))
			}
		}
	}
	m.stack = stack
}

// propagateLazy is propagate for a net with lazy inputs (Net.lazyEdges).
func (m *Machine) propagateLazy(src []uint32) {
	n := m.n
	cnt, prop := m.cnt, m.prop
	stack := m.stack[:0]
	work := int32(0) // edges passed along (Work)
	defer func() { m.edges += uint64(work) }()
	for i := 0; ; i++ {
		var node int32
		if i < len(src) {
			node = int32(src[i] >> 1)
		} else if len(stack) > 0 {
			node = int32(stack[len(stack)-1])
			stack = stack[:len(stack)-1]
		} else {
			break
		}
		v := cnt[node] >= 0
		if prop[node] == v {
			continue
		}
		prop[node] = v
		if w := n.watched[node]; w != 0 {
			m.watchChanged(node, w)
		}
		up := b2u(v)
		lo, hi := n.outOff[node], n.outOff[node+1]
		work += hi - lo
		for _, o := range n.outs[lo:hi] {
			t := o >> 1
			d := 2*int32((uint32(o)&1)^up) - 1
			c := cnt[t]
			nc := c + d
			cnt[t] = nc
			if c^nc < 0 {
				stack = append(stack, uint32(t))
			}
		}
		stack = m.passLazy(node, up, stack)
	}
	m.stack = stack
}

// passLazy passes on the change of node (to up) to the gates that have a lazy input: those that
// read node as another input (routs) and, when node is a lazy input, its ready gates.
func (m *Machine) passLazy(node int32, up uint32, stack []uint32) []uint32 {
	n := m.n
	for _, o := range n.routs[n.routOff[node]:n.routOff[node+1]] {
		t := int32(o >> 1)
		old := m.miss[t]
		// One more deciding input when the edge turns false.
		nm := old + 1 - 2*int32((uint32(o)&1)^up)
		m.miss[t] = nm
		switch {
		case old == 0:
			m.removeReady(n.lazyIn[t].node(), t)
		case nm == 0:
			m.addReady(n.lazyIn[t].node(), t)
		default:
			continue
		}
		if c := m.lazyCount(t, nm == 0); c != m.cnt[t] {
			m.cnt[t] = c
			stack = append(stack, uint32(t))
		}
	}
	if k := m.alen[node]; k > 0 {
		off := n.lazyOff[node]
		for _, t := range m.ready[off : off+k] {
			c := int32(-1)
			if (up == 1) != n.lazyIn[t].inv() {
				c = 0
			}
			m.cnt[t] = c
			stack = append(stack, uint32(t))
		}
	}
	return stack
}

// propagateCycles is the propagation of set for a net with cycles: a node of a cycle counts its
// inputs from outside as any gate, but its value is the cycle's least fixpoint, computed again
// once the changes from outside are all passed on (cycles in topological order).
func (m *Machine) propagateCycles(stack []uint32) []uint32 {
	n := m.n
	cnt := m.cnt
	work := int32(0) // edges passed along (Work)
	defer func() { m.edges += uint64(work) }()
	for {
		for len(stack) > 0 {
			e := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			node := int32(e >> 1)
			if w := n.watched[node]; w != 0 {
				m.watchChanged(node, w)
			}
			up := e & 1
			from := n.scc[node]
			lo, hi := n.outOff[node], n.outOff[node+1]
			work += hi - lo
			for _, o := range n.outs[lo:hi] {
				t := o >> 1
				d := 2*int32((uint32(o)&1)^up) - 1
				if k := n.scc[t]; k != 0 {
					if k != from {
						cnt[t] += d
						if !m.dirty[k-1] {
							m.dirty[k-1] = true
							m.ndirt++
						}
					}
					continue
				}
				c := cnt[t]
				nc := c + d
				cnt[t] = nc
				if c^nc < 0 {
					stack = append(stack, uint32(t)<<1|(uint32(nc)>>31^1))
				}
			}
		}
		if m.ndirt == 0 {
			return stack
		}
		for k := range m.dirty {
			if m.dirty[k] {
				m.dirty[k] = false
				m.ndirt--
				stack = m.recompute(int32(k+1), stack)
				break
			}
		}
	}
}

// watchChanged updates (from list, the node's entry in watched) the legal moves and the fluents of the next state that node decides. It
// reads the node's current value, not the change being passed on: changes are passed on in no
// particular order, and the last one processed for a node comes after its last change.
func (m *Machine) watchChanged(node, list int32) {
	v := m.value(node)
	ws := &m.n.watches[list-1]
	for _, w := range ws.legal {
		m.update(w.role, w.move, v != w.inv)
	}
	for _, w := range ws.next {
		word := w.fluent >> 6
		if v != w.inv {
			m.next[word] |= 1 << uint(w.fluent&63)
		} else {
			m.next[word] &^= 1 << uint(w.fluent&63)
		}
		if !m.isDirty[word] {
			m.isDirty[word] = true
			m.changed = append(m.changed, word)
		}
	}
}

// update puts move mv of role r in its group's set or takes it out.
func (m *Machine) update(r, mv int32, holds bool) {
	pos := m.pos[r][mv]
	g := m.n.groupOf[r][mv]
	switch {
	case holds && pos < 0:
		m.pos[r][mv] = int32(len(m.sets[r][g]))
		m.sets[r][g] = append(m.sets[r][g], mv)
	case !holds && pos >= 0:
		ls := m.sets[r][g]
		last := ls[len(ls)-1]
		ls[pos] = last
		m.pos[r][last] = pos
		m.sets[r][g] = ls[:len(ls)-1]
		m.pos[r][mv] = -1
	}
}

func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// SetState makes s the current state (a bit vector of Words() words).
func (m *Machine) SetState(s []uint64) {
	for w := range m.state {
		diff := m.state[w] ^ s[w]
		for diff != 0 {
			b := bits.TrailingZeros64(diff)
			diff &= diff - 1
			f := w*64 + b
			m.setSource(m.n.base[f], s[w]&(1<<uint(b)) != 0)
		}
		m.state[w] = s[w]
	}
	m.all = true
	m.propagate()
}

// step plays a joint move and makes the next state the current state: Next and SetState in
// one, but for the words of the state that the joint move changed only (the states of
// pancakes88 have 631 words, a flip changes two).
func (m *Machine) step(joint []int32) {
	m.play(joint)
	if m.all {
		for w := range m.state {
			m.syncWord(w)
		}
		m.all = false
	} else {
		for _, w := range m.changed {
			m.syncWord(int(w))
		}
	}
	for _, w := range m.changed {
		m.isDirty[w] = false
	}
	m.changed = m.changed[:0]
	m.unplay()
	m.propagate()
}

// syncWord makes word w of the state that of the next state (the sources change; the caller
// propagates).
func (m *Machine) syncWord(w int) {
	diff := m.state[w] ^ m.next[w]
	for diff != 0 {
		b := bits.TrailingZeros64(diff)
		diff &= diff - 1
		m.setSource(m.n.base[w*64+b], m.next[w]&(1<<uint(b)) != 0)
	}
	m.state[w] = m.next[w]
}

// State returns the current state. Do not modify it.
func (m *Machine) State() []uint64 { return m.state }

// Legal returns the indices of the legal moves of role r in the current state, in no particular
// order. Do not modify it; it changes with the state.
func (m *Machine) Legal(r int) []int32 {
	var only []int32
	active := 0
	for g, guard := range m.n.groups[r] {
		if len(m.sets[r][g]) > 0 && m.val(guard) {
			only = m.sets[r][g]
			active++
		}
	}
	if active <= 1 {
		return only
	}
	out := m.legal[r][:0]
	for g, guard := range m.n.groups[r] {
		if m.val(guard) {
			out = append(out, m.sets[r][g]...)
		}
	}
	m.legal[r] = out
	return out
}

// pick returns a uniformly random legal move of role r, or -1 when it has none.
func (m *Machine) pick(r int, rng *rand.Rand) int32 {
	total := 0
	sets := m.sets[r]
	guards := m.n.groups[r]
	for g := range sets {
		if len(sets[g]) > 0 && m.val(guards[g]) {
			total += len(sets[g])
		}
	}
	if total == 0 {
		return -1
	}
	k := rng.IntN(total)
	for g := range sets {
		if len(sets[g]) > 0 && m.val(guards[g]) {
			if k < len(sets[g]) {
				return sets[g][k]
			}
			k -= len(sets[g])
		}
	}
	return -1
}

// IsLegal reports whether move mv of role r is legal in the current state.
func (m *Machine) IsLegal(r int, mv int32) bool {
	return m.pos[r][mv] >= 0 && m.val(m.n.groups[r][m.n.groupOf[r][mv]])
}

// Terminal reports whether the current state is terminal.
func (m *Machine) Terminal() bool { return m.val(m.n.terminal) }

// Goals appends to out the indices (into the grounding's Goals of role r) of the goal atoms of
// role r that hold in the current state.
func (m *Machine) Goals(r int, out []int) []int {
	for i, x := range m.n.goals[r] {
		if m.val(x) {
			out = append(out, i)
		}
	}
	return out
}

// Next computes the state after the joint move (one move index per role) into out, which has
// Words() words. The moves are not checked for legality.
func (m *Machine) Next(joint []int32, out []uint64) {
	m.play(joint)
	copy(out, m.next)
	m.unplay()
}

// play sets the input propositions of a joint move, replacing those of the joint move set before.
func (m *Machine) play(joint []int32) {
	for r, mv := range joint {
		i := m.n.input[r][mv]
		if old := m.cur[r]; old != i {
			if old >= 0 {
				m.setSource(old, false)
			}
			m.setSource(i, true)
			m.cur[r] = i
		}
	}
	m.propagate()
}

// unplay takes the joint move back, unless no legal move, goal, terminal or guard depends on
// the moves (as GDL requires; Net.keepMoves): then the moves stay set until the next joint move
// replaces them, which costs less when the same moves, or the same kind of moves, come again.
func (m *Machine) unplay() {
	if m.n.keepMoves {
		return
	}
	for r, i := range m.cur {
		if i >= 0 {
			m.setSource(i, false)
			m.cur[r] = -1
		}
	}
	m.propagate()
}

// Sees appends to out the indices (into the grounding's Sees of role r) of the percepts role r
// gets when joint is played in the current state.
func (m *Machine) Sees(joint []int32, r int, out []int) []int {
	m.play(joint)
	for i, x := range m.n.sees[r] {
		if m.val(x) {
			out = append(out, i)
		}
	}
	m.unplay()
	return out
}

// PlayoutResult is the end of a random playout.
type PlayoutResult struct {
	Depth    int  // joint moves played
	Terminal bool // it ended in a terminal state
	NoLegal  int  // the role without a legal move in a non-terminal state, or -1
}

// Playout plays uniformly random legal moves from state s until a terminal state, a role
// without a legal move, or maxDepth joint moves. rec, when not nil, receives the joint moves
// played, one move index per role each, one after the other. The machine is left in the last
// state.
func (m *Machine) Playout(s []uint64, rng *rand.Rand, maxDepth int, rec *[]int32) PlayoutResult {
	switch {
	case m.snap != nil && slices.Equal(m.snap.state, s) && m.restoreOK:
		m.restore()
	case m.snap != nil && slices.Equal(m.snap.state, s):
		// Copying the snapshot back costs its bytes; passing the changes back, 15 ns or so per
		// edge, the time to copy some 64 bytes on a loaded machine: restore once that is the
		// cheaper (pancakes88 and kalaha_2009: 8 to 9 MB of snapshot, and fewer than 100,000
		// edges back to the start).
		w := m.edges
		m.SetState(s)
		m.restoreOK = (m.edges-w)*64 > m.snap.bytes()
	case m.snap == nil:
		m.SetState(s)
		m.snap = m.snapshot()
	default:
		m.SetState(s)
	}
	nr := len(m.n.legal)
	if cap(m.joint) < nr {
		m.joint = make([]int32, nr)
	}
	joint := m.joint[:nr]
	res := PlayoutResult{NoLegal: -1}
	for {
		if m.Terminal() {
			res.Terminal = true
			return res
		}
		if res.Depth >= maxDepth {
			return res
		}
		for r := 0; r < nr; r++ {
			mv := m.pick(r, rng)
			if mv < 0 {
				res.NoLegal = r
				return res
			}
			joint[r] = mv
		}
		if rec != nil {
			*rec = append(*rec, joint...)
		}
		m.step(joint)
		res.Depth++
	}
}
