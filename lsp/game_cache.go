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
// Hovers, code lenses and inlay hints ask for results through memo: the first request starts the
// evaluation on a goroutine of its own, bounded by the user's time limit and cancelled when the
// document moves on to other clauses; every request waits for it only as long as its own budget
// allows and otherwise says that the evaluation is still running. A Game serialises its calls,
// so nothing on a request's path calls the game directly: it would wait behind a long evaluation.

// compiledGame is a game compiled from one version of a document and shared by the later
// versions with the same clauses.
type compiledGame struct {
	g      *eval.Game
	key    [sha256.Size]byte // fingerprint of the clauses (see gameKey)
	starts []int             // start of each clause item in the version compiled, for error lines
	ctx    context.Context   // ends when no version of the document uses this game any more
	cancel context.CancelFunc

	mu      sync.Mutex
	results map[string]*result
}

// result is one memoised evaluation.
type result struct {
	done chan struct{} // closed when val and err are set
	val  any
	err  error
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

// memo returns the result for key, starting f on a goroutine of its own if no request asked for
// it yet. f runs with the game's context bounded by timeout; a panic in it becomes its error.
func (c *compiledGame) memo(key string, timeout time.Duration, f func(ctx context.Context) (any, error)) *result {
	c.mu.Lock()
	if r, ok := c.results[key]; ok {
		c.mu.Unlock()
		return r
	}
	if len(c.results) >= maxResults {
		c.results = map[string]*result{}
	}
	r := &result{done: make(chan struct{})}
	c.results[key] = r
	c.mu.Unlock()
	go func() {
		ctx, cancel := context.WithTimeout(c.ctx, timeout)
		defer cancel()
		defer close(r.done)
		defer func() {
			if p := recover(); p != nil {
				r.val, r.err = nil, fmt.Errorf("internal error: %v", p)
			}
		}()
		r.val, r.err = f(ctx)
		if r.err != nil && c.ctx.Err() != nil {
			// The game was dropped: do not keep a result that only says so.
			c.mu.Lock()
			delete(c.results, key)
			c.mu.Unlock()
		}
	}()
	return r
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

// position returns the memoised current state for a history.
func (c *compiledGame) position(history [][]string, st EvalSettings) *result {
	return c.memo(fmt.Sprintf("position %v %s", st, historyKey(history)), evalTimeout(st), func(ctx context.Context) (any, error) {
		ectx, cancel := evalContext(ctx, c.g, st)
		defer cancel()
		return replay(ectx, c.g, history)
	})
}

// answers returns the memoised answers of a query in the current state of a history: a
// *queryAnswers.
func (c *compiledGame) answers(history [][]string, st EvalSettings, query string) *result {
	return c.memo(fmt.Sprintf("answers %v %s %s", st, historyKey(history), query), evalTimeout(st), func(ctx context.Context) (any, error) {
		pr := c.position(history, st)
		pv, err := pr.wait(ctx, evalTimeout(st))
		if err != nil {
			return nil, err
		}
		pos := pv.(*position)
		ectx, cancel := evalContext(ctx, c.g, st)
		defer cancel()
		qa, err := evaluate(ectx, c.g, pos, query, lensJointMoves)
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
