package ggp

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/game"
	"github.com/gdl-lsp/gdl/player"
	"github.com/gdl-lsp/gdl/syntax"
)

// MatchOptions configure a match.
type MatchOptions struct {
	ID         string        // the match id ("": made up from the time)
	StartClock time.Duration // 0: 10 s
	PlayClock  time.Duration // 0: 5 s
	MaxSteps   int           // joint moves before the match is aborted (0: 1000)
	Seed       uint64        // the random moves that replace bad ones, and the random role's
	Engine     game.Engine   // the manager's engine ("" is auto)
	Limits     eval.Limits   // the manager's evaluation limits
	// Progress, when set, is called after every joint move.
	Progress func(Step)
}

// GameError is a game the manager cannot run a match of: a syntax error, rules without a
// defined meaning, a state that cannot be evaluated.
type GameError struct{ Err error }

func (e *GameError) Error() string { return e.Err.Error() }
func (e *GameError) Unwrap() error { return e.Err }

// Prepare reads a game description in the notation its content shows and returns its rules in
// KIF, as a START message carries them (comments dropped, each rule on one line).
func Prepare(src string) (string, error) {
	f, _ := syntax.ParseDialect(src, syntax.DetectContent(src))
	return PrepareFile(f)
}

// PrepareFile is Prepare of a parsed game description (an infix one is written in KIF).
func PrepareFile(f *syntax.File) (string, error) {
	if errs := f.Errors(); len(errs) > 0 {
		p := f.Lines().Position(errs[0].Span.Start, syntax.UTF32)
		return "", &GameError{fmt.Errorf("%d:%d: %s", p.Line+1, p.Column+1, errs[0].Message)}
	}
	kif := f.Source()
	if f.Dialect() != syntax.Prefix {
		text, cerr := f.Convert(syntax.Prefix)
		if cerr != nil {
			return "", &GameError{fmt.Errorf("the game cannot be written in KIF for the players: %v", cerr)}
		}
		kif = text
	}
	rules, err := Rules(kif)
	if err != nil {
		return "", &GameError{err}
	}
	return rules, nil
}

// RunMatch runs a match of a game (its rules in KIF, as Prepare gives them; name is what the
// record calls it) between the players of seats: one per role in role order, or one per role but GDL-II's random
// role, which the manager then plays itself, uniformly at random. Every player gets START, then
// a PLAY per joint move (GDL-II: its own last move and its percepts), then STOP, or ABORT when
// the match stops early. An answer that is late, unreadable or illegal is replaced by a random
// legal move, and the record says why. The record is returned whenever the match started, also
// with an error: a cancelled ctx (the players get ABORT) or a state that cannot be evaluated.
func RunMatch(ctx context.Context, name, rules string, seats []Seat, opts MatchOptions) (*Record, error) {
	if opts.StartClock <= 0 {
		opts.StartClock = 10 * time.Second
	}
	if opts.PlayClock <= 0 {
		opts.PlayClock = 5 * time.Second
	}
	if opts.MaxSteps <= 0 {
		opts.MaxSteps = 1000
	}
	if opts.ID == "" {
		opts.ID = NewMatchID()
	}
	// The seats are checked against the roles before the game is grounded (seconds for a big
	// game): the roles are the analysis's.
	f, _ := syntax.ParseDialect(rules, syntax.DetectContent(rules))
	res := analysis.Analyze(f, nil)
	bySeat, err := seatRoles(roleNames(res), seats)
	if err != nil {
		return nil, err
	}
	g, err := game.New(ctx, res, game.Options{Engine: opts.Engine, Limits: opts.Limits})
	if err != nil {
		return nil, &GameError{err}
	}
	roles := g.RoleNames()
	if len(roles) != len(bySeat) {
		return nil, &GameError{fmt.Errorf("the game has %d roles, but its analysis found %d", len(roles), len(bySeat))}
	}
	s, err := g.Initial(ctx)
	if err != nil {
		return nil, &GameError{fmt.Errorf("the initial state: %w", err)}
	}
	// A game whose first state cannot be evaluated is refused before any player is bothered.
	if _, err := g.Terminal(ctx, s); err != nil {
		return nil, &GameError{fmt.Errorf("terminal in the initial state: %w", err)}
	}
	if _, err := g.Legal(ctx, s); err != nil {
		return nil, &GameError{fmt.Errorf("the legal moves of the initial state: %w", err)}
	}
	ii := player.GDLII(g)
	mg := &manager{g: g, opts: opts, seats: bySeat, rng: mrand.New(mrand.NewPCG(opts.Seed, 0x6d616e61676572))}
	rec := &Record{MatchID: opts.ID, Game: name, Roles: roles, GDLII: ii, StartClock: opts.StartClock.Seconds(),
		PlayClock: opts.PlayClock.Seconds(), Started: time.Now(), Engine: string(g.Engine()), Initial: g.Strings(s.Fluents()),
		Moves: []Step{}}
	for r := range roles {
		if bySeat[r] == nil {
			rec.Players = append(rec.Players, "random (the manager)")
		} else {
			rec.Players = append(rec.Players, bySeat[r].Name())
		}
	}
	defer func() { rec.Seconds = time.Since(rec.Started).Seconds() }()
	kept := len(rec.Initial) // fluents of the states in the record

	// START, to every player at once.
	rec.Start = mg.broadcast(ctx, opts.StartClock, func(r int) string {
		return (&Message{Kind: Start, MatchID: opts.ID, Role: roles[r], Rules: rules, StartClock: opts.StartClock, PlayClock: opts.PlayClock}).String()
	}, "ready")

	var last []eval.Term    // the joint move played last
	var lastSees [][]string // GDL-II: what each role perceived of it
	end := func(kind Kind) {
		rec.End = mg.broadcast(context.WithoutCancel(ctx), min(opts.PlayClock, 10*time.Second), func(r int) string {
			m := &Message{Kind: kind, MatchID: opts.ID}
			if kind == Stop {
				mg.fill(m, r, len(rec.Moves), ii, last, lastSees)
			}
			return m.String()
		}, "done")
	}
	for {
		t, err := g.Terminal(ctx, s)
		if err == nil && t {
			rec.Completed = true
			break
		}
		if err == nil && len(rec.Moves) >= opts.MaxSteps {
			err = fmt.Errorf("no terminal state after %d joint moves", opts.MaxSteps)
		}
		var legal [][]eval.Term
		if err == nil {
			legal, err = g.Legal(ctx, s)
		}
		if err == nil {
			for r, ms := range legal {
				if len(ms) == 0 {
					err = &GameError{fmt.Errorf("role %s has no legal move in a state that is not terminal (after %d joint moves)", roles[r], len(rec.Moves))}
					break
				}
			}
		}
		if err != nil {
			rec.Aborted = err.Error()
			if ctx.Err() != nil {
				err = context.Cause(ctx)
				rec.Aborted = "cancelled: " + err.Error()
			}
			end(Abort)
			return rec, err
		}
		step := Step{Step: len(rec.Moves) + 1}
		step.Answers = mg.broadcast(ctx, opts.PlayClock, func(r int) string {
			m := &Message{Kind: Play, MatchID: opts.ID}
			mg.fill(m, r, len(rec.Moves), ii, last, lastSees)
			return m.String()
		}, "")
		if ctx.Err() != nil {
			rec.Aborted = "cancelled: " + context.Cause(ctx).Error()
			end(Abort)
			return rec, context.Cause(ctx)
		}
		joint := mg.moves(step.Answers, legal)
		for _, a := range step.Answers {
			if a.Kind != "" {
				rec.Errors++
			}
		}
		var perc [][]string
		if ii {
			sv, err := g.Sees(ctx, s, joint)
			if err != nil {
				rec.Aborted = fmt.Sprintf("the percepts of joint move %d: %v", step.Step, err)
				end(Abort)
				return rec, &GameError{err}
			}
			perc = make([][]string, len(sv))
			for r, ps := range sv {
				perc[r] = g.Strings(ps)
			}
		}
		next, err := g.Next(ctx, s, joint)
		if err != nil {
			rec.Aborted = fmt.Sprintf("joint move %d: %v", step.Step, err)
			end(Abort)
			return rec, &GameError{err}
		}
		s, last, lastSees = next, joint, perc
		for _, m := range joint {
			step.Joint = append(step.Joint, g.String(m))
		}
		if n := len(s.Fluents()); kept+n <= MaxRecordFluents && rec.StatesOmitted == 0 {
			kept += n
			step.State = g.Strings(s.Fluents())
		} else {
			rec.StatesOmitted++
		}
		step.Percepts = perc
		step.Terminal, _ = g.Terminal(ctx, s)
		rec.Moves = append(rec.Moves, step)
		if opts.Progress != nil {
			opts.Progress(step)
		}
	}
	end(Stop)
	if rec.Goals, err = g.GoalValues(ctx, s); err != nil {
		return rec, &GameError{fmt.Errorf("the goals of the terminal state: %w", err)}
	}
	return rec, nil
}

// NewMatchID makes a match id: gdl, the time and a random suffix.
func NewMatchID() string {
	var b [3]byte
	rand.Read(b[:])
	return "gdl-" + time.Now().Format("20060102-150405") + "-" + hex.EncodeToString(b[:])
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
// the manager plays it).
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

type manager struct {
	g     *game.Game
	opts  MatchOptions
	seats []Seat // per role; nil: the manager plays it at random
	rng   *mrand.Rand
}

// fill completes a PLAY or STOP for role r after step joint moves: the joint move played last
// (GDL), or the turn, the role's own move and its percepts (GDL-II).
func (mg *manager) fill(m *Message, r, step int, ii bool, last []eval.Term, sees [][]string) {
	if ii {
		m.II, m.Turn = true, step
		if last != nil {
			m.LastMove = mg.g.String(last[r])
			m.Percepts = append([]string{}, sees[r]...)
		}
		return
	}
	for _, mv := range last {
		m.Joint = append(m.Joint, mg.g.String(mv))
	}
}

// broadcast sends each seated role its message at once and waits for every answer, each
// within clock. want is the answer expected ("" for a move: the answer is kept in Reply).
func (mg *manager) broadcast(ctx context.Context, clock time.Duration, msg func(r int) string, want string) []Answer {
	roles := mg.g.RoleNames()
	out := make([]Answer, len(roles))
	var wg sync.WaitGroup
	for r := range roles {
		out[r].Role = roles[r]
		seat := mg.seats[r]
		if seat == nil {
			continue
		}
		text := msg(r)
		wg.Add(1)
		go func() {
			defer wg.Done()
			cctx, cancel := context.WithTimeout(ctx, clock)
			defer cancel()
			start := time.Now()
			rep, err := seat.Send(cctx, text)
			a := &out[r]
			a.Ms = float64(time.Since(start).Microseconds()) / 1000
			switch {
			case err != nil && ctx.Err() != nil:
				a.Kind, a.Error = Unreachable, "the manager stopped waiting: "+context.Cause(ctx).Error()
			case err != nil:
				a.Kind = errorKind(err)
				if a.Kind == Late {
					a.Error = fmt.Sprintf("no answer within the clock of %v", clock)
				} else {
					a.Error = err.Error()
				}
			case rep.Status != http.StatusOK:
				a.Kind, a.Error = Refused, fmt.Sprintf("HTTP status %d: %s", rep.Status, abbreviate(rep.Body, 200))
			default:
				a.Reply = abbreviate(rep.Body, 200)
				if want != "" && !strings.EqualFold(strings.TrimSpace(rep.Body), want) {
					a.Kind, a.Error = Refused, fmt.Sprintf("answered %q, not %s", abbreviate(rep.Body, 80), want)
				}
				if want == "" {
					a.Reply = strings.TrimSpace(rep.Body)
					if len(a.Reply) > 200 {
						a.Reply = a.Reply[:200]
					}
				}
			}
		}()
	}
	wg.Wait()
	return out
}

// moves reads the answers to a PLAY into a joint move: a move that is missing, unreadable or
// illegal is replaced by a random legal one (and the answer says why); the random role without
// a player plays at random.
func (mg *manager) moves(answers []Answer, legal [][]eval.Term) []eval.Term {
	joint := make([]eval.Term, len(answers))
	for r := range answers {
		a := &answers[r]
		if mg.seats[r] != nil && a.Kind == "" {
			mv, err := mg.readMove(a.Reply, legal[r])
			if err == nil {
				joint[r] = mv
				a.Move = mg.g.String(mv)
				continue
			}
			var ill *illegal
			if errors.As(err, &ill) {
				a.Kind = Illegal
			} else {
				a.Kind = Unreadable
			}
			a.Error = err.Error()
		}
		joint[r] = legal[r][mg.rng.IntN(len(legal[r]))]
		a.Move = mg.g.String(joint[r])
	}
	return joint
}

type illegal struct{ move string }

func (e *illegal) Error() string { return e.move + " is not a legal move" }

// readMove reads a player's answer as a move: one term of the game, legal in the state.
func (mg *manager) readMove(reply string, legal []eval.Term) (eval.Term, error) {
	e, err := ReadExpr(reply)
	if err != nil {
		return 0, fmt.Errorf("%q is not a move: %v", abbreviate(reply, 80), err)
	}
	text := e.String()
	mv, err := mg.g.ParseTerm(text)
	if err != nil {
		return 0, fmt.Errorf("%s is not a move: %v", abbreviate(text, 80), err)
	}
	if !slices.Contains(legal, mv) {
		return 0, &illegal{abbreviate(text, 80)}
	}
	return mv, nil
}
