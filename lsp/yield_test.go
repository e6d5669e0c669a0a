package lsp

import (
	"context"
	"sync/atomic"
	"testing"
	"time"
)

// TestYieldingContext: an analysis's context waits in Err while a request is answered and goes
// on once it has been; it does not wait when none is, nor past what is left of maxYield in the
// busy stretch, nor once the analysis is cancelled.
func TestYieldingContext(t *testing.T) {
	var g requestGate
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	yc := yieldingContext{Context: ctx, gate: &g}
	if err := yc.Err(); err != nil { // no request: at once
		t.Fatalf("Err with no request: %v", err)
	}

	g.enter()
	done := make(chan error, 1)
	go func() { done <- yc.Err() }()
	time.Sleep(maxYield / 5)
	select {
	case <-done:
		t.Fatal("Err returned while a request was answered")
	default:
	}
	g.leave()
	if err := <-done; err != nil {
		t.Fatalf("Err after the request: %v", err)
	}

	g.enter()
	g.mu.Lock()
	g.spent = maxYield // the stretch's allowance is spent: no more waiting in it
	g.mu.Unlock()
	if err := yc.Err(); err != nil {
		t.Fatalf("Err with the allowance spent: %v", err)
	}
	g.leave()

	// A request that waits for the analysis itself: no waiting for it, from the start or from
	// when it begins to wait.
	g.limit = time.Hour
	var waitsForIt atomic.Bool
	waitsForIt.Store(true)
	awaited := yieldingContext{Context: ctx, gate: &g, awaited: waitsForIt.Load}
	g.enter()
	if err := awaited.Err(); err != nil {
		t.Fatalf("Err with a request waiting for the analysis: %v", err)
	}
	waitsForIt.Store(false)
	go func() { done <- awaited.Err() }()
	waitsForIt.Store(true)
	if err := <-done; err != nil {
		t.Fatalf("Err once a request waits for the analysis: %v", err)
	}
	g.leave()

	g.enter() // a new stretch: waiting again, until the analysis is cancelled
	go func() { done <- yc.Err() }()
	cancel()
	if err := <-done; err != context.Canceled {
		t.Fatalf("Err of a cancelled analysis during a request: %v", err)
	}
	g.leave()
}

// TestAnalysisYieldsToRequests: while a request is being answered, the analysis of a document
// opened meanwhile waits at its cancellation points (in its parse: the file has more than 256
// forms) instead of running beside it, and goes on to its checks once the request is answered.
// The request is held by a test method and the wait has no time limit here, so nothing depends
// on timing.
func TestAnalysisYieldsToRequests(t *testing.T) {
	held, release := make(chan struct{}), make(chan struct{})
	c := startInProcess(t, map[string]method{"test/held": {handle: func(ctx context.Context, r *request) (any, error) {
		close(held)
		<-release
		return "answered", nil
	}}})
	gate := &c.server.requests
	gate.limit = time.Hour
	h := holdAnalyses(c.server)
	c.initialize()
	answered := make(chan error, 1)
	go func() {
		var out string
		answered <- c.call("test/held", map[string]any{}, &out)
	}()
	<-held
	const uri = "file:///w/yield.kif"
	c.open(uri, hostileRules(2000))
	deadline := time.Now().Add(time.Minute)
	for gate.waits.Load() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the analysis never waited for the request being answered")
		}
		select {
		case u := <-h.started:
			t.Fatalf("the analysis of %s reached its checks while a request was being answered", u)
		case <-time.After(time.Millisecond):
		}
	}
	close(release)
	if err := <-answered; err != nil {
		t.Fatalf("test/held: %v", err)
	}
	h.waitHeld(t, uri) // it goes on
	h.letGo()
	c.shutdown()
}
