package ggp

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log"
	"net/http"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/game"
	"github.com/gdl-lsp/gdl/player"
	"github.com/gdl-lsp/gdl/syntax"
)

// MaxMessage bounds a message a player reads (a START carries the game description; the
// largest game we know has 68 KB).
const MaxMessage = 16 << 20

// MaxSmallMessage bounds a message other than START and PREVIEW (INFO, PLAY, STOP, ABORT: a
// joint move at most), told apart by the first bytes of the body.
const MaxSmallMessage = 1 << 20

// MaxRequests bounds the requests a player answers at once; one more is answered 503 at once.
// At most one of them is a START or PREVIEW (or a body whose kind its first bytes do not show),
// read up to MaxMessage; the others are read up to MaxSmallMessage.
const MaxRequests = 8

// maxLogged bounds the text of a message written to the log.
const maxLogged = 2000

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
	Log      *log.Logger // each message (its text, bounded) and its answer; nil: none
	// AllowOrigin is the origin of the web pages that may send messages ("*": any), for a game
	// manager that runs in a browser; it is sent as Access-Control-Allow-Origin. A POST with
	// another Origin header (a browser sends the page's) is refused with 403.
	AllowOrigin string
	// Idle drops a match that no message has come for in this time, so that a manager that
	// goes away does not keep the player busy (0: the match's start clock plus three play
	// clocks).
	Idle time.Duration
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
	opts  PlayerOptions
	log   *log.Logger
	slots chan struct{} // one per request being answered over HTTP
	large chan struct{} // held while a START or PREVIEW body is read and answered

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
	return &Player{opts: opts, log: l, slots: make(chan struct{}, MaxRequests), large: make(chan struct{}, 1)}
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

	// Guarded by the player's mu: the messages about the match being answered, when the last
	// one was answered, and the timer that drops the match when none comes for idle.
	working  int
	lastSeen time.Time
	idle     time.Duration
	timer    *time.Timer

	// Set by START, then read and written only by the message that holds turn.
	g     *game.Game
	seat  *player.LocalSeat // the built-in player: what the role knows, its strategy
	plays int               // PLAY messages answered
}

// margin is the time kept back from a clock.
func (p *Player) margin(clock time.Duration) time.Duration {
	m := p.opts.Margin
	if m <= 0 {
		m = min(max(clock/10, 300*time.Millisecond), 2*time.Second)
	}
	return min(m, clock/2)
}

// ServeHTTP answers a message posted to the player. Messages come by POST; a GET of
// /(INFO) is answered as INFO (ggp-base's managers ask so), and OPTIONS for browsers' preflight
// requests. A START while the player plays is answered busy before its body is read; a body
// larger than its bound is refused; beyond MaxRequests requests at once, 503.
func (p *Player) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	received := time.Now()
	p.setCORS(w.Header())
	if !p.takesPost(w, r, received) {
		return
	}
	h := w.Header()
	select {
	case p.slots <- struct{}{}:
		defer func() { <-p.slots }()
	default:
		p.log.Printf("%s: refused: %d requests are being answered already", r.RemoteAddr, MaxRequests)
		h.Set("Connection", "close")
		h.Set("Retry-After", "1")
		http.Error(w, fmt.Sprintf("the player answers at most %d requests at once", MaxRequests), http.StatusServiceUnavailable)
		return
	}
	body, release, ok := p.readMessage(w, r)
	if release != nil {
		defer release()
	}
	if ok {
		reply(w, p.handle(r.Context(), body, received, r.RemoteAddr, messageLimits))
	}
}

// setCORS sets the headers that let the web pages of --allow-origin send messages.
func (p *Player) setCORS(h http.Header) {
	if p.opts.AllowOrigin == "" {
		return
	}
	h.Set("Access-Control-Allow-Origin", p.opts.AllowOrigin)
	h.Set("Access-Control-Allow-Methods", "POST, GET, OPTIONS")
	h.Set("Access-Control-Allow-Headers", "Content-Type, Receiver, Sender")
	if p.opts.AllowOrigin != "*" {
		h.Set("Vary", "Origin")
	}
}

// takesPost answers every request but a POST the player takes (OPTIONS, GET and HEAD, other
// methods, posts from web pages of other origins) and reports whether r is such a POST.
func (p *Player) takesPost(w http.ResponseWriter, r *http.Request, received time.Time) bool {
	h := w.Header()
	switch r.Method {
	case http.MethodPost:
		if o := r.Header.Get("Origin"); o != "" && p.opts.AllowOrigin != "*" && o != p.opts.AllowOrigin {
			// A browser sends the page's origin with every post: a web page the player was not
			// told to trust may not make it play (its form posts and no-cors requests get no
			// preflight, so the missing CORS header alone would not stop them).
			p.log.Printf("%s: POST from a web page of %s refused (see --allow-origin)", r.RemoteAddr, player.Abbreviate(o, 100))
			h.Set("Connection", "close")
			http.Error(w, "the player takes no messages from web pages of this origin", http.StatusForbidden)
			return false
		}
		return true
	case http.MethodOptions:
		h.Set("Allow", "POST, GET, OPTIONS")
		w.WriteHeader(http.StatusNoContent)
	case http.MethodGet, http.MethodHead:
		p.serveGet(w, r, received)
	default:
		h.Set("Allow", "POST, GET, OPTIONS")
		p.log.Printf("%s: %s %s refused: a GGP player takes messages by POST", r.RemoteAddr, r.Method, r.URL.Path)
		http.Error(w, "a GGP player takes messages by POST", http.StatusMethodNotAllowed)
	}
	return false
}

// readMessage reads a posted message within its limit: a START or PREVIEW (or a message whose
// first bytes do not say its kind) up to MaxMessage, one at a time and none while a match is
// on, any other up to MaxSmallMessage. It answers what it refuses and then reports false;
// release, when not nil, frees the place of the large message read.
func (p *Player) readMessage(w http.ResponseWriter, r *http.Request) (body string, release func(), ok bool) {
	h := w.Header()
	br := bufio.NewReaderSize(r.Body, 512)
	kind := peekKind(br)
	limit := int64(MaxSmallMessage)
	if kind == "" || kind == Start || kind == Preview {
		// Only these carry a game; one is read at a time, and a START while a match is on is
		// busy without its body being read.
		if (kind == Start || kind == Preview) && p.current() != nil {
			p.log.Printf("%s: %s refused before its body was read: playing match %s", r.RemoteAddr, kind, p.matchID())
			h.Set("Connection", "close") // the answer goes out at once, the body is not read
			reply(w, Reply{http.StatusOK, "busy"})
			return "", nil, false
		}
		select {
		case p.large <- struct{}{}:
			release = func() { <-p.large }
		default:
			p.refuseLarge(w, r, kind)
			return "", nil, false
		}
		limit = MaxMessage
	}
	data, err := io.ReadAll(io.LimitReader(br, limit+1))
	if err == nil && int64(len(data)) > limit {
		what := "a message"
		if limit == MaxSmallMessage {
			what = "a message other than START or PREVIEW"
		}
		p.log.Printf("%s: refused: %s larger than %d bytes", r.RemoteAddr, what, limit)
		h.Set("Connection", "close")
		http.Error(w, fmt.Sprintf("%s is at most %d bytes", what, limit), http.StatusRequestEntityTooLarge)
		return "", release, false
	}
	if err != nil {
		p.log.Printf("%s: unreadable request: %v", r.RemoteAddr, err)
		http.Error(w, err.Error(), http.StatusBadRequest)
		return "", release, false
	}
	return string(data), release, true
}

// refuseLarge answers a message that may carry a game while another is being read: a START or
// PREVIEW is busy, a message whose kind is not known yet is asked to come again.
func (p *Player) refuseLarge(w http.ResponseWriter, r *http.Request, kind Kind) {
	h := w.Header()
	h.Set("Connection", "close")
	if kind != "" {
		p.log.Printf("%s: %s refused before its body was read: another START or PREVIEW is being read", r.RemoteAddr, kind)
		reply(w, Reply{http.StatusOK, "busy"})
		return
	}
	p.log.Printf("%s: refused: a message whose kind its first bytes do not show, while a START or PREVIEW is being read", r.RemoteAddr)
	h.Set("Retry-After", "1")
	http.Error(w, "the player is reading a game: try again", http.StatusServiceUnavailable)
}

// serveGet answers a GET: ggp-base's managers may send INFO in the path (GET /(INFO)); no other
// message is taken by GET (a link in any web page could send it).
func (p *Player) serveGet(w http.ResponseWriter, r *http.Request, received time.Time) {
	text := strings.TrimPrefix(r.URL.Path, "/")
	if m, err := Parse(text); err == nil && m.Kind == Info {
		reply(w, p.handle(r.Context(), text, received, r.RemoteAddr, messageLimits))
		return
	}
	w.Header().Set("Allow", "POST, GET, OPTIONS")
	p.log.Printf("%s: GET %s refused: only (INFO) is answered by GET", r.RemoteAddr, player.Abbreviate(r.URL.Path, 80))
	http.Error(w, "a GGP player takes messages by POST; only (INFO) is answered by GET", http.StatusMethodNotAllowed)
}

func reply(w http.ResponseWriter, rep Reply) {
	w.Header().Set("Content-Type", "text/acl")
	w.WriteHeader(rep.Status)
	io.WriteString(w, rep.Body)
}

// peekKind returns the kind of the message whose body br reads, from its first bytes (without
// consuming them): "" when they do not show it.
func peekKind(br *bufio.Reader) Kind {
	head, _ := br.Peek(br.Size())
	open := false
	for i := 0; i < len(head); {
		kind, end := syntax.ScanToken(string(head), i)
		if end == len(head) && len(head) == br.Size() {
			return "" // the token may go on past what was peeked
		}
		switch {
		case kind == syntax.Whitespace || kind == syntax.Comment:
		case kind == syntax.LParen && !open:
			open = true
		case kind == syntax.Word && open:
			return Kind(strings.ToUpper(string(head[i:end])))
		default:
			return ""
		}
		i = end
	}
	return ""
}

// Handle answers a message received now in this process, without HTTP: the message is read
// without the bounds on the atoms and the nesting of a message received over HTTP (its sender
// is this process). A match's built-in players are player.LocalSeat, without messages.
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
		p.log.Printf("%s: bad message (%d bytes): %v: %s", from, len(text), err, logged(text))
		return Reply{http.StatusBadRequest, "bad message: " + err.Error()}
	}
	p.log.Printf("%s: received %s", from, logged(text))
	rep = p.answer(ctx, msg, received)
	p.log.Printf("%s: %s %s: %d %s (%v)", from, msg.Kind, msg.MatchID, rep.Status, player.Abbreviate(rep.Body, 200), time.Since(received).Round(time.Millisecond))
	return rep
}

// logged is a message's text as the log shows it: on one line, at most maxLogged bytes, with
// its size when it is longer.
func logged(text string) string {
	s := player.Abbreviate(text, maxLogged)
	if len(text) > maxLogged {
		s += fmt.Sprintf(" (%d bytes in all)", len(text))
	}
	return s
}

func (p *Player) answer(ctx context.Context, msg *Message, received time.Time) Reply {
	switch msg.Kind {
	case Info:
		if p.current() != nil {
			return Reply{http.StatusOK, "busy"}
		}
		return Reply{http.StatusOK, "available"}
	case Preview:
		// ggp-base's answer: the game is previewed when no match is on (this player does
		// nothing with it before the START).
		if p.current() != nil {
			return Reply{http.StatusOK, "busy"}
		}
		return Reply{http.StatusOK, "ready"}
	case Start:
		return p.start(ctx, msg, received)
	}
	m := p.current()
	if m == nil || m.id != msg.MatchID || !p.begin(m) {
		// As GGP players do: a message about a match the player is not playing gets busy.
		p.log.Printf("%s for match %s, which the player is not playing", msg.Kind, msg.MatchID)
		return Reply{http.StatusOK, "busy"}
	}
	defer p.done(m)
	switch msg.Kind {
	case Play:
		return p.play(ctx, m, msg, received)
	default: // Stop, Abort
		return p.end(m, msg)
	}
}

// current returns the match being played, after dropping it when it has been idle too long.
func (p *Player) current() *playing {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.currentLocked()
}

func (p *Player) currentLocked() *playing {
	m := p.match
	if m != nil && m.working == 0 && time.Since(m.lastSeen) >= m.idle {
		p.dropLocked(m)
		p.log.Printf("match %s dropped: no message about it for %v", m.id, time.Since(m.lastSeen).Round(time.Millisecond))
		return nil
	}
	return m
}

// matchID returns the id of the match being played ("" when none).
func (p *Player) matchID() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.match == nil {
		return ""
	}
	return p.match.id
}

// dropLocked ends the player's match m: its work stops and the player is free.
func (p *Player) dropLocked(m *playing) {
	m.cancel()
	if m.timer != nil {
		m.timer.Stop()
	}
	if p.match == m {
		p.match = nil
	}
}

// begin counts a message about m in progress (false when m is no longer the match).
func (p *Player) begin(m *playing) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.match != m {
		return false
	}
	m.working++
	return true
}

// done ends a message about m: the idle time counts from now.
func (p *Player) done(m *playing) {
	p.mu.Lock()
	defer p.mu.Unlock()
	m.working--
	m.lastSeen = time.Now()
	if p.match == m && m.timer != nil {
		m.timer.Reset(m.idle)
	}
}

// expire drops m when no message about it came within its idle time (the timer's function).
func (p *Player) expire(m *playing) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.match != m || m.working > 0 {
		return // gone, or a message is being answered: done sets the timer again
	}
	if since := time.Since(m.lastSeen); since < m.idle {
		m.timer.Reset(m.idle - since)
		return
	}
	p.currentLocked()
}

// idleTime is how long a match may go without a message before the player drops it.
func (p *Player) idleTime(msg *Message) time.Duration {
	if p.opts.Idle > 0 {
		return p.opts.Idle
	}
	return msg.StartClock + 3*msg.PlayClock
}

// start loads the game and answers ready, within the start clock less the margin.
func (p *Player) start(ctx context.Context, msg *Message, received time.Time) Reply {
	p.mu.Lock()
	if cur := p.currentLocked(); cur != nil {
		p.mu.Unlock()
		p.log.Printf("START %s refused: already playing match %s", msg.MatchID, cur.id)
		return Reply{http.StatusOK, "busy"}
	}
	mctx, cancel := context.WithCancel(context.Background())
	// START holds the match's turn (the channel is empty) until the game is loaded, and counts
	// as a message in progress until then.
	m := &playing{id: msg.MatchID, clock: msg.PlayClock, ctx: mctx, cancel: cancel, turn: make(chan struct{}, 1), log: p.log,
		working: 1, idle: p.idleTime(msg)}
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
		p.dropLocked(m)
		p.mu.Unlock()
		return Reply{http.StatusBadRequest, "cannot play this match: " + err.Error()}
	}
	p.mu.Lock()
	m.timer = time.AfterFunc(m.idle, func() { p.expire(m) })
	p.mu.Unlock()
	p.done(m)
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
	seat, err := player.NewSeat(string(opts.Strategy), player.SeatOptions{Playouts: opts.Playouts})
	if err != nil {
		return err
	}
	seat.Seed = seed
	seat.Note = func(note string) { m.log.Printf("match %s: %s", m.id, note) }
	if _, err := seat.Start(ctx, &player.Setup{MatchID: msg.MatchID, Game: g, Role: role, StartClock: msg.StartClock, PlayClock: msg.PlayClock}); err != nil {
		return err
	}
	m.g, m.seat, m.role, m.roleName = g, seat, role, g.RoleNames()[role]
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
	t, err := m.turnOf(msg)
	if err != nil {
		p.log.Printf("PLAY %s: %v", m.id, err)
		return Reply{http.StatusConflict, err.Error()}
	}
	if err := m.seat.Observe(wctx, t); err != nil {
		p.log.Printf("PLAY %s: %v", m.id, err)
		return Reply{http.StatusConflict, err.Error()}
	}
	m.plays++
	rep, err := m.seat.Move(wctx)
	if err != nil {
		p.log.Printf("PLAY %s: %v", m.id, err)
		return Reply{http.StatusConflict, err.Error()}
	}
	return Reply{http.StatusOK, rep.Text}
}

// turnOf reads what a PLAY or STOP says was played: the joint move (GDL), or the turn, the own
// move and the percepts (GDL-II).
func (m *playing) turnOf(msg *Message) (*player.Turn, error) {
	if msg.II {
		if msg.Turn != m.plays {
			return nil, fmt.Errorf("turn %d, but the player expected turn %d", msg.Turn, m.plays)
		}
		if msg.LastMove == "" {
			if msg.Turn > 0 {
				return nil, fmt.Errorf("turn %d without the player's last move", msg.Turn)
			}
			return &player.Turn{}, nil
		}
		if msg.Turn == 0 {
			return nil, fmt.Errorf("turn 0 with a last move, %s", msg.LastMove)
		}
		move, err := m.g.ParseTerm(msg.LastMove)
		if err != nil {
			return nil, fmt.Errorf("the last move %s: %w", msg.LastMove, err)
		}
		return &player.Turn{Step: msg.Turn, Move: move, Sees: msg.Percepts}, nil
	}
	if msg.Joint == nil {
		if m.plays > 0 {
			return nil, fmt.Errorf("PLAY with nil after %d joint moves: the joint move played is missing", m.plays)
		}
		return &player.Turn{}, nil
	}
	joint, err := m.g.ParseMoves(msg.Joint)
	if err != nil {
		return nil, fmt.Errorf("the joint move (%s): %w", strings.Join(msg.Joint, " "), err)
	}
	return &player.Turn{Step: m.plays, Joint: joint}, nil
}

// end ends the match (STOP or ABORT): the work in progress stops and the player is free.
func (p *Player) end(m *playing, msg *Message) Reply {
	m.cancel()
	select {
	case <-m.turn:
		if msg.Kind == Stop && m.g != nil {
			p.stopped(m, msg)
		}
		m.turn <- struct{}{}
	case <-time.After(5 * time.Second):
		p.log.Printf("%s %s: the work in progress did not stop within 5s; the match is dropped anyway", msg.Kind, m.id)
	}
	p.mu.Lock()
	p.dropLocked(m)
	p.mu.Unlock()
	return Reply{http.StatusOK, "done"}
}

// stopped takes in the last turn of a match that reached a terminal state, and logs the goal.
func (p *Player) stopped(m *playing, msg *Message) {
	t, err := m.turnOf(msg)
	if err != nil {
		p.log.Printf("STOP %s: %v", m.id, err)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	m.seat.Stop(ctx, t)
	if s, known := m.seat.Belief().State(); known {
		if goals, err := m.g.GoalValues(ctx, s); err == nil {
			p.log.Printf("match %s over: %s got %d", m.id, m.roleName, goals[m.role])
		}
	}
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
