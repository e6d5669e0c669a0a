package lsp

import (
	"testing"

	"go.lsp.dev/protocol"
)

// End-to-end tests: the built binary over real stdio.

func TestLifecycle(t *testing.T) {
	c := startServer(t)
	var early any
	if err := c.call("textDocument/hover", tdpp("file:///x.kif", pos(0, 0)), &early); rpcCode(err) != -32002 {
		t.Errorf("request before initialize: got %v, want ServerNotInitialized", err)
	}
	res := c.initialize()
	if res.Capabilities.PositionEncoding != "utf-16" {
		t.Errorf("positionEncoding = %q, want utf-16 when the client offers nothing", res.Capabilities.PositionEncoding)
	}
	if res.Capabilities.TextDocumentSync.Change != protocol.TextDocumentSyncKindIncremental {
		t.Errorf("sync kind = %v, want incremental", res.Capabilities.TextDocumentSync.Change)
	}
	if err := c.shutdown(); err != nil {
		t.Errorf("exit after shutdown: %v, want status 0", err)
	}
}

func TestExitWithoutShutdown(t *testing.T) {
	c := startServer(t)
	c.initialize()
	c.notify("exit", nil)
	if err := <-c.done; err == nil {
		t.Error("exit without shutdown: status 0, want 1")
	}
	c.done <- nil
}

func TestUnknownMethod(t *testing.T) {
	c := startServer(t)
	c.initialize()
	err := c.call("gdl/noSuchMethod", map[string]any{}, nil)
	if rpcCode(err) != -32601 {
		t.Errorf("unknown method: got %v, want MethodNotFound (-32601)", err)
	}
	c.notify("gdl/noSuchNotification", map[string]any{})
	// The server is still alive and answers.
	var res any
	if err := c.call("gdl/noSuchMethod", nil, &res); rpcCode(err) != -32601 {
		t.Errorf("second unknown method: got %v", err)
	}
	if err := c.shutdown(); err != nil {
		t.Errorf("exit: %v", err)
	}
}

// TestNonASCIIPositions checks the negotiated encoding end to end: a diagnostic after a
// non-ASCII symbol is reported at its UTF-16 or UTF-8 column, and an edit addressed in that
// encoding lands on the right bytes.
func TestNonASCIIPositions(t *testing.T) {
	// é is 1 UTF-16 unit and 2 bytes; 😀 is 2 UTF-16 units and 4 bytes.
	const text = "(role robot)\n(p é😀) )\n"
	for _, tc := range []struct {
		offer []string
		want  string
		col   uint32 // column of the stray ')'
	}{
		{nil, "utf-16", 8},
		{[]string{"utf-16"}, "utf-16", 8},
		{[]string{"utf-32", "utf-8", "utf-16"}, "utf-8", 11},
	} {
		t.Run(tc.want, func(t *testing.T) {
			c := startServer(t)
			if got := c.initialize(tc.offer...).Capabilities.PositionEncoding; got != tc.want {
				t.Fatalf("positionEncoding = %q, want %q", got, tc.want)
			}
			const uri = "file:///w/enc.kif"
			c.open(uri, text)
			var stray *protocol.Diagnostic
			diags := c.diagnosticsFor(uri, 1)
			for i, d := range diags {
				if d.Code == "unmatched-close-paren" {
					stray = &diags[i]
				}
			}
			if stray == nil {
				t.Fatalf("no unmatched-close-paren diagnostic in %+v", diags)
			}
			if want := rng(1, tc.col, 1, tc.col+1); stray.Range != want {
				t.Errorf("range = %v, want %v", stray.Range, want)
			}
			// Delete the stray parenthesis by its position in the negotiated encoding.
			v := c.change(uri, rng(1, tc.col-1, 1, tc.col+1), "")
			for _, d := range c.diagnosticsFor(uri, v) {
				if d.Code == "unmatched-close-paren" {
					t.Errorf("after deleting the stray ')': still %v at %v", d.Message, d.Range)
				}
			}
			// An insertion right after the emoji: splitting it would make invalid UTF-8.
			v = c.change(uri, rng(1, tc.col-2, 1, tc.col-2), " x")
			for _, d := range c.diagnosticsFor(uri, v) {
				if d.Code == "invalid-character" {
					t.Errorf("insertion after the emoji broke the text: %v", d.Message)
				}
			}
			c.notify("textDocument/didClose", protocol.DidCloseTextDocumentParams{TextDocument: docID(uri)})
			if d := c.diagnosticsFor(uri, 0); len(d) != 0 {
				t.Errorf("diagnostics after close: %v, want none", d)
			}
			if err := c.shutdown(); err != nil {
				t.Errorf("exit: %v", err)
			}
		})
	}
}
