package lsp

import (
	"testing"

	"go.lsp.dev/protocol"
)

// TestMissingKeywordDiagnostics: a game without terminal gets missing-terminal on the first line
// of its first form (editors drop or hide empty ranges at the top of a file), and it goes away
// once a terminal rule is typed.
func TestMissingKeywordDiagnostics(t *testing.T) {
	c := startServer(t)
	c.initialize()
	uri := protocol.DocumentURI("file:///missing.kif")
	c.open(uri, "; a game\n(role robot)\n(legal robot wait)\n(goal robot 100)\n")
	var found *protocol.Diagnostic
	ds := c.diagnosticsFor(uri, 1)
	for i := range ds {
		if ds[i].Code == "missing-terminal" {
			found = &ds[i]
		}
	}
	if found == nil {
		t.Fatalf("missing-terminal not published: %+v", ds)
	}
	if want := rng(1, 0, 1, 12); found.Range != want || found.Severity != protocol.DiagnosticSeverityError {
		t.Errorf("missing-terminal at %v (severity %v), want %v (the form (role robot)), error", found.Range, found.Severity, want)
	}
	v := c.change(uri, rng(4, 0, 4, 0), "(<= terminal (true (done)))\n")
	for _, d := range c.diagnosticsFor(uri, v) {
		if d.Code == "missing-terminal" {
			t.Errorf("missing-terminal still published after terminal was added: %+v", d)
		}
	}
	if err := c.shutdown(); err != nil {
		t.Errorf("exit: %v", err)
	}
}
