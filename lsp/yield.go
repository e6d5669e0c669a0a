package lsp

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// Requests before analyses. The analysis of a large document for its diagnostics (a parse and
// a model of a 3 MB file take over half a second of CPU) and the requests answered meanwhile
// (from the syntax stage or an earlier model: a few ms each) share the machine's cores, two on
// CI; left to Go's scheduler, a hover sent with the opening of such a file waited for its share
// behind the parse, its garbage and the model's goroutines. So the analysis yields: its context
// (yieldingContext) is asked for its Err at every point where the analysis looks for its
// cancellation (every 256 top-level forms of the parse and of the model, between checks), and
// there it waits while requests are being answered. It does not wait for a request that waits
// for the analysis itself (ide.(*Snapshot).Awaited: a code lens, or any request on a document
// under 64 KB, waits for the model), and its wait is bounded: by maxYield in all for each
// stretch of time during which requests run (a long request costs the analysis that much once),
// and by the analysis's own cancellation.

// maxYield is how long, in all, the analyses wait for the requests of one busy stretch: the
// target latency of a request during an analysis (issue 21: 50 ms).
const maxYield = 50 * time.Millisecond

// requestGate counts the requests being answered and lets analyses wait for them.
type requestGate struct {
	running atomic.Int32 // requests being answered; read without the lock on every poll

	// waits counts the waits of analyses so far; limit, when set (by tests), replaces maxYield.
	waits atomic.Int64
	limit time.Duration

	mu    sync.Mutex
	idle  chan struct{} // closed when the busy stretch ends (running drops to 0); nil when idle
	spent time.Duration // waited in this busy stretch
}

// enter records that a request is being answered.
func (g *requestGate) enter() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.running.Add(1) == 1 {
		g.idle, g.spent = make(chan struct{}), 0
	}
}

// leave records that a request has been answered.
func (g *requestGate) leave() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.running.Add(-1) == 0 {
		close(g.idle)
		g.idle = nil
	}
}

// yieldStep is how often a waiting analysis looks whether a request now waits for it.
const yieldStep = 2 * time.Millisecond

// yield waits while requests are being answered, within what is left of maxYield for this busy
// stretch, or until ctx is done, or until awaited (when not nil) reports that a request waits
// for the analysis itself (its parse or its model, as a code lens or a document under 64 KB
// does): yielding to it would only delay both.
func (g *requestGate) yield(ctx context.Context, awaited func() bool) {
	if g.running.Load() == 0 || awaited != nil && awaited() {
		return
	}
	limit := maxYield
	if g.limit > 0 {
		limit = g.limit
	}
	g.mu.Lock()
	idle, left := g.idle, limit-g.spent
	g.mu.Unlock()
	if idle == nil || left <= 0 {
		return
	}
	g.waits.Add(1)
	start := time.Now()
	t := time.NewTimer(left)
	defer t.Stop()
	step := time.NewTicker(yieldStep)
	defer step.Stop()
wait:
	for {
		select {
		case <-idle:
			break wait
		case <-ctx.Done():
			break wait
		case <-t.C:
			break wait
		case <-step.C:
			if awaited != nil && awaited() {
				break wait
			}
		}
	}
	g.mu.Lock()
	if g.idle == idle { // the same stretch
		g.spent += time.Since(start)
	}
	g.mu.Unlock()
}

// yieldingContext is the context of an analysis for diagnostics: its Err yields to the requests
// being answered (requestGate.yield) before it tells whether the analysis was cancelled. Done,
// Deadline, Value and the cause are the parent's.
type yieldingContext struct {
	context.Context
	gate    *requestGate
	awaited func() bool // whether a request waits for this analysis; may be nil
}

func (c yieldingContext) Err() error {
	c.gate.yield(c.Context, c.awaited)
	return c.Context.Err()
}
