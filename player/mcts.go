// Package player holds the built-in game players: Monte Carlo tree search (UCT) and random play,
// over the game API, and matches between them. The editor's "computer move", `gdl play
// --players` and a GGP match player use it.
//
// A Player chooses the move of one role in a state before its context ends: the context's
// deadline is the time to think (a GGP play clock less a margin), and cancelling it stops the
// search at once with the best move found so far.
package player

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/game"
)

// Player chooses moves for one role of a game, from what the role knows.
type Player interface {
	// Move returns the role's move given b, what the role knows of the state (Known when it
	// knows the state; a GDL-II role's Belief), a move legal in every state it may be in,
	// deciding before ctx ends. It fails only when the states cannot be evaluated, or are
	// terminal, or the role has no legal move.
	Move(ctx context.Context, b *Belief) (eval.Term, error)
	// Role is the role's index in the game's roles.
	Role() int
}

// Options configure an MCTS player.
type Options struct {
	// Playouts stops a search after this many playouts (0: no bound but the context's). Tests
	// bound searches this way, so that a result does not depend on the machine's speed.
	Playouts int
	// MaxDepth is the most joint moves of one playout (0: 500); a playout that reaches it scores
	// the goal values of the state it stopped in.
	MaxDepth int
	// Exploration is UCT's constant C in UCB1 (mean + C·sqrt(ln N / n)) over goal values scaled
	// to [0, 1] (0: 0.7).
	Exploration float64
	// MaxNodes bounds the tree (0: 500,000 nodes): beyond it, the search goes on with playouts
	// from the leaves it reaches, without new nodes.
	MaxNodes int
	// MaxBytes bounds the tree's memory in the same way (0: 256 MB), counting each node's state
	// (a few hundred bytes in a compiled game, but a state of the interpreter holds its
	// fluents: a game whose state grows fills the tree's memory long before its node count).
	MaxBytes int64
	Seed     uint64
}

// lanes is the number of descents an MCTS search on the compiled engine scores at once: one
// step of propnet.Lanes plays 64 playouts.
const lanes = 64

// MCTS is a Monte Carlo tree search player (UCT). Every role chooses its move at a node by UCB1
// over its own statistics (decoupled UCT, which covers simultaneous moves; a turn-taking game's
// waiting roles have one move), GDL-II's random role uniformly; a new node is scored by a random
// playout (game.Simulate) from it, on the compiled engine 64 new nodes at once (chosen one after
// the other, each seeing the others' visits, game.SimulateAll). When the role knows the state,
// the tree is kept between moves: the next search starts from the node of the state it is asked
// about when the last tree reached it within two joint moves. When it does not (GDL-II), it
// searches from the states it may be in (SearchBelief), never from the true state it was not
// told. An MCTS is used by one goroutine at a time.
type MCTS struct {
	g     *game.Game
	role  int
	opts  Options
	rng   *rand.Rand
	root  *node
	size  int   // nodes in the tree under root
	bytes int64 // their estimated memory (nodeBytes)
	last  Search
}

// Search describes the last search of an MCTS player.
type Search struct {
	Move     eval.Term
	States   int           // the states searched from: 1 when the role knows the state
	Playouts int           // playouts of this search
	Reused   int           // visits of the root kept from the previous searches
	Nodes    int           // nodes in the tree
	Elapsed  time.Duration // time the search took
	Moves    []MoveStat    // the role's moves at the root, most visited first
}

// MoveStat is what the search found of one move of the role at the root.
type MoveStat struct {
	Move   eval.Term
	Visits int
	Value  float64 // the mean goal value (0 to 100) of the playouts through the move
}

// NewMCTS makes an MCTS player of role (an index into g.Roles()).
func NewMCTS(g *game.Game, role int, opts Options) *MCTS {
	if opts.MaxDepth <= 0 {
		opts.MaxDepth = 500
	}
	if opts.Exploration <= 0 {
		opts.Exploration = 0.7
	}
	if opts.MaxNodes <= 0 {
		opts.MaxNodes = 500_000
	}
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = 256 << 20
	}
	return &MCTS{g: g, role: role, opts: opts, rng: rand.New(rand.NewPCG(opts.Seed, uint64(role)+0x51ed27))}
}

// Role returns the player's role.
func (p *MCTS) Role() int { return p.role }

// Last returns what the last search found.
func (p *MCTS) Last() Search { return p.last }

// node is a state of the tree.
type node struct {
	state    *game.State
	terminal bool
	goals    []float64        // terminal: the goal values scaled to [0, 1]
	legal    [][]eval.Term    // per role
	stats    [][]edge         // per role, per legal move
	visits   int              // playouts through the node
	children map[string]*node // by joint move (the moves' indexes)
}

type edge struct {
	n int
	w float64 // the sum of the values of the playouts through the move
}

// newNode evaluates a state: whether it is terminal, its goals or its legal moves.
func (p *MCTS) newNode(ctx context.Context, s *game.State) (*node, error) {
	n := &node{state: s}
	t, err := p.g.Terminal(ctx, s)
	if err != nil {
		return nil, err
	}
	if t {
		n.terminal = true
		vals, err := p.g.GoalValues(ctx, s)
		if err != nil {
			return nil, err
		}
		n.goals = scale(vals)
		return n, nil
	}
	if n.legal, err = p.g.Legal(ctx, s); err != nil {
		return nil, err
	}
	n.stats = make([][]edge, len(n.legal))
	for r, ms := range n.legal {
		if len(ms) == 0 {
			// A role without a move in a non-terminal state: the game is broken here; score
			// the state as it stands.
			vals, err := p.g.GoalValues(ctx, s)
			if err != nil {
				return nil, err
			}
			n.terminal, n.goals, n.legal, n.stats = true, scale(vals), nil, nil
			return n, nil
		}
		n.stats[r] = make([]edge, len(ms))
	}
	p.size++
	p.bytes += nodeBytes(n)
	return n, nil
}

// nodeBytes estimates the memory of a node: its state (the key, and the fluents or bits it is
// made of), its legal moves and their statistics, and the node itself.
func nodeBytes(n *node) int64 {
	b := int64(200 + 3*len(n.state.Key()))
	for _, ms := range n.legal {
		b += 4*int64(len(ms)) + 16*int64(len(ms))
	}
	return b
}

// full reports whether the tree has no room for another node.
func (p *MCTS) full() bool { return p.size >= p.opts.MaxNodes || p.bytes >= p.opts.MaxBytes }

// measure counts the nodes of the tree under root and their memory: what a reused tree keeps
// of the last one.
func (p *MCTS) measure(root *node) {
	p.size, p.bytes = 0, 0
	stack := []*node{root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		p.size++
		p.bytes += nodeBytes(n)
		for _, c := range n.children {
			stack = append(stack, c)
		}
	}
}

// scale turns goal values into [0, 1]; a missing value counts as 0.
func scale(vals []int) []float64 {
	out := make([]float64, len(vals))
	for i, v := range vals {
		out[i] = max(0, min(float64(v), 100)) / 100
	}
	return out
}

// ErrNoMove is returned for a terminal state or a role without a legal move.
var ErrNoMove = errors.New("no move to choose: the state is terminal or the role has no legal move")

// Move searches from what the role knows (SearchBelief) until ctx ends or the playout budget
// is spent, and returns the move it found best. A role with one legal move gets it without a
// search.
func (p *MCTS) Move(ctx context.Context, b *Belief) (eval.Term, error) {
	sr, err := p.SearchBelief(ctx, b)
	return sr.Move, err
}

// Search searches from the state s, known to the role, and returns the role's most visited
// move with what the search found.
func (p *MCTS) Search(ctx context.Context, s *game.State) (Search, error) {
	start := time.Now()
	p.last = Search{}
	root, err := p.rootFor(ctx, s)
	if err != nil {
		return Search{}, err
	}
	if root.terminal {
		return Search{}, ErrNoMove
	}
	sr := Search{States: 1, Reused: root.visits}
	if len(root.legal[p.role]) > 1 {
		for p.opts.Playouts <= 0 || sr.Playouts < p.opts.Playouts {
			if ctx.Err() != nil {
				break
			}
			n := 1
			if p.g.Engine() == game.Compiled {
				n = lanes
			}
			if p.opts.Playouts > 0 {
				n = min(n, p.opts.Playouts-sr.Playouts)
			}
			if err := p.iterate(ctx, root, n); err != nil {
				if ctx.Err() != nil {
					break // stopped in the middle of playouts: those do not count
				}
				return Search{}, err
			}
			sr.Playouts += n
		}
	}
	sr.Nodes = p.size
	sr.Elapsed = time.Since(start)
	for i, m := range root.legal[p.role] {
		e := root.stats[p.role][i]
		ms := MoveStat{Move: m, Visits: e.n}
		if e.n > 0 {
			ms.Value = 100 * e.w / float64(e.n)
		}
		sr.Moves = append(sr.Moves, ms)
	}
	slices.SortStableFunc(sr.Moves, func(a, b MoveStat) int {
		if a.Visits != b.Visits {
			return b.Visits - a.Visits
		}
		switch {
		case a.Value > b.Value:
			return -1
		case a.Value < b.Value:
			return 1
		}
		return 0
	})
	sr.Move = sr.Moves[0].Move
	p.last = sr
	return sr, nil
}

// rootFor returns the node of s: found in the last tree within two joint moves of its root, or
// a new one.
func (p *MCTS) rootFor(ctx context.Context, s *game.State) (*node, error) {
	if p.root != nil {
		key := s.Key()
		if p.root.state.Key() == key {
			return p.root, nil
		}
		for _, c := range p.root.children {
			if c.state.Key() == key {
				p.root = c
				p.measure(c)
				return c, nil
			}
		}
		for _, c := range p.root.children {
			for _, gc := range c.children {
				if gc.state.Key() == key {
					p.root = gc
					p.measure(gc)
					return gc, nil
				}
			}
		}
	}
	p.root, p.size, p.bytes = nil, 0, 0
	root, err := p.newNode(ctx, s)
	if err != nil {
		return nil, err
	}
	p.root = root
	return root, nil
}

// A descent is one selection and expansion: the path from the root, and the state to score by a
// playout (nil when the value is known: a terminal node).
type descent struct {
	path  []stepRec
	root  *node
	leaf  *node // the node made for the last joint move (nil when there was no room for it)
	from  *game.State
	value []float64
}

type stepRec struct {
	n     *node
	joint []int
}

// iterate runs n selections and expansions from root, scores their leaves by playouts (on the
// compiled engine, n > 1, all at once: game.SimulateAll), and backpropagates the values. Each
// descent counts its visits when it is made (a virtual loss: the next descents of the batch see
// its moves as tried without reward, and spread), its value when its playout is back.
func (p *MCTS) iterate(ctx context.Context, root *node, n int) error {
	ds := make([]*descent, 0, n)
	undo := func() {
		for _, d := range ds {
			d.undo()
		}
	}
	for range n {
		d, err := p.descend(ctx, root)
		if err != nil {
			undo()
			return err
		}
		ds = append(ds, d)
	}
	var from []*game.State
	for _, d := range ds {
		if d.from != nil {
			from = append(from, d.from)
		}
	}
	if len(from) == 1 || len(from) > 0 && p.g.Engine() != game.Compiled {
		for _, d := range ds {
			if d.from != nil {
				v, err := p.playout(ctx, d.from)
				if err != nil {
					undo()
					return err
				}
				d.value = v
			}
		}
	} else if len(from) > 1 {
		sims, err := p.g.SimulateAll(ctx, from, p.rng.Uint64(), p.opts.MaxDepth)
		if err != nil {
			undo()
			return err
		}
		i := 0
		for _, d := range ds {
			if d.from != nil {
				d.value = scale(sims[i].Goals)
				i++
			}
		}
	}
	for _, d := range ds {
		d.backup()
	}
	return nil
}

// descend selects joint moves from root down to a node not in the tree yet (made then, when
// there is room) or a terminal one, and counts the visits of the way.
func (p *MCTS) descend(ctx context.Context, root *node) (*descent, error) {
	d := &descent{root: root}
	n := root
	for {
		if n.terminal {
			d.value = n.goals
			break
		}
		joint := p.choose(n)
		d.path = append(d.path, stepRec{n, joint})
		key := jointKey(joint)
		child := n.children[key]
		if child == nil {
			next, err := p.g.Next(ctx, n.state, p.moves(n, joint))
			if err != nil {
				return nil, err
			}
			if p.full() {
				// No room for new nodes: score the joint move by a playout from here.
				d.from = next
				break
			}
			if child, err = p.newNode(ctx, next); err != nil {
				return nil, err
			}
			if n.children == nil {
				n.children = map[string]*node{}
			}
			n.children[key] = child
			if child.terminal {
				d.value = child.goals
			} else {
				d.from = next
			}
			d.leaf = child
			child.visits++
			break
		}
		n = child
	}
	for _, st := range d.path {
		st.n.visits++
		for r, i := range st.joint {
			st.n.stats[r][i].n++
		}
	}
	if len(d.path) == 0 {
		root.visits++
	}
	return d, nil
}

// backup adds a descent's value to the moves of its way.
func (d *descent) backup() {
	for _, st := range d.path {
		for r, i := range st.joint {
			if r < len(d.value) {
				st.n.stats[r][i].w += d.value[r]
			}
		}
	}
}

// undo takes back the visits a descent counted (its playout did not finish).
func (d *descent) undo() {
	for _, st := range d.path {
		st.n.visits--
		for r, i := range st.joint {
			st.n.stats[r][i].n--
		}
	}
	if len(d.path) == 0 {
		d.root.visits--
	}
	if d.leaf != nil {
		d.leaf.visits--
	}
}

// playout scores a state by a random playout.
func (p *MCTS) playout(ctx context.Context, s *game.State) ([]float64, error) {
	sim, err := p.g.Simulate(ctx, s, p.rng, p.opts.MaxDepth)
	if err != nil {
		return nil, err
	}
	return scale(sim.Goals), nil
}

// choose picks a move per role at n: UCB1 over the role's statistics, an untried move first
// (at random among them), GDL-II's random role uniformly.
func (p *MCTS) choose(n *node) []int {
	joint := make([]int, len(n.legal))
	logN := math.Log(float64(max(n.visits, 1)))
	for r, ms := range n.legal {
		if len(ms) == 1 {
			continue
		}
		if p.g.IsRandom(r) {
			joint[r] = p.rng.IntN(len(ms))
			continue
		}
		best, bestU, untried := 0, math.Inf(-1), 0
		for i, e := range n.stats[r] {
			if e.n == 0 {
				// Reservoir sampling: a uniformly random untried move.
				untried++
				if p.rng.IntN(untried) == 0 {
					best = i
				}
				continue
			}
			if untried > 0 {
				continue
			}
			u := e.w/float64(e.n) + p.opts.Exploration*math.Sqrt(logN/float64(e.n))
			if u > bestU {
				best, bestU = i, u
			}
		}
		joint[r] = best
	}
	return joint
}

func (p *MCTS) moves(n *node, joint []int) []eval.Term {
	out := make([]eval.Term, len(joint))
	for r, i := range joint {
		out[r] = n.legal[r][i]
	}
	return out
}

func jointKey(joint []int) string {
	b := make([]byte, 0, 4*len(joint))
	for _, i := range joint {
		b = append(b, byte(i), byte(i>>8), byte(i>>16), byte(i>>24))
	}
	return string(b)
}

// maxDeterminizations bounds the states a search from a belief searches from.
const maxDeterminizations = 8

// SearchBelief searches from what the role knows. When it knows the state, it is Search. Else
// (GDL-II) it searches from each of the states it may be in (the most probable, at most
// maxDeterminizations, drawn by probability when there are more), sharing the time and the
// playout budget, each as if the state were known, and plays the legal move with the highest
// share of the visits weighted by the states' probabilities: the move that is best in the
// states it is likely to be in, whatever it was not told. The trees are not kept.
func (p *MCTS) SearchBelief(ctx context.Context, b *Belief) (Search, error) {
	if s, known := b.State(); known {
		return p.Search(ctx, s)
	}
	start := time.Now()
	p.last = Search{}
	legal, err := b.Legal(ctx)
	if err != nil {
		return Search{}, err
	}
	states, weights := b.States(), b.Weights()
	if len(states) > maxDeterminizations {
		states, weights = resample(p.rng, states, weights, maxDeterminizations)
	}
	stats := map[eval.Term]*beliefStat{}
	for _, m := range legal {
		stats[m] = &beliefStat{}
	}
	sr := Search{States: len(states)}
	if len(legal) > 1 {
		p.searchStates(ctx, start, states, weights, stats, &sr)
	}
	for _, m := range legal {
		st := stats[m]
		ms := MoveStat{Move: m, Visits: st.visits}
		if st.weight > 0 {
			ms.Value = st.value / st.weight
		}
		sr.Moves = append(sr.Moves, ms)
	}
	slices.SortStableFunc(sr.Moves, func(a, c MoveStat) int {
		sa, sc := stats[a.Move].share, stats[c.Move].share
		switch {
		case sa > sc:
			return -1
		case sa < sc:
			return 1
		}
		return c.Visits - a.Visits
	})
	sr.Move = sr.Moves[0].Move
	sr.Elapsed = time.Since(start)
	p.last = sr
	return sr, nil
}

// beliefStat is what the searches from the states a role may be in found of one of its moves:
// its share of the visits and its value, each weighted by the states' probabilities.
type beliefStat struct {
	share, value, weight float64
	visits               int
}

// searchStates searches from each state in turn, as if it were known, sharing the time left
// and the playout budget, and adds each search's visits and values to stats (moves not in
// stats, not legal in every state, are left out) and its playouts and nodes to sr.
func (p *MCTS) searchStates(ctx context.Context, start time.Time, states []*game.State, weights []float64, stats map[eval.Term]*beliefStat, sr *Search) {
	total := time.Until(deadlineOf(ctx))
	for i, s := range states {
		if ctx.Err() != nil {
			break
		}
		sctx, cancel := context.WithDeadline(ctx, start.Add(total*time.Duration(i+1)/time.Duration(len(states))))
		opts := p.opts
		opts.Seed = p.rng.Uint64()
		if opts.Playouts > 0 {
			opts.Playouts = max(p.opts.Playouts/len(states), 1)
		}
		one, err := NewMCTS(p.g, p.role, opts).Search(sctx, s)
		cancel()
		if err != nil {
			continue // a state the role may be in where it has no move, or terminal
		}
		sr.Playouts += one.Playouts
		sr.Nodes += one.Nodes
		n := 0
		for _, ms := range one.Moves {
			n += ms.Visits
		}
		for _, ms := range one.Moves {
			st := stats[ms.Move]
			if st == nil {
				continue // not legal in every state it may be in
			}
			st.visits += ms.Visits
			if n > 0 {
				st.share += weights[i] * float64(ms.Visits) / float64(n)
			}
			if ms.Visits > 0 {
				st.value += weights[i] * ms.Value
				st.weight += weights[i]
			}
		}
	}
}

// deadlineOf returns ctx's deadline, or an hour from now when it has none.
func deadlineOf(ctx context.Context) time.Time {
	if d, ok := ctx.Deadline(); ok {
		return d
	}
	return time.Now().Add(time.Hour)
}

// Random plays a uniformly random legal move.
type Random struct {
	g    *game.Game
	role int
	rng  *rand.Rand
}

// NewRandom makes a random player of role.
func NewRandom(g *game.Game, role int, seed uint64) *Random {
	return &Random{g: g, role: role, rng: rand.New(rand.NewPCG(seed, uint64(role)+0x2545f491))}
}

// Role returns the player's role.
func (p *Random) Role() int { return p.role }

// Move returns a uniformly random move of the role, among those legal in every state it may
// be in.
func (p *Random) Move(ctx context.Context, b *Belief) (eval.Term, error) {
	if p.role >= len(p.g.Roles()) {
		return 0, fmt.Errorf("role %d: the game has %d roles", p.role, len(p.g.Roles()))
	}
	ms, err := b.Legal(ctx)
	if err != nil {
		return 0, err
	}
	return ms[p.rng.IntN(len(ms))], nil
}
