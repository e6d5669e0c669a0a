package verify

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/game"
)

// The search is breadth-first: states get their numbers in the order they are found and are
// explored in that order, so the first state found with a violation is one of the nearest to
// the initial state, and the path of parents to it is a shortest witness. A state is kept as
// its key (in the table), its parent, the number of the joint move that leads to it from the
// parent, its depth and a few flags; its successors are a range of one slice of state numbers,
// in the order of the state's joint moves. The witness of a state is rebuilt by replaying the
// joint moves from the initial state.

// node flags
const (
	fExplored uint8 = 1 << iota // evaluated, and its successors listed
	fTerminal
	fDeadEnd // non-terminal, and some role has no legal move
	fPartial // some successors were not added to the table (budget)
)

type node struct {
	parent int32 // -1 for the initial state
	via    int32 // the joint move of the parent that leads here, numbered like its successors
	depth  int32
	flags  uint8
}

// visit is what the checks get of an explored state.
type visit struct {
	id       int32
	state    *game.State // made from the key when a check asks for it (explorer.state)
	terminal bool
	goals    [][]eval.Term // a terminal state: the goal values of each role
	legal    [][]eval.Term // a non-terminal state: the legal moves of each role
}

// check is one property: it sees every explored state, then gives its findings and verdict.
type check interface {
	visit(x *explorer, v *visit)
	finish(ctx context.Context, x *explorer, r *Result) error
}

type stateErr struct {
	id  int32
	err error
}

type explorer struct {
	g      *game.Game
	nr     int
	checks []check

	states  *table
	nodes   []node
	edgeOff []int32 // the successors of explored state i are edges[edgeOff[i]:edgeOff[i+1]]
	edges   []int32 // successor numbers; -1: a successor not in the table (budget)

	maxStates, maxEdges int
	explored            int
	terminal            int
	maxDepth            int
	full                int  // the depth up to which every reachable state is explored, when fullSet
	fullSet             bool // some reachable state is not explored
	cut                 bool // the table or the edges ran out of room
	timeUp              bool
	errs                []stateErr
	fatal               error // a failure that ends the search (fail)

	// expandBatch: the hashes of the successors' keys of a batch; sink keeps what
	// table.prefetch read.
	hs   []uint64
	sink uint64

	// statistics over the explored non-terminal states without a dead end
	legalSum   []int64
	legalMax   []int
	jointSum   int64
	jointMax   int
	choosing   int // states where at least one role has more than one legal move
	concurrent int // states where two roles or more have more than one legal move
	minTermDep int // depth of the nearest terminal state (-1: none)
}

// explore runs the breadth-first search.
func explore(ctx context.Context, g *game.Game, opts Options, checks []check) (*explorer, error) {
	if opts.MaxStates <= 0 {
		opts.MaxStates = DefaultMaxStates
	}
	if opts.ProgressEvery <= 0 {
		opts.ProgressEvery = 250 * time.Millisecond
	}
	nr := len(g.Roles())
	if nr == 0 {
		return nil, fmt.Errorf("the game has no role")
	}
	x := &explorer{
		g: g, nr: nr, checks: checks,
		states: newTable(), edgeOff: []int32{0},
		maxStates: opts.MaxStates, maxEdges: max(64*opts.MaxStates, 1<<20),
		minTermDep: -1,
		legalSum:   make([]int64, nr), legalMax: make([]int, nr),
	}
	// bctx bounds the search by opts.Timeout: when it ends, the search stops with what it
	// found; when ctx ends, the search fails.
	bctx := ctx
	if opts.Timeout > 0 {
		var cancel context.CancelFunc
		bctx, cancel = context.WithTimeoutCause(ctx, opts.Timeout, errBudget)
		defer cancel()
	}
	init, err := g.Initial(bctx)
	if err != nil {
		if ctx.Err() == nil && bctx.Err() != nil {
			x.timeUp = true
			return x, nil
		}
		return nil, fmt.Errorf("the initial state: %w", err)
	}
	x.add([]byte(init.Key()), x.states.hash([]byte(init.Key())), -1, -1, 0)
	if err := x.search(ctx, bctx, opts); err != nil {
		return nil, err
	}
	if x.timeUp {
		// The state being explored and those after it are not: every state up to the depth
		// before it was.
		for id := range x.nodes {
			if x.nodes[id].flags&fExplored == 0 {
				x.cutAt(int(x.nodes[id].depth) - 1)
				break
			}
		}
	}
	return x, nil
}

// search explores the states in the order of their numbers, from the initial one, until none is
// left or bctx ends (then x.timeUp is set), reporting progress as opts asks.
func (x *explorer) search(ctx, bctx context.Context, opts Options) error {
	start := time.Now()
	last := start
	// On the compiled engine the states are evaluated 64 at a time, in the order of their
	// numbers (expandBatch); the interpreter's one by one.
	f := x.g.NewFrontier()
	for id := 0; id < len(x.nodes); id++ {
		if x.fatal != nil {
			return x.fatal
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if bctx.Err() != nil {
			x.timeUp = true
			return nil
		}
		if opts.Progress != nil && (id&63 == 0 || f != nil) {
			if now := time.Now(); now.Sub(last) >= opts.ProgressEvery {
				last = now
				opts.Progress(Progress{States: len(x.nodes), Explored: x.explored, Depth: int(x.nodes[id].depth), Elapsed: now.Sub(start)})
			}
		}
		if f != nil {
			n := min(64, len(x.nodes)-id)
			if err := x.expandBatch(f, int32(id), n); err == nil {
				id += n - 1
				continue
			}
			f = nil // a state the compiled engine cannot take: one by one from here
		}
		if stop, err := x.expandOne(ctx, bctx, int32(id)); stop || err != nil {
			return err
		}
	}
	return x.fatal
}

// fail records a failure that ends the search: search returns it, and explore with it, so that
// the command reports it as an error. A check's visit, which returns nothing, calls it.
func (x *explorer) fail(err error) {
	if x.fatal == nil {
		x.fatal = err
	}
}

// expandOne explores state id on its own. A state whose evaluation fails stays unexplored,
// without successors, and the failure is kept; stop is true when bctx ended (x.timeUp is set),
// err not nil when ctx ended or the game was refused.
func (x *explorer) expandOne(ctx, bctx context.Context, id int32) (stop bool, err error) {
	s, err := x.g.StateOfKey(string(x.states.key(id)))
	if err != nil {
		return true, err
	}
	err = x.expand(bctx, id, s)
	if err == nil {
		return false, nil
	}
	if ctx.Err() != nil {
		return true, ctx.Err()
	}
	if bctx.Err() != nil {
		x.timeUp = true
		return true, nil
	}
	var ref *eval.RefusedError
	if errors.As(err, &ref) {
		return true, err
	}
	x.edgeOff = append(room(x.edgeOff, 1), int32(len(x.edges)))
	x.errs = append(x.errs, stateErr{id, err})
	x.cutAt(int(x.nodes[id].depth) - 1)
	return false, nil
}

// add puts a state in the table, or finds it there (h is its key's hash); -1 when the table is
// full.
func (x *explorer) add(key []byte, h uint64, parent, via int32, depth int32) int32 {
	full := len(x.nodes) >= x.maxStates
	id, found := x.states.lookup(key, h, !full)
	if found || id < 0 {
		return id
	}
	x.nodes = append(room(x.nodes, 1), node{parent: parent, via: via, depth: depth})
	return id
}

// cutAt records that a reachable state of depth d+1 is not explored.
func (x *explorer) cutAt(d int) {
	if !x.fullSet || d < x.full {
		x.full = d
	}
	x.fullSet = true
}

// expand explores state id: terminal, goals or legal moves, and every successor.
func (x *explorer) expand(ctx context.Context, id int32, s *game.State) error {
	g := x.g
	v := &visit{id: id, state: s}
	term, err := g.Terminal(ctx, s)
	if err != nil {
		return err
	}
	if v.terminal = term; term {
		if v.goals, err = g.Goals(ctx, s); err != nil {
			return err
		}
	} else if v.legal, err = g.Legal(ctx, s); err != nil {
		return err
	}
	mark := len(x.edges)
	if total := x.begin(v, 0); total > 0 {
		depth := x.nodes[id].depth
		err := g.SuccessorKeys(ctx, s, v.legal, total, func(k int, key []byte) {
			x.successor(id, depth, k, key, x.states.hash(key))
		})
		if err != nil {
			x.edges = x.edges[:mark]
			return err
		}
	}
	x.finish(v)
	return nil
}

// expandBatch explores states id0 to id0+n-1 (n <= 64) on a Frontier: evaluated together, then
// recorded one after the other as expand records them, their successors added to the table in
// the same order.
func (x *explorer) expandBatch(f *game.Frontier, id0 int32, n int) error {
	keys := make([][]byte, n)
	for i := range keys {
		keys[i] = x.states.key(id0 + int32(i))
	}
	out := make([]game.Expansion, n)
	if err := f.Expand(keys, out); err != nil {
		return err
	}
	vs := make([]visit, n)
	for i, e := range out {
		vs[i] = visit{id: id0 + int32(i), terminal: e.Terminal, goals: e.Goals, legal: e.Legal}
	}
	limits := make([]int, n)
	pending := 0 // edges the states before in the batch will add
	for i := range vs {
		limits[i] = x.begin(&vs[i], pending)
		pending += limits[i]
	}
	// The successors' keys first, all of them, then looked up in the table together.
	succ, kl, counts := f.SuccessorKeys(limits)
	var sum uint64
	x.hs, sum = x.states.prefetch(succ, kl, x.hs)
	x.sink += sum
	done := 0 // the states recorded
	j := 0    // the key
	for i, c := range counts {
		if c == 0 {
			continue
		}
		for ; done < i; done++ {
			x.finish(&vs[done])
		}
		id := id0 + int32(i)
		depth := x.nodes[id].depth
		for k := range c {
			x.successor(id, depth, k, succ[j*kl:(j+1)*kl], x.hs[j])
			j++
		}
	}
	for ; done < n; done++ {
		x.finish(&vs[done])
	}
	return nil
}

// state returns the state of a visit, made from its key the first time. It cannot fail on a
// search's table: every key in it is the Key of a state of this game (Initial's, or one that
// SuccessorKeys or a Frontier's Successors gave), which StateOfKey takes by its contract; the
// error is returned anyway, so that a key it rejects (a defect) is an error the command reports,
// never a panic.
func (x *explorer) state(v *visit) (*game.State, error) {
	if v.state == nil {
		s, err := x.g.StateOfKey(string(x.states.key(v.id)))
		if err != nil {
			return nil, fmt.Errorf("the key of state %d in the table of states: %w", v.id, err)
		}
		v.state = s
	}
	return v.state, nil
}

// begin records what a state is (terminal, or its branching, or a dead end) and returns how many
// of its successors to list, pending edges being due before them: all but those past the room
// for edges (the state is then partial).
func (x *explorer) begin(v *visit, pending int) int {
	n := &x.nodes[v.id]
	depth := int(n.depth)
	if v.terminal {
		n.flags |= fTerminal
		x.terminal++
		if x.minTermDep < 0 {
			x.minTermDep = depth
		}
		return 0
	}
	total, dead := 1, false
	for _, ms := range v.legal {
		if len(ms) == 0 {
			dead = true
		}
		total *= len(ms)
		if total > x.maxEdges {
			total = x.maxEdges + 1
		}
	}
	if dead {
		n.flags |= fDeadEnd
		return 0
	}
	x.stat(v.legal, total)
	if room := x.maxEdges - len(x.edges) - pending; total > room {
		n.flags |= fPartial
		x.cut = true
		x.cutAt(depth)
		total = room
	}
	return total
}

// successor adds the state that joint move k of state id leads to (h: its key's hash).
func (x *explorer) successor(id, depth int32, k int, key []byte, h uint64) {
	to := x.add(key, h, id, int32(k), depth+1)
	if to < 0 {
		x.nodes[id].flags |= fPartial
		x.cut = true
		x.cutAt(int(depth))
	}
	x.edges = append(room(x.edges, 1), to)
}

// finish records a state as explored, its successors listed, and shows it to the checks.
func (x *explorer) finish(v *visit) {
	n := &x.nodes[v.id]
	n.flags |= fExplored
	x.edgeOff = append(room(x.edgeOff, 1), int32(len(x.edges)))
	x.explored++
	x.maxDepth = max(x.maxDepth, int(n.depth))
	for _, c := range x.checks {
		c.visit(x, v)
	}
}

// stat adds a state's legal moves to the branching statistics.
func (x *explorer) stat(legal [][]eval.Term, total int) {
	many := 0
	for r, ms := range legal {
		x.legalSum[r] += int64(len(ms))
		x.legalMax[r] = max(x.legalMax[r], len(ms))
		if len(ms) > 1 {
			many++
		}
	}
	x.jointSum += int64(total)
	x.jointMax = max(x.jointMax, total)
	if many > 0 {
		x.choosing++
	}
	if many > 1 {
		x.concurrent++
	}
}

// succ returns the successors of an explored state.
func (x *explorer) succ(id int32) []int32 {
	if int(id)+1 >= len(x.edgeOff) {
		return nil
	}
	return x.edges[x.edgeOff[id]:x.edgeOff[id+1]]
}

func (x *explorer) complete() bool { return !x.cut && !x.timeUp && len(x.errs) == 0 }

func (x *explorer) stopped() string {
	switch {
	case x.timeUp:
		return "timeout"
	case x.cut:
		return "max-states"
	case len(x.errs) > 0:
		return "errors"
	}
	return ""
}

func (x *explorer) fullDepthValue() int {
	if x.fullSet {
		return max(x.full, 0)
	}
	return x.maxDepth
}

// path returns the numbers of the joint moves that lead from the initial state to state id.
func (x *explorer) path(id int32) []int32 {
	var out []int32
	for n := x.nodes[id]; n.parent >= 0; n = x.nodes[n.parent] {
		out = append(out, n.via)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// witness replays the path to state id, then the joint moves numbered more (each numbered
// among the successors of the state reached), and returns the joint moves played.
func (x *explorer) witness(ctx context.Context, id int32, more []int32) ([][]eval.Term, error) {
	return replayNumbers(ctx, x.g, append(x.path(id), more...))
}

// replayNumbers plays joint moves given by their numbers among the legal joint moves of each
// state reached (the last role's moves varying fastest).
func replayNumbers(ctx context.Context, g *game.Game, nums []int32) ([][]eval.Term, error) {
	s, err := g.Initial(ctx)
	if err != nil {
		return nil, err
	}
	moves := make([][]eval.Term, 0, len(nums))
	for _, k := range nums {
		legal, err := g.Legal(ctx, s)
		if err != nil {
			return nil, err
		}
		joint := jointAt(legal, int(k))
		if s, err = g.Next(ctx, s, joint); err != nil {
			return nil, fmt.Errorf("replaying a witness: %w", err)
		}
		moves = append(moves, joint)
	}
	return moves, nil
}

// jointAt returns joint move number k of the legal moves (the last role's moves varying
// fastest).
func jointAt(legal [][]eval.Term, k int) []eval.Term {
	joint := make([]eval.Term, len(legal))
	for r := len(legal) - 1; r >= 0; r-- {
		n := len(legal[r])
		joint[r] = legal[r][k%n]
		k /= n
	}
	return joint
}
