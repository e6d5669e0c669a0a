package player

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/game"
	"github.com/gdl-lsp/gdl/syntax"
)

// The match runner: one loop for every match, between built-in players in this process and
// players at URLs (through their seats), for `gdl match`, `gdl play --players` and the editor's
// "Run a match".

// MaxClock bounds a match's clocks (GGP messages give them in seconds).
const MaxClock = 24 * time.Hour

// MatchOptions configure a match.
type MatchOptions struct {
	ID         string        // the match id ("": made up from the time)
	Name       string        // the game, as the record calls it
	StartClock time.Duration // the time each player has to answer START (0: none)
	PlayClock  time.Duration // the time each player has to answer each PLAY (0: none)
	MaxSteps   int           // joint moves before the match is stopped (0: 1000)
	Seed       uint64        // the random moves that replace bad ones, and the random role's
	// InTurn asks the players one after the other, each under its clock, instead of all at
	// once: built-in players that share the match's game (whose engine serves one call at a
	// time) each get the whole clock.
	InTurn bool
	// OmitStates leaves the states out of the record (StatesOmitted counts every step), for
	// a caller that keeps the goals only.
	OmitStates bool
	// Progress, when set, is called after every joint move.
	Progress func(Step)
}

// GameError is a game the runner cannot run a match of: a syntax error, rules without a
// defined meaning, a state that cannot be evaluated.
type GameError struct{ Err error }

func (e *GameError) Error() string { return e.Err.Error() }
func (e *GameError) Unwrap() error { return e.Err }

// StepLimitError is a match stopped after MaxSteps joint moves without a terminal state.
type StepLimitError struct {
	Steps int
	Goals []int // the goals of the state it stopped in (nil when they cannot be evaluated)
}

func (e *StepLimitError) Error() string {
	return fmt.Sprintf("no terminal state after %d joint moves", e.Steps)
}

// MatchFile returns a game description as a match plays it, in KIF (an infix one converted):
// its moves, states and percepts are written in KIF in the record and the messages. A
// description with syntax errors, or that cannot be written in KIF, is a GameError.
func MatchFile(f *syntax.File) (*syntax.File, error) {
	if errs := f.Errors(); len(errs) > 0 {
		p := f.Lines().Position(errs[0].Span.Start, syntax.UTF32)
		return nil, &GameError{fmt.Errorf("%d:%d: %s", p.Line+1, p.Column+1, errs[0].Message)}
	}
	if f.Dialect() == syntax.Prefix {
		return f, nil
	}
	text, err := f.Convert(syntax.Prefix)
	if err != nil {
		return nil, &GameError{fmt.Errorf("the game cannot be written in KIF for the players: %v", err)}
	}
	kif, _ := syntax.ParseDialect(text, syntax.Prefix)
	return kif, nil
}

// LoadMatch makes the game of a match of f (MatchFile) between seats. The seats are checked
// against the roles first: grounding a big game takes seconds.
func LoadMatch(ctx context.Context, f *syntax.File, seats []Seat, opts game.Options) (*game.Game, error) {
	kif, err := MatchFile(f)
	if err != nil {
		return nil, err
	}
	res := analysis.Analyze(kif, nil)
	if _, err := seatRoles(roleNames(res), seats); err != nil {
		return nil, err
	}
	g, err := game.New(ctx, res, opts)
	if err != nil {
		return nil, &GameError{err}
	}
	return g, nil
}

// RunMatch runs a match of g between the players of seats: one per role in role order, or one
// per role but GDL-II's random role, which the runner then plays itself, uniformly at random.
// Every player gets START, then a PLAY per joint move (GDL: the joint move played last;
// GDL-II: its own last move and its percepts), then STOP, or ABORT when the match stops early;
// all at once, each within its clock. An answer that is late, unreadable or illegal is replaced
// by a random legal move, and the record says why. The record is returned whenever the match
// started, also with an error: a cancelled ctx (the players get ABORT), MaxSteps reached (a
// StepLimitError) or a state that cannot be evaluated. Players at URLs need g in KIF
// (LoadMatch) and clocks.
func RunMatch(ctx context.Context, g *game.Game, seats []Seat, opts MatchOptions) (*Record, error) {
	if opts.MaxSteps <= 0 {
		opts.MaxSteps = 1000
	}
	if opts.ID == "" {
		opts.ID = NewMatchID()
	}
	bySeat, err := seatRoles(g.RoleNames(), seats)
	if err != nil {
		return nil, err
	}
	s, err := initialState(ctx, g)
	if err != nil {
		return nil, err
	}
	r := newRunner(g, bySeat, opts, s)
	defer func() { r.rec.Seconds = time.Since(r.rec.Started).Seconds() }()
	r.rec.Start, _ = r.broadcast(ctx, opts.StartClock, false, func(ctx context.Context, seat Seat, role int) (Reply, error) {
		return seat.Start(ctx, &Setup{MatchID: opts.ID, Game: g, Role: role, StartClock: opts.StartClock, PlayClock: opts.PlayClock})
	})
	return r.rec, r.run(ctx)
}

// NewMatchID makes a match id: gdl, the time and a random suffix.
func NewMatchID() string {
	var b [3]byte
	rand.Read(b[:])
	return "gdl-" + time.Now().Format("20060102-150405") + "-" + hex.EncodeToString(b[:])
}

// initialState returns the initial state of a game whose first state can be evaluated: a game
// that fails there is refused before any player is bothered.
func initialState(ctx context.Context, g *game.Game) (*game.State, error) {
	s, err := g.Initial(ctx)
	if err != nil {
		return nil, &GameError{fmt.Errorf("the initial state: %w", err)}
	}
	if _, err := g.Terminal(ctx, s); err != nil {
		return nil, &GameError{fmt.Errorf("terminal in the initial state: %w", err)}
	}
	if _, err := g.Legal(ctx, s); err != nil {
		return nil, &GameError{fmt.Errorf("the legal moves of the initial state: %w", err)}
	}
	return s, nil
}

// roleNames returns the roles of an analysed game, in order, each once (as game.New finds
// them).
func roleNames(res *analysis.Result) []string {
	var names []string
	seen := map[string]bool{}
	for _, r := range res.Model.Roles {
		if !seen[r.Key] {
			seen[r.Key] = true
			names = append(names, r.Name)
		}
	}
	return names
}

// seatRoles gives each role its seat: one per role, or one per role but the random role (nil:
// the runner plays it).
func seatRoles(roles []string, seats []Seat) ([]Seat, error) {
	isRandom := func(r int) bool { return strings.EqualFold(roles[r], "random") }
	if len(seats) == len(roles) {
		return seats, nil
	}
	var chance []int
	for r := range roles {
		if isRandom(r) {
			chance = append(chance, r)
		}
	}
	if len(chance) > 0 && len(seats) == len(roles)-len(chance) {
		out := make([]Seat, len(roles))
		i := 0
		for r := range roles {
			if !isRandom(r) {
				out[r] = seats[i]
				i++
			}
		}
		return out, nil
	}
	want := fmt.Sprintf("%d", len(roles))
	if len(chance) > 0 {
		want += fmt.Sprintf(" (or %d, leaving the random role to the manager)", len(roles)-len(chance))
	}
	return nil, fmt.Errorf("%d players for %d roles (%s): give %s, one per role in role order", len(seats), len(roles), strings.Join(roles, ", "), want)
}

// runner is one match being run.
type runner struct {
	g     *game.Game
	opts  MatchOptions
	seats []Seat // per role; nil: the runner plays it at random
	rng   *mrand.Rand
	ii    bool // GDL-II: the players are told their own moves and percepts only
	rec   *Record
	kept  int // fluents of the states in the record

	state     *game.State
	termKnown bool        // terminal of state was evaluated by record: Terminal of the last step
	termErr   error       // and failed
	last      []eval.Term // the joint move played last
	sees      [][]string  // GDL-II: what each role perceived of it
}

func newRunner(g *game.Game, seats []Seat, opts MatchOptions, s *game.State) *runner {
	r := &runner{g: g, opts: opts, seats: seats, rng: mrand.New(mrand.NewPCG(opts.Seed, 0x6d616e61676572)), ii: GDLII(g), state: s}
	r.rec = &Record{MatchID: opts.ID, Game: opts.Name, Roles: g.RoleNames(), GDLII: r.ii, StartClock: opts.StartClock.Seconds(),
		PlayClock: opts.PlayClock.Seconds(), Started: time.Now(), Engine: string(g.Engine()), Initial: []string{}, Moves: []Step{}}
	if !opts.OmitStates {
		r.rec.Initial = g.Strings(s.Fluents())
	}
	for _, seat := range seats {
		if seat == nil {
			r.rec.Players = append(r.rec.Players, "random (the manager)")
		} else {
			r.rec.Players = append(r.rec.Players, seat.Name())
		}
	}
	r.kept = len(r.rec.Initial)
	return r
}

// run plays joint moves to a terminal state, then sends STOP and records the goals; or ABORT
// when the match stops before.
func (r *runner) run(ctx context.Context) error {
	for {
		t, err := r.terminal(ctx)
		if err == nil && t {
			break
		}
		var legal [][]eval.Term
		if err == nil {
			legal, err = r.legal(ctx)
		}
		if err != nil {
			if ctx.Err() != nil {
				err = context.Cause(ctx)
				return r.abort(ctx, "cancelled: "+err.Error(), err)
			}
			return r.abort(ctx, err.Error(), err)
		}
		if err := r.step(ctx, legal); err != nil {
			return err
		}
	}
	r.rec.Completed = true
	r.end(ctx, false)
	goals, err := r.g.GoalValues(ctx, r.state)
	if err != nil {
		return &GameError{fmt.Errorf("the goals of the terminal state: %w", err)}
	}
	r.rec.Goals = goals
	return nil
}

// terminal says whether the state is terminal, evaluated once per state.
func (r *runner) terminal(ctx context.Context) (bool, error) {
	if r.termKnown && r.termErr == nil {
		return r.rec.Moves[len(r.rec.Moves)-1].Terminal, nil
	}
	return r.g.Terminal(ctx, r.state)
}

// legal returns the legal moves of the state, or why the match cannot go on from it: the step
// limit, a role without a legal move.
func (r *runner) legal(ctx context.Context) ([][]eval.Term, error) {
	if n := len(r.rec.Moves); n >= r.opts.MaxSteps {
		goals, err := r.g.GoalValues(ctx, r.state)
		if err != nil {
			goals = nil
		}
		return nil, &StepLimitError{Steps: n, Goals: goals}
	}
	legal, err := r.g.Legal(ctx, r.state)
	if err != nil {
		return nil, err
	}
	for role, ms := range legal {
		if len(ms) == 0 {
			return nil, &GameError{fmt.Errorf("role %s has no legal move in a state that is not terminal (after %d joint moves)", r.rec.Roles[role], len(r.rec.Moves))}
		}
	}
	return legal, nil
}

// step asks every player for its move, replaces the bad ones and plays the joint move.
func (r *runner) step(ctx context.Context, legal [][]eval.Term) error {
	step := Step{Step: len(r.rec.Moves) + 1}
	answers, replies := r.broadcast(ctx, r.opts.PlayClock, true, func(ctx context.Context, seat Seat, role int) (Reply, error) {
		return seat.Play(ctx, r.turn(role))
	})
	step.Answers = answers
	if ctx.Err() != nil {
		return r.abort(ctx, "cancelled: "+context.Cause(ctx).Error(), context.Cause(ctx))
	}
	joint := r.moves(answers, replies, legal)
	for _, a := range answers {
		if a.Kind != "" {
			r.rec.Errors++
		}
	}
	var perc [][]string
	if r.ii {
		sv, err := r.g.Sees(ctx, r.state, joint)
		if err != nil {
			return r.abort(ctx, fmt.Sprintf("the percepts of joint move %d: %v", step.Step, err), &GameError{err})
		}
		perc = make([][]string, len(sv))
		for role, ps := range sv {
			perc[role] = r.g.Strings(ps)
		}
	}
	next, err := r.g.Next(ctx, r.state, joint)
	if err != nil {
		return r.abort(ctx, fmt.Sprintf("joint move %d: %v", step.Step, err), &GameError{err})
	}
	r.state, r.last, r.sees = next, joint, perc
	r.record(ctx, step, joint, perc)
	return nil
}

// record adds a joint move played, and the state it led to, to the record.
func (r *runner) record(ctx context.Context, step Step, joint []eval.Term, perc [][]string) {
	for _, m := range joint {
		step.Joint = append(step.Joint, r.g.String(m))
	}
	if n := len(r.state.Fluents()); !r.opts.OmitStates && r.kept+n <= MaxRecordFluents && r.rec.StatesOmitted == 0 {
		r.kept += n
		step.State = r.g.Strings(r.state.Fluents())
	} else {
		r.rec.StatesOmitted++
	}
	step.Percepts = perc
	step.Terminal, r.termErr = r.g.Terminal(ctx, r.state)
	r.termKnown = true
	r.rec.Moves = append(r.rec.Moves, step)
	if r.opts.Progress != nil {
		r.opts.Progress(step)
	}
}

// turn is what role is told of the last joint move: the joint move and the state (GDL), or its
// own move and percepts (GDL-II).
func (r *runner) turn(role int) *Turn {
	t := &Turn{Step: len(r.rec.Moves)}
	if !r.ii {
		t.Joint, t.State = r.last, r.state
	} else if r.last != nil {
		t.Move, t.Sees = r.last[role], slices.Clone(r.sees[role])
	}
	return t
}

// abort ends the match before a terminal state: why goes to the record, the players get ABORT,
// and err is returned.
func (r *runner) abort(ctx context.Context, why string, err error) error {
	r.rec.Aborted = why
	r.end(ctx, true)
	return err
}

// end sends STOP (or ABORT) to every player, even when ctx is cancelled.
func (r *runner) end(ctx context.Context, abort bool) {
	clock := 10 * time.Second
	if r.opts.PlayClock > 0 {
		clock = min(r.opts.PlayClock, clock)
	}
	r.rec.End, _ = r.broadcast(context.WithoutCancel(ctx), clock, false, func(ctx context.Context, seat Seat, role int) (Reply, error) {
		if abort {
			return seat.Abort(ctx)
		}
		return seat.Stop(ctx, r.turn(role))
	})
}

// broadcast asks every seated role at once (one after the other with InTurn) and waits for
// every answer, each within clock (0: none). move says the answers are moves.
func (r *runner) broadcast(ctx context.Context, clock time.Duration, move bool, ask func(context.Context, Seat, int) (Reply, error)) ([]Answer, []Reply) {
	answers := make([]Answer, len(r.seats))
	replies := make([]Reply, len(r.seats))
	var wg sync.WaitGroup
	for role, seat := range r.seats {
		answers[role].Role = r.rec.Roles[role]
		if seat == nil {
			continue
		}
		one := func() {
			replies[role] = r.ask(ctx, clock, move, &answers[role], func(ctx context.Context) (Reply, error) { return ask(ctx, seat, role) })
		}
		if r.opts.InTurn {
			one()
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			one()
		}()
	}
	wg.Wait()
	return answers, replies
}

// ask gets one answer within clock and writes into a what it was and how long it took.
func (r *runner) ask(ctx context.Context, clock time.Duration, move bool, a *Answer, call func(context.Context) (Reply, error)) Reply {
	cctx, cancel := ctx, context.CancelFunc(func() {})
	if clock > 0 {
		cctx, cancel = context.WithTimeout(ctx, clock)
	}
	defer cancel()
	start := time.Now()
	rep, err := call(cctx)
	a.Ms = float64(time.Since(start).Microseconds()) / 1000
	if move {
		a.Reply = strings.TrimSpace(rep.Text)
		if len(a.Reply) > 200 {
			a.Reply = a.Reply[:200]
		}
	} else {
		a.Reply = Abbreviate(rep.Text, 200)
	}
	var se *SeatError
	switch {
	case err == nil:
	case ctx.Err() != nil:
		a.Kind, a.Error = Unreachable, "the manager stopped waiting: "+context.Cause(ctx).Error()
	case errors.As(err, &se):
		a.Kind, a.Error = se.Kind, se.Error()
	case errors.Is(err, context.DeadlineExceeded):
		a.Kind, a.Error = Late, fmt.Sprintf("no answer within the clock of %v", clock)
	default:
		a.Kind, a.Error = Unreachable, err.Error()
	}
	return rep
}

// moves makes the joint move of the answers to a PLAY: a move that is missing, unreadable or
// illegal is replaced by a random legal one (and the answer says why); the random role without
// a player plays at random.
func (r *runner) moves(answers []Answer, replies []Reply, legal [][]eval.Term) []eval.Term {
	joint := make([]eval.Term, len(answers))
	for role := range answers {
		a := &answers[role]
		if r.seats[role] != nil && a.Kind == "" {
			mv := replies[role].Move
			if slices.Contains(legal[role], mv) {
				joint[role] = mv
				a.Move = r.g.String(mv)
				continue
			}
			a.Kind, a.Error = Illegal, Abbreviate(r.g.String(mv), 80)+" is not a legal move"
		}
		joint[role] = legal[role][r.rng.IntN(len(legal[role]))]
		a.Move = r.g.String(joint[role])
	}
	return joint
}
