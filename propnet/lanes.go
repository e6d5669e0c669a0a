package propnet

import (
	"encoding/binary"
	"math/bits"
	"slices"
	"sync"
)

// Lanes runs the network on 64 states at once, one bit per state (lane) in a uint64 per node:
// the gates are evaluated as straight-line word operations over the network in topological
// order (every gate an AND of possibly inverted inputs, an OR being the negated AND of its
// negated inputs), in two passes: the gates that do not read a move (legal moves, goals,
// terminal), then, once every lane's joint move is set, the gates that do (the next state).
//
// Where the Machine touches only what a move changes, Lanes evaluates every gate at every
// step; with 64 lanes per word that is the cheaper way to play many playouts (Playouts) or to
// evaluate many states (Load or LoadAll, Eval, Play, Next). A Lanes is not safe for concurrent
// use.
type Lanes struct {
	p   *laneProg
	val []uint64 // per slot s (laneProg): at 2s its value in each lane, at 2s+1 the complement

	rng      [64]uint64 // per lane: its generator's state
	set      []int32    // input slots set for the current joint moves
	has      []uint64   // per role: the lanes with a legal move
	cntPl    []uint64   // choose: the lanes' counts of legal moves, in bit planes
	downPl   []uint64   // choose: the lanes' countdowns to their move, in bit planes
	mv       [][]int32  // per role (gather): the moves legal in some lane
	grpHas   [][]uint64 // per role and group (gather): the lanes where one of its moves is legal
	ml       [][]uint64 // per role (gather): the lanes where they are, parallel to mv
	recLane  int        // Replay: the lane whose moves are recorded (-1: none)
	recJoint []int32    // Replay: the joint move of the step being played
	tmp      []uint64   // the next state, before the lanes that restart are merged in
}

// laneProg is the network laid out for Lanes, made once per network. Each node has a slot:
// false, true, the fluents, the moves, the pushed ORs of moves, then the gates that read no
// move (pass A) and the gates that do (pass B), each pass levelled and in blocks of gates of
// one shape (evalBlocks; laneLevels). An input is slot << 1 | 1 when read negated (an index
// into Lanes.val). A cycle of the network (atoms that depend on each other) is a segment of its
// own, iterated from false to its least fixpoint.
type laneProg struct {
	slots     int
	inputSlot [][]int32 // per role and move
	// The ORs of moves that the moves set push their lanes into (pushMin): slots [push0,
	// push1); the move of slot s pushes into the slots pushTo[pushOff[s]:pushOff[s+1]].
	push0, push1    int32
	pushOff, pushTo []int32
	a, b            []uint32
	aSegs           []laneSeg
	bSegs           []laneSeg
	// The gates of pass A that read an OR of a group's legal moves (derived), evaluated after
	// the moves are gathered.
	a2     []uint32
	a2Segs []laneSeg
	// derived: nil, or per role and group the slot of the gate that is the OR of the group's
	// legal conditions, which gathering the moves sets (findDerived), or -1.
	derived [][]int32
	// twoPass: a legal move, goal or terminal reads a move (Net.keepMoves is false), so pass B
	// also runs before the moves are chosen, with no move set.
	twoPass  bool
	next     []uint32    // per fluent: slot << 1 | inverted
	terminal uint32      // slot << 1 | inverted
	goals    [][]uint32  // per role and goal atom
	groups   [][]laneGrp // per role: its groups of legal moves
	planes   []int       // per role: the bits of its number of moves (bit planes of a count)
	// phase: Playouts keeps the lanes in phase (playoutRun.holdLanes).
	phase bool
}

// phased reports whether Playouts should keep its lanes in phase: whether some role has a
// group of moves with a guard, and the words that a step skips when a guard holds in no lane
// (the groups' conditions, and the gates that need a guard, laneSeg.guard) are a quarter or
// more of the words that a step evaluates (speedChess 62%, chess about 90%, breakthrough 35%;
// ticTacToe 12%, connectFour 3%): a lane held back costs a step, a group or segment skipped in
// every lane its words.
func (p *laneProg) phased() bool {
	guarded, words, all := false, 0, len(p.a)+len(p.a2)+len(p.b)
	for _, grps := range p.groups {
		for _, g := range grps {
			guarded = guarded || g.guard != laneAll
			words += len(g.recs)
		}
	}
	all += words
	for _, segs := range [][]laneSeg{p.aSegs, p.a2Segs, p.bSegs} {
		for _, sg := range segs {
			if sg.guard != laneAll {
				words += int(sg.rec1 - sg.rec0)
			}
		}
	}
	return guarded && 4*words >= all
}

// A laneSeg is a run of records: [rec0, rec1) of a pass, whose gates have the slots from slot0.
// Its gates matter only in the lanes where guard (slot << 1 | inverted; 1 << 1, true, for
// every lane) holds (laneBuilder.need): run skips it when it holds in no lane that plays.
type laneSeg struct {
	rec0, rec1, slot0 int32
	gates             int32
	guard             uint32
	cycle             bool
}

// laneAll is the guard of a laneSeg whose gates matter in every lane: slot 1, true.
const laneAll = 1 << 1

// A laneGrp is a group of legal moves that share a guard: the guard, and the conditions of its
// moves as blocks of records of one shape, in runs that share a first input (gatherBlocks). A move's condition is the gate that only it reads (laneOrder's tail),
// evaluated while the moves are gathered (gatherBlocks) and given no slot, or one input, the
// slot of what it reads otherwise.
type laneGrp struct {
	guard uint32
	recs  []uint32
}

const baseSlot = 2

// pushMin is the number of moves from which a gate's OR of moves is pushed (newLaneProg): at
// 2, 4 and never, speedChess played 111, 110 and 129 CPU us per playout (BenchmarkLanes), the
// other games the same within the noise.
const pushMin = 4 // the slot of fluent 0; 0 is false and 1 is true

// laneCache holds a network's laneProg, made on first use (Net.lanes).
type laneCache struct {
	once sync.Once
	p    *laneProg
}

func (n *Net) lanes() *laneProg {
	n.lc.once.Do(func() { n.lc.p = newLaneProg(n) })
	return n.lc.p
}

// movesRead reports per node whether it reads a move, directly or through gates: nodes in
// topological order, but for the nodes of a cycle, so again until nothing changes.
func (n *Net) movesRead() []bool {
	reads := make([]bool, len(n.kind))
	for changed := true; changed; {
		changed = false
		for i := range n.kind {
			if reads[i] {
				continue
			}
			r := n.kind[i] == kInput
			for _, in := range n.ins[n.inOff[i]:n.inOff[i+1]] {
				r = r || reads[in.node()]
			}
			if r {
				reads[i] = true
				changed = true
			}
		}
		if len(n.cycles) == 0 {
			break
		}
	}
	return reads
}

// newLaneProg lays network n out for Lanes.
func newLaneProg(n *Net) *laneProg {
	b := &laneBuilder{n: n, p: &laneProg{twoPass: !n.keepMoves}, slot: make([]int32, len(n.kind))}
	b.slotInputs()
	b.reads = n.movesRead()
	b.pushMoves(b.findPushed())
	b.gateInputs()
	b.findDerived()
	b.findNeeds()
	orders := b.slotGates()
	b.slotDerived()
	b.p.a, b.p.aSegs = b.emit(orders[0])
	b.p.a2, b.p.a2Segs = b.emit(orders[2])
	b.p.b, b.p.bSegs = b.emit(orders[1])
	b.outputs()
	b.legalGroups()
	b.p.phase = b.p.phased()
	return b.p
}

// A laneBuilder carries the state of laying a network out for Lanes (newLaneProg): the slot of
// each node, the pushed ORs of moves, and the gates' inputs as their records read them.
type laneBuilder struct {
	n    *Net
	p    *laneProg
	slot []int32 // per node: its slot
	next int32   // the next free slot
	// reads: per node, whether it reads a move (Net.movesRead), so is a gate of pass B.
	reads []bool
	// inline: per node, whether it is a gate of pass A that only a legal move reads (the tail
	// of laneOrder): evaluated with its move (laneGrp), without a slot.
	inline []bool
	// derived: per node, 1 + the index in derivedOf of the group whose legal conditions it is
	// the OR of (findDerived), or 0; after: per node, whether it reads a derived gate, directly
	// or through gates (pass A2).
	derived   []int32
	derivedOf [][2]int32
	after     []bool
	// pushOf: per gate, the slot of the OR of moves it reads as one input (pushMin), or -1.
	pushOf []int32
	// need (findNeeds): nil, or per node 0, or 1 + the index in guards of the guard that must
	// hold in a lane for the node's value there to matter.
	need   []int32
	guards []ref
	// A gate's inputs as its record reads them: gin[ginOff[i]:ginOff[i+1]].
	ginOff []int32
	gin    []ref
}

// outputs sets the inputs of the next state, terminal and the goals.
func (b *laneBuilder) outputs() {
	n, p := b.n, b.p
	p.next = make([]uint32, len(n.next))
	for f, x := range n.next {
		p.next[f] = b.ref(x)
	}
	p.terminal = b.ref(n.terminal)
	p.goals = make([][]uint32, len(n.goals))
	for r, gs := range n.goals {
		for _, x := range gs {
			p.goals[r] = append(p.goals[r], b.ref(x))
		}
	}
}

// slotInputs gives the constants slots 0 (false) and 1 (true), then numbers the fluents from
// baseSlot on, then each role's moves.
func (b *laneBuilder) slotInputs() {
	n, p := b.n, b.p
	for i := range n.kind {
		if n.kind[i] == kConst {
			b.slot[i] = 0
			if n.thresh[i] == 0 {
				b.slot[i] = 1
			}
		}
	}
	b.next = int32(baseSlot)
	for _, id := range n.base {
		b.slot[id] = b.next
		b.next++
	}
	p.inputSlot = make([][]int32, len(n.input))
	for r, ids := range n.input {
		for _, id := range ids {
			b.slot[id] = b.next
			p.inputSlot[r] = append(p.inputSlot[r], b.next)
			b.next++
		}
	}
}

// isGate reports whether node i is a gate of pass B (pass true) or of pass A (pass false).
func (b *laneBuilder) isGate(i int, pass bool) bool {
	k := b.n.kind[i]
	return (k == kAnd || k == kOr) && b.reads[i] == pass
}

// findPushed sets pushOf and returns the ORs of moves, in slot order from b.next on, each as the
// slots of its moves. The moves a gate of pass B reads as an OR (an OR's moves, an AND's
// negated ones), when they are pushMin or more, become one input: the OR of those moves, a slot
// that the moves set push their lanes into (setMove). A lane plays one move per role, so of
// the moves a gate reads few are set; reading them all would cost a load each.
func (b *laneBuilder) findPushed() [][]int32 {
	n := b.n
	b.pushOf = make([]int32, len(n.kind))
	for i := range b.pushOf {
		b.pushOf[i] = -1
	}
	key := map[string]int32{}
	var pushed [][]int32
	var buf []byte
	for i := range n.kind {
		if !b.isGate(i, true) {
			continue
		}
		or := n.kind[i] == kOr
		var ms []int32
		for _, in := range n.ins[n.inOff[i]:n.inOff[i+1]] {
			if n.kind[in.node()] == kInput && in.inv() != or {
				ms = append(ms, b.slot[in.node()])
			}
		}
		if len(ms) < pushMin {
			continue
		}
		slices.Sort(ms)
		buf = buf[:0]
		for _, m := range ms {
			buf = binary.LittleEndian.AppendUint32(buf, uint32(m))
		}
		k, ok := key[string(buf)]
		if !ok {
			k = b.next + int32(len(pushed))
			key[string(buf)] = k
			pushed = append(pushed, ms)
		}
		b.pushOf[i] = k
	}
	return pushed
}

// pushMoves gives the pushed ORs of moves their slots [push0, push1) and fills, per move slot,
// the ORs it pushes into (pushOff, pushTo).
func (b *laneBuilder) pushMoves(pushed [][]int32) {
	p := b.p
	p.push0, p.push1 = b.next, b.next+int32(len(pushed))
	b.next = p.push1
	p.pushOff = make([]int32, p.push0+1)
	for _, ms := range pushed {
		for _, m := range ms {
			p.pushOff[m+1]++
		}
	}
	for i := range p.push0 {
		p.pushOff[i+1] += p.pushOff[i]
	}
	p.pushTo = make([]int32, p.pushOff[p.push0])
	at := slices.Clone(p.pushOff)
	for k, ms := range pushed {
		for _, m := range ms {
			p.pushTo[at[m]] = p.push0 + int32(k)
			at[m]++
		}
	}
}

// gateInputs fills a gate's inputs as its record reads them: the node's own (an OR's negated:
// an OR is the negated AND of its negated inputs), but for the moves it pushes, which are one
// more input, the pushed OR read negated.
func (b *laneBuilder) gateInputs() {
	n := b.n
	b.ginOff = make([]int32, len(n.kind)+1)
	for i := range n.kind {
		or := n.kind[i] == kOr
		if n.kind[i] == kAnd || or {
			for _, in := range n.ins[n.inOff[i]:n.inOff[i+1]] {
				if b.pushOf[i] >= 0 && n.kind[in.node()] == kInput && in.inv() != or {
					continue
				}
				if or {
					in = in.not()
				}
				b.gin = append(b.gin, in)
			}
		}
		b.ginOff[i+1] = int32(len(b.gin))
	}
}

// fanin is the number of inputs gate i's record reads, the pushed OR included.
func (b *laneBuilder) fanin(i int32) int {
	k := int(b.ginOff[i+1] - b.ginOff[i])
	if b.pushOf[i] >= 0 {
		k++
	}
	return k
}

// slotGates orders the gates of pass A, of pass B and of pass A2 (the gates of pass A that
// read a derived gate), each levelled when the pass has no cycle, numbers their slots in that
// order, and returns the three orders. The gates of pass A that only legal moves read get no
// slot: they are evaluated with their moves (inline).
func (b *laneBuilder) slotGates() [3][]int32 {
	n := b.n
	b.inline = make([]bool, len(n.kind))
	inputs := func(i int32) []ref { return b.gin[b.ginOff[i]:b.ginOff[i+1]] }
	var orders [3][]int32
	for pass := range 2 {
		order, tail := n.laneOrder(b.reads, pass == 1, b.derived)
		if pass == 0 {
			for _, i := range order[tail:] {
				b.inline[i] = true
			}
			order = order[:tail]
			if b.after != nil {
				orders[2] = slices.DeleteFunc(slices.Clone(order), func(i int32) bool { return !b.after[i] })
				order = slices.DeleteFunc(order, func(i int32) bool { return b.after[i] })
				orders[2] = n.laneLevels(orders[2], len(orders[2]), b.fanin, inputs, b.need)
			}
			tail = len(order)
		}
		orders[pass] = order
		if !slices.ContainsFunc(order, func(i int32) bool { return n.scc[i] != 0 }) {
			orders[pass] = n.laneLevels(order, tail, b.fanin, inputs, b.need)
		}
	}
	for _, pass := range []int{0, 2, 1} {
		for _, i := range orders[pass] {
			b.slot[i] = b.next
			b.next++
		}
	}
	b.p.slots = int(b.next)
	return orders
}

// findDerived finds the gates that gathering a group's legal moves computes: a gate of pass A
// that is the OR of exactly the legal conditions of a role's group of moves, read only by gates
// of pass A that are false where the group's guard is (an AND of the guard, an OR of its
// negation). Where the guard holds, the gate is the lanes where some move of the group is legal,
// which gather finds anyway; where it does not, its readers do not depend on it. Such a gate
// gets its value from gather (Lanes.stateEval), without reading its inputs; its legal
// conditions, read by nothing else, are evaluated only while gathering (inline), and the gates
// that read it (after) once the moves are gathered (pass A2). speedChess's terminal reads two:
// "the player in control has a legal move", an OR of 1,738 legal conditions per role.
//
// The network must have no cycle, no legal move, guard or goal may read a move (twoPass), and
// no legal condition or guard may read a derived gate; otherwise none is derived.
func (b *laneBuilder) findDerived() {
	n := b.n
	if b.p.twoPass || len(n.cycles) > 0 {
		return
	}
	derived, of := b.derivedCandidates(legalGroupKeys(n))
	if len(of) == 0 {
		return
	}
	b.rejectUnguarded(derived, of)
	after, some := readersOfDerived(n, derived)
	if !some {
		return
	}
	for r, rs := range n.legal {
		for _, x := range append(slices.Clone(rs), n.groups[r]...) {
			if derived[x.node()] != 0 || after[x.node()] {
				return
			}
		}
	}
	b.derived, b.derivedOf, b.after = derived, of, after
}

// refSetKey is a map key for a set of refs: sorted, without repeats.
func refSetKey(rs []ref) string {
	rs = slices.Clone(rs)
	slices.Sort(rs)
	rs = slices.Compact(rs)
	buf := make([]byte, 0, 4*len(rs))
	for _, r := range rs {
		buf = binary.LittleEndian.AppendUint32(buf, uint32(r))
	}
	return string(buf)
}

// legalGroupKeys maps the set of legal conditions of each role's group of moves (two or more,
// none always true) to its role and group.
func legalGroupKeys(n *Net) map[string][2]int32 {
	groupKey := map[string][2]int32{}
	for r, rs := range n.legal {
		conds := make([][]ref, len(n.groups[r]))
		for m, x := range rs {
			if g := n.groupOf[r][m]; x != refFalse {
				conds[g] = append(conds[g], x)
			}
		}
		for g, cs := range conds {
			if len(cs) >= 2 && !slices.Contains(cs, refTrue) {
				groupKey[refSetKey(cs)] = [2]int32{int32(r), int32(g)}
			}
		}
	}
	return groupKey
}

// derivedCandidates returns, per node, 1 + the index in of of the group whose legal
// conditions it ORs (0 for none), one gate per group.
func (b *laneBuilder) derivedCandidates(groupKey map[string][2]int32) ([]int32, [][2]int32) {
	n := b.n
	derived := make([]int32, len(n.kind))
	var of [][2]int32
	taken := map[[2]int32]bool{}
	for i := range n.kind {
		if !b.isGate(i, false) || n.kind[i] != kOr {
			continue
		}
		if rg, ok := groupKey[refSetKey(n.ins[n.inOff[i]:n.inOff[i+1]])]; ok && !taken[rg] {
			taken[rg] = true
			of = append(of, rg)
			derived[i] = int32(len(of))
		}
	}
	return derived, of
}

// rejectUnguarded drops a derived gate that an output reads, or that a gate reads which does
// not reject the lanes where the group's guard does not hold.
func (b *laneBuilder) rejectUnguarded(derived []int32, of [][2]int32) {
	n := b.n
	n.eachOutput(func(x *ref) { derived[x.node()] = 0 })
	for j := range n.kind {
		for _, in := range n.ins[n.inOff[j]:n.inOff[j+1]] {
			d := derived[in.node()]
			if d == 0 {
				continue
			}
			rg := of[d-1]
			guard := n.groups[rg[0]][rg[1]]
			if !b.isGate(j, false) || guard != refTrue && !slices.Contains(b.gin[b.ginOff[j]:b.ginOff[j+1]], guard) {
				derived[in.node()] = 0
			}
		}
	}
}

// readersOfDerived marks the gates that read a derived gate, directly or through others, and
// says whether any gate is still derived.
func readersOfDerived(n *Net, derived []int32) ([]bool, bool) {
	after := make([]bool, len(n.kind))
	some := false
	for j := range n.kind {
		some = some || derived[j] != 0
		for _, in := range n.ins[n.inOff[j]:n.inOff[j+1]] {
			if derived[in.node()] != 0 || after[in.node()] {
				after[j] = true
			}
		}
	}
	return after, some
}

// findNeeds finds the gates whose value matters only where a guard of a group of legal moves
// holds (need), so that a step skips them when it holds in no lane (laneSeg.guard): in a game
// of turns, such as chess, the half of the network that decides the legal moves of the player
// not in control. The guards are those that are fluents (always evaluated before any gate).
// A legal condition of a group matters where its guard holds (gather reads it only there); a
// gate that is the AND of a guard and other inputs is false where the guard does not hold,
// and an OR of a negated guard true, whatever those inputs; so those inputs matter only where
// the guard holds, or where the gate matters, when that is narrower. A node matters in every
// lane if an output other than a legal condition reads it, or gates that need different
// guards. Nodes are numbered in topological order (Net.finish), so a walk from the last to the
// first sees every reader of a node before the node; a network with cycles gets no guards.
func (b *laneBuilder) findNeeds() {
	n := b.n
	if len(n.cycles) > 0 {
		return
	}
	idx := map[ref]int32{}
	for _, gs := range n.groups {
		for _, g := range gs {
			if _, ok := idx[g]; !ok && n.kind[g.node()] == kBase {
				b.guards = append(b.guards, g)
				idx[g] = int32(len(b.guards))
			}
		}
	}
	if len(b.guards) == 0 {
		return
	}
	need := make([]int32, len(n.kind))
	for i := range need {
		need[i] = -1 // read by nothing seen yet
	}
	mark := func(x ref, k int32) {
		switch i := x.node(); need[i] {
		case -1:
			need[i] = k
		case k:
		default:
			need[i] = 0
		}
	}
	for _, x := range n.next {
		mark(x, 0)
	}
	for _, rs := range [][][]ref{n.goals, n.sees, n.groups} {
		for _, xs := range rs {
			for _, x := range xs {
				mark(x, 0)
			}
		}
	}
	mark(n.terminal, 0)
	for r, rs := range n.legal {
		for m, x := range rs {
			mark(x, idx[n.groups[r][n.groupOf[r][m]]])
		}
	}
	for i := len(n.kind) - 1; i >= 0; i-- {
		k := need[i]
		if k < 0 || n.kind[i] != kAnd && n.kind[i] != kOr {
			continue
		}
		ins := n.ins[n.inOff[i]:n.inOff[i+1]]
		// lit is an input as the gate's AND reads it (an OR is the negated AND of its negated
		// inputs); guard, the guard that the AND reads, if the gate matters in every lane.
		lit := func(in ref) ref {
			if n.kind[i] == kOr {
				return in.not()
			}
			return in
		}
		guard := refFalse
		for _, in := range ins {
			if j, ok := idx[lit(in)]; ok && k == 0 {
				guard, k = lit(in), j
			}
		}
		for _, in := range ins {
			if lit(in) != guard {
				mark(in, k)
			}
		}
	}
	b.need = need
}

// slotDerived gives the derived gates their slots, after every gate's.
func (b *laneBuilder) slotDerived() {
	if b.derived == nil {
		return
	}
	n, p := b.n, b.p
	p.derived = make([][]int32, len(n.groups))
	for r := range p.derived {
		p.derived[r] = make([]int32, len(n.groups[r]))
		for g := range p.derived[r] {
			p.derived[r][g] = -1
		}
	}
	for i, d := range b.derived {
		if d != 0 {
			rg := b.derivedOf[d-1]
			b.slot[i] = b.next
			p.derived[rg[0]][rg[1]] = b.next
			b.next++
		}
	}
	p.slots = int(b.next)
}

// ref is r as a record reads it: its slot << 1 | inverted.
func (b *laneBuilder) ref(r ref) uint32 {
	return uint32(b.slot[r.node()])<<1 | uint32(b2u(r.inv()))
}

// emit returns the records and segments of a pass's gates in order. The records are blocks of
// gates of one shape (AND or OR, and the number of inputs): the shape, the number of gates,
// then the inputs of each gate (eval).
func (b *laneBuilder) emit(order []int32) ([]uint32, []laneSeg) {
	n := b.n
	var recs []uint32
	var segs []laneSeg
	cur := int32(-1) // the cycle of the segment being made (0: none)
	head := -1       // the block being made
	for _, i := range order {
		shape := uint32(b.fanin(i))<<1 | b2u(n.kind[i] == kOr)
		guard := uint32(laneAll)
		if b.need != nil && b.need[i] > 0 {
			guard = b.ref(b.guards[b.need[i]-1])
		}
		if c := n.scc[i]; len(segs) == 0 || c != cur || guard != segs[len(segs)-1].guard {
			segs = append(segs, laneSeg{rec0: int32(len(recs)), slot0: b.slot[i], guard: guard, cycle: c != 0})
			cur = c
			head = -1
		}
		if head < 0 || recs[head] != shape {
			head = len(recs)
			recs = append(recs, shape, 0)
		}
		recs[head+1]++
		for _, in := range b.gin[b.ginOff[i]:b.ginOff[i+1]] {
			recs = append(recs, b.ref(in))
		}
		if k := b.pushOf[i]; k >= 0 {
			recs = append(recs, uint32(k)<<1|1)
		}
		sg := &segs[len(segs)-1]
		sg.rec1 = int32(len(recs))
		sg.gates++
	}
	return recs, segs
}

// legalGroups lays out each role's groups of legal moves (laneGrp) and the bit planes of its
// number of moves. Within a group the moves are in blocks by the shape of their conditions, and
// within a block in runs that share a first input (leadOrder), in the order of their indices
// within a run.
func (b *laneBuilder) legalGroups() {
	n, p := b.n, b.p
	p.groups = make([][]laneGrp, len(n.legal))
	for r, rs := range n.legal {
		grps := make([]laneGrp, len(n.groups[r]))
		for g, guard := range n.groups[r] {
			grps[g].guard = b.ref(guard)
		}
		for g, cs := range b.groupConds(r) {
			b.orderRuns(cs)
			grps[g].recs = encodeRuns(cs)
		}
		p.groups[r] = grps
		p.planes = append(p.planes, bits.Len(uint(len(rs))))
	}
}

// laneCond is a legal move's condition as gathering reads it.
type laneCond struct {
	shape uint32
	m     uint32
	ins   []uint32 // the inputs; the first leads its run
}

// groupConds returns the conditions of role r's legal moves that are not always false, per
// group of moves.
func (b *laneBuilder) groupConds(r int) [][]laneCond {
	n := b.n
	conds := make([][]laneCond, len(n.groups[r]))
	for m, x := range n.legal[r] {
		if x == refFalse {
			continue
		}
		g := n.groupOf[r][m]
		c := laneCond{shape: 1 << 1, m: uint32(m), ins: []uint32{b.ref(x)}}
		if i := x.node(); b.inline[i] {
			// An OR is the negated AND of its negated inputs (gateInputs); read inverted,
			// the gate is the negation of what its record computes.
			c.shape = uint32(b.fanin(i))<<1 | (b2u(n.kind[i] == kOr) ^ b2u(x.inv()))
			c.ins = c.ins[:0]
			for _, in := range b.gin[b.ginOff[i]:b.ginOff[i+1]] {
				c.ins = append(c.ins, b.ref(in))
			}
		}
		conds[g] = append(conds[g], c)
	}
	return conds
}

// orderRuns puts each condition's leading input first (leadOrder) and sorts the group's
// conditions into blocks by shape and, within a block, runs by leading input. A block whose
// runs would be short, or negated, becomes one run led by true, each move with all its inputs:
// a run of one move costs more than it skips.
func (b *laneBuilder) orderRuns(cs []laneCond) {
	uses := map[uint32]int{}
	for _, c := range cs {
		for _, in := range c.ins {
			uses[in]++
		}
	}
	for _, c := range cs {
		lead := slices.MinFunc(c.ins, func(x, y uint32) int { return b.leadOrder(uses, x, y) })
		j := slices.Index(c.ins, lead)
		c.ins[0], c.ins[j] = c.ins[j], c.ins[0]
	}
	slices.SortStableFunc(cs, func(x, y laneCond) int {
		if x.shape != y.shape {
			return int(x.shape) - int(y.shape)
		}
		if x.shape&1 != 0 { // negated: a run is never skipped (one run of all)
			return 0
		}
		return int(x.ins[0]) - int(y.ins[0])
	})
	for lo := 0; lo < len(cs); {
		hi, runs := lo, 0
		for ; hi < len(cs) && cs[hi].shape == cs[lo].shape; hi++ {
			if hi == lo || cs[hi].ins[0] != cs[hi-1].ins[0] {
				runs++
			}
		}
		if cs[lo].shape&1 != 0 || 2*runs > hi-lo {
			for k := lo; k < hi; k++ {
				cs[k].shape += 1 << 1
				cs[k].ins = append([]uint32{1 << 1}, cs[k].ins...)
			}
		}
		lo = hi
	}
}

// encodeRuns writes ordered conditions as a group's records: per block its shape and number
// of runs, per run its leading input and number of moves, per move its index and other inputs.
func encodeRuns(cs []laneCond) []uint32 {
	var recs []uint32
	block, run := -1, -1
	for k, c := range cs {
		if block < 0 || recs[block] != c.shape {
			block = len(recs)
			recs = append(recs, c.shape, 0)
			run = -1
		}
		if run < 0 || cs[k-1].ins[0] != c.ins[0] {
			recs[block+1]++
			run = len(recs)
			recs = append(recs, c.ins[0], 0)
		}
		recs[run+1]++
		recs = append(recs, c.m)
		recs = append(recs, c.ins[1:]...)
	}
	return recs
}

// leadOrder orders the inputs of a legal condition for leading its run (legalGroups), the
// least first: a fluent read as it is (false in most lanes, such as a piece on a square), then
// another value read as it is, then a negated one; among those, the one more conditions of
// the group read (uses), then the lower reference.
func (b *laneBuilder) leadOrder(uses map[uint32]int, x, y uint32) int {
	class := func(in uint32) int {
		switch {
		case in&1 != 0:
			return 2
		case int(in>>1) >= baseSlot && int(in>>1) < baseSlot+len(b.n.base):
			return 0
		}
		return 1
	}
	if d := class(x) - class(y); d != 0 {
		return d
	}
	if d := uses[y] - uses[x]; d != 0 {
		return d
	}
	return int(x) - int(y)
}

// laneOrder returns the gates of a pass (those that read a move, or those that do not) in the
// order of their slots: topological, but the gates that only legal moves read come last, in
// the order of the roles' groups of moves, so that choosing moves reads their values one
// after the other; it returns the order and where those begin. The derived gates (derived, per
// node: nonzero; may be nil) are not in the order, and their inputs are not counted as read.
func (n *Net) laneOrder(reads []bool, pass bool, derived []int32) ([]int32, int) {
	isDerived := func(i int32) bool { return derived != nil && derived[i] != 0 }
	isGate := func(i int32) bool {
		k := n.kind[i]
		return (k == kAnd || k == kOr) && reads[i] == pass && !isDerived(i)
	}
	// Per node, how many gates and outputs other than legal moves and derived gates read it.
	other := make([]int32, len(n.kind))
	for i := range n.kind {
		if isDerived(int32(i)) {
			continue
		}
		for _, in := range n.ins[n.inOff[i]:n.inOff[i+1]] {
			other[in.node()]++
		}
	}
	for _, x := range n.next {
		other[x.node()]++
	}
	for _, rs := range [][][]ref{n.goals, n.sees, n.groups} {
		for _, xs := range rs {
			for _, x := range xs {
				other[x.node()]++
			}
		}
	}
	other[n.terminal.node()]++
	last := make([]bool, len(n.kind))
	var tail []int32
	for r, rs := range n.legal {
		for g := range n.groups[r] {
			for m, x := range rs {
				if i := x.node(); n.groupOf[r][m] == int32(g) && isGate(i) && other[i] == 0 && !last[i] {
					last[i] = true
					tail = append(tail, i)
				}
			}
		}
	}
	var order []int32
	for i := range int32(len(n.kind)) {
		if isGate(i) && !last[i] {
			order = append(order, i)
		}
	}
	return append(order, tail...), len(order)
}

// laneLevels orders the gates of an order without cycles by level (a gate comes after the
// gates of order it reads: 1 + their highest level), then by the guard they need (need, per
// node, as laneBuilder's; may be nil), then by shape (AND or OR, the number of its inputs), so
// that eval runs through blocks of gates of one shape without a branch per gate that the
// processor cannot predict, and skips the gates of a guard that holds in no lane. The gates
// that only legal moves read (the tail of laneOrder) stay last.
func (n *Net) laneLevels(order []int32, tail int, fanin func(int32) int, inputs func(int32) []ref, need []int32) []int32 {
	level := make([]int32, len(n.kind)) // 0: not a gate of order
	top := int32(0)
	for _, i := range order {
		l := int32(1)
		for _, in := range inputs(i) {
			if v := level[in.node()]; v > 0 {
				l = max(l, v+1)
			}
		}
		level[i] = l
		top = max(top, l)
	}
	for _, i := range order[tail:] {
		level[i] = top + 1
	}
	pos := make([]int32, len(n.kind))
	for k, i := range order {
		pos[i] = int32(k)
	}
	out := slices.Clone(order)
	slices.SortFunc(out, func(x, y int32) int {
		if d := level[x] - level[y]; d != 0 {
			return int(d)
		}
		if need != nil && need[x] != need[y] {
			return int(need[x] - need[y])
		}
		if d := int(n.kind[x]) - int(n.kind[y]); d != 0 {
			return d
		}
		if d := fanin(x) - fanin(y); d != 0 {
			return d
		}
		return int(pos[x] - pos[y])
	})
	return out
}

// NewLanes makes a Lanes of the network, every lane in the empty state.
func (n *Net) NewLanes() *Lanes {
	p := n.lanes()
	l := &Lanes{p: p, val: make([]uint64, 2*p.slots), has: make([]uint64, len(n.input)),
		recLane: -1, tmp: make([]uint64, len(n.base)), recJoint: make([]int32, len(n.input))}
	nb := slices.Max(append([]int{1}, p.planes...))
	l.cntPl, l.downPl = make([]uint64, nb), make([]uint64, nb)
	for r, ms := range n.legal {
		l.mv = append(l.mv, make([]int32, 0, len(ms)))
		l.ml = append(l.ml, make([]uint64, 0, len(ms)))
		l.grpHas = append(l.grpHas, make([]uint64, len(p.groups[r])))
	}
	for i := range p.slots {
		l.put(i, 0)
	}
	l.put(1, ^uint64(0))
	return l
}

// get is the value of a slot reference (slot << 1 | inverted) in every lane.
func (l *Lanes) get(x uint32) uint64 { return l.val[x] }

// put sets the value of a slot in every lane (and its complement).
func (l *Lanes) put(slot int, v uint64) {
	l.val[2*slot] = v
	l.val[2*slot+1] = ^v
}

// run evaluates a pass's segments, but for those whose guard holds in no lane of live.
func (l *Lanes) run(recs []uint32, segs []laneSeg, live uint64) {
	for _, sg := range segs {
		if l.val[sg.guard]&live == 0 {
			continue
		}
		if !sg.cycle {
			evalBlocks(l.val, recs[sg.rec0:sg.rec1], int(sg.slot0))
			continue
		}
		// The least fixpoint: from false, until nothing changes (every edge inside a cycle is
		// positive, so each round only adds lanes).
		for k := range sg.gates {
			l.put(int(sg.slot0+k), 0)
		}
		for evalChanged(l.val, recs[sg.rec0:sg.rec1], int(sg.slot0)) {
		}
	}
}

// evalBlocks evaluates the gates of blocks recs (newLaneProg's emit), whose slots start at out:
// each gate the AND of the values its inputs index (a value or its complement), negated for an
// OR, written with its complement.
func evalBlocks(val []uint64, recs []uint32, out int) {
	for i := 0; i < len(recs); {
		shape, c := recs[i], int(recs[i+1])
		k := int(shape >> 1)
		or := -uint64(shape & 1)
		i += 2
		e := recs[i : i+k*c]
		i += k * c
		switch k {
		case 0:
			for range c {
				val[2*out] = ^or
				val[2*out+1] = or
				out++
			}
		case 1:
			for _, a := range e {
				v := val[a] ^ or
				val[2*out] = v
				val[2*out+1] = ^v
				out++
			}
		case 2:
			for j := 0; j+1 < len(e); j += 2 {
				v := (val[e[j]] & val[e[j+1]]) ^ or
				val[2*out] = v
				val[2*out+1] = ^v
				out++
			}
		case 3:
			for j := 0; j+2 < len(e); j += 3 {
				v := (val[e[j]] & val[e[j+1]] & val[e[j+2]]) ^ or
				val[2*out] = v
				val[2*out+1] = ^v
				out++
			}
		default:
			for j := 0; j < len(e); j += k {
				v := andWide(val, e[j:j+k])
				v ^= or
				val[2*out] = v
				val[2*out+1] = ^v
				out++
			}
		}
	}
}

// andWide is the AND of the values that in indexes, for a gate of 4 inputs or more. A wide
// gate (an OR of every move of a role, such as "the role has a legal move") is often decided
// by a few of its inputs in every lane: from 16 inputs on, it stops once the AND is 0 in every
// lane, looking every 8 inputs.
func andWide(val []uint64, in []uint32) uint64 {
	v := ^uint64(0)
	if len(in) < 16 {
		for _, a := range in {
			v &= val[a]
		}
		return v
	}
	for len(in) >= 8 {
		c := in[:8:8]
		v &= val[c[0]] & val[c[1]] & val[c[2]] & val[c[3]] & val[c[4]] & val[c[5]] & val[c[6]] & val[c[7]]
		if v == 0 {
			return 0
		}
		in = in[8:]
	}
	for _, a := range in {
		v &= val[a]
	}
	return v
}

// evalChanged is evalBlocks reporting whether a gate's value changed.
func evalChanged(val []uint64, recs []uint32, out int) bool {
	changed := false
	for i := 0; i < len(recs); {
		shape, c := recs[i], int(recs[i+1])
		k := int(shape >> 1)
		i += 2
		for range c {
			v := ^uint64(0)
			for _, a := range recs[i : i+k] {
				v &= val[a]
			}
			i += k
			v ^= -uint64(shape & 1)
			if val[2*out] != v {
				val[2*out] = v
				val[2*out+1] = ^v
				changed = true
			}
			out++
		}
	}
	return changed
}

// clearMoves unsets the moves set for the last joint moves.
func (l *Lanes) clearMoves() {
	for _, s := range l.set {
		l.put(int(s), 0)
	}
	l.set = l.set[:0]
	for k := l.p.push0; k < l.p.push1; k++ {
		l.put(int(k), 0)
	}
}

// setMove plays move mv of role r in the lanes of mask.
func (l *Lanes) setMove(r int, mv int32, mask uint64) {
	s := l.p.inputSlot[r][mv]
	if l.val[2*s] == 0 {
		l.set = append(l.set, s)
	}
	l.put(int(s), l.val[2*s]|mask)
	for _, k := range l.p.pushTo[l.p.pushOff[s]:l.p.pushOff[s+1]] {
		l.put(int(k), l.val[2*k]|mask)
	}
}

// stateEval evaluates what the current states decide in the lanes of live (in the others, a
// gate that reads a derived gate may be wrong): legal moves, goals, terminal.
func (l *Lanes) stateEval(live uint64) {
	l.evalState(live)
	l.evalLegal(live)
}

// evalState unsets the moves played and evaluates pass A in the lanes of live (in the others,
// a gate whose guard does not hold there may be wrong), but for the gates that read a derived
// gate.
func (l *Lanes) evalState(live uint64) {
	l.clearMoves()
	l.run(l.p.a, l.p.aSegs, live)
}

// evalLegal completes stateEval after evalState. With derived gates (findDerived), it gathers
// every role's moves legal in the lanes of live, sets the derived gates from them, then
// evaluates the gates that read them (pass A2).
func (l *Lanes) evalLegal(live uint64) {
	if d := l.p.derived; d != nil {
		for r := range l.p.groups {
			l.gather(r, live)
			for g, s := range d[r] {
				if s >= 0 {
					l.put(int(s), l.grpHas[r][g])
				}
			}
		}
		l.run(l.p.a2, l.p.a2Segs, live)
	}
	if l.p.twoPass {
		l.run(l.p.b, l.p.bSegs, live)
	}
}

// legalLanes gathers every role's moves legal in the lanes of live (gather), and returns the
// lanes of live where every role has one. After stateEval(x) with x including live, and
// derived gates, stateEval has gathered them: l.has then holds the lanes of x.
func (l *Lanes) legalLanes(live uint64) uint64 {
	all := live
	for r := range l.p.groups {
		if l.p.derived != nil {
			all &= l.has[r]
		} else {
			all &= l.gather(r, live)
		}
	}
	return all
}

// gather sets l.mv[r] and l.ml[r] to the moves of role r legal in some lane of live and those
// lanes, l.has[r] to the lanes of live where it has one (l.grpHas[r] per group), and returns
// them. The moves' conditions
// are evaluated here (laneGrp), for the groups whose guard holds in some lane of live.
func (l *Lanes) gather(r int, live uint64) uint64 {
	mv, ml := l.mv[r][:cap(l.mv[r])], l.ml[r][:cap(l.ml[r])]
	n, has := 0, uint64(0)
	gh := l.grpHas[r]
	for gi := range l.p.groups[r] {
		g := &l.p.groups[r][gi]
		gh[gi] = 0
		if gm := l.val[g.guard] & live; gm != 0 {
			n, gh[gi] = gatherBlocks(l.val, g.recs, gm, mv, ml, n)
			has |= gh[gi]
		}
	}
	l.mv[r], l.ml[r] = mv[:n], ml[:n]
	l.has[r] = has
	return has
}

// gatherBlocks evaluates the conditions of a group's moves (laneGrp's blocks) in the lanes of
// gm, appends those that hold in some lane to mv and ml from n on (without a branch per move:
// most hold in no lane), and returns the new length and the lanes where some move holds. mv and
// ml have room for every move of the role. A block is its shape and number of runs; a run is
// its first input, its number of moves, then each move's index and other inputs. A run whose
// first input is false in every lane of gm (in a block not negated) holds in none: it is
// skipped.
func gatherBlocks(val []uint64, recs []uint32, gm uint64, mv []int32, ml []uint64, n int) (int, uint64) {
	has := uint64(0)
	for i := 0; i < len(recs); {
		shape, runs := recs[i], int(recs[i+1])
		k := int(shape >> 1)
		inv := -uint64(shape & 1)
		i += 2
		for range runs {
			lead, c := val[recs[i]], int(recs[i+1])
			e := recs[i+2 : i+2+k*c]
			i += 2 + k*c
			if lead&gm == 0 && inv == 0 {
				continue
			}
			switch k {
			case 1:
				m := (lead ^ inv) & gm
				for _, x := range e {
					mv[n], ml[n] = int32(x), m
					n += int((m | -m) >> 63) // kept when some lane has it
				}
				has |= m
			case 2:
				for j := 0; j+1 < len(e); j += 2 {
					m := (lead&val[e[j+1]] ^ inv) & gm
					mv[n], ml[n] = int32(e[j]), m
					has |= m
					n += int((m | -m) >> 63)
				}
			case 3:
				for j := 0; j+2 < len(e); j += 3 {
					m := (lead&val[e[j+1]]&val[e[j+2]] ^ inv) & gm
					mv[n], ml[n] = int32(e[j]), m
					has |= m
					n += int((m | -m) >> 63)
				}
			default:
				for j := 0; j < len(e); j += k {
					v := lead
					for _, a := range e[j+1 : j+k] {
						v &= val[a]
					}
					m := (v ^ inv) & gm
					mv[n], ml[n] = int32(e[j]), m
					has |= m
					n += int((m | -m) >> 63)
				}
			}
		}
	}
	return n, has
}

// choose picks for every lane of moving a uniformly random legal move of every role, with the
// lane's own generator, and sets the moves. Every role has a legal move in those lanes, and
// gather gathered the moves of lanes that include moving.
//
// The lanes count their moves in bit planes (cnt[k] holds bit k of every lane's count;
// carry-save adders, eight moves at a time). A lane with two moves or more draws the position of
// its move, written into the bit planes of a countdown (down) that every legal move decrements:
// the move whose decrement borrows out of the top plane (the countdown was 0) is the lane's.
func (l *Lanes) choose(moving uint64) {
	for r := range l.p.groups {
		mv, ml := l.mv[r], l.ml[r]
		if moving != l.has[r] {
			for j := range ml {
				ml[j] &= moving
			}
		}
		nb := l.p.planes[r]
		cnt, down := l.cntPl[:nb], l.downPl[:nb]
		clear(cnt)
		clear(down)
		countPlanes(cnt, ml)
		used := 1 // the planes of the highest count
		for k, p := range cnt {
			if p != 0 {
				used = k + 1
			}
		}
		many := uint64(0)
		for _, p := range cnt[1:] {
			many |= p
		}
		for m := many; m != 0; m &= m - 1 {
			i := bits.TrailingZeros64(m)
			c := uint32(0)
			for k, p := range cnt[:used] {
				c |= uint32(p>>uint(i)&1) << uint(k)
			}
			for k, x := 0, l.intn(i, c); x != 0; k, x = k+1, x>>1 {
				down[k] |= uint64(x&1) << uint(i)
			}
		}
		if used <= 8 {
			l.countdown8(r, mv, ml, down)
			continue
		}
		down = down[:used]
		for j, b := range ml {
			for k := range down {
				t := b &^ down[k]
				down[k] ^= b
				b = t
			}
			if b != 0 {
				l.play(r, mv[j], b)
			}
		}
	}
}

// countdown8 is choose's countdown of role r's moves mv (legal in the lanes of ml) when the
// counts have 8 bit planes or fewer, the planes in registers: the planes above the highest
// count are 0, so a borrow out of the highest plane still borrows out of the eighth, and
// the countdown never borrows twice (a lane has fewer than 256 moves).
func (l *Lanes) countdown8(r int, mv []int32, ml []uint64, down []uint64) {
	var d [8]uint64
	copy(d[:], down)
	d0, d1, d2, d3, d4, d5, d6, d7 := d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7]
	for j, b := range ml {
		// Each plane: the lanes of b decrement it, and those where it was 0 borrow on.
		b, d0 = b&^d0, d0^b
		b, d1 = b&^d1, d1^b
		b, d2 = b&^d2, d2^b
		b, d3 = b&^d3, d3^b
		b, d4 = b&^d4, d4^b
		b, d5 = b&^d5, d5^b
		b, d6 = b&^d6, d6^b
		b, d7 = b&^d7, d7^b
		if b != 0 {
			l.play(r, mv[j], b)
		}
	}
}

// play sets move mv of role r in the lanes of b (choose), recording it in Replay's lane.
func (l *Lanes) play(r int, mv int32, b uint64) {
	l.setMove(r, mv, b)
	if l.recLane >= 0 && b&(1<<uint(l.recLane)) != 0 {
		l.recJoint[r] = mv
	}
}

// countPlanes adds to the bit planes of counts cnt (cnt[k]: bit k of each lane's count) one for
// each lane of each mask of ms: carry-save adders over eight masks at a time give the planes of
// weight 1, 2 and 4 and a carry of weight 8 that ripples into the planes above.
func countPlanes(cnt []uint64, ms []uint64) {
	csa := func(a, b, c uint64) (hi, lo uint64) {
		u := a ^ b
		return a&b | u&c, u ^ c
	}
	add := func(k int, c uint64) {
		for ; c != 0 && k < len(cnt); k++ {
			t := cnt[k] & c
			cnt[k] ^= c
			c = t
		}
	}
	i := 0
	if len(cnt) >= 4 {
		ones, twos, fours := cnt[0], cnt[1], cnt[2]
		for ; i+8 <= len(ms); i += 8 {
			m := ms[i : i+8 : i+8]
			var twosA, twosB, foursA, foursB, eights uint64
			twosA, ones = csa(ones, m[0], m[1])
			twosB, ones = csa(ones, m[2], m[3])
			foursA, twos = csa(twos, twosA, twosB)
			twosA, ones = csa(ones, m[4], m[5])
			twosB, ones = csa(ones, m[6], m[7])
			foursB, twos = csa(twos, twosA, twosB)
			eights, fours = csa(fours, foursA, foursB)
			add(3, eights)
		}
		cnt[0], cnt[1], cnt[2] = ones, twos, fours
	}
	for _, m := range ms[i:] {
		add(0, m)
	}
}

// nextState computes, after the moves are set, the next states of the lanes of live into
// l.tmp (in the others, a fluent may be wrong).
func (l *Lanes) nextState(live uint64) {
	l.run(l.p.b, l.p.bSegs, live)
	for f, x := range l.p.next {
		l.tmp[f] = l.get(x)
	}
}

// seed gives every lane its own generator, from seed.
func (l *Lanes) seed(seed uint64) {
	s := seed
	for i := range l.rng {
		s += 0x9E3779B97F4A7C15
		l.rng[i] = mix64(s)
	}
}

func mix64(z uint64) uint64 {
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}

// intn returns a uniformly random number below n (n > 0) from lane i's generator (wyrand, and
// Lemire's multiply-and-reject).
func (l *Lanes) intn(i int, n uint32) uint32 {
	for {
		l.rng[i] += 0xA0761D6478BD642F
		hi, lo := bits.Mul64(l.rng[i], l.rng[i]^0xE7037ED1A0B428DB)
		x := uint32(hi ^ lo)
		h, low := bits.Mul32(x, n)
		if low >= n || low >= -n%n {
			return h
		}
	}
}

// LaneRun configures Playouts.
type LaneRun struct {
	Start []uint64 // the state every playout starts from (Words() words)
	// Starts, when set instead of Start, gives each playout its own start state: playout i runs
	// in lane i from Starts[i] (at most 64; Count is their number).
	Starts   [][]uint64
	Seed     uint64 // the lanes' generators are seeded from it
	MaxDepth int    // joint moves after which a playout stops without a terminal state
	Count    int    // playouts to start
	// End is called for every playout that ends, in the order they end (in a step, by lane).
	// During the call Goals reads the playout's last state. It returns false to start no more
	// playouts; those under way are finished.
	End func(PlayoutEnd) bool
	// Stop, when set, is asked before every step; true stops at once, the playouts under way
	// unfinished.
	Stop func() bool
}

// PlayoutEnd is a playout that Playouts finished.
type PlayoutEnd struct {
	PlayoutResult
	Lane int    // the lane it ran in (for Goals)
	Seed uint64 // the lane's generator at its start: Replay plays it again
}

// Playouts plays run.Count random playouts from run.Start (or one from each of run.Starts), 64
// at a time, each lane choosing uniformly random legal moves with a generator of its own, until
// a terminal state, a role without a legal move, or run.MaxDepth joint moves; a lane whose
// playout ends starts the next from run.Start (a masked merge of the start state into the next
// state). A lane's playouts
// depend only on its generator, not on the other lanes. It returns the number of playouts
// ended.
func (l *Lanes) Playouts(run LaneRun) int {
	pr := playoutRun{l: l, run: run}
	pr.begin()
	for step := 0; pr.active != 0; step++ {
		if run.Stop != nil && run.Stop() {
			return pr.ended
		}
		l.evalState(pr.active)
		hold := pr.holdLanes(step)
		live := pr.active &^ hold
		l.evalLegal(live)
		term := l.get(l.p.terminal) & live
		deep := pr.tooDeep(live&^term, step)
		moving := l.legalLanes(live &^ term &^ deep)
		restart := pr.endLanes(live&^moving, term, deep, step)
		for m := hold; m != 0; m &= m - 1 {
			pr.first[bits.TrailingZeros64(m)] = step + 1
		}
		pr.fresh = restart | hold
		restart |= hold
		if moving == 0 && restart == 0 {
			continue
		}
		l.choose(moving)
		l.nextState(moving)
		pr.advance(restart)
	}
	return pr.ended
}

// A playoutRun is the state of Lanes.Playouts between steps: which lanes play, since when and
// from which generator state, and how many playouts started and ended.
type playoutRun struct {
	l     *Lanes
	run   LaneRun
	start []uint64 // per fluent: every lane, or none (run.Start)
	first [64]int  // per lane: the step its playout started
	seeds [64]uint64
	// active: the lanes playing; more: whether playouts remain to be started.
	active uint64
	// fresh: the lanes whose playouts start at this step; held: those of them held back at the
	// step before (holdLanes).
	fresh, held    uint64
	more           bool
	ended, started int
}

// begin seeds the lanes, starts the first playouts (up to 64) and loads their start states.
func (pr *playoutRun) begin() {
	l, run := pr.l, &pr.run
	pr.start = make([]uint64, len(l.p.next))
	if run.Starts != nil {
		run.Count = min(len(run.Starts), 64)
	} else {
		for f := range pr.start {
			if run.Start[f>>6]&(1<<uint(f&63)) != 0 {
				pr.start[f] = ^uint64(0)
			}
		}
	}
	l.seed(run.Seed)
	for i := 0; i < 64 && pr.started < run.Count; i++ {
		pr.active |= 1 << uint(i)
		pr.fresh |= 1 << uint(i)
		pr.seeds[i] = l.rng[i]
		pr.started++
	}
	pr.more = pr.started < run.Count
	if run.Starts != nil {
		l.LoadAll(run.Starts[:run.Count])
	} else {
		for f, x := range pr.start {
			l.put(baseSlot+f, x)
		}
	}
}

// tooDeep returns the lanes of live whose playouts have played run.MaxDepth joint moves by step.
func (pr *playoutRun) tooDeep(live uint64, step int) uint64 {
	var deep uint64
	for m := live; m != 0; m &= m - 1 {
		i := bits.TrailingZeros64(m)
		if step-pr.first[i] >= pr.run.MaxDepth {
			deep |= 1 << uint(i)
		}
	}
	return deep
}

// holdLanes returns the lanes whose playouts start at this step (fresh) that sit this step out,
// so that the lanes stay in phase (laneProg.phase): the lanes where a guard of a group of legal
// moves differs from the value it has in every other active lane. In a game of turns, a
// playout that starts when the others are at the other player's turn waits one step, and
// gathering the moves skips the groups of the player not in control in every lane. A lane is
// held back one step at most; its playout is the same, a step later.
func (pr *playoutRun) holdLanes(step int) uint64 {
	p := pr.l.p
	others := pr.active &^ pr.fresh
	if !p.phase || pr.fresh == 0 || others == 0 {
		pr.held = 0
		return 0
	}
	hold := uint64(0)
	for _, grps := range p.groups {
		for _, g := range grps {
			v := pr.l.val[g.guard]
			switch v & others {
			case others:
				hold |= pr.fresh &^ v
			case 0:
				hold |= pr.fresh & v
			}
		}
	}
	hold &= pr.active &^ pr.held
	pr.held = hold
	return hold
}

// endLanes reports the playouts of lanes ends to run.End (terminal in term, too deep in deep,
// otherwise a role without a legal move) and returns the lanes that start another playout; the
// others stop.
func (pr *playoutRun) endLanes(ends, term, deep uint64, step int) uint64 {
	l := pr.l
	restart := uint64(0)
	for m := ends; m != 0; m &= m - 1 {
		i := bits.TrailingZeros64(m)
		bit := uint64(1) << uint(i)
		e := PlayoutEnd{Lane: i, Seed: pr.seeds[i], PlayoutResult: PlayoutResult{Depth: step - pr.first[i], NoLegal: -1}}
		switch {
		case term&bit != 0:
			e.Terminal = true
		case deep&bit == 0:
			for r := range l.has {
				if l.has[r]&bit == 0 {
					e.NoLegal = r
					break
				}
			}
		}
		pr.ended++
		if !pr.run.End(e) {
			pr.more = false
		}
		if pr.more {
			restart |= bit
			pr.first[i] = step + 1
			pr.seeds[i] = l.rng[i]
			pr.started++
			pr.more = pr.started < pr.run.Count
		} else {
			pr.active &^= bit
		}
	}
	return restart
}

// advance makes the next state (Lanes.tmp) the current one, but for the lanes of restart,
// which get the start state.
func (pr *playoutRun) advance(restart uint64) {
	l := pr.l
	if restart == 0 {
		for f, x := range l.tmp {
			l.put(baseSlot+f, x)
		}
		return
	}
	for f, x := range l.tmp {
		l.put(baseSlot+f, x&^restart|pr.start[f]&restart)
	}
}

// Goals appends to out the indices (into the grounding's Goals of role r) of the goal atoms
// of role r that hold in lane i: in PlayoutEnd's lane during End, the playout's last state; after
// Eval, the lane's state.
func (l *Lanes) Goals(i, r int, out []int) []int {
	bit := uint64(1) << uint(i)
	for j, x := range l.p.goals[r] {
		if l.get(x)&bit != 0 {
			out = append(out, j)
		}
	}
	return out
}

// Replay plays again the playout that started from start with a lane's generator in state seed
// (PlayoutEnd.Seed), and appends its joint moves to rec, one move index per role each. Goals
// then reads its last state in lane 0.
func (l *Lanes) Replay(start []uint64, seed uint64, maxDepth int, rec *[]int32) PlayoutResult {
	nf := len(l.p.next)
	for f := range nf {
		v := uint64(0)
		if start[f>>6]&(1<<uint(f&63)) != 0 {
			v = 1
		}
		l.put(baseSlot+f, v)
	}
	l.rng[0] = seed
	l.recLane = 0
	defer func() { l.recLane = -1 }()
	res := PlayoutResult{NoLegal: -1}
	for {
		l.stateEval(1)
		if l.get(l.p.terminal)&1 != 0 {
			res.Terminal = true
			return res
		}
		if res.Depth >= maxDepth {
			return res
		}
		if l.legalLanes(1) == 0 {
			for r := range l.has {
				if l.has[r]&1 == 0 {
					res.NoLegal = r
					return res
				}
			}
		}
		l.choose(1)
		*rec = append(*rec, l.recJoint...)
		l.nextState(1)
		for f, x := range l.tmp {
			l.put(baseSlot+f, x&1)
		}
		res.Depth++
	}
}

// Load makes s (Words() words) the state of lane i. Eval then evaluates every lane.
func (l *Lanes) Load(i int, s []uint64) {
	bit := uint64(1) << uint(i)
	for f := range l.p.next {
		if s[f>>6]&(1<<uint(f&63)) != 0 {
			l.put(baseSlot+f, l.val[2*(baseSlot+f)]|bit)
		} else {
			l.put(baseSlot+f, l.val[2*(baseSlot+f)]&^bit)
		}
	}
}

// Eval evaluates the lanes' states: Terminal, Legal and Goals then read them. It unsets the
// moves played.
func (l *Lanes) Eval() { l.stateEval(^uint64(0)) }

// Terminal returns the lanes whose state is terminal (after Eval).
func (l *Lanes) Terminal() uint64 { return l.get(l.p.terminal) }

// Legal appends to out the legal moves of role r in lane i (after Eval), in the order of the
// network's layout (laneGrp).
func (l *Lanes) Legal(i, r int, out []int32) []int32 {
	bit := uint64(1) << uint(i)
	l.gather(r, bit)
	for j, b := range l.ml[r] {
		if b&bit != 0 {
			out = append(out, l.mv[r][j])
		}
	}
	return out
}

// Unplay unsets the moves set by Play, keeping the evaluation of the states: Play and Next then
// try other joint moves in the same states.
func (l *Lanes) Unplay() { l.clearMoves() }

// Play sets move mv of role r in lane i, for Next. Eval and Unplay unset the moves.
func (l *Lanes) Play(i, r int, mv int32) { l.setMove(r, mv, 1<<uint(i)) }

// PlayLanes sets move mv of role r in the lanes of mask, as Play does in each.
func (l *Lanes) PlayLanes(r int, mv int32, mask uint64) { l.setMove(r, mv, mask) }

// Next computes every lane's next state under the moves set by Play (after Eval); NextState
// reads them.
func (l *Lanes) Next() { l.nextState(^uint64(0)) }

// NextState writes the next state of lane i (after Next) into out (Words() words).
func (l *Lanes) NextState(i int, out []uint64) {
	clear(out)
	for f, x := range l.tmp {
		out[f>>6] |= (x >> uint(i) & 1) << uint(f&63)
	}
}

// transpose64 transposes a 64x64 bit matrix in place: bit j of a[i] becomes bit i of a[j].
func transpose64(a *[64]uint64) {
	m := uint64(0x00000000FFFFFFFF)
	for j := 32; j != 0; j, m = j>>1, m^(m<<uint(j>>1)) {
		for k := 0; k < 64; k = (k + j + 1) &^ j {
			t := (a[k]>>uint(j) ^ a[k+j]) & m
			a[k+j] ^= t
			a[k] ^= t << uint(j)
		}
	}
}

// LoadAll makes states[i] (Words() words each) the state of lane i, for the first len(states)
// lanes (at most 64; the others are emptied), 64 fluents at a time by bit-matrix transposes.
func (l *Lanes) LoadAll(states [][]uint64) {
	nf := len(l.p.next)
	var a [64]uint64
	for w := 0; w*64 < nf; w++ {
		for i := range a {
			a[i] = 0
			if i < len(states) {
				a[i] = states[i][w]
			}
		}
		transpose64(&a)
		for b := 0; b < 64 && w*64+b < nf; b++ {
			l.put(baseSlot+w*64+b, a[b])
		}
	}
}

// NextStates writes the next state of lane i (after Next) into out[i] (Words() words), for
// i < len(out) (at most 64).
func (l *Lanes) NextStates(out [][]uint64) {
	nf := len(l.tmp)
	var a [64]uint64
	for w := 0; w*64 < nf; w++ {
		n := copy(a[:], l.tmp[w*64:min(nf, w*64+64)])
		clear(a[n:])
		transpose64(&a)
		for i := range out {
			out[i][w] = a[i]
		}
	}
}

// LegalAll appends to out[i] the legal moves of role r in lane i (after Eval), for the lanes of
// out (at most 64), as Legal does for one lane.
func (l *Lanes) LegalAll(r int, out [][]int32) {
	all := uint64(1)<<uint(len(out)) - 1
	if len(out) == 64 {
		all = ^uint64(0)
	}
	l.gather(r, all)
	for j, b := range l.ml[r] {
		for ; b != 0; b &= b - 1 {
			i := bits.TrailingZeros64(b)
			out[i] = append(out[i], l.mv[r][j])
		}
	}
}

// LaneStep returns what a step of Lanes (all 64 lanes) costs in steps of a Machine whose steps
// pass changes along edgesPerStep edges on average (Machine.Work over its steps): playing on
// Lanes pays when it is under 64. A step of Lanes evaluates every gate: about 2.8 ns per
// network word (an input or a gate), measured on speedChess; a Machine's step about 15 ns per
// edge it passes a change along plus 1 us of its own (pick, step). So pancakes88 (967,737 edges,
// a flip changes 6) plays 2.5 times faster on a Machine, othello-comp2007 (5,753 edges a step) 5
// times faster on Lanes.
func (n *Net) LaneStep(edgesPerStep float64) float64 {
	words := float64(len(n.ins) + len(n.kind) + 2*len(n.base))
	return 2.8 * words / (15*edgesPerStep + 1000)
}
