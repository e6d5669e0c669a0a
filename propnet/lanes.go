package propnet

import (
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
// evaluate many states (Load, Eval, Next). A Lanes is not safe for concurrent use.
type Lanes struct {
	n   *Net
	p   *laneProg
	val []uint64 // per slot (laneProg): its value in each lane

	rng      [64]uint64 // per lane: its generator's state
	set      []int32    // input slots set for the current joint moves
	has      []uint64   // per role: the lanes with a legal move
	cntPl    []uint64   // choose: the lanes' counts of legal moves, in bit planes
	downPl   []uint64   // choose: the lanes' countdowns to their move, in bit planes
	ms       []laneMove // choose: the legal moves of a role in some lane
	recLane  int        // Replay: the lane whose moves are recorded (-1: none)
	recJoint []int32    // Replay: the joint move of the step being played
	tmp      []uint64   // the next state, before the lanes that restart are merged in
}

// laneProg is the network laid out for Lanes, made once per network. Each node has a slot:
// false, true, the fluents, the moves, then the gates that read no move (pass A) and the gates
// that do (pass B), each pass in topological order. A pass is a stream of records: a header
// (number of inputs << 1 | 1 for an OR) and the inputs (slot << 1 | 1 when inverted). A
// cycle of the network (atoms that depend on each other) is a segment of its own, iterated
// from false to its least fixpoint.
type laneProg struct {
	slots     int
	inputSlot [][]int32 // per role and move
	a, b      []uint32
	aSegs     []laneSeg
	bSegs     []laneSeg
	// twoPass: a legal move, goal or terminal reads a move (Net.keepMoves is false), so pass B
	// also runs before the moves are chosen, with no move set.
	twoPass  bool
	next     []uint32    // per fluent: slot << 1 | inverted
	terminal uint32      // slot << 1 | inverted
	goals    [][]uint32  // per role and goal atom
	groups   [][]laneGrp // per role: its groups of legal moves
	planes   []int       // per role: the bits of its number of moves (bit planes of a count)
}

// A laneMove is a move and the lanes where it is legal.
type laneMove struct {
	mv    int32
	lanes uint64
}

// A laneSeg is a run of records: [rec0, rec1) of a pass, whose gates have the slots from slot0.
type laneSeg struct {
	rec0, rec1, slot0 int32
	cycle             bool
}

// A laneGrp is a group of legal moves that share a guard: the guard, and per move its index and
// the rest of its condition.
type laneGrp struct {
	guard uint32
	moves []int32
	rest  []uint32
}

const baseSlot = 2 // the slot of fluent 0; 0 is false and 1 is true

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

func newLaneProg(n *Net) *laneProg {
	nn := len(n.kind)
	p := &laneProg{twoPass: !n.keepMoves}
	slot := make([]int32, nn)
	for i := range nn {
		if n.kind[i] == kConst {
			slot[i] = 0
			if n.thresh[i] == 0 {
				slot[i] = 1
			}
		}
	}
	next := int32(baseSlot)
	for _, id := range n.base {
		slot[id] = next
		next++
	}
	p.inputSlot = make([][]int32, len(n.input))
	for r, ids := range n.input {
		for _, id := range ids {
			slot[id] = next
			p.inputSlot[r] = append(p.inputSlot[r], next)
			next++
		}
	}
	reads := n.movesRead()
	emit := func(pass bool) ([]uint32, []laneSeg) {
		var recs []uint32
		var segs []laneSeg
		cur := int32(-1) // the cycle of the segment being made (0: none)
		for i := range nn {
			k := n.kind[i]
			if (k != kAnd && k != kOr) || reads[i] != pass {
				continue
			}
			if c := n.scc[i]; len(segs) == 0 || c != cur {
				segs = append(segs, laneSeg{rec0: int32(len(recs)), slot0: next, cycle: c != 0})
				cur = c
			}
			slot[i] = next
			next++
			ins := n.ins[n.inOff[i]:n.inOff[i+1]]
			or := uint32(0)
			if k == kOr {
				or = 1
			}
			recs = append(recs, uint32(len(ins))<<1|or)
			for range ins {
				recs = append(recs, 0) // filled below, once every slot is known
			}
			segs[len(segs)-1].rec1 = int32(len(recs))
		}
		return recs, segs
	}
	p.a, p.aSegs = emit(false)
	p.b, p.bSegs = emit(true)
	p.slots = int(next)
	ref := func(r ref) uint32 { return uint32(slot[r.node()])<<1 | uint32(b2u(r.inv())) }
	fill := func(recs []uint32, pass bool) {
		at := 0
		for i := range nn {
			k := n.kind[i]
			if (k != kAnd && k != kOr) || reads[i] != pass {
				continue
			}
			or := recs[at] & 1
			at++
			for _, in := range n.ins[n.inOff[i]:n.inOff[i+1]] {
				recs[at] = ref(in) ^ or
				at++
			}
		}
	}
	fill(p.a, false)
	fill(p.b, true)
	p.next = make([]uint32, len(n.next))
	for f, x := range n.next {
		p.next[f] = ref(x)
	}
	p.terminal = ref(n.terminal)
	p.goals = make([][]uint32, len(n.goals))
	for r, gs := range n.goals {
		for _, x := range gs {
			p.goals[r] = append(p.goals[r], ref(x))
		}
	}
	p.groups = make([][]laneGrp, len(n.legal))
	for r, rs := range n.legal {
		grps := make([]laneGrp, len(n.groups[r]))
		for g, guard := range n.groups[r] {
			grps[g].guard = ref(guard)
		}
		for m, x := range rs {
			if x == refFalse {
				continue
			}
			g := n.groupOf[r][m]
			grps[g].moves = append(grps[g].moves, int32(m))
			grps[g].rest = append(grps[g].rest, ref(x))
		}
		p.groups[r] = grps
		p.planes = append(p.planes, bits.Len(uint(len(rs))))
	}
	return p
}

// NewLanes makes a Lanes of the network, every lane in the empty state.
func (n *Net) NewLanes() *Lanes {
	p := n.lanes()
	l := &Lanes{n: n, p: p, val: make([]uint64, p.slots), has: make([]uint64, len(n.input)),
		recLane: -1, tmp: make([]uint64, len(n.base)), recJoint: make([]int32, len(n.input))}
	nb := slices.Max(append([]int{1}, p.planes...))
	l.cntPl, l.downPl = make([]uint64, nb), make([]uint64, nb)
	l.val[1] = ^uint64(0)
	return l
}

// get is the value of a slot reference (slot << 1 | inverted) in every lane.
func (l *Lanes) get(x uint32) uint64 { return l.val[x>>1] ^ -uint64(x&1) }

// run evaluates a pass's segments.
func (l *Lanes) run(recs []uint32, segs []laneSeg) {
	for _, sg := range segs {
		if !sg.cycle {
			l.eval(recs[sg.rec0:sg.rec1], int(sg.slot0))
			continue
		}
		// The least fixpoint: from false, until nothing changes (every edge inside a cycle is
		// positive, so each round only adds lanes).
		k := 0
		for i := sg.rec0; i < sg.rec1; i += 1 + int32(recs[i]>>1) {
			l.val[int(sg.slot0)+k] = 0
			k++
		}
		for l.evalChanged(recs[sg.rec0:sg.rec1], int(sg.slot0)) {
		}
	}
}

// eval evaluates the gates of records recs, whose slots start at out.
func (l *Lanes) eval(recs []uint32, out int) {
	val := l.val
	for i := 0; i < len(recs); {
		h := recs[i]
		k := int(h >> 1)
		v := ^uint64(0)
		for _, e := range recs[i+1 : i+1+k] {
			v &= val[e>>1] ^ -uint64(e&1)
		}
		val[out] = v ^ -uint64(h&1)
		out++
		i += 1 + k
	}
}

// evalChanged is eval reporting whether a gate's value changed.
func (l *Lanes) evalChanged(recs []uint32, out int) bool {
	val := l.val
	changed := false
	for i := 0; i < len(recs); {
		h := recs[i]
		k := int(h >> 1)
		v := ^uint64(0)
		for _, e := range recs[i+1 : i+1+k] {
			v &= val[e>>1] ^ -uint64(e&1)
		}
		v ^= -uint64(h & 1)
		if val[out] != v {
			val[out] = v
			changed = true
		}
		out++
		i += 1 + k
	}
	return changed
}

// clearMoves unsets the moves set for the last joint moves.
func (l *Lanes) clearMoves() {
	for _, s := range l.set {
		l.val[s] = 0
	}
	l.set = l.set[:0]
}

// setMove plays move mv of role r in the lanes of mask.
func (l *Lanes) setMove(r int, mv int32, mask uint64) {
	s := l.p.inputSlot[r][mv]
	if l.val[s] == 0 {
		l.set = append(l.set, s)
	}
	l.val[s] |= mask
}

// stateEval evaluates what the current states decide: legal moves, goals, terminal.
func (l *Lanes) stateEval() {
	l.clearMoves()
	l.run(l.p.a, l.p.aSegs)
	if l.p.twoPass {
		l.run(l.p.b, l.p.bSegs)
	}
}

// legalLanes sets l.has per role to the lanes of live where it has a legal move, and returns
// the lanes of live where every role has one.
func (l *Lanes) legalLanes(live uint64) uint64 {
	all := live
	for r, grps := range l.p.groups {
		has := uint64(0)
		for gi := range grps {
			g := &grps[gi]
			gm := l.get(g.guard) & live
			if gm == 0 {
				continue
			}
			for _, x := range g.rest {
				has |= l.get(x) & gm
			}
		}
		l.has[r] = has
		all &= has
	}
	return all
}

// choose picks for every lane of moving a uniformly random legal move of every role, with the
// lane's own generator, and sets the moves. Every role has a legal move in those lanes.
//
// The lanes count their legal moves in bit planes (planes[k] holds bit k of every lane's
// count, a ripple-carry add per move); a lane with two moves or more draws the position of its
// move, written into the planes of a countdown (down) that every legal move decrements: the
// move whose decrement borrows out of the top plane (the countdown was 0) is the lane's.
func (l *Lanes) choose(moving uint64) {
	for r, grps := range l.p.groups {
		nb := l.p.planes[r]
		cnt, down := l.cntPl[:nb], l.downPl[:nb]
		clear(cnt)
		clear(down)
		ms := l.ms[:0]
		for gi := range grps {
			g := &grps[gi]
			gm := l.get(g.guard) & moving
			if gm == 0 {
				continue
			}
			for j, x := range g.rest {
				m := l.get(x) & gm
				if m == 0 {
					continue
				}
				ms = append(ms, laneMove{mv: g.moves[j], lanes: m})
				for k, c := 0, m; c != 0; k++ {
					t := cnt[k] & c
					cnt[k] ^= c
					c = t
				}
			}
		}
		l.ms = ms
		many := uint64(0)
		for _, p := range cnt[1:] {
			many |= p
		}
		for m := many; m != 0; m &= m - 1 {
			i := bits.TrailingZeros64(m)
			c := uint32(0)
			for k, p := range cnt {
				c |= uint32(p>>uint(i)&1) << uint(k)
			}
			for k, x := 0, l.intn(i, c); x != 0; k, x = k+1, x>>1 {
				down[k] |= uint64(x&1) << uint(i)
			}
		}
		for _, e := range ms {
			b := e.lanes
			for k := 0; k < nb && b != 0; k++ {
				t := b &^ down[k]
				down[k] ^= b
				b = t
			}
			if b != 0 {
				l.setMove(r, e.mv, b)
				if l.recLane >= 0 && b&(1<<uint(l.recLane)) != 0 {
					l.recJoint[r] = e.mv
				}
			}
		}
	}
}

// nextState computes, after the moves are set, the lanes' next states into l.tmp.
func (l *Lanes) nextState() {
	l.run(l.p.b, l.p.bSegs)
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
	Start    []uint64 // the state every playout starts from (Words() words)
	Seed     uint64   // the lanes' generators are seeded from it
	MaxDepth int      // joint moves after which a playout stops without a terminal state
	Count    int      // playouts to start
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

// Playouts plays run.Count random playouts from run.Start, 64 at a time, each lane choosing
// uniformly random legal moves with a generator of its own, until a terminal state, a role
// without a legal move, or run.MaxDepth joint moves; a lane whose playout ends starts the next
// from run.Start (a masked merge of the start state into the next state). A lane's playouts
// depend only on its generator, not on the other lanes. It returns the number of playouts
// ended.
func (l *Lanes) Playouts(run LaneRun) int {
	p := l.p
	nf := len(p.next)
	start := make([]uint64, nf) // per fluent: every lane, or none
	for f := range start {
		if run.Start[f>>6]&(1<<uint(f&63)) != 0 {
			start[f] = ^uint64(0)
		}
	}
	l.seed(run.Seed)
	var first [64]int // per lane: the step its playout started
	var seeds [64]uint64
	ended, started := 0, 0
	active := uint64(0)
	for i := 0; i < 64 && started < run.Count; i++ {
		active |= 1 << uint(i)
		seeds[i] = l.rng[i]
		started++
	}
	more := started < run.Count
	copy(l.val[baseSlot:baseSlot+nf], start)
	for step := 0; active != 0; step++ {
		if run.Stop != nil && run.Stop() {
			return ended
		}
		l.stateEval()
		term := l.get(p.terminal) & active
		var deep uint64
		for m := active &^ term; m != 0; m &= m - 1 {
			i := bits.TrailingZeros64(m)
			if step-first[i] >= run.MaxDepth {
				deep |= 1 << uint(i)
			}
		}
		live := active &^ term &^ deep
		moving := l.legalLanes(live)
		ends := active &^ moving
		restart := uint64(0)
		for m := ends; m != 0; m &= m - 1 {
			i := bits.TrailingZeros64(m)
			bit := uint64(1) << uint(i)
			e := PlayoutEnd{Lane: i, Seed: seeds[i], PlayoutResult: PlayoutResult{Depth: step - first[i], NoLegal: -1}}
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
			ended++
			if !run.End(e) {
				more = false
			}
			if more {
				restart |= bit
				first[i] = step + 1
				seeds[i] = l.rng[i]
				started++
				more = started < run.Count
			} else {
				active &^= bit
			}
		}
		if moving == 0 && restart == 0 {
			continue
		}
		l.choose(moving)
		l.nextState()
		if restart == 0 {
			copy(l.val[baseSlot:baseSlot+nf], l.tmp)
		} else {
			for f, x := range l.tmp {
				l.val[baseSlot+f] = x&^restart | start[f]&restart
			}
		}
	}
	return ended
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
		l.val[baseSlot+f] = v
	}
	l.rng[0] = seed
	l.recLane = 0
	defer func() { l.recLane = -1 }()
	res := PlayoutResult{NoLegal: -1}
	for {
		l.stateEval()
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
		l.nextState()
		for f, x := range l.tmp {
			l.val[baseSlot+f] = x & 1
		}
		res.Depth++
	}
}

// Load makes s (Words() words) the state of lane i. Eval then evaluates every lane.
func (l *Lanes) Load(i int, s []uint64) {
	bit := uint64(1) << uint(i)
	for f := range l.p.next {
		if s[f>>6]&(1<<uint(f&63)) != 0 {
			l.val[baseSlot+f] |= bit
		} else {
			l.val[baseSlot+f] &^= bit
		}
	}
}

// Eval evaluates the lanes' states: Terminal, Legal and Goals then read them. It unsets the
// moves played.
func (l *Lanes) Eval() { l.stateEval() }

// Terminal returns the lanes whose state is terminal (after Eval).
func (l *Lanes) Terminal() uint64 { return l.get(l.p.terminal) }

// Legal appends to out the legal moves of role r in lane i (after Eval), in increasing order
// of their indices within each group of moves.
func (l *Lanes) Legal(i, r int, out []int32) []int32 {
	bit := uint64(1) << uint(i)
	for gi := range l.p.groups[r] {
		g := &l.p.groups[r][gi]
		if l.get(g.guard)&bit == 0 {
			continue
		}
		for j, x := range g.rest {
			if l.get(x)&bit != 0 {
				out = append(out, g.moves[j])
			}
		}
	}
	return out
}

// Play sets move mv of role r in lane i, for Next. Eval unsets the moves.
func (l *Lanes) Play(i, r int, mv int32) { l.setMove(r, mv, 1<<uint(i)) }

// Next computes every lane's next state under the moves set by Play (after Eval); NextState
// reads them.
func (l *Lanes) Next() { l.nextState() }

// NextState writes the next state of lane i (after Next) into out (Words() words).
func (l *Lanes) NextState(i int, out []uint64) {
	clear(out)
	for f, x := range l.tmp {
		out[f>>6] |= (x >> uint(i) & 1) << uint(f&63)
	}
}
