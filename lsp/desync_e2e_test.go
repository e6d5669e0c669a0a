package lsp

import (
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// TestOutOfSync sends a change the server cannot apply (its range ends before it starts). The
// server must not guess: it says the document is out of sync (an error diagnostic and a
// message), fails requests on it instead of answering from stale text, ignores further ranged
// changes, and recovers with a full-text change.
func TestOutOfSync(t *testing.T) {
	c := startServer(t)
	c.initialize()
	uri := protocol.DocumentURI("file:///desync.kif")
	text := "(role robot)\n(init (cell a))\n"
	c.open(uri, text)
	c.diagnosticsFor(uri, 1)

	v := c.change(uri, protocol.Range{Start: pos(1, 5), End: pos(0, 2)}, "x")
	ds := c.diagnosticsFor(uri, v)
	if len(ds) != 1 || ds[0].Code != "out-of-sync" || ds[0].Severity != protocol.DiagnosticSeverityError {
		t.Fatalf("after an impossible change: diagnostics %+v, want one out-of-sync error", ds)
	}
	waitFor(t, "window/showMessage about the lost text", func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		for _, m := range c.messages {
			if strings.Contains(m, "lost track of the text") {
				return true
			}
		}
		return false
	})
	var hover any
	if err := c.call("textDocument/hover", tdpp(uri, pos(0, 2)), &hover); rpcCode(err) != -32803 {
		t.Errorf("hover on a document out of sync: %v, want RequestFailed (-32803)", err)
	}

	// A ranged change cannot resync: the server does not know the text it applies to.
	v = c.change(uri, protocol.Range{Start: pos(0, 0), End: pos(0, 0)}, ";")
	if ds := c.diagnosticsFor(uri, v); len(ds) != 1 || ds[0].Code != "out-of-sync" {
		t.Errorf("ranged change while out of sync: diagnostics %+v, want still out of sync", ds)
	}

	// A full-text change does.
	v = c.replace(uri, "(role robot)\n(<= (legal robot ?m) (true (cell ?x)))\n")
	ds = c.diagnosticsFor(uri, v)
	found := false
	for _, d := range ds {
		if d.Code == "out-of-sync" {
			t.Errorf("still out of sync after a full-text change: %+v", d)
		}
		if d.Code == "unsafe-variable" {
			found = true
		}
	}
	if !found {
		t.Errorf("after the full-text change: diagnostics %+v, want the unsafe ?m of the new text", ds)
	}
	if err := c.call("textDocument/hover", tdpp(uri, pos(0, 2)), &hover); err != nil {
		t.Errorf("hover after resync: %v", err)
	}
}
