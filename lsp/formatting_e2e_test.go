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

// TestRangeFormattingOverStdio formats the selected rule only: its layout changes, the rest of
// the document keeps its own; a document with syntax errors is refused with the reason.
func TestRangeFormattingOverStdio(t *testing.T) {
	text := "(role r)   (role s)\n(<= (p ?x)   (q ?x)\n\t(not (t ?x)))\n(<= (u ?x)   (q ?x))\n"
	c := startServer(t)
	c.initialize()
	const uri = "file:///w/range.kif"
	c.open(uri, text)
	c.diagnosticsFor(uri, 1)
	var edits []protocol.TextEdit
	sel := protocol.Range{Start: pos(1, 0), End: pos(2, 14)}
	c.mustCall("textDocument/rangeFormatting", protocol.DocumentRangeFormattingParams{TextDocument: docID(uri), Range: sel}, &edits)
	got := applyEdits(t, text, edits)
	want := "(role r)   (role s)\n(<= (p ?x)\n    (q ?x)\n    (not (t ?x)))\n(<= (u ?x)   (q ?x))\n"
	if got != want {
		t.Errorf("range formatting gave\n%s\nwant\n%s", got, want)
	}
	// Break the document: an unclosed rule at the end.
	v := c.change(uri, protocol.Range{Start: pos(4, 0), End: pos(4, 0)}, "(<= (v ?x)\n")
	c.diagnosticsFor(uri, v)
	err := c.call("textDocument/rangeFormatting", protocol.DocumentRangeFormattingParams{TextDocument: docID(uri), Range: sel}, &edits)
	if err == nil || !strings.Contains(err.Error(), "syntax") {
		t.Errorf("range formatting of a document with syntax errors: %v", err)
	}
}
