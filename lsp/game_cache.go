package lsp

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/ide"
	"github.com/gdl-lsp/gdl/syntax"
)

// Compiled games and the results evaluated on them, shared between requests and versions.
//
// Compiling a game is cheap (a few ms for chess); evaluating on a fresh one is not: the first
// `legal` of chess derives about 150,000 facts (150 to 300 ms). So a document keeps its compiled
// game for as long as its clauses stay the same: an edit of a comment or of the whitespace between
// forms changes nothing the evaluator sees, and the game, with the facts it has derived and the
// answers computed on it, carries over to the new version.
//
// Hovers, code lenses and inlay hints ask for results through memo: the first request queues
// the evaluation, and one worker per game runs the queue, each evaluation under the user's time
// limit counted from when it starts. A Game serialises its calls anyway; the queue lets what a
// person is waiting for (a hover, the hints on screen) go before the lenses, which are many and
// best effort. Every request waits only as long as its own budget allows and otherwise says that
// the evaluation is still running. The queue is dropped when the document moves on to other
// clauses. Hovers, lenses and hints never call the game directly (they would wait behind the
// worker); the commands a person runs explicitly (gdl.runQuery, the state commands) do, under
// the full limits, and so wait for the evaluation in progress.

// compiledGame is a game compiled from one version of a document and shared by the later
// versions with the same clauses.
type compiledGame struct {
	g      *eval.Game
	key    [sha256.Size]byte // fingerprint of the clauses (see gameKey)
	starts []int             // start of each clause item in the version compiled, for error lines
	ctx    context.Context   // ends when no version of the document uses this game any more
	cancel context.CancelFunc

	mu         sync.Mutex
	results    map[string]*result
	urgent     []*job // asked for by a hover or inlay hints
	background []*job // asked for by code lenses
	working    bool   // the worker goroutine runs
}

// result is one memoised evaluation.
type result struct {
	done chan struct{} // closed when val and err are set
	once sync.Once
	val  any
	err  error
}

func newResult() *result { return &result{done: make(chan struct{})} }

func (r *result) finish(val any, err error) {
	r.once.Do(func() {
		r.val, r.err = val, err
		close(r.done)
	})
}

// job is a queued evaluation.
type job struct {
	key     string
	r       *result
	timeout time.Duration
	f       func(ctx context.Context) (any, error)
}

// maxResults bounds the results kept per game; past it the memo starts afresh.
const maxResults = 2000

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

// gameEntry is the game of an open document and the snapshot it was last confirmed for.
type gameEntry struct {
	snap *Snapshot
	c    *compiledGame
}

// gameCache is the compiled game of each open document.
type gameCache struct {
	mu      sync.Mutex
	entries map[protocol.DocumentURI]*gameEntry
}

// gameOf returns the compiled game for snap: the document's current game when its clauses are
// the same, else a new one. Only the document's current snapshot replaces the cached game; a
// request still working on an older version gets a game of its own, already cancelled (its
// answer is superseded anyway).
func (s *Server) gameOf(snap *Snapshot) *compiledGame {
	gs := &s.compiledGames
	gs.mu.Lock()
	if e := gs.entries[snap.URI]; e != nil && e.snap == snap {
		gs.mu.Unlock()
		return e.c
	}
	gs.mu.Unlock()

	key, starts := gameKey(snap.File)
	gs.mu.Lock()
	if e := gs.entries[snap.URI]; e != nil && e.c.key == key {
		if s.currentView().docs[snap.URI] == snap {
			e.snap = snap
		}
		gs.mu.Unlock()
		return e.c
	}
	gs.mu.Unlock()

	c := &compiledGame{g: eval.Compile(snap.Analysis()), key: key, starts: starts, results: map[string]*result{}}
	c.ctx, c.cancel = context.WithCancel(s.ctx)
	gs.mu.Lock()
	defer gs.mu.Unlock()
	if s.currentView().docs[snap.URI] != snap {
		c.cancel()
		return c
	}
	if e := gs.entries[snap.URI]; e != nil {
		if e.c.key == key { // another request compiled the same clauses meanwhile
			c.cancel()
			e.snap = snap
			return e.c
		}
		e.c.cancel()
	}
	if gs.entries == nil {
		gs.entries = map[protocol.DocumentURI]*gameEntry{}
	}
	gs.entries[snap.URI] = &gameEntry{snap: snap, c: c}
	return c
}

// dropGame forgets the game of a closed document and stops its evaluations.
func (s *Server) dropGame(uri protocol.DocumentURI) {
	gs := &s.compiledGames
	gs.mu.Lock()
	defer gs.mu.Unlock()
	if e := gs.entries[uri]; e != nil {
		e.c.cancel()
		delete(gs.entries, uri)
	}
}

// memo returns the result for key, queueing f if no request asked for it yet; first (urgent)
// puts it before the lenses' jobs, moving a queued one forward. The worker runs f with the game's context and timeout.
func (c *compiledGame) memo(key string, first bool, timeout time.Duration, f func(ctx context.Context) (any, error)) *result {
	c.mu.Lock()
	defer c.mu.Unlock()
	if r, ok := c.results[key]; ok {
		if first && !r.ready() {
			for i, j := range c.background {
				if j.key == key {
					c.background = append(c.background[:i:i], c.background[i+1:]...)
					c.urgent = append(c.urgent, j)
					break
				}
			}
		}
		return r
	}
	if len(c.results) >= maxResults {
		c.results = map[string]*result{}
	}
	r := newResult()
	c.results[key] = r
	j := &job{key: key, r: r, timeout: timeout, f: f}
	if first {
		c.urgent = append(c.urgent, j)
	} else {
		c.background = append(c.background, j)
	}
	if !c.working {
		c.working = true
		go c.work()
	}
	return r
}

// work runs the queued jobs, urgent ones first, until the queue is empty or the game is
// dropped (then the jobs left end with the game's error and are forgotten).
func (c *compiledGame) work() {
	for {
		c.mu.Lock()
		if c.ctx.Err() != nil {
			left := append(c.urgent, c.background...)
			c.urgent, c.background, c.working = nil, nil, false
			for _, j := range left {
				delete(c.results, j.key)
			}
			c.mu.Unlock()
			for _, j := range left {
				j.r.finish(nil, context.Cause(c.ctx))
			}
			return
		}
		var j *job
		switch {
		case len(c.urgent) > 0:
			j, c.urgent = c.urgent[0], c.urgent[1:]
		case len(c.background) > 0:
			j, c.background = c.background[0], c.background[1:]
		default:
			c.working = false
			c.mu.Unlock()
			return
		}
		c.mu.Unlock()
		if j.r.ready() {
			continue // computed meanwhile by another job (see now)
		}
		ctx, cancel := context.WithTimeout(c.ctx, j.timeout)
		val, err := c.run(ctx, j.f)
		cancel()
		if err != nil && c.ctx.Err() != nil {
			// The game was dropped: do not keep a result that only says so.
			c.mu.Lock()
			delete(c.results, j.key)
			c.mu.Unlock()
		}
		j.r.finish(val, err)
	}
}

// run calls f, turning a panic into its error.
func (c *compiledGame) run(ctx context.Context, f func(ctx context.Context) (any, error)) (val any, err error) {
	defer func() {
		if p := recover(); p != nil {
			val, err = nil, fmt.Errorf("internal error: %v", p)
		}
	}()
	return f(ctx)
}

// now returns the result for key within a job (on the worker): computed here, under the job's
// context, unless it is known already.
func (c *compiledGame) now(ctx context.Context, key string, f func(ctx context.Context) (any, error)) (any, error) {
	c.mu.Lock()
	r, ok := c.results[key]
	if !ok {
		r = newResult()
		c.results[key] = r
	}
	c.mu.Unlock()
	if !r.ready() {
		val, err := c.run(ctx, f)
		if err != nil {
			c.mu.Lock()
			delete(c.results, key) // a later job tries again, under its own time limit
			c.mu.Unlock()
		}
		r.finish(val, err)
	}
	<-r.done
	return r.val, r.err
}

// errStillRunning says that an evaluation did not finish within the caller's budget; it goes on
// and a later request gets its result.
var errStillRunning = errors.New("evaluation still running")

// wait waits for r at most budget (and not past ctx).
func (r *result) wait(ctx context.Context, budget time.Duration) (any, error) {
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
		return nil, errStillRunning
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
}

// ready reports whether r has finished.
func (r *result) ready() bool {
	select {
	case <-r.done:
		return true
	default:
		return false
	}
}

// historyKey identifies a list of joint moves in memo keys.
func historyKey(h [][]string) string { return fmt.Sprint(h) }

// evalTimeout is the time limit of one background evaluation under the user's settings.
func evalTimeout(st EvalSettings) time.Duration {
	if st.TimeoutMs > 0 {
		return time.Duration(st.TimeoutMs) * time.Millisecond
	}
	return 2 * time.Second
}

// Priorities of memo requests.
const (
	urgent     = true  // a hover or inlay hints: someone is looking
	background = false // a code lens
)

func positionKey(history [][]string, st EvalSettings) string {
	return fmt.Sprintf("position %v %s", st, historyKey(history))
}

func (c *compiledGame) replayFn(history [][]string, st EvalSettings) func(ctx context.Context) (any, error) {
	return func(ctx context.Context) (any, error) {
		ectx, cancel := evalContext(ctx, c.g, st)
		defer cancel()
		return replay(ectx, c.g, history)
	}
}

// position returns the memoised current state for a history: a *position.
func (c *compiledGame) position(history [][]string, st EvalSettings) *result {
	return c.memo(positionKey(history, st), urgent, evalTimeout(st), c.replayFn(history, st))
}

// answers returns the memoised answers of a query in the current state of a history: a
// *queryAnswers with at most keptAnswers answers spelled out.
func (c *compiledGame) answers(history [][]string, st EvalSettings, query string, priority bool) *result {
	return c.memo(fmt.Sprintf("answers %v %s %s", st, historyKey(history), query), priority, evalTimeout(st), func(ctx context.Context) (any, error) {
		pv, err := c.now(ctx, positionKey(history, st), c.replayFn(history, st))
		if err != nil {
			return nil, err
		}
		pos := pv.(*position)
		ectx, cancel := evalContext(ctx, c.g, st)
		defer cancel()
		qa, err := evaluate(ectx, c.g, pos, query, lensJointMoves, keptAnswers)
		if qa != nil {
			qa.played = len(pos.played)
		}
		return qa, err
	})
}

// explain formats an evaluation error for snap, a version that may differ from the one the game
// was compiled from by comments and whitespace: the line of a rule named in a limit error is
// given in snap.
func (c *compiledGame) explain(snap *Snapshot, err error) string {
	le, ok := err.(*eval.LimitError)
	if !ok || le.Line == 0 || len(c.starts) == 0 {
		return err.Error()
	}
	_, starts := gameKey(snap.File)
	if len(starts) != len(c.starts) {
		return err.Error()
	}
	i := sort.SearchInts(c.starts, le.Span.Start+1) - 1
	if i < 0 {
		return err.Error()
	}
	moved := *le
	moved.Line = snap.m.lines.Position(starts[i]+le.Span.Start-c.starts[i], syntax.UTF8).Line + 1
	if moved.Line == le.Line {
		return err.Error()
	}
	return moved.Error()
}

// evaluation is the document's evaluation for the features (ide.Evaluation) on the game cache.
func (r *request) evaluation(snap *Snapshot) ide.Evaluation {
	return &cachedEvaluation{s: r.s, snap: snap, st: r.view.settingsFor(snap.URI).Eval}
}

type cachedEvaluation struct {
	s    *Server
	snap *Snapshot
	st   EvalSettings
}

func (e *cachedEvaluation) limits(w ide.Wait) EvalSettings {
	st := e.st
	if w.Timeout > 0 {
		st.TimeoutMs = min(st.TimeoutMs, int(w.Timeout/time.Millisecond))
	}
	return st
}

func (e *cachedEvaluation) wait(ctx context.Context, res *result, w ide.Wait) (any, error) {
	val, err := res.wait(ctx, max(w.Budget, 0))
	if errors.Is(err, errStillRunning) {
		if w.Refresh {
			e.s.refreshWhenDone(res)
		}
		return nil, ide.ErrStillRunning
	}
	return val, err
}

func (e *cachedEvaluation) Answers(ctx context.Context, query string, w ide.Wait) (*ide.Answers, error) {
	cg := e.s.gameOf(e.snap)
	val, err := e.wait(ctx, cg.answers(e.History(), e.limits(w), query, w.Urgent), w)
	if err != nil {
		return nil, err
	}
	qa := val.(*queryAnswers)
	out := &ide.Answers{Count: qa.count, Answers: qa.answers, NeedsMove: qa.needsMove, JointMoves: qa.jointMoves, Stopped: qa.stopped, Played: qa.played}
	for i, m := range qa.byMove {
		ma := ide.MoveAnswers{Move: m.Move, Answers: m.Answers, Count: qa.moveCounts[i]}
		if m.Error != "" {
			ma.Err = errors.New(m.Error)
		}
		out.ByMove = append(out.ByMove, ma)
	}
	return out, nil
}

func (e *cachedEvaluation) Position(ctx context.Context, w ide.Wait) (*ide.Position, error) {
	cg := e.s.gameOf(e.snap)
	val, err := e.wait(ctx, cg.position(e.History(), e.limits(w)), w)
	if err != nil {
		return nil, err
	}
	p := val.(*position)
	return &ide.Position{Fluents: p.fluents, Played: p.played, Err: p.err}, nil
}

func (e *cachedEvaluation) Explain(err error) string { return e.s.gameOf(e.snap).explain(e.snap, err) }

func (e *cachedEvaluation) Timeout() time.Duration { return evalTimeout(e.st) }

func (e *cachedEvaluation) History() [][]string { return e.s.games.history(e.snap.URI) }
