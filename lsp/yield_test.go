package lsp

import (
	"context"
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

	g.enter() // a new stretch: waiting again, until the analysis is cancelled
	go func() { done <- yc.Err() }()
	cancel()
	if err := <-done; err != context.Canceled {
		t.Fatalf("Err of a cancelled analysis during a request: %v", err)
	}
	g.leave()
}
