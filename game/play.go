package game

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/internal/cputime"
	"github.com/gdl-lsp/gdl/propnet"
)

// Kinds of violations a playout can find.
const (
	ViolationNoLegalMove = "no-legal-move" // a role has no legal move in a non-terminal state
	ViolationGoal        = "goal"          // a role (but GDL-II's random) has no goal value, or several, in a terminal state
	ViolationDepth       = "depth-limit"   // the playout reached the depth limit without a terminal state
	ViolationEval        = "eval-error"    // evaluating a reachable state stopped at a limit (term depth, facts, time)
)

// Violation is a breach of GDL's well-formedness found by a playout, with the joint moves that
// reach it from the initial state.
type Violation struct {
	Kind   string
	Role   string // the role concerned ("" for ViolationDepth and ViolationEval)
	Detail string // for people: "no goal value", "goal values 0 and 100", the evaluation error, ...
	Moves  [][]eval.Term
	Err    error // for ViolationEval: the error (a *eval.LimitError, ...)
	key    string
}

// sameKind says which violations Playouts counts together: the same kind, role and detail, and for
// an evaluation error the same limit and rule (the term that was too deep differs per playout).
func (v *Violation) sameKind() string {
	if v.key != "" {
		return v.key
	}
	return v.Kind + "\x00" + v.Role + "\x00" + v.Detail
}

// PlayOptions configure Playouts.
type PlayOptions struct {
	Playouts int
	Seed     uint64
	MaxDepth int           // joint moves per playout before it counts as a depth-limit violation (0: 1000)
	Time     time.Duration // stop after this long, with the playouts done so far (0: no bound)
	// Progress, when set, is called about once a second with the playouts done so far.
	Progress func(done int, elapsed time.Duration)
}

// ViolationCount is one kind of violation (per kind, role and detail) with the number of
// playouts that hit it and the shortest joint-move sequence that reaches it.
type ViolationCount struct {
	Violation
	Count int
}

// PlayStats summarises random playouts.
type PlayStats struct {
	Engine    Engine
	Playouts  int
	Elapsed   time.Duration // wall time of the playouts
	PerSecond float64       // playouts per wall-clock second
	// CPU is the CPU time the process used during the playouts (every thread: the garbage
	// collector's work counts), the figure to compare with a Prolog system's statistics(cputime);
	// zero when the system does not report it. PerCPUSecond is playouts per CPU second.
	CPU          time.Duration
	PerCPUSecond float64
	MeanLength   float64 // joint moves per playout
	MinLength    int
	MaxLength    int
	Terminal     int              // playouts that ended in a terminal state
	Roles        []string         // in role order
	Goals        []map[string]int // per role: goal value -> number of terminal playouts with it
	Violations   []ViolationCount // in order of first discovery
	TimeUp       bool             // Time ran out before Playouts were played
	Lengths      map[int]int      // joint moves of a playout -> playouts that long
	// First is how the first role fared in the terminal playouts where every role (but
	// GDL-II's random) has one goal value: it wins with a value above every other role's,
	// draws when it ties the best. Zero for a game of one role.
	First Outcomes
}

// Outcomes count wins, draws and losses.
type Outcomes struct {
	Wins, Draws, Losses int
}

// firstOutcome adds the first role's outcome of a terminal playout to o.
func (g *Game) firstOutcome(o *Outcomes, goals []string) {
	var players []int
	for r := range goals {
		if !g.isRnd[r] {
			players = append(players, r)
		}
	}
	if len(players) < 2 {
		return
	}
	vals := make([]int, len(goals))
	for _, r := range players {
		v, err := strconv.Atoi(goals[r])
		if err != nil {
			return
		}
		vals[r] = v
	}
	first, best, tie := players[0], true, false
	for _, r := range players[1:] {
		switch {
		case vals[r] > vals[first]:
			best = false
		case vals[r] == vals[first]:
			tie = true
		}
	}
	switch {
	case !best:
		o.Losses++
	case tie:
		o.Draws++
	default:
		o.Wins++
	}
}

// playout is one random playout's outcome.
type playout struct {
	moves      [][]eval.Term
	length     int
	terminal   bool
	goals      []string // per role, its one goal value ("" if none or several)
	violations []Violation
}

// Playouts runs opts.Playouts random playouts (every role, random included, picks a uniformly random
// legal move) from one seeded generator and gathers statistics. The same seed gives the same
// playouts on the same engine. An evaluation stopped by a limit in a reachable state is a
// violation; a refusal (rules without a defined meaning) and the end of ctx are errors.
func (g *Game) Playouts(ctx context.Context, opts PlayOptions) (*PlayStats, error) {
	if opts.MaxDepth <= 0 {
		opts.MaxDepth = 1000
	}
	rng := rand.New(rand.NewPCG(opts.Seed, opts.Seed^0x9E3779B97F4A7C15))
	st := &PlayStats{Engine: g.engine, Roles: g.names, Lengths: map[int]int{}}
	for range g.roles {
		st.Goals = append(st.Goals, map[string]int{})
	}
	start := time.Now()
	outer := ctx
	if opts.Time > 0 {
		// The bound also stops a playout in the middle (a slow game's single playout can take
		// longer than the whole bound); that playout is not counted.
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, start.Add(opts.Time))
		defer cancel()
	}
	var run func() (*playout, error)
	if g.net != nil {
		c, err := g.newCompiledPlayer(ctx, opts.MaxDepth)
		if err != nil {
			return nil, err
		}
		run = func() (*playout, error) { return c.playout(rng), nil }
	} else {
		run = func() (*playout, error) { return g.interpPlayout(ctx, rng, opts.MaxDepth) }
	}
	seen := map[string]int{}
	total := 0
	lastReport := start
	cpu0, cpuOK := cputime.Process()
	for i := 0; i < opts.Playouts; i++ {
		if err := outer.Err(); err != nil {
			return nil, err
		}
		now := time.Now()
		if opts.Time > 0 && now.Sub(start) >= opts.Time {
			st.TimeUp = true
			break
		}
		if opts.Progress != nil && now.Sub(lastReport) >= time.Second {
			lastReport = now
			opts.Progress(i, now.Sub(start))
		}
		res, err := run()
		if err != nil {
			if outer.Err() == nil && ctx.Err() != nil {
				st.TimeUp = true
				break
			}
			return nil, err
		}
		if opts.Time > 0 && ctx.Err() != nil && len(res.violations) > 0 && res.violations[len(res.violations)-1].Kind == ViolationEval {
			st.TimeUp = true // stopped by the bound, not by the game
			break
		}
		n := res.length
		total += n
		if i == 0 || n < st.MinLength {
			st.MinLength = n
		}
		st.MaxLength = max(st.MaxLength, n)
		st.Lengths[n]++
		if res.terminal {
			st.Terminal++
			g.firstOutcome(&st.First, res.goals)
			for r, v := range res.goals {
				if v != "" {
					st.Goals[r][v]++
				}
			}
		}
		for _, v := range res.violations {
			key := v.sameKind()
			if j, ok := seen[key]; ok {
				st.Violations[j].Count++
				if len(v.Moves) < len(st.Violations[j].Moves) {
					st.Violations[j].Violation = v
				}
				continue
			}
			seen[key] = len(st.Violations)
			st.Violations = append(st.Violations, ViolationCount{Violation: v, Count: 1})
		}
		st.Playouts++
	}
	st.Elapsed = time.Since(start)
	if cpu1, ok := cputime.Process(); ok && cpuOK {
		st.CPU = cpu1 - cpu0
	}
	if st.Playouts > 0 {
		st.MeanLength = float64(total) / float64(st.Playouts)
		if secs := st.Elapsed.Seconds(); secs > 0 {
			st.PerSecond = float64(st.Playouts) / secs
		}
		if secs := st.CPU.Seconds(); secs > 0 {
			st.PerCPUSecond = float64(st.Playouts) / secs
		}
	}
	return st, nil
}

// goalViolations checks the goal values of a terminal state: exactly one integer per role (none
// is fine for GDL-II's random role). It returns each role's value ("" when not exactly one).
func (g *Game) goalViolations(goals [][]eval.Term, moves [][]eval.Term) ([]string, []Violation) {
	var vs []Violation
	out := make([]string, len(goals))
	for i, ts := range goals {
		if len(ts) == 1 {
			out[i] = g.ev.String(ts[0])
			if _, ok := g.ev.Int(ts[0]); ok {
				continue
			}
		}
		if len(ts) == 0 && g.isRnd[i] {
			continue
		}
		detail := "no goal value"
		if len(ts) == 1 {
			detail = "goal value " + out[i] + " is not an integer"
		} else if len(ts) > 1 {
			detail = "goal values " + strings.Join(g.ev.Strings(ts), " and ")
		}
		vs = append(vs, Violation{Kind: ViolationGoal, Role: g.names[i], Detail: detail, Moves: moves})
	}
	return out, vs
}

func depthViolation(maxDepth int, moves [][]eval.Term) Violation {
	return Violation{Kind: ViolationDepth, Detail: "no terminal state after " + strconv.Itoa(maxDepth) + " joint moves", Moves: moves}
}

func (g *Game) noLegalViolation(r int, moves [][]eval.Term) Violation {
	return Violation{Kind: ViolationNoLegalMove, Role: g.names[r], Detail: "no legal move in a non-terminal state", Moves: moves}
}

// compiledPlayer runs playouts on a machine of its own.
type compiledPlayer struct {
	g        *Game
	m        *propnet.Machine
	init     []uint64
	maxDepth int
	rec      []int32
	idx      []int
}

func (g *Game) newCompiledPlayer(ctx context.Context, maxDepth int) (*compiledPlayer, error) {
	s, err := g.Initial(ctx)
	if err != nil {
		return nil, err
	}
	if s.bits == nil {
		return nil, fmt.Errorf("the initial state has a fluent the compiled engine does not know")
	}
	return &compiledPlayer{g: g, m: g.net.NewMachine(), init: s.bits, maxDepth: maxDepth}, nil
}

func (c *compiledPlayer) playout(rng *rand.Rand) *playout {
	g := c.g
	c.rec = c.rec[:0]
	pr := c.m.Playout(c.init, rng, c.maxDepth, &c.rec)
	depth, terminal, noLegal := pr.Depth, pr.Terminal, pr.NoLegal
	res := &playout{length: depth, terminal: terminal}
	moves := func() [][]eval.Term {
		nr := len(g.roles)
		out := make([][]eval.Term, 0, depth)
		for i := 0; i+nr <= len(c.rec); i += nr {
			joint := make([]eval.Term, nr)
			for r := range joint {
				joint[r] = g.gr.Moves[r][c.rec[i+r]]
			}
			out = append(out, joint)
		}
		return out
	}
	switch {
	case terminal:
		res.goals = make([]string, len(g.roles))
		bad := false
		for r := range g.roles {
			c.idx = c.m.Goals(r, c.idx[:0])
			if len(c.idx) == 1 && g.goalVal[r][c.idx[0]] >= 0 {
				res.goals[r] = strconv.Itoa(g.goalVal[r][c.idx[0]])
				continue
			}
			if len(c.idx) == 0 && g.isRnd[r] {
				continue
			}
			bad = true
		}
		if bad {
			goals := make([][]eval.Term, len(g.roles))
			for r := range g.roles {
				c.idx = c.m.Goals(r, c.idx[:0])
				for _, i := range c.idx {
					goals[r] = append(goals[r], g.gr.Goals[r][i].Value)
				}
			}
			res.goals, res.violations = g.goalViolations(goals, moves())
		}
	case noLegal >= 0:
		res.violations = append(res.violations, g.noLegalViolation(noLegal, moves()))
	default:
		res.violations = append(res.violations, depthViolation(c.maxDepth, moves()))
	}
	return res
}

// interpPlayout is one random playout on the interpreter.
func (g *Game) interpPlayout(ctx context.Context, rng *rand.Rand, maxDepth int) (*playout, error) {
	ev := g.ev
	res := &playout{}
	defer func() { res.length = len(res.moves) }()
	stop := func(err error, what string) (*playout, error) {
		var ref *eval.RefusedError
		if errors.As(err, &ref) || ctx.Err() != nil {
			return nil, err
		}
		v := Violation{Kind: ViolationEval, Detail: what + ": " + err.Error(), Moves: res.moves, Err: err}
		var lim *eval.LimitError
		if errors.As(err, &lim) {
			v.key = fmt.Sprintf("%s\x00%s\x00%s\x00%s\x00%d", v.Kind, what, lim.Limit, lim.Relation, lim.Line)
		}
		res.violations = append(res.violations, v)
		return res, nil
	}
	s, err := ev.Initial(ctx)
	if err != nil {
		return stop(err, "initial state")
	}
	for depth := 0; ; depth++ {
		term, err := ev.Terminal(ctx, s)
		if err != nil {
			return stop(err, "terminal")
		}
		if term {
			res.terminal = true
			goals, err := ev.Goals(ctx, s)
			if err != nil {
				return stop(err, "goals")
			}
			res.goals, res.violations = g.goalViolations(goals, res.moves)
			return res, nil
		}
		if depth >= maxDepth {
			res.violations = append(res.violations, depthViolation(maxDepth, res.moves))
			return res, nil
		}
		legal, err := ev.Legal(ctx, s)
		if err != nil {
			return stop(err, "legal moves")
		}
		joint := make([]eval.Term, len(g.roles))
		stuck := false
		for i, ms := range legal {
			if len(ms) == 0 {
				stuck = true
				res.violations = append(res.violations, g.noLegalViolation(i, res.moves))
				continue
			}
			joint[i] = ms[rng.IntN(len(ms))]
		}
		if stuck {
			return res, nil
		}
		res.moves = append(res.moves, joint)
		if s, err = ev.Next(ctx, s, joint); err != nil {
			return stop(err, "next state")
		}
	}
}
