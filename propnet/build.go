// Package propnet is the compiled game engine: a propositional network built from a game's
// grounding (eval.Grounding), simplified, and run on states as bit vectors.
//
// Every ground atom that depends on the state becomes a gate over the base propositions (the
// fluents, the arguments of `true`) and the input propositions (the moves, the arguments of
// `does`): an atom is the OR of its ground rules, a ground rule the AND of its literals, a
// negative literal an inverted input. Constants are folded, gates with one input are replaced by
// that input, equal gates are shared, and gates that no output (legal, next, goal, terminal,
// sees) reads are removed.
//
// A Machine runs the network. Each gate keeps the number of its inputs that are true (an
// inverted input counts when false) and is true when that number reaches its threshold (1 for
// OR, the number of inputs for AND). Setting a state changes only the base propositions that
// differ from the current state, and only the gates whose count crosses the threshold pass the
// change on; the result does not depend on the order in which changes are passed on, because
// counts are sums.
package propnet

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/gdl-lsp/gdl/eval"
)

// ref is a node's value, possibly inverted: node<<1 | inverted.
type ref uint32

func mkRef(node int32, inv bool) ref {
	r := ref(node) << 1
	if inv {
		r |= 1
	}
	return r
}

func (r ref) node() int32 { return int32(r >> 1) }
func (r ref) inv() bool   { return r&1 != 0 }
func (r ref) not() ref    { return r ^ 1 }

// The two constant nodes.
const (
	nodeFalse int32 = 0
	nodeTrue  int32 = 1
)

var (
	refFalse = mkRef(nodeFalse, false)
	refTrue  = mkRef(nodeTrue, false)
)

// Node kinds of the network under construction.
const (
	kConst uint8 = iota
	kBase
	kInput
	kAnd
	kOr
)

// bnode is a node under construction; its inputs are builder.edges[off:off+n].
type bnode struct {
	kind uint8
	off  int32
	n    int32
}

// builder turns a grounding into a simplified network.
type builder struct {
	ctx   context.Context
	g     *eval.Program
	gr    *eval.Grounding
	nodes []bnode
	edges []ref     // the inputs of the nodes
	gates gateTable // kind and sorted inputs -> the gate with them
	at    *atomTable
	limit int

	cyclic bool // some atoms depend on each other (cycle)

	// complement: exactly one input per role is true whenever a gate that reads inputs matters
	// (Grounding.StateOnly), so the OR of many moves of a role is the negated OR of the others.
	complement bool
	firstInput int32     // the node of the first move; moves are numbered together
	inputRole  []int32   // per input node (from firstInput): its role
	roleInputs [][]int32 // per role, its input nodes
	inert      []bool    // per input node: no ground rule reads it (noop, typically)
	marked     []bool    // per input node: scratch of complementRole
	roleCount  []int     // per role: scratch of mostlyPlayed

	// Tarjan's algorithm (resolve): the atoms on the stack and the calls.
	stack []eval.Term
	calls []resolveFrame

	// Stacks of scratch memory for gate, orOf and factor (reserve).
	lits  []ref
	alts  [][]ref
	spans []int32
	occs  []uint64
	heap  []heapItem
	flags []bool
	ints  []int32

	litCount []int32 // per literal (a ref): scratch of sharedOccs
}

// resolveFrame is an atom that resolve is visiting.
type resolveFrame struct {
	atom eval.Term
	rule int32 // index into the atom's rules of the next rule to look at
	lit  int32 // index into that rule's body of the next literal to look at
}

// Limits bound the network that New builds.
type Limits struct {
	MaxNodes int
}

// DefaultLimits keep the network of any game that grounds within eval.DefaultGroundLimits.
var DefaultLimits = Limits{MaxNodes: 4_000_000}

// CycleError is returned for a grounding whose ground rules negate an atom that depends on the
// negation (the game is stratified by relations but not at this level): such rules have no
// least fixpoint.
type CycleError struct {
	Atom    string
	Negated bool
}

func (e *CycleError) Error() string {
	return fmt.Sprintf("ground rules are recursive through negation (%s depends on its own negation)", e.Atom)
}

// New builds the network of a grounding of game g.
func New(ctx context.Context, g *eval.Program, gr *eval.Grounding, lim Limits) (*Net, error) {
	if lim.MaxNodes <= 0 {
		lim.MaxNodes = DefaultLimits.MaxNodes
	}
	b := &builder{ctx: ctx, g: g, gr: gr, at: newAtomTable(gr), limit: lim.MaxNodes}
	b.nodes = append(b.nodes, bnode{kind: kConst}, bnode{kind: kConst})
	n := &Net{g: g, gr: gr}
	b.addInputs(n)
	if err := b.resolveOutputs(n); err != nil {
		return nil, err
	}
	b.at = nil // the atoms are all resolved: their table can go at the next collection
	if err := b.guardLegal(n); err != nil {
		return nil, err
	}
	b.gates.slots = nil
	b.finish(n)
	n.keepMoves = n.movesOnlyInNext()
	if err := n.checkCycles(); err != nil {
		return nil, err
	}
	if len(n.cycles) == 0 {
		n.lazyEdges()
	}
	return n, nil
}

// addInputs makes the nodes of the fluents (base) and of the moves (input), indexes the ground
// rules by head, and marks inert the moves no rule reads.
func (b *builder) addInputs(n *Net) {
	gr := b.gr
	for _, a := range gr.TrueAtoms {
		id := b.newNode(kBase, nil)
		b.at.set(a, mkRef(id, false))
		n.base = append(n.base, id)
	}
	n.input = make([][]int32, len(gr.Roles))
	b.complement = gr.StateOnly
	b.firstInput = int32(len(b.nodes))
	for i, atoms := range gr.DoesAtoms {
		for _, a := range atoms {
			id := b.newNode(kInput, nil)
			b.at.set(a, mkRef(id, false))
			n.input[i] = append(n.input[i], id)
			b.inputRole = append(b.inputRole, int32(i))
		}
	}
	b.roleInputs = n.input
	b.roleCount = make([]int, len(gr.Roles))
	b.marked = make([]bool, len(b.inputRole))
	b.inert = make([]bool, len(b.inputRole))
	for i := range b.inert {
		b.inert[i] = true
	}
	for i := range gr.Rules {
		for _, l := range gr.Rules[i].Body {
			if x := b.at.get(l.Atom); x != unresolved {
				if k, ok := b.inputIndex(x.node()); ok {
					b.inert[k] = false
				}
			}
		}
	}
}

// inputIndex returns the index of node id among the input nodes, if it is one.
func (b *builder) inputIndex(id int32) (int32, bool) {
	k := id - b.firstInput
	return k, k >= 0 && int(k) < len(b.inputRole)
}

// resolveAtom is b.resolve, but atom 0 (none) is false.
func (b *builder) resolveAtom(a eval.Term) (ref, error) {
	if a == 0 {
		return refFalse, nil
	}
	return b.resolve(a)
}

// resolveAll appends to out the nodes of atoms.
func (b *builder) resolveAll(out []ref, atoms ...eval.Term) ([]ref, error) {
	for _, a := range atoms {
		r, err := b.resolveAtom(a)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// resolveOutputs builds the nodes of the next state, each role's legal moves, goals and
// percepts, and terminal.
func (b *builder) resolveOutputs(n *Net) error {
	gr := b.gr
	var err error
	n.next = make([]ref, len(gr.Fluents))
	for i, a := range gr.NextAtoms {
		if n.next[i], err = b.resolveAtom(a); err != nil {
			return err
		}
	}
	n.legal = make([][]ref, len(gr.Roles))
	n.goals = make([][]ref, len(gr.Roles))
	n.sees = make([][]ref, len(gr.Roles))
	for i := range gr.Roles {
		if n.legal[i], err = b.resolveAll(n.legal[i], gr.Legal[i]...); err != nil {
			return err
		}
		for _, ga := range gr.Goals[i] {
			if n.goals[i], err = b.resolveAll(n.goals[i], ga.Atom); err != nil {
				return err
			}
		}
		for _, p := range gr.Sees[i] {
			if n.sees[i], err = b.resolveAll(n.sees[i], p.Atom); err != nil {
				return err
			}
		}
	}
	n.terminal, err = b.resolveAtom(gr.Terminal)
	return err
}

// checkCycles returns a CycleError when an edge inside a cycle is negated: inside a cycle every
// edge must be positive for its least fixpoint to be its meaning.
func (n *Net) checkCycles() error {
	for _, members := range n.cycles {
		for _, u := range members {
			for _, o := range n.outs[n.outOff[u]:n.outOff[u+1]] {
				if o.inv() && n.scc[o.node()] == n.scc[u] {
					return &CycleError{Atom: fmt.Sprintf("node %d", u), Negated: true}
				}
			}
		}
	}
	return nil
}

// lazyFanout is the fanout from which an input proposition (a move) is the lazy input of the
// gates that read it (see lazyEdges). Below it the bookkeeping of ready gates costs more than it
// saves: at 32, othello-comp2007's moves (35 gates each, many of them ready) played 20% slower.
const lazyFanout = 256

// noLazy marks a gate without a lazy input.
const noLazy = ^ref(0)

// lazyEdges takes, out of each AND or OR gate of two inputs or more that reads a move read by
// lazyFanout gates or more, that move (the one of the largest fanout): the gate's lazy input. A
// gate does not count its lazy input; it counts how many of its other inputs decide it (for an
// AND, how many are false), and only when none does (it is ready) is it on its lazy input's
// list of ready gates, and its value that of the lazy input. A change of the move then costs one
// step per ready gate, not one per reader. In pancakes88 a move is read by 40,320 gates, one per
// order of the pancakes, (next (porder ...)) <= (does flipper (flip p3)) (true (porder ...)), of
// which one is ready: the one of the current order. Moves change at every step, and the gates
// that read them are mostly conditions on the state that few states meet; fluents with a large
// fanout (control) are read by gates that are mostly ready, which gain nothing.
func (n *Net) lazyEdges() {
	nn := len(n.kind)
	fanout := func(i int32) int32 { return n.outOff[i+1] - n.outOff[i] }
	lazyIn := make([]ref, nn)
	lists := make([]int32, nn+1) // per node, the number of gates it is the lazy input of
	any := false
	for t := range nn {
		lazyIn[t] = noLazy
		ins := n.ins[n.inOff[t]:n.inOff[t+1]]
		if (n.kind[t] != kAnd && n.kind[t] != kOr) || len(ins) < 2 {
			continue
		}
		best := noLazy
		for _, in := range ins {
			if n.kind[in.node()] == kInput && (best == noLazy || fanout(in.node()) > fanout(best.node())) {
				best = in
			}
		}
		if best != noLazy && fanout(best.node()) >= lazyFanout {
			lazyIn[t] = best
			lists[best.node()+1]++
			any = true
		}
	}
	if !any {
		return
	}
	for i := range nn {
		lists[i+1] += lists[i]
	}
	var outs, routs []ref
	outOff := make([]int32, nn+1)
	routOff := make([]int32, nn+1)
	for u := range nn {
		for _, o := range n.outs[n.outOff[u]:n.outOff[u+1]] {
			t := o.node()
			switch l := lazyIn[t]; {
			case l == noLazy:
				outs = append(outs, o)
			case l.node() == int32(u):
				// The lazy edge: the gate is on u's list when it is ready.
			case n.kind[t] == kOr:
				// An OR is decided by an input that holds: it counts those that do not.
				routs = append(routs, o.not())
			default:
				routs = append(routs, o)
			}
		}
		outOff[u+1] = int32(len(outs))
		routOff[u+1] = int32(len(routs))
	}
	n.outs, n.outOff = outs, outOff
	n.routs, n.routOff = routs, routOff
	n.lazyIn, n.lazyOff = lazyIn, lists
}

func (b *builder) newNode(kind uint8, ins []ref) int32 {
	b.nodes = append(b.nodes, bnode{kind: kind, off: int32(len(b.edges)), n: int32(len(ins))})
	b.edges = append(b.edges, ins...)
	return int32(len(b.nodes) - 1)
}

// insOf returns the inputs of node id.
func (b *builder) insOf(id int32) []ref {
	nd := b.nodes[id]
	return b.edges[nd.off : nd.off+nd.n : nd.off+nd.n]
}

// resolve returns the ref of a derived atom, building its gates first: the atoms it depends on
// are resolved in dependency order, by Tarjan's algorithm with an explicit stack (deep rule
// chains cannot overflow the goroutine's stack). Atoms that depend on each other (a path
// relation over a graph with cycles) are built together (cycle).
func (b *builder) resolve(a eval.Term) (ref, error) {
	t := b.at
	if r := t.get(a); r != unresolved {
		return r, nil
	}
	b.stack, b.calls = b.stack[:0], b.calls[:0]
	b.visit(a)
	for len(b.calls) > 0 {
		f := &b.calls[len(b.calls)-1]
		if child := b.nextChild(f); child != 0 {
			b.visit(child)
			continue
		}
		// Every dependency of f.atom is resolved or on the stack.
		x := f.atom
		xi := x - t.lo
		b.calls = b.calls[:len(b.calls)-1]
		if len(b.calls) > 0 {
			p := b.calls[len(b.calls)-1].atom - t.lo
			t.low[p] = min(t.low[p], t.low[xi])
		}
		if t.low[xi] != t.index[xi] {
			continue
		}
		i := len(b.stack) - 1
		for b.stack[i] != x {
			i--
		}
		comp := b.stack[i:]
		b.stack = b.stack[:i]
		if len(comp) == 1 && !b.selfLoop(x) {
			r, err := b.gate(x)
			if err != nil {
				return 0, err
			}
			t.set(x, r)
			continue
		}
		if err := b.cycle(slices.Clone(comp)); err != nil {
			return 0, err
		}
	}
	return t.get(a), nil
}

// visit pushes atom x on Tarjan's stack and its call.
func (b *builder) visit(x eval.Term) {
	t := b.at
	t.visits++
	t.index[x-t.lo], t.low[x-t.lo] = t.visits, t.visits
	b.stack = append(b.stack, x)
	b.calls = append(b.calls, resolveFrame{atom: x})
}

// nextChild returns the next literal of f's rules not yet visited, or 0 when there is none
// left; it lowers f's low link by those on the stack. An atom visited and not resolved is on
// the stack: the atoms of a component are resolved when it is popped.
func (b *builder) nextChild(f *resolveFrame) eval.Term {
	t := b.at
	rs := t.rulesOf(f.atom)
	for ; int(f.rule) < len(rs); f.rule, f.lit = f.rule+1, 0 {
		body := b.gr.Rules[rs[f.rule]].Body
		for int(f.lit) < len(body) {
			x := body[f.lit].Atom
			f.lit++
			if t.get(x) != unresolved {
				continue
			}
			xi := x - t.lo
			if t.index[xi] == 0 {
				return x
			}
			fi := f.atom - t.lo
			t.low[fi] = min(t.low[fi], t.index[xi])
		}
	}
	return 0
}

// selfLoop reports whether an atom's rules read the atom itself.
func (b *builder) selfLoop(a eval.Term) bool {
	for _, ri := range b.at.rulesOf(a) {
		for _, l := range b.gr.Rules[ri].Body {
			if l.Atom == a {
				return true
			}
		}
	}
	return false
}

// cycle builds atoms that depend on each other: each is an OR node made before its rules, so
// that the rules can read it. The machine computes such a group's least fixpoint whenever an
// input from outside changes (machine.go). Negation inside the group has no fixpoint semantics
// (the game is not stratified at this level): that is a CycleError.
func (b *builder) cycle(comp []eval.Term) error {
	in := map[eval.Term]bool{}
	for _, a := range comp {
		in[a] = true
	}
	for _, a := range comp {
		for _, ri := range b.at.rulesOf(a) {
			for _, l := range b.gr.Rules[ri].Body {
				if l.Neg && in[l.Atom] {
					return &CycleError{Atom: b.g.String(a), Negated: true}
				}
			}
		}
	}
	holders := make([]int32, len(comp))
	for i, a := range comp {
		holders[i] = b.newNode(kOr, nil)
		b.at.set(a, mkRef(holders[i], false))
	}
	for i, a := range comp {
		r, err := b.gate(a)
		if err != nil {
			return err
		}
		switch r {
		case refFalse:
		case mkRef(holders[i], false):
		default:
			b.nodes[holders[i]] = bnode{kind: kOr, off: int32(len(b.edges)), n: 1}
			b.edges = append(b.edges, r)
		}
	}
	b.cyclic = true
	return nil
}

// gate builds the OR of the atom's rules, each the AND of its literals, folding constants and
// factoring out literals that several rules share.
func (b *builder) gate(a eval.Term) (ref, error) {
	lmark, amark := len(b.lits), len(b.alts)
	defer b.release(lmark, amark)
	b.spans = b.spans[:0]
	for _, ri := range b.at.rulesOf(a) {
		start := len(b.lits)
		dead := false
		for _, l := range b.gr.Rules[ri].Body {
			r := b.at.get(l.Atom)
			if r == unresolved {
				r = refFalse
			}
			if l.Neg {
				r = r.not()
			}
			if r == refTrue {
				continue
			}
			if r == refFalse {
				dead = true
				break
			}
			b.lits = append(b.lits, r)
		}
		if dead {
			b.lits = b.lits[:start]
			continue
		}
		if len(b.lits) == start {
			return refTrue, nil
		}
		ins := b.lits[start:]
		slices.Sort(ins)
		b.lits = b.lits[:start+len(slices.Compact(ins))]
		b.spans = append(b.spans, int32(start), int32(len(b.lits)))
	}
	alts := reserve(&b.alts, len(b.spans)/2)
	for i := 0; i < len(b.spans); i += 2 {
		alts = append(alts, b.lits[b.spans[i]:b.spans[i+1]:b.spans[i+1]])
	}
	if len(b.nodes)&0xffff == 0 {
		if err := b.ctx.Err(); err != nil {
			return 0, err
		}
	}
	return b.orOf(alts)
}

// release truncates the stacks of literals and alternatives to their lengths at a mark.
func (b *builder) release(lits, alts int) {
	b.lits, b.alts = b.lits[:lits], b.alts[:alts]
}

// orOf builds the OR of conjunctions (each sorted, none empty). A literal in several of them is
// factored out: (a and b) or (a and c) is a and (b or c). This keeps frame rules small: the
// ground rules (next c) <= (true c) (does r m) for each move m that leaves c alone become one
// AND of (true c) and the OR of those moves.
func (b *builder) orOf(alts [][]ref) (ref, error) {
	if len(alts) == 1 {
		return b.combine(kAnd, alts[0])
	}
	lmark, omark, hmark, fmark := len(b.lits), len(b.occs), len(b.heap), len(b.flags)
	defer func() {
		b.lits, b.occs, b.heap, b.flags = b.lits[:lmark], b.occs[:omark], b.heap[:hmark], b.flags[:fmark]
	}()
	occs, h := b.sharedLiterals(alts)
	// Greedy: the literal in the most alternatives not yet factored goes first. Counts only
	// fall as alternatives are taken, so a literal whose count is stale is counted again and
	// put back (lazy greedy).
	taken := reserve(&b.flags, len(alts))[:len(alts)]
	terms := reserve(&b.lits, len(alts))
	for len(h.items) > 0 {
		it := h.pop()
		gmark := len(b.ints)
		group := reserve(&b.ints, int(it.hi-it.lo))
		for _, o := range occs[it.lo:it.hi] {
			if a := int32(uint32(o)); !taken[a] {
				group = append(group, a)
			}
		}
		if len(group) < 2 || len(group) < int(it.n) && len(h.items) > 0 && int(h.items[0].n) > len(group) {
			if len(group) >= 2 {
				it.n = int32(len(group))
				h.push(it)
			}
			b.ints = b.ints[:gmark]
			continue
		}
		for _, a := range group {
			taken[a] = true
		}
		t, err := b.factor(ref(occs[it.lo]>>32), group, alts)
		b.ints = b.ints[:gmark]
		if err != nil {
			return 0, err
		}
		terms = append(terms, t)
	}
	for i, alt := range alts {
		if taken[i] {
			continue
		}
		t, err := b.combine(kAnd, alt)
		if err != nil {
			return 0, err
		}
		terms = append(terms, t)
	}
	return b.combine(kOr, terms)
}

// sharedLiterals returns which alternatives each literal in more than one of them is in,
// literal<<32 | alternative, sorted, and a heap of their runs, the most shared first.
func (b *builder) sharedLiterals(alts [][]ref) ([]uint64, runHeap) {
	total := 0
	for _, alt := range alts {
		total += len(alt)
	}
	occs := reserve(&b.occs, total)
	if total <= 16 {
		for i, alt := range alts {
			for _, l := range alt {
				occs = append(occs, uint64(l)<<32|uint64(i))
			}
		}
	} else {
		occs = b.sharedOccs(alts, occs)
	}
	slices.Sort(occs)
	runs := 0
	for i := 0; i < len(occs); {
		j := i + 1
		for j < len(occs) && occs[j]>>32 == occs[i]>>32 {
			j++
		}
		if j-i >= 2 {
			runs++
		}
		i = j
	}
	h := runHeap{items: reserve(&b.heap, runs)}
	for i := 0; i < len(occs); {
		j := i + 1
		for j < len(occs) && occs[j]>>32 == occs[i]>>32 {
			j++
		}
		if j-i >= 2 {
			h.items = append(h.items, heapItem{n: int32(j - i), lo: int32(i), hi: int32(j)})
		}
		i = j
	}
	h.init()
	return occs, h
}

// sharedOccs appends to occs the occurrences of the literals in more than one alternative (each
// alternative has a literal once), counted in b.litCount, which it leaves all zero: sorting
// only these costs less than sorting all, and their runs come in the same order.
func (b *builder) sharedOccs(alts [][]ref, occs []uint64) []uint64 {
	if need := 2*len(b.nodes) + 2; len(b.litCount) < need {
		b.litCount = append(b.litCount, make([]int32, 2*need-len(b.litCount))...)
	}
	for _, alt := range alts {
		for _, l := range alt {
			b.litCount[l]++
		}
	}
	for i, alt := range alts {
		for _, l := range alt {
			if b.litCount[l] >= 2 {
				occs = append(occs, uint64(l)<<32|uint64(i))
			}
		}
	}
	for _, alt := range alts {
		for _, l := range alt {
			b.litCount[l] = 0
		}
	}
	return occs
}

// factor builds the OR of the alternatives group, which all contain literal best: best AND the
// OR of the rest of each, or best alone when one of them is best alone (it absorbs the others).
func (b *builder) factor(best ref, group []int32, alts [][]ref) (ref, error) {
	lmark, amark := len(b.lits), len(b.alts)
	defer b.release(lmark, amark)
	with := reserve(&b.alts, len(group))
	for _, a := range group {
		alt := alts[a]
		if len(alt) == 1 {
			return best, nil
		}
		i := slices.Index(alt, best)
		rest := reserve(&b.lits, len(alt)-1)
		with = append(with, append(append(rest, alt[:i]...), alt[i+1:]...))
	}
	inner, err := b.orOf(with)
	if err != nil {
		return 0, err
	}
	return b.combine(kAnd, append(reserve(&b.lits, 2), best, inner))
}

type heapItem struct{ n, lo, hi int32 }

// runHeap orders literals by the number of alternatives they are in, most first (ties: the
// smaller literal, for a deterministic network). The order is total (lo differs), so the
// literals come out in one order whatever the heap's layout.
type runHeap struct{ items []heapItem }

func (h *runHeap) less(i, j int) bool {
	if h.items[i].n != h.items[j].n {
		return h.items[i].n > h.items[j].n
	}
	return h.items[i].lo < h.items[j].lo
}

func (h *runHeap) init() {
	for i := len(h.items)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

func (h *runHeap) push(it heapItem) {
	h.items = append(h.items, it)
	for j := len(h.items) - 1; j > 0; {
		i := (j - 1) / 2
		if !h.less(j, i) {
			break
		}
		h.items[i], h.items[j] = h.items[j], h.items[i]
		j = i
	}
}

func (h *runHeap) pop() heapItem {
	top := h.items[0]
	last := len(h.items) - 1
	h.items[0] = h.items[last]
	h.items = h.items[:last]
	h.down(0)
	return top
}

func (h *runHeap) down(i int) {
	n := len(h.items)
	for {
		c := 2*i + 1
		if c >= n {
			return
		}
		if c+1 < n && h.less(c+1, c) {
			c++
		}
		if !h.less(c, i) {
			return
		}
		h.items[i], h.items[c] = h.items[c], h.items[i]
		i = c
	}
}

// combine returns the AND or OR of ins: a constant, the only input, or a shared gate.
func (b *builder) combine(kind uint8, ins []ref) (ref, error) {
	slices.Sort(ins)
	ins = slices.Compact(ins)
	if kind == kOr && b.complement && len(ins) > 2 {
		var err error
		if ins, err = b.complementMoves(ins); err != nil {
			return 0, err
		}
	}
	// x and (not x): AND is false, OR is true.
	for i := 1; i < len(ins); i++ {
		if ins[i] == ins[i-1]^1 {
			if kind == kAnd {
				return refFalse, nil
			}
			return refTrue, nil
		}
	}
	switch len(ins) {
	case 0:
		if kind == kAnd {
			return refTrue, nil
		}
		return refFalse, nil
	case 1:
		return ins[0], nil
	}
	h := hashGate(kind, ins)
	id, slot := b.findGate(kind, ins, h)
	if id != 0 {
		return mkRef(id, false), nil
	}
	if len(b.nodes) >= b.limit {
		return 0, fmt.Errorf("the network would have more than %d gates", b.limit)
	}
	id = b.newNode(kind, ins)
	b.addGate(id, h, slot)
	return mkRef(id, false), nil
}

// complementMoves replaces, in the inputs of an OR, the moves of a role that are more than half
// of its moves by the negated OR of its other moves: exactly one of a role's moves is played.
//
// The other moves often include moves that no rule reads (noop): the frame rule of a board game,
// "a cell stays as it is when some role plays a move that does not touch it", becomes per cell
// and role the negated OR of the moves that touch the cell and noop, and noop, which changes
// with the turn, would change every cell's gate. So the other moves are split into those no
// rule reads (K) and the rest (T): some move of role r but K is played (M = not K) and none of
// T is (not T). Given that a move of T implies M, the OR over two roles of (M and not T) is
// (M1 or M2) and not T1 and not T2, or (M1 and M2) and not (T1 and T2): the parts that change
// with the turn (M1 or M2, M1 and M2) are shared by every cell and do not change when the turn
// passes from one role to the other.
func (b *builder) complementMoves(ins []ref) ([]ref, error) {
	roles := b.mostlyPlayed(ins)
	if len(roles) == 0 {
		return ins, nil
	}
	var parts []movePart
	for _, role := range roles {
		kept, p, always, err := b.complementRole(ins, role)
		if err != nil {
			return nil, err
		}
		if always {
			return []ref{refTrue}, nil
		}
		ins = kept
		if p.split {
			parts = append(parts, p)
		}
	}
	extra, err := b.joinParts(parts)
	if err != nil {
		return nil, err
	}
	for _, x := range extra {
		switch x {
		case refTrue:
			return []ref{refTrue}, nil
		case refFalse:
		default:
			ins = append(ins, x)
		}
	}
	slices.Sort(ins)
	return slices.Compact(ins), nil
}

// mostlyPlayed returns, in order, the roles more than half of whose moves are among ins (not
// negated).
func (b *builder) mostlyPlayed(ins []ref) []int32 {
	for _, r := range ins {
		if k, ok := b.inputIndex(r.node()); ok && !r.inv() {
			b.roleCount[b.inputRole[k]]++
		}
	}
	var roles []int32
	for role, k := range b.roleCount {
		if 2*k > len(b.roleInputs[role]) {
			roles = append(roles, int32(role))
		}
		b.roleCount[role] = 0
	}
	return roles
}

// A movePart is what complementRole makes of a role whose other moves include some no rule
// reads (K): some move but K is played (m), and none of the rest (T) is (notT).
type movePart struct {
	m, notT ref
	split   bool // the other moves include K; otherwise not T is among the inputs
}

// complementRole replaces in ins the moves of role by its other moves: it returns ins without
// them and, when the role's other moves are all read by rules, with their negated OR; otherwise
// ins without them and the role's movePart. always reports that ins holds every move of role,
// so the OR is true.
func (b *builder) complementRole(ins []ref, role int32) (kept []ref, p movePart, always bool, err error) {
	kept = ins[:0:0]
	for _, r := range ins {
		if i, ok := b.inputIndex(r.node()); ok && !r.inv() && b.inputRole[i] == role {
			b.marked[i] = true
			continue
		}
		kept = append(kept, r)
	}
	var k, t []ref
	for _, id := range b.roleInputs[role] {
		i := id - b.firstInput
		switch {
		case b.marked[i]:
			b.marked[i] = false
		case b.inert[i]:
			k = append(k, mkRef(id, false))
		default:
			t = append(t, mkRef(id, false))
		}
	}
	if len(k)+len(t) == 0 {
		return nil, p, true, nil
	}
	orT, err := b.fold(kOr, t)
	if err != nil {
		return nil, p, false, err
	}
	if len(k) == 0 {
		return append(kept, orT.not()), p, false, nil
	}
	orK, err := b.fold(kOr, k)
	if err != nil {
		return nil, p, false, err
	}
	return kept, movePart{m: orK.not(), notT: orT.not(), split: true}, false, nil
}

// joinParts returns the inputs the roles' parts add to the OR: for two roles, (M1 or M2) and
// not T1 and not T2, and (M1 and M2) and not (T1 and T2); otherwise M and not T per role.
func (b *builder) joinParts(parts []movePart) ([]ref, error) {
	if len(parts) != 2 {
		var extra []ref
		for _, p := range parts {
			x, err := b.fold(kAnd, []ref{p.m, p.notT})
			if err != nil {
				return nil, err
			}
			extra = append(extra, x)
		}
		return extra, nil
	}
	p, q := parts[0], parts[1]
	anyM, err := b.fold(kOr, []ref{p.m, q.m})
	if err != nil {
		return nil, err
	}
	bothM, err := b.fold(kAnd, []ref{p.m, q.m})
	if err != nil {
		return nil, err
	}
	one, err := b.fold(kAnd, []ref{anyM, p.notT, q.notT})
	if err != nil {
		return nil, err
	}
	notBoth, err := b.fold(kOr, []ref{p.notT, q.notT})
	if err != nil {
		return nil, err
	}
	two, err := b.fold(kAnd, []ref{bothM, notBoth})
	if err != nil {
		return nil, err
	}
	return []ref{one, two}, nil
}

// fold is combine with the constants among ins folded first.
func (b *builder) fold(kind uint8, ins []ref) (ref, error) {
	unit, zero := refTrue, refFalse // AND: true is neutral, false decides
	if kind == kOr {
		unit, zero = refFalse, refTrue
	}
	var out []ref
	for _, r := range ins {
		switch r {
		case unit:
		case zero:
			return zero, nil
		default:
			out = append(out, r)
		}
	}
	return b.combine(kind, out)
}

// guardLegal splits each role's legal moves into groups that share a guard: a literal in the
// legal condition of every move of the group, such as (true (control white)). A move's legal
// output becomes the rest of its condition, and the machine keeps the moves of a group whose
// rest holds; a guard that changes (every turn, for control) then costs nothing, where as an
// input of every legal gate it would update each of them.
func (b *builder) guardLegal(n *Net) error {
	n.groups = make([][]ref, len(n.legal))
	n.groupOf = make([][]int32, len(n.legal))
	for r, legal := range n.legal {
		group := make([]int32, len(legal))
		n.groups[r] = []ref{refTrue}
		inputs := func(x ref) []ref {
			if x.inv() || b.nodes[x.node()].kind != kAnd {
				return []ref{x}
			}
			return b.insOf(x.node())
		}
		for len(n.groups[r]) < 8 {
			count := map[ref]int{}
			best, bestN := ref(0), 0
			for m, x := range legal {
				if group[m] != 0 || x == refTrue || x == refFalse {
					continue
				}
				for _, l := range inputs(x) {
					count[l]++
					if c := count[l]; c > bestN || c == bestN && l < best {
						best, bestN = l, c
					}
				}
			}
			if bestN < 2 {
				break
			}
			gi := int32(len(n.groups[r]))
			n.groups[r] = append(n.groups[r], best)
			for m, x := range legal {
				if group[m] != 0 || x == refTrue || x == refFalse {
					continue
				}
				ins := inputs(x)
				i := slices.Index(ins, best)
				if i < 0 {
					continue
				}
				rest, err := b.combine(kAnd, slices.Delete(slices.Clone(ins), i, i+1))
				if err != nil {
					return err
				}
				legal[m] = rest
				group[m] = gi
			}
		}
		n.groupOf[r] = group
	}
	return nil
}

// finish keeps the nodes that an output reads, numbers them in topological order (inputs
// before the gates that read them) and lays out the runtime arrays.
func (b *builder) finish(n *Net) {
	used := b.usedNodes(n)
	// Gates are made after their inputs, so creation order is topological, but for the nodes
	// of cycles, which are ordered with their strongly connected components.
	var order []int32
	var comps [][]int32 // cycles, as old node ids, in topological order
	if b.cyclic {
		order, comps = b.topoOrder(used)
	} else {
		for id := range b.nodes {
			if used[id] {
				order = append(order, int32(id))
			}
		}
	}
	renum := make([]int32, len(b.nodes))
	for i, id := range order {
		renum[id] = int32(i)
	}
	n.scc = make([]int32, len(order))
	for ci, comp := range comps {
		var members []int32
		for _, id := range comp {
			n.scc[renum[id]] = int32(ci + 1)
			members = append(members, renum[id])
		}
		slices.Sort(members)
		n.cycles = append(n.cycles, members)
	}
	b.layOut(n, order, renum)
	for i := range n.base {
		n.base[i] = renum[n.base[i]]
	}
	for r := range n.input {
		for j := range n.input[r] {
			n.input[r][j] = renum[n.input[r][j]]
		}
	}
	n.eachOutput(func(r *ref) { *r = mkRef(renum[r.node()], r.inv()) })
	n.watchOutputs()
}

// eachOutput calls each on every output of n: the next state, legal moves, goals, percepts,
// the groups' guards and terminal.
func (n *Net) eachOutput(each func(*ref)) {
	for i := range n.next {
		each(&n.next[i])
	}
	for _, rs := range [][][]ref{n.legal, n.goals, n.sees, n.groups} {
		for i := range rs {
			for j := range rs[i] {
				each(&rs[i][j])
			}
		}
	}
	each(&n.terminal)
}

// usedNodes returns per node whether it is a constant, an input, or read by an output, directly
// or through gates (a depth-first walk on an explicit stack).
func (b *builder) usedNodes(n *Net) []bool {
	used := make([]bool, len(b.nodes))
	used[nodeFalse], used[nodeTrue] = true, true
	var stack []int32
	mark := func(r ref) {
		if id := r.node(); !used[id] {
			used[id] = true
			stack = append(stack, id)
		}
	}
	for _, id := range n.base {
		mark(mkRef(id, false))
	}
	for _, ids := range n.input {
		for _, id := range ids {
			mark(mkRef(id, false))
		}
	}
	n.eachOutput(func(r *ref) { mark(*r) })
	for len(stack) > 0 {
		id := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, in := range b.insOf(id) {
			mark(in)
		}
	}
	return used
}

// layOut fills n's per-node arrays from the nodes in order, renumbered by renum: kinds,
// thresholds, the inputs of each node and the outputs (fanout) of each.
func (b *builder) layOut(n *Net, order, renum []int32) {
	nn := len(order)
	n.kind = make([]uint8, nn)
	n.thresh = make([]int32, nn)
	n.watched = make([]int32, nn)
	n.inOff = make([]int32, nn+1)
	fanout := make([]int32, nn+1)
	edges := 0
	for _, id := range order {
		edges += int(b.nodes[id].n)
	}
	n.ins = make([]ref, 0, edges)
	for i, id := range order {
		nd := &b.nodes[id]
		ins := b.insOf(id)
		n.kind[i] = nd.kind
		switch nd.kind {
		case kAnd:
			n.thresh[i] = int32(len(ins))
		case kConst:
			if id == nodeTrue {
				n.thresh[i] = 0
			} else {
				n.thresh[i] = 1
			}
		default:
			n.thresh[i] = 1
		}
		n.inOff[i+1] = n.inOff[i] + int32(len(ins))
		for _, in := range ins {
			n.ins = append(n.ins, mkRef(renum[in.node()], in.inv()))
			fanout[renum[in.node()]+1]++
		}
	}
	n.outOff = make([]int32, nn+1)
	for i := 0; i < nn; i++ {
		n.outOff[i+1] = n.outOff[i] + fanout[i+1]
	}
	n.outs = make([]ref, n.outOff[nn])
	fill := slices.Clone(n.outOff[:nn])
	for i := 0; i < nn; i++ {
		for _, in := range n.ins[n.inOff[i]:n.inOff[i+1]] {
			src := in.node()
			n.outs[fill[src]] = mkRef(int32(i), in.inv())
			fill[src]++
		}
	}
}

// watchOutputs makes the watch lists of the nodes that decide a legal move or a fluent of the
// next state; a node's entry in watched is 1 + the index of its list.
func (n *Net) watchOutputs() {
	list := func(node int32) *watches {
		if n.watched[node] == 0 {
			n.watches = append(n.watches, watches{})
			n.watched[node] = int32(len(n.watches))
		}
		return &n.watches[n.watched[node]-1]
	}
	for r, rs := range n.legal {
		for m, x := range rs {
			w := list(x.node())
			w.legal = append(w.legal, legalWatch{role: int32(r), move: int32(m), inv: x.inv()})
		}
	}
	for f, x := range n.next {
		w := list(x.node())
		w.next = append(w.next, nextWatch{fluent: int32(f), inv: x.inv()})
	}
}

// topoOrder orders the used nodes so that each comes after its inputs, but for the nodes of a
// cycle (a strongly connected component of more than one node, or a node that reads itself),
// which come together after every input from outside the cycle. It returns the order and the
// cycles. Tarjan's algorithm on the edges from a node to its inputs emits components inputs
// first.
func (b *builder) topoOrder(used []bool) ([]int32, [][]int32) {
	index := make([]int32, len(b.nodes))
	low := make([]int32, len(b.nodes))
	for i := range index {
		index[i] = -1
	}
	onStack := make([]bool, len(b.nodes))
	var stack, order []int32
	var comps [][]int32
	next := int32(0)
	type frame struct {
		node int32
		in   int
	}
	for root := range b.nodes {
		if !used[root] || index[root] >= 0 {
			continue
		}
		index[root], low[root] = next, next
		next++
		stack = append(stack, int32(root))
		onStack[root] = true
		calls := []frame{{node: int32(root)}}
		for len(calls) > 0 {
			f := &calls[len(calls)-1]
			ins := b.insOf(f.node)
			if f.in < len(ins) {
				w := ins[f.in].node()
				f.in++
				if index[w] < 0 {
					index[w], low[w] = next, next
					next++
					stack = append(stack, w)
					onStack[w] = true
					calls = append(calls, frame{node: w})
				} else if onStack[w] {
					low[f.node] = min(low[f.node], index[w])
				}
				continue
			}
			v := f.node
			calls = calls[:len(calls)-1]
			if len(calls) > 0 {
				p := calls[len(calls)-1].node
				low[p] = min(low[p], low[v])
			}
			if low[v] != index[v] {
				continue
			}
			i := len(stack) - 1
			for stack[i] != v {
				i--
			}
			comp := slices.Clone(stack[i:])
			stack = stack[:i]
			for _, w := range comp {
				onStack[w] = false
			}
			order = append(order, comp...)
			self := false
			for _, in := range b.insOf(v) {
				self = self || in.node() == v
			}
			if len(comp) > 1 || self {
				comps = append(comps, comp)
			}
		}
	}
	return order, comps
}

// Net is a compiled, simplified propositional network. It is immutable: run it with a Machine.
type Net struct {
	g  *eval.Program
	gr *eval.Grounding

	kind   []uint8
	thresh []int32 // a node is true when its count reaches this
	inOff  []int32 // inputs of node i: ins[inOff[i]:inOff[i+1]]
	ins    []ref
	outOff []int32 // the gates reading node i: outs[outOff[i]:outOff[i+1]], inverted when they negate it
	outs   []ref

	// Lazy inputs (lazyEdges; nets without cycles only). Per node: its lazy input, or noLazy;
	// the gates it is the lazy input of have room in a machine's ready lists at
	// [lazyOff[i]:lazyOff[i+1]]. The edges from the other inputs of gates with a lazy input are
	// not in outs but in routs[routOff[i]:routOff[i+1]], with their negation flipped for an OR:
	// a gate is decided by its other inputs while one of their edges is false.
	lazyIn  []ref
	lazyOff []int32
	routOff []int32
	routs   []ref

	base    []int32   // per fluent
	input   [][]int32 // per role and move
	next    []ref     // per fluent
	legal   [][]ref   // per role and move: the legal condition without its group's guard
	groups  [][]ref   // per role: the guard of each group of moves (group 0: none, refTrue)
	groupOf [][]int32 // per role and move: its group
	goals   [][]ref   // per role, parallel to the grounding's Goals
	sees    [][]ref   // per role, parallel to the grounding's Sees

	terminal ref

	// keepMoves: no legal move, guard, goal or terminal depends on an input proposition, so a
	// machine can leave a joint move's inputs set after Next (Machine.unplay).
	keepMoves bool

	// Cycles: scc is per node 0, or 1 + the index in cycles of the cycle it is in; cycles are
	// in topological order, each the sorted list of its nodes.
	scc    []int32
	cycles [][]int32

	// Per node: 0, or 1 + the index in watches of the legal moves and fluents of the next state
	// that the node decides.
	watched []int32
	watches []watches

	lc laneCache // the layout for Lanes
}

// watches are the legal moves and the fluents of the next state that one node decides.
type watches struct {
	legal []legalWatch
	next  []nextWatch
}

type nextWatch struct {
	fluent int32
	inv    bool
}

type legalWatch struct {
	role, move int32
	inv        bool
}

// movesOnlyInNext reports whether no legal move, guard, goal or terminal reads an input
// proposition, directly or through gates.
func (n *Net) movesOnlyInNext() bool {
	reads := make([]bool, len(n.kind))
	var stack []int32
	for _, ids := range n.input {
		for _, id := range ids {
			if !reads[id] {
				reads[id] = true
				stack = append(stack, id)
			}
		}
	}
	for len(stack) > 0 {
		u := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, o := range n.outs[n.outOff[u]:n.outOff[u+1]] {
			if t := o.node(); !reads[t] {
				reads[t] = true
				stack = append(stack, t)
			}
		}
	}
	if reads[n.terminal.node()] {
		return false
	}
	for _, rs := range [][][]ref{n.legal, n.groups, n.goals} {
		for _, xs := range rs {
			for _, x := range xs {
				if reads[x.node()] {
					return false
				}
			}
		}
	}
	return true
}

// Grounding returns the grounding the network was built from.
func (n *Net) Grounding() *eval.Grounding { return n.gr }

// Stats describes the size of a network.
type Stats struct {
	Fluents, Moves, Gates, Edges int
}

func (n *Net) Stats() Stats {
	s := Stats{Fluents: len(n.base), Edges: len(n.ins)}
	for _, ms := range n.input {
		s.Moves += len(ms)
	}
	for _, k := range n.kind {
		if k == kAnd || k == kOr {
			s.Gates++
		}
	}
	return s
}

func (s Stats) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d fluents, %d moves, %d gates, %d edges", s.Fluents, s.Moves, s.Gates, s.Edges)
	return b.String()
}
