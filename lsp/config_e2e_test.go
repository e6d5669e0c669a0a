package lsp

import (
	"testing"
	"time"

	"go.lsp.dev/protocol"
)

// waitPublication waits until a publication of diagnostics for uri satisfies ok.
func (c *testClient) waitPublication(uri protocol.DocumentURI, what string, ok func(protocol.PublishDiagnosticsParams) bool) {
	c.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		c.mu.Lock()
		ps := append([]protocol.PublishDiagnosticsParams(nil), c.diags[uri]...)
		c.mu.Unlock()
		for _, p := range ps {
			if ok(p) {
				return
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	c.t.Fatalf("no publication for %s with %s", uri, what)
}

func (c *testClient) publications(uri protocol.DocumentURI) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.diags[uri])
}

func severityOf(p protocol.PublishDiagnosticsParams, code string) (protocol.DiagnosticSeverity, bool) {
	for _, d := range p.Diagnostics {
		if d.Code == code {
			return d.Severity, true
		}
	}
	return 0, false
}

// TestConfigurationOverStdio: the `gdl` section pulled with workspace/configuration sets
// severities and turns code lenses off; didChangeConfiguration re-reads it and republishes;
// didSave republishes too.
func TestConfigurationOverStdio(t *testing.T) {
	c := startServer(t)
	c.mu.Lock()
	c.settings = map[string]any{
		"severity": map[string]string{"unmatched-close-paren": "warning"},
		"codeLens": map[string]any{"enable": false},
	}
	c.mu.Unlock()
	c.initialize()
	const uri = "file:///w/config.kif"
	c.open(uri, "(role robot))\n(init (p 1))\n(<= (legal robot go) (true (p 1)))\n")
	c.waitPublication(uri, "unmatched-close-paren as a warning", func(p protocol.PublishDiagnosticsParams) bool {
		s, ok := severityOf(p, "unmatched-close-paren")
		return ok && s == protocol.DiagnosticSeverityWarning
	})
	var lenses []protocol.CodeLens
	c.mustCall("textDocument/codeLens", protocol.CodeLensParams{TextDocument: docID(uri)}, &lenses)
	if len(lenses) != 0 {
		t.Errorf("code lenses while gdl.codeLens.enable is false: %d", len(lenses))
	}

	c.mu.Lock()
	c.settings = map[string]any{"severity": map[string]string{"unmatched-close-paren": "off"}}
	c.mu.Unlock()
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": nil})
	c.waitPublication(uri, "unmatched-close-paren turned off", func(p protocol.PublishDiagnosticsParams) bool {
		_, ok := severityOf(p, "unmatched-close-paren")
		return !ok
	})
	c.mustCall("textDocument/codeLens", protocol.CodeLensParams{TextDocument: docID(uri)}, &lenses)
	if len(lenses) == 0 {
		t.Error("no code lenses once gdl.codeLens.enable is back to its default")
	}

	n := c.publications(uri)
	c.notify("textDocument/didSave", protocol.DidSaveTextDocumentParams{TextDocument: docID(uri)})
	c.waitPublication(uri, "a publication after save", func(protocol.PublishDiagnosticsParams) bool {
		return c.publications(uri) > n
	})
	if err := c.shutdown(); err != nil {
		t.Errorf("exit: %v", err)
	}
}
