package verify

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/game"
)

// SolveOptions configure Solve.
type SolveOptions struct {
	From      *game.State   // the state to solve (nil: the initial state)
	MaxStates int           // positions in the transposition table at most (0: DefaultMaxStates)
	Timeout   time.Duration // 0: no bound but the context
}

// MoveValue is a move of the role that chooses, with the value it leads to.
type MoveValue struct {
	Move  eval.Term
	Text  string // the move as KIF
	Value int    // the goal of the first role under perfect play after the move
}

// Solution is the value of a two-player zero-sum game with alternating moves under perfect
// play.
type Solution struct {
	Solved bool
	// Why says why the game was not solved: it is not for two players, not zero-sum (goals
	// summing to 100), not turn-taking, has cycles, or the budget ran out.
	Why     string
	Values  []int // per role, its goal under perfect play
	Mover   int   // the role that chooses in the state solved (-1: no role has a choice)
	Moves   []MoveValue
	Best    []MoveValue // the mover's moves that keep the value
	States  int         // positions solved (the transposition table's size)
	Elapsed time.Duration
}

// errNotSolvable stops a search that meets a position outside what Solve handles.
type errNotSolvable struct{ why string }

func (e *errNotSolvable) Error() string { return e.why }

// Solve computes the value of a two-player zero-sum game (every terminal state's goals sum to
// 100) where at most one role has a choice in each state, by alpha-beta search with a
// transposition table over state keys, and the value of each first move of the role that
// chooses. A game outside that class, or a budget that runs out, gives a Solution with Solved
// false and the reason; the error is for the end of ctx and for evaluation errors.
func Solve(ctx context.Context, g *game.Game, opts SolveOptions) (*Solution, error) {
	start := time.Now()
	sol := &Solution{Mover: -1}
	if len(g.Roles()) != 2 || g.IsRandom(0) || g.IsRandom(1) {
		sol.Why = "not a game of two players"
		return sol, nil
	}
	if opts.MaxStates <= 0 {
		opts.MaxStates = DefaultMaxStates
	}
	bctx := ctx
	if opts.Timeout > 0 {
		var cancel context.CancelFunc
		bctx, cancel = context.WithTimeoutCause(ctx, opts.Timeout, errBudget)
		defer cancel()
	}
	s := &solver{g: g, ctx: bctx, max: opts.MaxStates, tt: map[string]bound{}, onPath: map[string]bool{}}
	root := opts.From
	if root == nil {
		var err error
		if root, err = g.Initial(bctx); err != nil {
			return nil, s.fail(ctx, err, sol)
		}
	}
	node, err := s.expand(root)
	if err != nil {
		return s.result(ctx, err, sol, start)
	}
	sol.Mover = node.mover
	if node.terminal {
		sol.Solved, sol.Values = true, []int{node.value, 100 - node.value}
		return sol, nil
	}
	s.onPath[root.Key()] = true
	best := -1
	for i, key := range node.children {
		v, err := s.search(key, -1, 101)
		if err != nil {
			return s.result(ctx, err, sol, start)
		}
		if node.mover >= 0 {
			m := node.moves[i]
			sol.Moves = append(sol.Moves, MoveValue{Move: m, Text: g.String(m), Value: v})
		}
		if best < 0 || node.mover != 1 && v > best || node.mover == 1 && v < best {
			best = v
		}
	}
	for _, mv := range sol.Moves {
		if mv.Value == best {
			sol.Best = append(sol.Best, mv)
		}
	}
	sol.Solved, sol.Values = true, []int{best, 100 - best}
	sol.States = len(s.tt)
	sol.Elapsed = time.Since(start)
	return sol, nil
}

// result turns the error that stopped a search into a Solution or an error.
func (s *solver) result(ctx context.Context, err error, sol *Solution, start time.Time) (*Solution, error) {
	sol.States = len(s.tt)
	sol.Elapsed = time.Since(start)
	return sol, s.fail(ctx, err, sol)
}

// fail says why a search stopped: in sol.Why when it is not an error.
func (s *solver) fail(ctx context.Context, err error, sol *Solution) error {
	var ns *errNotSolvable
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.As(err, &ns):
		sol.Why = ns.why
		return nil
	case s.ctx.Err() != nil:
		sol.Why = "the time budget ran out"
		return nil
	}
	return err
}

// bound is what the table knows of a position's value: lo <= value <= hi.
type bound struct{ lo, hi int8 }

type solver struct {
	g      *game.Game
	ctx    context.Context
	max    int
	tt     map[string]bound
	onPath map[string]bool
	calls  int
}

// position is an expanded state.
type position struct {
	terminal bool
	value    int         // terminal: the first role's goal
	mover    int         // the role with a choice (-1: none)
	moves    []eval.Term // the mover's moves, one per child
	children []string    // the keys of the states after each move
}

// expand evaluates a state.
func (s *solver) expand(st *game.State) (*position, error) {
	g := s.g
	term, err := g.Terminal(s.ctx, st)
	if err != nil {
		return nil, err
	}
	if term {
		vals, err := g.GoalValues(s.ctx, st)
		if err != nil {
			return nil, err
		}
		if vals[0] < 0 || vals[1] < 0 || vals[0] > 100 || vals[1] > 100 {
			return nil, &errNotSolvable{"a terminal state without one goal value from 0 to 100 per role"}
		}
		if vals[0]+vals[1] != 100 {
			return nil, &errNotSolvable{fmt.Sprintf("not zero-sum: a terminal state gives goals %d and %d", vals[0], vals[1])}
		}
		return &position{terminal: true, value: vals[0], mover: -1}, nil
	}
	legal, err := g.Legal(s.ctx, st)
	if err != nil {
		return nil, err
	}
	p := &position{mover: -1}
	for r, ms := range legal {
		switch {
		case len(ms) == 0:
			return nil, &errNotSolvable{"a role has no legal move in a non-terminal state"}
		case len(ms) > 1 && p.mover >= 0:
			return nil, &errNotSolvable{"both roles choose a move at the same time"}
		case len(ms) > 1:
			p.mover = r
		}
	}
	if p.mover >= 0 {
		p.moves = legal[p.mover]
	}
	// The children's keys are cut from one string: one allocation per position.
	var buf []byte
	var ends []int
	err = g.SuccessorKeys(s.ctx, st, legal, 0, func(k int, key []byte) {
		buf = append(buf, key...)
		ends = append(ends, len(buf))
	})
	all := string(buf)
	p.children = make([]string, len(ends))
	from := 0
	for i, end := range ends {
		p.children[i] = all[from:end]
		from = end
	}
	return p, err
}

// search returns the value of the position with key (the first role's goal under perfect
// play), exactly when it lies strictly between alpha and beta, else a bound on the side of the
// window it falls.
func (s *solver) search(key string, alpha, beta int) (int, error) {
	if b, ok := s.tt[key]; ok {
		lo, hi := int(b.lo), int(b.hi)
		if lo == hi || lo >= beta {
			return lo, nil
		}
		if hi <= alpha {
			return hi, nil
		}
		alpha, beta = max(alpha, lo), min(beta, hi)
	}
	if s.onPath[key] {
		return 0, &errNotSolvable{"joint moves lead from a state back to itself (a cycle)"}
	}
	if s.calls++; s.calls&255 == 0 && s.ctx.Err() != nil {
		return 0, s.ctx.Err()
	}
	st, err := s.g.StateOfKey(key)
	if err != nil {
		return 0, err
	}
	p, err := s.expand(st)
	if err != nil {
		return 0, err
	}
	if _, ok := s.tt[key]; !ok && len(s.tt) >= s.max {
		return 0, &errNotSolvable{fmt.Sprintf("more than %d positions (the budget)", s.max)}
	}
	if p.terminal {
		s.tt[key] = bound{int8(p.value), int8(p.value)}
		return p.value, nil
	}
	s.onPath[key] = true
	defer delete(s.onPath, key)
	a0, b0 := alpha, beta
	best := -1
	for _, child := range s.knownFirst(p.children) {
		v, err := s.search(child, alpha, beta)
		if err != nil {
			return 0, err
		}
		if p.mover == 1 {
			if best < 0 || v < best {
				best = v
			}
			beta = min(beta, best)
		} else {
			best = max(best, v)
			alpha = max(alpha, best)
		}
		if alpha >= beta {
			break
		}
	}
	s.store(key, best, a0, b0)
	return best, nil
}

// knownFirst orders children for the search: those the table knows come first, as they cost
// little and narrow the window.
func (s *solver) knownFirst(children []string) []string {
	known := 0
	for _, c := range children {
		if _, ok := s.tt[c]; ok {
			known++
		}
	}
	if known == 0 || known == len(children) {
		return children
	}
	order := make([]string, 0, len(children))
	for _, c := range children {
		if _, ok := s.tt[c]; ok {
			order = append(order, c)
		}
	}
	for _, c := range children {
		if _, ok := s.tt[c]; !ok {
			order = append(order, c)
		}
	}
	return order
}

// store narrows the table's bound on the value of the position with key by best, the value
// searched in the window (alpha, beta): an upper bound when it fell below, a lower bound when
// above, the exact value when inside.
func (s *solver) store(key string, best, alpha, beta int) {
	b := bound{0, 100}
	if old, ok := s.tt[key]; ok {
		b = old
	}
	switch {
	case best <= alpha:
		b.hi = int8(min(int(b.hi), best))
	case best >= beta:
		b.lo = int8(max(int(b.lo), best))
	default:
		b = bound{int8(best), int8(best)}
	}
	s.tt[key] = b
}
