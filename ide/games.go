package ide

import (
	"context"
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/game"
	"github.com/gdl-lsp/gdl/syntax"
)

// The evaluation side: the game of each open document, the results evaluated on it, and the
// joint moves played in it (session.go).
//
// Making a game is cheap (a few ms for chess); evaluating on a fresh one is not: the first
// `legal` of chess derives about 150,000 facts (150 to 300 ms). So a document keeps its game for
// as long as its clauses stay the same: an edit of a comment or of the whitespace between forms
// changes nothing the evaluator sees, and the game, with the facts it has derived and the
// answers computed on it, carries over to the new version. Documents evaluate on the
// interpreter (game.Interpreted): it answers any query, and the compiled engine is for playouts.
//
// Hovers, code lenses and inlay hints ask for results through a memo per game: the first request
// starts the evaluation, under its time limit counted from when it starts, and the evaluations
// of one game run at once (a game takes calls from many goroutines). What a person is waiting
// for (a hover, the hints on screen) starts at once; the lenses, which are many and best effort,
// take turns for a few slots per game (lensSlots), and one that a hover asks for starts at once.
// Every request waits only as long as its own budget allows and otherwise says that the
// evaluation is still running (ErrStillRunning); when it finishes, the features are asked for
// again (the refresh function). The evaluations end when the document moves on to other clauses.
// The commands a person runs explicitly (RunQuery, the state commands) call the game directly,
// under the full limits.

// GamesOptions configure Games.
type GamesOptions struct {
	// Refresh asks for the evaluated features (lenses, hints) again: after an evaluation that a
	// request could not wait for has finished (refreshes that fall close together are made once),
	// and after a state command changed a document's state. Nil: nothing is asked.
	Refresh func()
	// Rand picks a number in [0, n) for random moves (nil: math/rand/v2's IntN). It is called
	// under a lock.
	Rand func(n int) int
}

// Games keeps, for every open document, its game, the results evaluated on it and its session
// (the joint moves played). Its methods are safe for concurrent use.
type Games struct {
	ctx   context.Context // ends when the whole session ends
	opts  GamesOptions
	cache *game.Cache // the games of the compiled engine, shared by documents of the same text

	mu      sync.Mutex
	current map[string]*Snapshot // each open document's current snapshot (Update)
	entries map[string]*gameEntry

	sessions sessions

	randMu sync.Mutex

	refreshMu      sync.Mutex
	refreshPending bool // a refresh is scheduled
}

// NewGames makes the store of the documents' games; their evaluations stop when ctx ends.
func NewGames(ctx context.Context, opts GamesOptions) *Games {
	if opts.Rand == nil {
		opts.Rand = rand.IntN
	}
	return &Games{ctx: ctx, opts: opts, cache: game.NewCache(gamesKept), current: map[string]*Snapshot{}, entries: map[string]*gameEntry{}}
}

// gamesKept is how many compiled games a Games keeps (the last made, by text and limits).
const gamesKept = 8

// Cache returns the games of the compiled engine this Games shares between documents, for the
// features that make one on their own (Verify).
func (gs *Games) Cache() *game.Cache { return gs.cache }

// Update records the current snapshot of document name (after it was opened or changed). Only
// the current snapshot replaces the document's game: a request still working on an older
// version gets a game of its own, already stopped (its answer is superseded anyway).
func (gs *Games) Update(name string, snap *Snapshot) {
	gs.mu.Lock()
	defer gs.mu.Unlock()
	gs.current[name] = snap
}

// Close forgets a closed document: its game (its evaluations stop) and its session.
func (gs *Games) Close(name string) {
	gs.mu.Lock()
	delete(gs.current, name)
	if e := gs.entries[name]; e != nil {
		e.c.cancel()
		delete(gs.entries, name)
	}
	gs.mu.Unlock()
	gs.sessions.forget(name)
}

// gameEntry is the game of an open document and the snapshot it was last confirmed for.
type gameEntry struct {
	snap *Snapshot
	c    *docGame
}

// docGame is a game made from one version of a document and shared by the later versions with
// the same clauses and limits, with the results evaluated on it.
type docGame struct {
	g      *game.Game
	cache  *game.Cache       // where the compiled game is made (fast)
	key    [sha256.Size]byte // fingerprint of the clauses (see gameKey)
	limits eval.Limits
	starts []int           // start of each clause item in the version made from, for error lines
	ctx    context.Context // ends when no version of the document uses this game any more
	cancel context.CancelFunc

	mu        sync.Mutex
	positions map[string]*result[*Position]
	answers   map[string]*result[*Answers]
	lenses    chan struct{} // a slot per lens evaluation running (see lensSlots)

	view viewState // what the game view computed on this game (game_view.go)
}

// gameOf returns the game for snap under limits: the document's current game when its clauses
// and limits are the same, else a new one.
func (gs *Games) gameOf(name string, snap *Snapshot, limits eval.Limits) *docGame {
	gs.mu.Lock()
	if e := gs.entries[name]; e != nil && e.snap == snap && e.c.limits == limits {
		gs.mu.Unlock()
		return e.c
	}
	gs.mu.Unlock()

	key, starts := gameKey(snap.File())
	same := func(e *gameEntry) bool { return e != nil && e.c.key == key && e.c.limits == limits }
	gs.mu.Lock()
	if e := gs.entries[name]; same(e) {
		if gs.current[name] == snap {
			e.snap = snap
		}
		gs.mu.Unlock()
		return e.c
	}
	gs.mu.Unlock()

	c := newDocGame(gs.ctx, gs.cache, snap, limits, key, starts)
	gs.mu.Lock()
	defer gs.mu.Unlock()
	if gs.current[name] != snap {
		c.cancel()
		return c
	}
	if e := gs.entries[name]; e != nil {
		if same(e) { // another request made the same game meanwhile
			c.cancel()
			e.snap = snap
			return e.c
		}
		e.c.cancel()
	}
	gs.entries[name] = &gameEntry{snap: snap, c: c}
	return c
}

func newDocGame(ctx context.Context, cache *game.Cache, snap *Snapshot, limits eval.Limits, key [sha256.Size]byte, starts []int) *docGame {
	c := &docGame{cache: cache, key: key, limits: limits, starts: starts,
		positions: map[string]*result[*Position]{}, answers: map[string]*result[*Answers]{}, lenses: make(chan struct{}, lensSlots)}
	c.ctx, c.cancel = context.WithCancel(ctx)
	// The interpreter is made without grounding, so New cannot fail.
	c.g, _ = game.New(c.ctx, snap.Analysis(), game.Options{Engine: game.Interpreted, Limits: limits})
	return c
}

// gameKey fingerprints what the evaluator sees of a file: the text of every top-level item that
// is not whitespace or a comment, in order. It also returns the start offsets of those items.
func gameKey(f *syntax.File) ([sha256.Size]byte, []int) {
	h := sha256.New()
	var starts []int
	for _, it := range f.Items() {
		if k := it.Kind(); k == syntax.Whitespace || k == syntax.Comment {
			continue
		}
		starts = append(starts, it.Span().Start)
		h.Write([]byte(it.Text()))
		h.Write([]byte{0})
	}
	var key [sha256.Size]byte
	h.Sum(key[:0])
	return key, starts
}

// result is one memoised evaluation.
type result[T any] struct {
	done chan struct{} // closed when val and err are set
	once sync.Once
	val  T
	err  error
	// promote is closed when a person asks for a lens's result that waits for a slot, so that
	// it starts at once; nil once it has started (docGame.mu).
	promote chan struct{}
}

func newResult[T any]() *result[T] { return &result[T]{done: make(chan struct{})} }

func (r *result[T]) finish(val T, err error) {
	r.once.Do(func() {
		r.val, r.err = val, err
		close(r.done)
	})
}

func (r *result[T]) fail(err error) {
	var zero T
	r.finish(zero, err)
}

// ready reports whether r has finished.
func (r *result[T]) ready() bool {
	select {
	case <-r.done:
		return true
	default:
		return false
	}
}

// wait waits for r at most budget (and not past ctx).
func (r *result[T]) wait(ctx context.Context, budget time.Duration) (T, error) {
	var zero T
	select {
	case <-r.done:
		return r.val, r.err
	default:
	}
	t := time.NewTimer(budget)
	defer t.Stop()
	select {
	case <-r.done:
		return r.val, r.err
	case <-t.C:
		return zero, ErrStillRunning
	case <-ctx.Done():
		return zero, context.Cause(ctx)
	}
}

// maxResults bounds the results kept per game; past it the memo starts afresh.
const maxResults = 2000

// lensSlots is how many lens evaluations of one game run at once: half the processors, so that
// a hover finds one free.
var lensSlots = max(1, runtime.GOMAXPROCS(0)/2)

// memo returns the result for key in table, starting f if no request asked for it yet, with the
// game's context and the timeout: at once when urgent, else when a lens slot is free or an urgent
// request asks for the same key.
func memo[T any](c *docGame, table map[string]*result[T], key string, urgent bool, timeout time.Duration, f func(context.Context) (T, error)) *result[T] {
	c.mu.Lock()
	defer c.mu.Unlock()
	if r, ok := table[key]; ok {
		if urgent && r.promote != nil {
			close(r.promote)
			r.promote = nil
		}
		return r
	}
	if len(c.positions)+len(c.answers) >= maxResults {
		clear(c.positions)
		clear(c.answers)
	}
	r := newResult[T]()
	table[key] = r
	if !urgent {
		r.promote = make(chan struct{})
	}
	go evaluate(c, table, key, r, r.promote, timeout, f)
	return r
}

// evaluate computes r, the result for key in table (a lens's once it has a slot or is
// promoted), unless the game is dropped first or r is computed meanwhile (see now).
func evaluate[T any](c *docGame, table map[string]*result[T], key string, r *result[T], promote chan struct{}, timeout time.Duration, f func(context.Context) (T, error)) {
	if promote != nil {
		select {
		case c.lenses <- struct{}{}:
			defer func() { <-c.lenses }()
		case <-promote:
		case <-c.ctx.Done():
		}
		c.mu.Lock()
		r.promote = nil
		c.mu.Unlock()
	}
	if c.ctx.Err() != nil {
		// The game was dropped: do not keep a result that only says so.
		c.mu.Lock()
		delete(table, key)
		c.mu.Unlock()
		r.fail(context.Cause(c.ctx))
		return
	}
	if r.ready() {
		return
	}
	ctx, cancel := context.WithTimeout(c.ctx, timeout)
	defer cancel()
	val, err := protect(ctx, f)
	if err != nil && c.ctx.Err() != nil {
		c.mu.Lock()
		delete(table, key)
		c.mu.Unlock()
	}
	r.finish(val, err)
}

// protect calls f, turning a panic into its error.
func protect[T any](ctx context.Context, f func(context.Context) (T, error)) (val T, err error) {
	defer func() {
		if p := recover(); p != nil {
			var zero T
			val, err = zero, fmt.Errorf("internal error: %v", p)
		}
	}()
	return f(ctx)
}

// now returns the result for key in table within an evaluation: computed here, under the
// evaluation's context, unless it is known already.
func now[T any](c *docGame, table map[string]*result[T], ctx context.Context, key string, f func(context.Context) (T, error)) (T, error) {
	c.mu.Lock()
	r, ok := table[key]
	if !ok {
		r = newResult[T]()
		table[key] = r
	}
	c.mu.Unlock()
	if !r.ready() {
		val, err := protect(ctx, f)
		if err != nil {
			c.mu.Lock()
			delete(table, key) // a later evaluation tries again, under its own time limit
			c.mu.Unlock()
		}
		r.finish(val, err)
	}
	<-r.done
	return r.val, r.err
}

// Caps on the joint moves a query about a joint move is evaluated after (the memo's results are
// best effort; a query run on purpose goes further), and on the answers a memoised result spells
// out (chess's queen_move_ig has 300,000; a hover shows 12).
const (
	memoJointMoves    = 64
	commandJointMoves = 1000
	keptAnswers       = 1000
)

func positionKey(history [][]string, timeout time.Duration) string {
	return fmt.Sprintf("position %v %v", timeout, history)
}

// position returns the memoised current state of a history.
func (c *docGame) position(history [][]string, timeout time.Duration, urgent bool) *result[*Position] {
	return memo(c, c.positions, positionKey(history, timeout), urgent, timeout, func(ctx context.Context) (*Position, error) {
		return c.replay(ctx, history)
	})
}

// answersOf returns the memoised answers of a query in the current state of a history, with at
// most keptAnswers spelled out.
func (c *docGame) answersOf(history [][]string, query string, timeout time.Duration, urgent bool) *result[*Answers] {
	key := fmt.Sprintf("answers %v %v %s", timeout, history, query)
	return memo(c, c.answers, key, urgent, timeout, func(ctx context.Context) (*Answers, error) {
		pos, err := now(c, c.positions, ctx, positionKey(history, timeout), func(ctx context.Context) (*Position, error) {
			return c.replay(ctx, history)
		})
		if err != nil {
			return nil, err
		}
		q, err := c.g.ParseQuery(query)
		if err != nil {
			return nil, err
		}
		a, err := c.g.Evaluate(ctx, pos.state, q, game.QueryOptions{MaxMoves: memoJointMoves, Keep: keptAnswers})
		if err != nil {
			return nil, err
		}
		return c.answersFrom(a, len(pos.Played)), nil
	})
}

// answersFrom converts the game's answers.
func (c *docGame) answersFrom(a *game.Answers, played int) *Answers {
	out := &Answers{Count: a.Count, More: a.More, Answers: a.Answers, NeedsMove: a.NeedsMove, JointMoves: a.JointMoves, Stopped: a.Stopped, Played: played}
	if out.Answers == nil {
		out.Answers = []string{}
	}
	for _, m := range a.ByMove {
		out.ByMove = append(out.ByMove, MoveAnswers{Move: c.moveTexts(m.Move), Answers: m.Answers, Count: m.Count, More: m.More, Err: m.Err})
	}
	return out
}

// moveTexts writes a joint move as one text per role, in the game's notation.
func (c *docGame) moveTexts(joint []eval.Term) []string {
	out := make([]string, len(joint))
	for i, t := range joint {
		out[i] = c.g.String(t)
	}
	return out
}

// replay computes the current state of a history: the joint moves are played from the initial
// state (game.Replay) as far as they apply to the game; Err says why the rest did not.
func (c *docGame) replay(ctx context.Context, history [][]string) (*Position, error) {
	var joints [][]eval.Term
	var unread error
	for i, move := range history {
		joint, err := c.g.ParseMoves(move)
		if err != nil {
			sep := " " // a joint move as the game writes one: (a b), in infix (a, b)
			if c.g.Notation() == syntax.Infix {
				sep = ", "
			}
			unread = &game.MoveError{Step: i + 1, Joint: "(" + strings.Join(move, sep) + ")", Err: err}
			break
		}
		joints = append(joints, joint)
	}
	p, err := c.g.Replay(ctx, joints)
	if err != nil {
		return nil, err
	}
	pos := &Position{state: p.State(), Fluents: c.g.Strings(p.State().Fluents()), Played: [][]string{}, Err: p.Err}
	for _, j := range p.Moves {
		pos.Played = append(pos.Played, c.moveTexts(j))
	}
	if pos.Err == nil {
		pos.Err = unread
	}
	return pos, nil
}

// explain formats an evaluation error for snap, a version that may differ from the one the game
// was made from by comments and whitespace: the line of a rule named in a limit error is given
// in snap.
func (c *docGame) explain(snap *Snapshot, err error) string {
	le, ok := err.(*eval.LimitError)
	if !ok || le.Line == 0 || len(c.starts) == 0 {
		return err.Error()
	}
	_, starts := gameKey(snap.File())
	if len(starts) != len(c.starts) {
		return err.Error()
	}
	i := sort.SearchInts(c.starts, le.Span.Start+1) - 1
	if i < 0 {
		return err.Error()
	}
	moved := *le
	moved.Line = snap.Line(starts[i]+le.Span.Start-c.starts[i]) + 1
	if moved.Line == le.Line {
		return err.Error()
	}
	return moved.Error()
}

// refreshNow asks for the evaluated features again.
func (gs *Games) refreshNow() {
	if gs.opts.Refresh != nil {
		gs.opts.Refresh()
	}
}

// refreshWhenDone asks for the evaluated features again once done is closed: an evaluation a
// lens or hint could not wait for has finished. Refreshes that fall close together are made
// once.
func (gs *Games) refreshWhenDone(done <-chan struct{}) {
	if gs.opts.Refresh == nil {
		return
	}
	go func() {
		select {
		case <-done:
		case <-gs.ctx.Done():
			return
		}
		gs.refreshMu.Lock()
		defer gs.refreshMu.Unlock()
		if gs.refreshPending {
			return
		}
		gs.refreshPending = true
		time.AfterFunc(100*time.Millisecond, func() {
			gs.refreshMu.Lock()
			gs.refreshPending = false
			gs.refreshMu.Unlock()
			gs.refreshNow()
		})
	}()
}
