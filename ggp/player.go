package ggp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"net/http"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/game"
	"github.com/gdl-lsp/gdl/player"
)

// MaxMessage bounds a message a player reads (a START carries the game description; the
// largest game we know has 68 KB).
const MaxMessage = 16 << 20

// Strategy names how a player chooses its moves.
type Strategy string

const (
	RandomStrategy Strategy = "random" // a uniformly random legal move
	MCTSStrategy   Strategy = "mcts"   // Monte Carlo tree search (package player) until the clock
)

// ParseStrategy reads a --strategy value.
func ParseStrategy(s string) (Strategy, error) {
	switch st := Strategy(s); st {
	case RandomStrategy, MCTSStrategy:
		return st, nil
	}
	return "", fmt.Errorf("the strategy is random or mcts, not %q", s)
}

// PlayerOptions configure a Player.
type PlayerOptions struct {
	Strategy Strategy // "" is random
	// Margin is the time kept back from each clock for the network and the manager (0: a tenth
	// of the clock, at least 300 ms and at most 2 s, never more than half the clock).
	Margin time.Duration
	// Playouts bounds an mcts search per move (0: until the clock less the margin): a player that
	// answers sooner, with moves that do not depend on the machine's speed.
	Playouts int
	Seed     uint64
	Engine   game.Engine // "" is auto
	Limits   eval.Limits // the interpreter's limits per evaluation
	Log      *log.Logger // each message and its answer; nil: none
}

// Reply is a player's answer to a message: an HTTP status and the body.
type Reply struct {
	Status int
	Body   string
}

// Player is a GGP player: it plays one match at a time, with the strategy of its options. It
// answers every message (ServeHTTP over HTTP; Handle in-process), within the message's clock
// less the margin, and keeps running after any bad message: a malformed one is answered with
// status 400 and the reason, a message about another match with busy.
type Player struct {
	opts PlayerOptions
	log  *log.Logger

	mu      sync.Mutex
	match   *playing // the match being played, nil when none
	matches uint64   // matches started, for the seeds
}

// NewPlayer makes a player.
func NewPlayer(opts PlayerOptions) *Player {
	if opts.Strategy == "" {
		opts.Strategy = RandomStrategy
	}
	l := opts.Log
	if l == nil {
		l = log.New(io.Discard, "", 0)
	}
	return &Player{opts: opts, log: l}
}

// playing is the match a player plays.
type playing struct {
	id       string
	role     int
	roleName string
	clock    time.Duration // the play clock
	ctx      context.Context
	cancel   context.CancelFunc // stops the work in progress, for STOP and ABORT
	turn     chan struct{}      // held by the message working on the match
	log      *log.Logger

	// Set by START, then read and written only by the message that holds turn.
	g     *game.Game
	b     *belief
	mcts  *player.MCTS // the tree kept from move to move while the state is known
	rng   *rand.Rand
	plays int // PLAY messages answered
}

// margin is the time kept back from a clock.
func (p *Player) margin(clock time.Duration) time.Duration {
	m := p.opts.Margin
	if m <= 0 {
		m = min(max(clock/10, 300*time.Millisecond), 2*time.Second)
	}
	return min(m, clock/2)
}

// ServeHTTP answers a message posted to the player. Only POST carries messages (OPTIONS is
// answered for browsers' preflight requests); a body larger than MaxMessage is refused.
func (p *Player) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	received := time.Now()
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("Access-Control-Allow-Methods", "POST, OPTIONS")
	h.Set("Access-Control-Allow-Headers", "Content-Type, Receiver, Sender")
	switch r.Method {
	case http.MethodPost:
	case http.MethodOptions:
		w.WriteHeader(http.StatusNoContent)
		return
	default:
		h.Set("Allow", "POST, OPTIONS")
		p.log.Printf("%s: %s %s refused: a GGP player takes messages by POST", r.RemoteAddr, r.Method, r.URL.Path)
		http.Error(w, "a GGP player takes messages by POST", http.StatusMethodNotAllowed)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxMessage))
	if err != nil {
		status := http.StatusBadRequest
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			status = http.StatusRequestEntityTooLarge
			err = fmt.Errorf("the message is larger than %d bytes", MaxMessage)
		}
		p.log.Printf("%s: unreadable request: %v", r.RemoteAddr, err)
		http.Error(w, err.Error(), status)
		return
	}
	rep := p.handle(r.Context(), string(body), received, r.RemoteAddr, messageLimits)
	h.Set("Content-Type", "text/acl")
	w.WriteHeader(rep.Status)
	io.WriteString(w, rep.Body)
}

// Handle answers a message received now (the in-process way to the player, for a built-in
// player of the manager): the message is read without the bounds on the atoms and the nesting
// of a message received over HTTP, since its game was read by this process already.
func (p *Player) Handle(ctx context.Context, text string) Reply {
	return p.handle(ctx, text, time.Now(), "in-process", localLimits)
}

func (p *Player) handle(ctx context.Context, text string, received time.Time, from string, lim readLimits) (rep Reply) {
	defer func() {
		if v := recover(); v != nil {
			p.log.Printf("%s: internal error: %v\n%s", from, v, debug.Stack())
			rep = Reply{http.StatusInternalServerError, fmt.Sprintf("internal error: %v", v)}
		}
	}()
	msg, err := parse(text, lim)
	if err != nil {
		p.log.Printf("%s: bad message (%d bytes, %q): %v", from, len(text), abbreviate(text, 80), err)
		return Reply{http.StatusBadRequest, "bad message: " + err.Error()}
	}
	rep = p.answer(ctx, msg, received)
	p.log.Printf("%s: %s %s: %d %s (%v)", from, msg.Kind, msg.MatchID, rep.Status, abbreviate(rep.Body, 200), time.Since(received).Round(time.Millisecond))
	return rep
}

func (p *Player) answer(ctx context.Context, msg *Message, received time.Time) Reply {
	if msg.Kind == Info {
		p.mu.Lock()
		defer p.mu.Unlock()
		if p.match != nil {
			return Reply{http.StatusOK, "busy"}
		}
		return Reply{http.StatusOK, "available"}
	}
	if msg.Kind == Start {
		return p.start(ctx, msg, received)
	}
	p.mu.Lock()
	m := p.match
	p.mu.Unlock()
	if m == nil || m.id != msg.MatchID {
		// As GGP players do: a message about a match the player is not playing gets busy.
		p.log.Printf("%s for match %s, which the player is not playing", msg.Kind, msg.MatchID)
		return Reply{http.StatusOK, "busy"}
	}
	switch msg.Kind {
	case Play:
		return p.play(ctx, m, msg, received)
	default: // Stop, Abort
		return p.end(m, msg)
	}
}

// start loads the game and answers ready, within the start clock less the margin.
func (p *Player) start(ctx context.Context, msg *Message, received time.Time) Reply {
	p.mu.Lock()
	if p.match != nil {
		p.mu.Unlock()
		p.log.Printf("START %s refused: already playing match %s", msg.MatchID, p.match.id)
		return Reply{http.StatusOK, "busy"}
	}
	mctx, cancel := context.WithCancel(context.Background())
	// START holds the match's turn (the channel is empty) until the game is loaded.
	m := &playing{id: msg.MatchID, clock: msg.PlayClock, ctx: mctx, cancel: cancel, turn: make(chan struct{}, 1), log: p.log}
	p.match = m
	p.matches++
	seed := p.opts.Seed*1_000_003 + p.matches
	p.mu.Unlock()
	defer func() { m.turn <- struct{}{} }()

	deadline := received.Add(msg.StartClock - p.margin(msg.StartClock))
	both, stop := mergeCancel(ctx, mctx)
	defer stop()
	lctx, lcancel := context.WithDeadline(both, deadline)
	defer lcancel()
	if err := m.load(lctx, p.opts, msg, seed); err != nil {
		p.mu.Lock()
		if p.match == m {
			p.match = nil
		}
		p.mu.Unlock()
		cancel()
		return Reply{http.StatusBadRequest, "cannot play this match: " + err.Error()}
	}
	return Reply{http.StatusOK, "ready"}
}

func (m *playing) load(ctx context.Context, opts PlayerOptions, msg *Message, seed uint64) error {
	budget := time.Until(deadlineOf(ctx))
	o := game.Options{Engine: opts.Engine, Limits: opts.Limits}
	// Grounding may take half the time left; the interpreter plays a game that does not ground
	// in time.
	o.Ground.Timeout = max(min(budget/2, eval.DefaultGroundLimits.Timeout), time.Millisecond)
	g, _, err := game.Load(ctx, msg.Rules, o)
	if err != nil {
		return err
	}
	role := slices.IndexFunc(g.RoleNames(), func(r string) bool { return strings.EqualFold(r, msg.Role) })
	if role < 0 {
		return fmt.Errorf("%s is not a role of the game (its roles: %s)", msg.Role, strings.Join(g.RoleNames(), ", "))
	}
	b, err := newBelief(ctx, g, role, seed)
	if err != nil {
		return fmt.Errorf("the initial state cannot be computed: %w", err)
	}
	if _, err := g.Legal(ctx, b.states[0]); err != nil {
		return fmt.Errorf("the legal moves of the initial state cannot be computed: %w", err)
	}
	m.g, m.b, m.role, m.roleName = g, b, role, g.RoleNames()[role]
	m.rng = rand.New(rand.NewPCG(seed, 0x706c6179))
	if opts.Strategy == MCTSStrategy {
		m.mcts = player.NewMCTS(g, role, player.Options{Playouts: opts.Playouts, Seed: seed})
	}
	return nil
}

// play takes in what the message says was played and answers the role's move.
func (p *Player) play(ctx context.Context, m *playing, msg *Message, received time.Time) Reply {
	deadline := received.Add(m.clock - p.margin(m.clock))
	both, stop := mergeCancel(ctx, m.ctx)
	defer stop()
	wctx, cancel := context.WithDeadline(both, deadline)
	defer cancel()
	select {
	case <-m.turn:
		defer func() { m.turn <- struct{}{} }()
	case <-wctx.Done():
		return Reply{http.StatusServiceUnavailable, "the player is still working on the previous message of this match"}
	}
	if m.g == nil {
		return Reply{http.StatusConflict, "the match did not start"}
	}
	if err := m.observe(wctx, msg, received, deadline); err != nil {
		p.log.Printf("PLAY %s: %v", m.id, err)
		return Reply{http.StatusConflict, err.Error()}
	}
	m.plays++
	move, err := m.choose(wctx, p.opts)
	if err != nil {
		p.log.Printf("PLAY %s: %v", m.id, err)
		return Reply{http.StatusConflict, err.Error()}
	}
	return Reply{http.StatusOK, m.g.String(move)}
}

// observe takes in the moves (GDL) or the own move and percepts (GDL-II) of a PLAY or STOP.
func (m *playing) observe(ctx context.Context, msg *Message, received, deadline time.Time) error {
	if msg.II {
		if msg.Turn != m.plays {
			return fmt.Errorf("turn %d, but the player expected turn %d", msg.Turn, m.plays)
		}
		if msg.LastMove == "" {
			if msg.Turn > 0 {
				return fmt.Errorf("turn %d without the player's last move", msg.Turn)
			}
			return nil
		}
		if msg.Turn == 0 {
			return fmt.Errorf("turn 0 with a last move, %s", msg.LastMove)
		}
		move, err := m.g.Eval().ParseTerm(msg.LastMove)
		if err != nil {
			return fmt.Errorf("the last move %s: %w", msg.LastMove, err)
		}
		// Keep at least half the time to choose the move.
		octx, cancel := context.WithDeadline(ctx, received.Add(deadline.Sub(received)/2))
		defer cancel()
		if note := m.b.observe(octx, move, canonicalText(msg.Percepts)); note != "" {
			m.log.Printf("match %s: %s", m.id, note)
		}
		return nil
	}
	if msg.Joint == nil {
		if m.plays > 0 {
			return fmt.Errorf("PLAY with nil after %d joint moves: the joint move played is missing", m.plays)
		}
		return nil
	}
	joint, err := m.g.ParseMoves(msg.Joint)
	if err != nil {
		return fmt.Errorf("the joint move (%s): %w", strings.Join(msg.Joint, " "), err)
	}
	return m.b.observeJoint(ctx, joint)
}

// choose picks the role's move by the strategy; an evaluation that fails or runs out of time
// leaves a random legal move.
func (m *playing) choose(ctx context.Context, opts PlayerOptions) (eval.Term, error) {
	legal, err := m.b.legal(ctx)
	if err != nil {
		return 0, fmt.Errorf("no move to play: %w", err)
	}
	if len(legal) == 1 || opts.Strategy != MCTSStrategy {
		return legal[m.rng.IntN(len(legal))], nil
	}
	if len(m.b.states) == 1 && m.b.lost == "" {
		if mv, err := m.mcts.Move(ctx, m.b.states[0]); err == nil && slices.Contains(legal, mv) {
			return mv, nil
		}
		return legal[m.rng.IntN(len(legal))], nil
	}
	// Several states: search from a few of them, sharing the time, and add up the visits of the
	// moves legal in all.
	k := min(len(m.b.states), 4)
	visits := map[eval.Term]int{}
	start := time.Now()
	total := time.Until(deadlineOf(ctx))
	for i, si := range m.rng.Perm(len(m.b.states))[:k] {
		sctx, cancel := context.WithDeadline(ctx, start.Add(total*time.Duration(i+1)/time.Duration(k)))
		budget := 0
		if opts.Playouts > 0 {
			budget = max(opts.Playouts/k, 1)
		}
		sr, err := player.NewMCTS(m.g, m.role, player.Options{Playouts: budget, Seed: m.rng.Uint64()}).Search(sctx, m.b.states[si])
		cancel()
		if err != nil {
			continue
		}
		for _, ms := range sr.Moves {
			visits[ms.Move] += ms.Visits
		}
	}
	best, bestN := legal[m.rng.IntN(len(legal))], -1
	for _, mv := range legal {
		if visits[mv] > bestN {
			best, bestN = mv, visits[mv]
		}
	}
	return best, nil
}

// end ends the match (STOP or ABORT): the work in progress stops and the player is free.
func (p *Player) end(m *playing, msg *Message) Reply {
	m.cancel()
	select {
	case <-m.turn:
		if msg.Kind == Stop && m.g != nil {
			if err := m.observe(context.Background(), msg, time.Now(), time.Now().Add(time.Second)); err != nil {
				p.log.Printf("STOP %s: %v", m.id, err)
			} else if len(m.b.states) == 1 {
				if goals, err := m.g.GoalValues(context.Background(), m.b.states[0]); err == nil {
					p.log.Printf("match %s over: %s got %d", m.id, m.roleName, goals[m.role])
				}
			}
		}
		m.turn <- struct{}{}
	case <-time.After(5 * time.Second):
		p.log.Printf("%s %s: the work in progress did not stop within 5s; the match is dropped anyway", msg.Kind, m.id)
	}
	p.mu.Lock()
	if p.match == m {
		p.match = nil
	}
	p.mu.Unlock()
	return Reply{http.StatusOK, "done"}
}

// mergeCancel returns a context that ends when either ends (a's deadline and values are kept),
// and the function that releases it.
func mergeCancel(a, b context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(a)
	stop := context.AfterFunc(b, func() { cancel(context.Cause(b)) })
	return ctx, func() { stop(); cancel(context.Canceled) }
}

func deadlineOf(ctx context.Context) time.Time {
	if d, ok := ctx.Deadline(); ok {
		return d
	}
	return time.Now().Add(time.Hour)
}

// abbreviate shortens text for a log line.
func abbreviate(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// NewServer returns an HTTP server for a player at addr, with bounded headers and read times
// (a request must arrive within a minute). Writes are not bounded: a PLAY lasts its clock.
func NewServer(addr string, h http.Handler) *http.Server {
	return &http.Server{
		Addr:              addr,
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       time.Minute,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
	}
}
