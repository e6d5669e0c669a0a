package verify

import (
	"context"
	"strconv"
	"time"

	"github.com/gdl-lsp/gdl/game"
)

// StatsOptions configure Stats.
type StatsOptions struct {
	Options         // the budget: Timeout bounds the exploration, the playouts and the solver together
	Playouts int    // random playouts for the goal distribution (0: 1000)
	Seed     uint64 // their seed
	// SolveStates is the budget of positions of the solver, tried on a two-player zero-sum
	// turn-taking game whose exploration was complete (0: DefaultMaxStates; < 0: never solve).
	SolveStates int
}

// RoleStats are one role's figures.
type RoleStats struct {
	Role       string
	Random     bool
	BranchMean float64 // legal moves per explored non-terminal state
	BranchMax  int
	// TerminalGoals counts the explored terminal states by the role's goal value (-1: not
	// exactly one integer from 0 to 100).
	TerminalGoals map[int]int
	// PlayGoals counts the random playouts by the role's goal value at their end, and
	// MeanGoal is its mean over the playouts that ended with one.
	PlayGoals map[string]int
	MeanGoal  float64
}

// Statistics describe a game's state space and random play.
type Statistics struct {
	Complete  bool
	Stopped   string
	States    int
	Terminal  int
	Depth     int // deepest explored state (joint moves from the initial state, the shortest way)
	FullDepth int
	// ShortestMatch is the depth of the nearest terminal state (-1: none found); LongestMatch the
	// most joint moves a match can take (-1: unknown, when the exploration is not complete or
	// joint moves can lead back to a state).
	ShortestMatch, LongestMatch int
	JointMean                   float64 // joint moves per explored non-terminal state
	JointMax                    int
	// TurnTaking: in every explored non-terminal state at most one role has more than one
	// legal move.
	TurnTaking bool
	Roles      []RoleStats
	Play       *game.PlayStats
	// FirstRole is the role that moves first: the one role with a choice in the initial state,
	// or else the first role (GDL-II's random is never it). FirstAdvantage is its mean goal
	// under random play minus the mean of the other roles' mean goals (random excepted); 0 in a
	// game of one player.
	FirstRole      string
	FirstAdvantage float64
	// Solution is the solved value of a two-player zero-sum turn-taking game whose space was
	// explored completely; for another game, Solved is false and Why says which condition it
	// fails. Nil when solving is off (StatsOptions.SolveStates < 0).
	Solution *Solution
	Elapsed  time.Duration
}

// statsCheck counts goal values of terminal states.
type statsCheck struct {
	g       *game.Game
	goals   []map[int]int
	zeroSum bool
}

func (c *statsCheck) visit(x *explorer, v *visit) {
	if !v.terminal {
		return
	}
	sum := 0
	for r, ts := range v.goals {
		val := -1
		if len(ts) == 1 {
			val = goalValue(c.g, ts[0])
		}
		c.goals[r][val]++
		sum += val
		if val < 0 {
			c.zeroSum = false
		}
	}
	if sum != 100 {
		c.zeroSum = false
	}
}

func (c *statsCheck) finish(context.Context, *explorer, *Result) error { return nil }

// Stats explores the reachable states within the budget of opts, plays random playouts and,
// for a two-player zero-sum turn-taking game explored completely, solves it.
func Stats(ctx context.Context, g *game.Game, opts StatsOptions) (*Statistics, error) {
	start := time.Now()
	sc := &statsCheck{g: g, zeroSum: true}
	for range g.Roles() {
		sc.goals = append(sc.goals, map[int]int{})
	}
	// The exploration, the playouts and the solver share the one budget.
	var deadline time.Time
	if opts.Timeout > 0 {
		deadline = start.Add(opts.Timeout)
	}
	left := func() time.Duration {
		if deadline.IsZero() {
			return 0
		}
		return max(time.Until(deadline), time.Nanosecond)
	}
	x, err := explore(ctx, g, opts.Options, []check{sc})
	if err != nil {
		return nil, err
	}
	sccs := x.sccs()
	st, moving := x.statistics(sccs)
	playouts := opts.Playouts
	if playouts <= 0 {
		playouts = 1000
	}
	play, err := g.Playouts(ctx, game.PlayOptions{Playouts: playouts, Seed: opts.Seed, Time: left()})
	if err != nil {
		return nil, err
	}
	st.Play = play
	st.addRoles(g, x, sc, moving)
	st.firstAdvantage(ctx, g)
	if opts.SolveStates >= 0 {
		st.Solution = &Solution{Mover: -1, Why: st.unsolvable(g, sc, sccs)}
		if st.Solution.Why == "" {
			sol, err := Solve(ctx, g, SolveOptions{MaxStates: opts.SolveStates, Timeout: left()})
			if err != nil {
				return nil, err
			}
			st.Solution = sol
		}
	}
	st.Elapsed = time.Since(start)
	return st, nil
}

// statistics are the figures of the exploration: states, depths, match lengths and joint
// moves; moving counts the explored states where the roles move (neither terminal nor a dead
// end).
func (x *explorer) statistics(sccs sccResult) (st *Statistics, moving int) {
	st = &Statistics{
		Complete: x.complete(), Stopped: x.stopped(), States: x.explored, Terminal: x.terminal,
		Depth: x.maxDepth, FullDepth: x.fullDepthValue(), ShortestMatch: x.minTermDep, LongestMatch: -1,
		JointMax: x.jointMax, TurnTaking: x.concurrent == 0,
	}
	moving = x.explored - x.terminal
	for id := range x.nodes {
		if x.nodes[id].flags&fDeadEnd != 0 {
			moving--
		}
	}
	if moving > 0 {
		st.JointMean = float64(x.jointSum) / float64(moving)
	}
	if st.Complete && sccs.entry < 0 {
		st.LongestMatch = x.longestMatch(sccs.order)
	}
	return st, moving
}

// addRoles adds each role's figures: its branching factor over the moving states, the goals of
// the terminal states explored and of the playouts (st.Play), and its mean goal in them.
func (st *Statistics) addRoles(g *game.Game, x *explorer, sc *statsCheck, moving int) {
	for r, name := range g.RoleNames() {
		rs := RoleStats{Role: name, Random: g.IsRandom(r), BranchMax: x.legalMax[r], TerminalGoals: sc.goals[r], PlayGoals: st.Play.Goals[r]}
		if moving > 0 {
			rs.BranchMean = float64(x.legalSum[r]) / float64(moving)
		}
		n, sum := 0, 0
		for v, k := range st.Play.Goals[r] {
			if val, err := strconv.Atoi(v); err == nil {
				n += k
				sum += val * k
			}
		}
		if n > 0 {
			rs.MeanGoal = float64(sum) / float64(n)
		}
		st.Roles = append(st.Roles, rs)
	}
}

// unsolvable says why the solver cannot take the game, or "" when it can: it needs two players,
// every state, turns, zero-sum goals and no cycle.
func (st *Statistics) unsolvable(g *game.Game, sc *statsCheck, sccs sccResult) string {
	switch {
	case len(g.Roles()) != 2 || g.IsRandom(0) || g.IsRandom(1):
		return "not a game of two players"
	case !st.Complete:
		return "the exploration is incomplete, and the solver needs every state"
	case !st.TurnTaking:
		return "the roles move at the same time in some states, and the solver needs them to take turns"
	case !sc.zeroSum:
		return "not zero-sum: the goals of some terminal state do not sum to 100"
	case sccs.entry >= 0:
		return "joint moves can lead back to a state, and the solver needs a game without cycles"
	}
	return ""
}

// firstAdvantage finds the role that moves first and its advantage under random play.
func (st *Statistics) firstAdvantage(ctx context.Context, g *game.Game) {
	first := -1
	for r := range st.Roles {
		if !g.IsRandom(r) {
			first = r
			break
		}
	}
	if first < 0 {
		return
	}
	if s, err := g.Initial(ctx); err == nil {
		if legal, err := g.Legal(ctx, s); err == nil {
			var choosers []int
			for r, ms := range legal {
				if len(ms) > 1 && !g.IsRandom(r) {
					choosers = append(choosers, r)
				}
			}
			if len(choosers) == 1 {
				first = choosers[0]
			}
		}
	}
	st.FirstRole = g.RoleNames()[first]
	others, n := 0.0, 0
	for r, rs := range st.Roles {
		if r != first && !rs.Random {
			others += rs.MeanGoal
			n++
		}
	}
	if n > 0 {
		st.FirstAdvantage = st.Roles[first].MeanGoal - others/float64(n)
	}
}

// longestMatch is the most joint moves from the initial state to a terminal state, in a space
// without cycles whose states are given sinks first.
func (x *explorer) longestMatch(order []int32) int {
	longest := make([]int32, len(x.nodes))
	for _, v := range order {
		if x.nodes[v].flags&fTerminal != 0 {
			longest[v] = 0
			continue
		}
		best := int32(-1)
		for _, w := range x.succ(v) {
			if w >= 0 && longest[w] >= 0 {
				best = max(best, longest[w]+1)
			}
		}
		longest[v] = best
	}
	return int(longest[0])
}
