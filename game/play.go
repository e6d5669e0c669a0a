package game

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/internal/cputime"
	"github.com/gdl-lsp/gdl/internal/sched"
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

// noGoal marks a role without exactly one integer goal value.
const noGoal = math.MinInt

// firstOutcome adds the first role's outcome of a terminal playout to o, given each role's goal
// value (noGoal: none, several, or not an integer).
func (g *Game) firstOutcome(o *Outcomes, vals []int) {
	first, n := -1, 0
	for r, v := range vals {
		if g.isRnd[r] {
			continue
		}
		if v == noGoal {
			return
		}
		if first < 0 {
			first = r
		}
		n++
	}
	if n < 2 {
		return
	}
	best, tie := true, false
	for r, v := range vals {
		if g.isRnd[r] || r == first {
			continue
		}
		switch {
		case v > vals[first]:
			best = false
		case v == vals[first]:
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
// legal move) and gathers statistics. The same seed gives the same playouts on the same engine.
// An evaluation stopped by a limit in a reachable state is a violation; a refusal (rules without
// a defined meaning) and the end of ctx are errors.
//
// The interpreter plays the playouts one after the other from one seeded generator; so does the
// compiled engine, but when there are 64 or more and its network's size and a Machine's work per
// step say that it pays, it plays all but the first few 64 at once (propnet.Lanes), each with a
// generator of its own seeded from opts.Seed (playCompiled).
func (g *Game) Playouts(ctx context.Context, opts PlayOptions) (*PlayStats, error) {
	if opts.MaxDepth <= 0 {
		opts.MaxDepth = 1000
	}
	t := g.newTally(opts.MaxDepth)
	st := t.st
	start := time.Now()
	outer := ctx
	if opts.Time > 0 {
		// The bound also stops a playout in the middle (a slow game's single playout can take
		// longer than the whole bound); that playout is not counted.
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, start.Add(opts.Time))
		defer cancel()
	}
	cpu0, cpuOK := cputime.Process()
	var err error
	if g.net != nil {
		err = g.playCompiled(ctx, outer, opts, t, start)
	} else {
		err = g.playInterp(ctx, outer, opts, t, start)
	}
	if err != nil {
		return nil, err
	}
	st.Elapsed = time.Since(start)
	if cpu1, ok := cputime.Process(); ok && cpuOK {
		st.CPU = cpu1 - cpu0
	}
	t.finish()
	if st.Playouts > 0 {
		st.MeanLength = float64(t.total) / float64(st.Playouts)
		if secs := st.Elapsed.Seconds(); secs > 0 {
			st.PerSecond = float64(st.Playouts) / secs
		}
		if secs := st.CPU.Seconds(); secs > 0 {
			st.PerCPUSecond = float64(st.Playouts) / secs
		}
	}
	return st, nil
}

// tally gathers the statistics of Play's playouts.
type tally struct {
	g          *Game
	st         *PlayStats
	seen       map[string]int // violation kind -> its index in st.Violations
	total      int            // joint moves
	lastLength int            // the joint moves of the last playout counted
	lens       []int          // playouts per length
	// compiled: per role and goal atom, the terminal playouts that ended with it alone
	goalAt [][]int
}

func (g *Game) newTally(maxDepth int) *tally {
	t := &tally{g: g, st: &PlayStats{Engine: g.engine, Roles: g.names, Lengths: map[int]int{}},
		seen: map[string]int{}, lens: make([]int, maxDepth+1)}
	for r := range g.roles {
		t.st.Goals = append(t.st.Goals, map[string]int{})
		if g.net != nil {
			t.goalAt = append(t.goalAt, make([]int, len(g.gr.Goals[r])))
		}
	}
	return t
}

// length counts a playout of n joint moves.
func (t *tally) length(n int) {
	st := t.st
	t.total += n
	t.lastLength = n
	if st.Playouts == 0 || n < st.MinLength {
		st.MinLength = n
	}
	st.MaxLength = max(st.MaxLength, n)
	if n < len(t.lens) {
		t.lens[n]++
	} else {
		st.Lengths[n]++
	}
	st.Playouts++
}

// add counts a playout.
func (t *tally) add(res *playout) {
	st := t.st
	if res.terminal {
		st.Terminal++
		vals := make([]int, len(res.goals))
		for r, v := range res.goals {
			vals[r] = noGoal
			if v != "" {
				st.Goals[r][v]++
				if n, err := strconv.Atoi(v); err == nil {
					vals[r] = n
				}
			}
		}
		t.g.firstOutcome(&st.First, vals)
	}
	for _, v := range res.violations {
		key := v.sameKind()
		if j, ok := t.seen[key]; ok {
			st.Violations[j].Count++
			// The shortest: a playout's violations come with its moves when it is (wants).
			if v.Moves != nil && len(v.Moves) < len(st.Violations[j].Moves) {
				st.Violations[j].Violation = v
			}
			continue
		}
		t.seen[key] = len(st.Violations)
		st.Violations = append(st.Violations, ViolationCount{Violation: v, Count: 1})
	}
	t.length(res.length)
}

// wants reports whether a violation needs its moves: it is the first of its kind, or shorter
// than the one kept.
func (t *tally) wants(v *Violation, length int) bool {
	j, ok := t.seen[v.sameKind()]
	return !ok || length < len(t.st.Violations[j].Moves)
}

// finish moves the counts kept in slices into the statistics' maps.
func (t *tally) finish() {
	for n, k := range t.lens {
		if k > 0 {
			t.st.Lengths[n] += k
		}
	}
	for r, counts := range t.goalAt {
		for i, k := range counts {
			if k > 0 {
				t.st.Goals[r][strconv.Itoa(t.g.goalVal[r][i])] += k
			}
		}
	}
}

// playInterp plays the playouts on the interpreter, one after the other.
func (g *Game) playInterp(ctx, outer context.Context, opts PlayOptions, t *tally, start time.Time) error {
	st := t.st
	rng := rand.New(rand.NewPCG(opts.Seed, opts.Seed^0x9E3779B97F4A7C15))
	lastReport := start
	for i := 0; i < opts.Playouts; i++ {
		if err := outer.Err(); err != nil {
			return err
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
		res, err := g.interpPlayout(ctx, rng, opts.MaxDepth)
		if err != nil {
			if outer.Err() == nil && ctx.Err() != nil {
				st.TimeUp = true
				break
			}
			return err
		}
		if opts.Time > 0 && ctx.Err() != nil && len(res.violations) > 0 && res.violations[len(res.violations)-1].Kind == ViolationEval {
			st.TimeUp = true // stopped by the bound, not by the game
			break
		}
		t.add(res)
	}
	return nil
}

// lanesFrom is the number of playouts from which Play may run them on propnet.Lanes, 64 at a
// time: a step of Lanes evaluates the whole network in every lane, worth it when the lanes are
// full, while a Machine touches only what a move changes (othello-comp2007's 448,000 edges make
// one playout alone on Lanes 15 times slower than on a Machine). calibrate is the number of
// steps the first playouts make on a Machine, to measure its work per step.
const (
	lanesFrom = 64
	calibrate = 64
)

// compiledEnd is a playout of the compiled engine that ended: how, the goal atoms of each role
// that hold in its last state, and its moves (one move index per role per joint move), asked
// for only when the tally wants them.
type compiledEnd struct {
	propnet.PlayoutResult
	goals func(r int, out []int) []int
	moves func() []int32
}

// compiledTally counts the compiled engine's playouts: one that ends as it should (a terminal
// state where every role but random has one integer goal) by its goal atoms, one with a
// violation as the interpreter's are.
type compiledTally struct {
	*tally
	maxDepth int
	vals, at []int
	idx      []int
}

func (t *tally) compiled(maxDepth int) *compiledTally {
	nr := len(t.g.roles)
	return &compiledTally{tally: t, maxDepth: maxDepth, vals: make([]int, nr), at: make([]int, nr)}
}

func (c *compiledTally) end(e compiledEnd) {
	g, st := c.g, c.st
	if e.Terminal {
		ok := true
		for r := range c.vals {
			c.idx = e.goals(r, c.idx[:0])
			switch {
			case len(c.idx) == 1 && g.goalVal[r][c.idx[0]] >= 0:
				c.vals[r], c.at[r] = g.goalVal[r][c.idx[0]], c.idx[0]
			case len(c.idx) == 0 && g.isRnd[r]:
				c.vals[r], c.at[r] = noGoal, -1
			default:
				ok = false
			}
		}
		if ok {
			st.Terminal++
			for r, i := range c.at {
				if i >= 0 {
					c.goalAt[r][i]++
				}
			}
			g.firstOutcome(&st.First, c.vals)
			c.length(e.Depth)
			return
		}
	}
	res := &playout{length: e.Depth, terminal: e.Terminal}
	switch {
	case e.Terminal:
		goals := make([][]eval.Term, len(g.roles))
		for r := range g.roles {
			c.idx = e.goals(r, c.idx[:0])
			for _, i := range c.idx {
				goals[r] = append(goals[r], g.gr.Goals[r][i].Value)
			}
		}
		res.goals, res.violations = g.goalViolations(goals, nil)
	case e.NoLegal >= 0:
		res.violations = []Violation{g.noLegalViolation(e.NoLegal, nil)}
	default:
		res.violations = []Violation{depthViolation(c.maxDepth, nil)}
	}
	want := false
	for i := range res.violations {
		want = want || c.wants(&res.violations[i], e.Depth)
	}
	if want {
		rec := e.moves()
		nr := len(g.roles)
		moves := make([][]eval.Term, 0, len(rec)/max(nr, 1))
		for i := 0; i+nr <= len(rec); i += nr {
			joint := make([]eval.Term, nr)
			for r := range joint {
				joint[r] = g.gr.Moves[r][rec[i+r]]
			}
			moves = append(moves, joint)
		}
		for i := range res.violations {
			res.violations[i].Moves = moves
		}
	}
	c.add(res)
}

// playCompiled plays the playouts on the compiled engine: one after the other on a Machine, from
// one seeded generator, and when there are lanesFrom or more, after the first ones (calibrate
// steps), the rest on propnet.Lanes, 64 at a time, each lane with a generator of its own seeded
// from opts.Seed (a playout with a violation is played again alone, Lanes.Replay, for its
// moves), if the Machine's work per step says Lanes pay (Net.LaneStep: a count of edges, so the
// choice is the same on any machine) and, under a time bound, the first playouts on Lanes will
// end well within it. When the time bound passes, the playouts under way are not counted.
func (g *Game) playCompiled(ctx, outer context.Context, opts PlayOptions, t *tally, start time.Time) error {
	s, err := g.Initial(ctx)
	if err != nil {
		return err
	}
	if s.bits == nil {
		return fmt.Errorf("the initial state has a fluent the compiled engine does not know")
	}
	st := t.st
	c := t.compiled(opts.MaxDepth)
	stop := progressStop(ctx, opts, st, start)
	m := g.net.NewMachine()
	m.SetState(s.bits)
	work0 := m.Work()
	rng := rand.New(rand.NewPCG(opts.Seed, opts.Seed^0x9E3779B97F4A7C15))
	var rec []int32
	machine := func() {
		rec = rec[:0]
		res := m.Playout(s.bits, rng, opts.MaxDepth, &rec)
		c.end(compiledEnd{PlayoutResult: res, goals: m.Goals, moves: func() []int32 { return rec }})
	}
	// The first playouts on the Machine measure its work per step; the rest go to Lanes when
	// that pays (propnet.Net.LaneStep), and, under a time bound, when the first playouts on
	// Lanes (all 64 lanes moving together) will end well within it.
	done, moved := 0, 0
	calStart := time.Now()
	for done < opts.Playouts && (opts.Playouts < lanesFrom || moved < calibrate) && !stop() {
		machine()
		done++
		moved += t.lastLength + 1
	}
	cost := g.net.LaneStep(float64(m.Work()-work0) / float64(max(moved, 1)))
	lanes := done < opts.Playouts && ctx.Err() == nil && cost < 64
	if lanes && opts.Time > 0 {
		perStep := time.Since(calStart) / time.Duration(max(moved, 1))
		firstEnds := time.Duration(cost*2*float64(moved)/float64(max(done, 1))) * perStep
		lanes = firstEnds < (opts.Time-time.Since(start))/2
	}
	if lanes {
		g.playLanes(s.bits, opts, opts.Playouts-done, c, stop)
	} else {
		for ; done < opts.Playouts && !stop(); done++ {
			machine()
		}
	}
	if err := outer.Err(); err != nil {
		return err
	}
	if ctx.Err() != nil && st.Playouts < opts.Playouts {
		st.TimeUp = true
	}
	return nil
}

// progressStop returns the function the compiled playouts ask between steps (Lanes) or
// playouts (Machine) whether to stop: when ctx ends. Every 16 questions it reports progress to
// opts.Progress, once a second at most.
func progressStop(ctx context.Context, opts PlayOptions, st *PlayStats, start time.Time) func() bool {
	steps := 0
	lastReport := start
	return func() bool {
		sched.Yield() // on js/wasm, the time bound's timer fires only if the scheduler gets a turn
		if ctx.Err() != nil {
			return true
		}
		if steps++; opts.Progress != nil && steps&15 == 0 {
			if now := time.Now(); now.Sub(lastReport) >= time.Second {
				lastReport = now
				opts.Progress(st.Playouts, now.Sub(start))
			}
		}
		return false
	}
}

// playLanes plays count playouts from the state of bits on propnet.Lanes, 64 at a time, into c;
// the moves of a playout c asks for are found by playing it again alone (Lanes.Replay).
func (g *Game) playLanes(bits []uint64, opts PlayOptions, count int, c *compiledTally, stop func() bool) {
	l := g.net.NewLanes()
	var again *propnet.Lanes // for Replay
	l.Playouts(propnet.LaneRun{Start: bits, Seed: opts.Seed, MaxDepth: opts.MaxDepth, Count: count, Stop: stop,
		End: func(e propnet.PlayoutEnd) bool {
			c.end(compiledEnd{PlayoutResult: e.PlayoutResult,
				goals: func(r int, out []int) []int { return l.Goals(e.Lane, r, out) },
				moves: func() []int32 {
					if again == nil {
						again = g.net.NewLanes()
					}
					var rec []int32
					again.Replay(bits, e.Seed, opts.MaxDepth, &rec)
					return rec
				}})
			return true
		}})
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
