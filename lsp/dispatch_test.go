package lsp

import (
	"context"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/protocol"
)

// Dispatcher tests: real framing, in process, with methods that block or panic on purpose.

// blocker is a request handler that signals its start and then waits for its context.
type blocker struct {
	started chan struct{}
	once    sync.Once
}

func newBlocker() *blocker { return &blocker{started: make(chan struct{})} }

func (b *blocker) method() method {
	return method{handle: func(ctx context.Context, r *request) (any, error) {
		b.once.Do(func() { close(b.started) })
		select {
		case <-ctx.Done():
			return "finished anyway", nil // the dispatcher must still answer with the error
		case <-time.After(30 * time.Second):
			return "timed out", nil
		}
	}}
}

func TestCancelRequest(t *testing.T) {
	b := newBlocker()
	c := startInProcess(t, map[string]method{"test/block": b.method()})
	c.initialize()
	errc := make(chan error, 1)
	go func() {
		var res any
		errc <- c.call("test/block", map[string]any{}, &res)
	}()
	<-b.started
	// The client numbers its calls 1 (initialize), 2 (test/block).
	c.notify("$/cancelRequest", map[string]any{"id": 2})
	select {
	case err := <-errc:
		if rpcCode(err) != -32800 {
			t.Errorf("cancelled request: got %v, want RequestCancelled (-32800)", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("cancelled request never answered")
	}
	// A cancel for an unknown or finished id is ignored.
	c.notify("$/cancelRequest", map[string]any{"id": 99})
	c.notify("$/cancelRequest", map[string]any{"id": "two"})
	if err := c.shutdown(); err != nil {
		t.Errorf("exit: %v", err)
	}
}

func TestSupersededRequest(t *testing.T) {
	b := newBlocker()
	c := startInProcess(t, map[string]method{"test/block": b.method()})
	c.initialize()
	const uri = "file:///w/s.kif"
	c.open(uri, "(role robot)\n")
	errc := make(chan error, 1)
	go func() {
		errc <- c.call("test/block", map[string]any{"textDocument": map[string]any{"uri": uri}}, nil)
	}()
	<-b.started
	c.change(uri, rng(1, 0, 1, 0), "(init (cell 1))\n")
	select {
	case err := <-errc:
		if rpcCode(err) != -32801 {
			t.Errorf("superseded request: got %v, want ContentModified (-32801)", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("superseded request never answered")
	}
}

func TestPanicRecovered(t *testing.T) {
	boom := method{handle: func(ctx context.Context, r *request) (any, error) {
		var m map[string]int
		//lint:ignore SA5000 the test needs a real runtime panic
		m["x"] = 1
		return nil, nil
	}}
	c := startInProcess(t, map[string]method{"test/panic": boom, "test/panicInline": {inline: true, handle: boom.handle}})
	c.initialize()
	for _, m := range []string{"test/panic", "test/panicInline"} {
		if err := c.call(m, map[string]any{}, nil); rpcCode(err) != -32603 {
			t.Errorf("%s: got %v, want InternalError (-32603)", m, err)
		}
	}
	// The server lives on: documents still sync and diagnostics still flow.
	const uri = "file:///w/p.kif"
	c.open(uri, "(role robot) )")
	if d := c.diagnosticsFor(uri, 1); len(d) == 0 {
		t.Error("no diagnostics after a panic")
	}
	c.notify("textDocument/didClose", protocol.DidCloseTextDocumentParams{TextDocument: docID(uri)})
	if err := c.shutdown(); err != nil {
		t.Errorf("exit: %v", err)
	}
}
