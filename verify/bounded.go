package verify

import (
	"context"
	"fmt"
	"time"

	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/game"
)

// Bounded searches: questions about the next N joint moves from one state, for game tests
// ("from here white can force a win within 3 moves", "every continuation ends within 9
// moves"). Both search depth first to depth N with a table of the states met, which keeps per
// state the depths known to answer yes and no (an answer at depth d holds at every greater
// depth for yes, every smaller one for no), so a state reached by several orders of moves is
// searched once per depth at most.

// MaxBoundedDepth bounds N: the searches recurse once per joint move.
const MaxBoundedDepth = 1000

// BoundedOptions bound a bounded search.
type BoundedOptions struct {
	MaxStates int           // states in the table at most (0: DefaultMaxStates)
	Timeout   time.Duration // 0: no bound but the context
}

// Bounded is the answer of a bounded search.
type Bounded struct {
	Holds bool
	// Known is false when the budget ran out before the answer was found; Why says which.
	Known bool
	Why   string
	// For CanForce: when it holds, Move is a first move of the role that forces the value
	// (nil when the state is terminal); when it does not, Replies gives for each move of the
	// role a joint move of the others that keeps it below the value (Move is the role's
	// move, Joint the whole joint move), and Line is one line of joint moves that leaves the
	// role below the value.
	Move    *MoveValue
	Replies []Reply
	// For EndsWithin when it does not hold, and for CanForce: joint moves from the state
	// searched to a state that shows the answer (one that is not terminal after N moves, or
	// one where a role has no legal move).
	Line   [][]eval.Term
	Joints []string // Line in the game's notation
	// End says what the state at the end of Line is: EndTerminal, EndNoMove (a role has no
	// legal move in a state that is not terminal) or EndDepth (the depth is reached in a state
	// that is not terminal).
	End    string
	States int // states in the table
}

// The ends of a line of a bounded search.
const (
	EndTerminal = "terminal"
	EndNoMove   = "no-move"
	EndDepth    = "depth"
)

// Reply is a joint move that answers one move of the role a CanForce is about.
type Reply struct {
	Move  string // the role's move
	Joint string // the joint move, the role's move with the others' reply
}

// boundEntry is what the table knows of a state: yes at every depth from yes up, no at every
// depth up to no.
type boundEntry struct {
	yes, no int32 // yes: -1 unknown (no depth known to answer yes); no: -1 none known
}

type bounded struct {
	g     *game.Game
	ctx   context.Context
	max   int
	table map[string]boundEntry
	calls int
	// edges counts the joint moves played, at most maxEdges: a state with millions of joint
	// moves stops the search rather than the machine.
	edges, maxEdges int
	// holds decides a terminal state (can-force: the role's goal; ends-within: always yes).
	terminal func(s *game.State) (bool, error)
	// mover is the role whose choice is existential (can-force), -1 for a universal search.
	mover int
}

// CanForce reports whether role (an index into Roles) can force a goal of at least value
// within depth joint moves from state from: the state is terminal with such a goal, or the
// role has a move after which, whatever the others play, it can force it within depth-1.
// Every other role (GDL-II's random too) plays against it. A state where a role has no legal
// move is a loss for the role. The error is for the end of ctx and for evaluation errors.
func CanForce(ctx context.Context, g *game.Game, from *game.State, role, value, depth int, opts BoundedOptions) (*Bounded, error) {
	if role < 0 || role >= len(g.Roles()) {
		return nil, fmt.Errorf("role %d: the game has %d roles", role, len(g.Roles()))
	}
	b, cancel := newBounded(ctx, g, depth, opts)
	defer cancel()
	b.mover = role
	b.terminal = func(s *game.State) (bool, error) {
		vals, err := g.GoalValues(b.ctx, s)
		if err != nil {
			return false, err
		}
		return vals[role] >= value, nil
	}
	return b.run(ctx, from, depth)
}

// EndsWithin reports whether every sequence of legal joint moves from state from reaches a
// terminal state within depth joint moves. A non-terminal state where a role has no legal
// move does not end: Line leads to it. When it does not hold, Line is a sequence of joint
// moves that does not end within depth.
func EndsWithin(ctx context.Context, g *game.Game, from *game.State, depth int, opts BoundedOptions) (*Bounded, error) {
	b, cancel := newBounded(ctx, g, depth, opts)
	defer cancel()
	b.mover = -1
	b.terminal = func(*game.State) (bool, error) { return true, nil }
	return b.run(ctx, from, depth)
}

func newBounded(ctx context.Context, g *game.Game, depth int, opts BoundedOptions) (*bounded, context.CancelFunc) {
	if opts.MaxStates <= 0 {
		opts.MaxStates = DefaultMaxStates
	}
	cancel := context.CancelFunc(func() {})
	if opts.Timeout > 0 {
		ctx, cancel = context.WithTimeoutCause(ctx, opts.Timeout, errBudget)
	}
	return &bounded{g: g, ctx: ctx, max: opts.MaxStates, maxEdges: max(64*opts.MaxStates, 1<<20), table: map[string]boundEntry{}}, cancel
}

// errOverBudget stops a bounded search whose table is full, or that has played its budget of
// joint moves.
type errOverBudget struct {
	max   int
	edges bool
}

func (e *errOverBudget) Error() string {
	if e.edges {
		return fmt.Sprintf("more than %d joint moves played (the budget)", e.max)
	}
	return fmt.Sprintf("more than %d states (the budget)", e.max)
}

func (b *bounded) run(ctx context.Context, from *game.State, depth int) (*Bounded, error) {
	if depth < 0 || depth > MaxBoundedDepth {
		return nil, fmt.Errorf("the depth must be from 0 to %d, not %d", MaxBoundedDepth, depth)
	}
	res := &Bounded{}
	ok, err := b.search(from, depth)
	res.States = len(b.table)
	if err != nil {
		var over *errOverBudget
		switch {
		case ctx.Err() != nil:
			return nil, ctx.Err()
		case b.ctx.Err() != nil:
			res.Why = "the time budget ran out"
			return res, nil
		case asOverBudget(err, &over):
			res.Why = over.Error()
			return res, nil
		}
		return nil, err
	}
	res.Holds, res.Known = ok, true
	// The explanation expands the states of one line, which the search expanded already: fewer
	// joint moves than it played.
	b.edges = 0
	if err := b.explain(from, depth, res); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, err
	}
	return res, nil
}

func asOverBudget(err error, target **errOverBudget) bool {
	e, ok := err.(*errOverBudget)
	if ok {
		*target = e
	}
	return ok
}

// boundedNode is a state expanded: its legal moves and the keys of its successors, in the order of
// game.JointMoves.
type boundedNode struct {
	terminal bool
	legal    [][]eval.Term
	children []string
}

func (b *bounded) expand(s *game.State) (*boundedNode, error) {
	term, err := b.g.Terminal(b.ctx, s)
	if err != nil || term {
		return &boundedNode{terminal: term}, err
	}
	legal, err := b.g.Legal(b.ctx, s)
	if err != nil {
		return nil, err
	}
	n := &boundedNode{legal: legal}
	total := 1
	for _, ms := range legal {
		total *= len(ms)
		if total > b.maxEdges {
			break
		}
	}
	if b.edges += total; b.edges > b.maxEdges {
		return nil, &errOverBudget{max: b.maxEdges, edges: true}
	}
	err = b.g.SuccessorKeys(b.ctx, s, legal, 0, func(_ int, key []byte) {
		n.children = append(n.children, string(key))
	})
	return n, err
}

// search answers the question for state s at depth d.
func (b *bounded) search(s *game.State, d int) (bool, error) {
	key := s.Key()
	e, seen := b.table[key]
	if seen {
		if e.yes >= 0 && int32(d) >= e.yes {
			return true, nil
		}
		if int32(d) <= e.no {
			return false, nil
		}
	} else {
		if len(b.table) >= b.max {
			return false, &errOverBudget{max: b.max}
		}
		e = boundEntry{yes: -1, no: -1}
	}
	if b.calls++; b.calls&255 == 0 && b.ctx.Err() != nil {
		return false, b.ctx.Err()
	}
	ok, err := b.decide(s, d)
	if err != nil {
		return false, err
	}
	if e2, ok2 := b.table[key]; ok2 {
		e = e2
	}
	if ok {
		if e.yes < 0 || int32(d) < e.yes {
			e.yes = int32(d)
		}
	} else if int32(d) > e.no {
		e.no = int32(d)
	}
	b.table[key] = e
	return ok, nil
}

// decide computes the answer for s at depth d from its successors.
func (b *bounded) decide(s *game.State, d int) (bool, error) {
	n, err := b.expand(s)
	if err != nil {
		return false, err
	}
	if n.terminal {
		return b.terminal(s)
	}
	if d == 0 || len(n.children) == 0 {
		return false, nil
	}
	groups := b.groups(n)
	for _, ks := range groups {
		all := true
		for _, k := range ks {
			child, err := b.g.StateOfKey(n.children[k])
			if err != nil {
				return false, err
			}
			ok, err := b.search(child, d-1)
			if err != nil {
				return false, err
			}
			if !ok {
				all = false
				break
			}
		}
		if all {
			return true, nil
		}
	}
	return false, nil
}

// groups splits the successors of n by the mover's move (one group per move), or puts them
// all in one group for a universal search.
func (b *bounded) groups(n *boundedNode) [][]int {
	total := len(n.children)
	if b.mover < 0 {
		all := make([]int, total)
		for i := range all {
			all[i] = i
		}
		return [][]int{all}
	}
	stride := 1
	for r := b.mover + 1; r < len(n.legal); r++ {
		stride *= len(n.legal[r])
	}
	out := make([][]int, len(n.legal[b.mover]))
	for k := 0; k < total; k++ {
		m := (k / stride) % len(n.legal[b.mover])
		out[m] = append(out[m], k)
	}
	return out
}

// known returns the table's answer for the state with key at depth d, if it has one.
func (b *bounded) known(key string, d int) (answer, ok bool) {
	e, seen := b.table[key]
	switch {
	case !seen:
		return false, false
	case e.yes >= 0 && int32(d) >= e.yes:
		return true, true
	case int32(d) <= e.no:
		return false, true
	}
	return false, false
}

// explain fills in the first move, the replies and the line of a decided search, from the
// table (the search has decided every state the explanation follows).
func (b *bounded) explain(from *game.State, depth int, res *Bounded) error {
	s, d := from, depth
	first := true
	for d >= 0 && len(res.Line) <= MaxBoundedDepth {
		n, err := b.expand(s)
		if err != nil {
			return err
		}
		switch {
		case n.terminal:
			res.End = EndTerminal
		case len(n.children) == 0:
			res.End = EndNoMove
		case d == 0:
			res.End = EndDepth
		}
		if res.End != "" {
			break
		}
		joints, _, err := b.g.JointMoves(b.ctx, s, len(n.children))
		if err != nil {
			return err
		}
		groups := b.groups(n)
		next := -1
		for gi, ks := range groups {
			failing, allYes := -1, true
			for _, k := range ks {
				ans, ok := b.known(n.children[k], d-1)
				if ok && !ans {
					failing, allYes = k, false
					break
				}
				allYes = allYes && ok
			}
			if res.Holds && b.mover >= 0 && allYes {
				// The mover's move that forces the value; the line goes on with the
				// others' first reply.
				if first {
					m := n.legal[b.mover][gi]
					res.Move = &MoveValue{Move: m, Text: b.g.String(m)}
				}
				next = ks[0]
				break
			}
			if !res.Holds && failing >= 0 {
				replies := first && b.mover >= 0
				if replies {
					res.Replies = append(res.Replies, Reply{Move: b.g.String(n.legal[b.mover][gi]), Joint: b.g.FormatJoint(joints[failing])})
				}
				if next < 0 {
					next = failing
				}
				if !replies {
					break
				}
			}
		}
		if next < 0 {
			break
		}
		res.Line = append(res.Line, joints[next])
		res.Joints = append(res.Joints, b.g.FormatJoint(joints[next]))
		child, err := b.g.StateOfKey(n.children[next])
		if err != nil {
			return err
		}
		s, d, first = child, d-1, false
	}
	return nil
}
