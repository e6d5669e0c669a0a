package lsp

import (
	"strings"
	"syscall"
	"testing"

	"go.lsp.dev/protocol"
)

// TestFormattingDeepNestingOverStdio is issue 10, item 1, through the real binary: the
// formatter's memory grew with the square of the nesting depth (1.5 GB for this 80 KB document;
// a 160 KB one killed the server with `fatal error: out of memory`). Formatting answers with the
// layout, the server keeps serving, and its peak memory stays far below what that took.
func TestFormattingDeepNestingOverStdio(t *testing.T) {
	const depth = 20000
	nested := strings.Repeat("(f ", depth) + "a" + strings.Repeat(")", depth)
	text := "(role r)\n(p  " + nested + ")\n"
	want := "(role r)\n(p " + nested + ")\n"
	c := startServer(t)
	c.initialize()
	const uri = "file:///w/deep.kif"
	c.open(uri, text)
	c.diagnosticsFor(uri, 1)
	var edits []protocol.TextEdit
	c.mustCall("textDocument/formatting", protocol.DocumentFormattingParams{TextDocument: docID(uri)}, &edits)
	if len(edits) != 1 || edits[0].NewText != want {
		t.Fatalf("formatting: %d edits, want one with the canonical layout", len(edits))
	}
	var h protocol.Hover
	c.mustCall("textDocument/hover", tdpp(uri, pos(0, 2)), &h)
	if !strings.Contains(h.Contents.Value, "role") {
		t.Errorf("hover of role after formatting: %q", h.Contents.Value)
	}
	if err := c.shutdown(); err != nil {
		t.Fatalf("server exit: %v", err)
	}
	if !raceBuild { // the race detector's shadow memory is not the server's
		rss := c.cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10 // KiB on Linux
		t.Logf("server peak memory: %d MiB", rss>>20)
		if rss > 400<<20 {
			t.Errorf("server peak memory %d MiB, more than 400 MiB for an 80 KB document", rss>>20)
		}
	}
}
