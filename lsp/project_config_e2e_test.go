package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// configGame has an unmatched ')' (unmatched-close-paren) and an unused relation
// (unused-relation).
const configGame = "(role robot))\n(init (p 1))\n(<= (legal robot go) (true (p 1)))\n(helper 1)\n"

func writeFile(t *testing.T, p, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func fileURI(p string) protocol.DocumentURI { return protocol.DocumentURI(uri.File(p)) }

// severities waits until the newest diagnostics published for u have the given severity per
// code (0: the code is absent).
func (c *testClient) severities(u protocol.DocumentURI, what string, want map[string]protocol.DiagnosticSeverity) {
	c.t.Helper()
	c.waitPublication(u, what, func(p protocol.PublishDiagnosticsParams) bool {
		c.mu.Lock()
		ps := c.diags[u]
		last := ps[len(ps)-1]
		c.mu.Unlock()
		if last.Version != p.Version || len(last.Diagnostics) != len(p.Diagnostics) {
			return false // only the newest publication counts
		}
		for code, sev := range want {
			got, ok := severityOf(p, code)
			if sev == 0 && ok || sev != 0 && (!ok || got != sev) {
				return false
			}
		}
		return true
	})
}

func (c *testClient) watchedFilesChanged(changes ...protocol.FileEvent) {
	c.t.Helper()
	var ps []*protocol.FileEvent
	for i := range changes {
		ps = append(ps, &changes[i])
	}
	c.notify("workspace/didChangeWatchedFiles", protocol.DidChangeWatchedFilesParams{Changes: ps})
}

// TestProjectConfigPerDocument: without a workspace root, each document gets the gdl.json found
// walking up from its folder, laid over the client's settings (the file wins per code); edits
// of gdl.json reported by the client's file watcher apply; a broken gdl.json is reported on the
// file and in window/showMessage, and the documents under it fall back on the client's settings.
func TestProjectConfigPerDocument(t *testing.T) {
	dir := t.TempDir()
	aConfig := filepath.Join(dir, "a", "gdl.json")
	writeFile(t, aConfig, `{"severity": {"unmatched-close-paren": "warning"}}`)
	c := startServer(t)
	c.mu.Lock()
	c.settings = map[string]any{"severity": map[string]string{"unmatched-close-paren": "hint", "unused-relation": "info"}}
	c.mu.Unlock()
	c.initializeWith(map[string]any{"workspace": map[string]any{
		"configuration":         true,
		"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true},
	}})
	waitFor(t, "client/registerCapability", func() bool { return c.count("client/registerCapability") > 0 })
	c.mu.Lock()
	reg := string(c.registrations[0])
	c.mu.Unlock()
	if !strings.Contains(reg, "workspace/didChangeWatchedFiles") || !strings.Contains(reg, `"**/gdl.json"`) || !strings.Contains(reg, `"**/*.kif"`) {
		t.Fatalf("registration: %s", reg)
	}

	x := fileURI(filepath.Join(dir, "a", "x.kif"))
	z := fileURI(filepath.Join(dir, "a", "sub", "deeper", "z.kif"))
	y := fileURI(filepath.Join(dir, "b", "y.kif"))
	for _, u := range []protocol.DocumentURI{x, y, z} {
		c.open(u, configGame)
	}
	warning, hint, info, errSev := protocol.DiagnosticSeverityWarning, protocol.DiagnosticSeverityHint, protocol.DiagnosticSeverityInformation, protocol.DiagnosticSeverityError
	c.severities(x, "a/gdl.json over the client's settings", map[string]protocol.DiagnosticSeverity{"unmatched-close-paren": warning, "unused-relation": info})
	c.severities(z, "a/gdl.json, two folders up", map[string]protocol.DiagnosticSeverity{"unmatched-close-paren": warning, "unused-relation": info})
	c.severities(y, "the client's settings (no gdl.json)", map[string]protocol.DiagnosticSeverity{"unmatched-close-paren": hint, "unused-relation": info})

	// gdl.json edited on disk; the watcher reports it.
	writeFile(t, aConfig, `{"severity": {"unmatched-close-paren": "error", "unused-relation": "off"}}`)
	c.watchedFilesChanged(protocol.FileEvent{URI: fileURI(aConfig), Type: protocol.FileChangeTypeChanged})
	c.severities(x, "the edited a/gdl.json", map[string]protocol.DiagnosticSeverity{"unmatched-close-paren": errSev, "unused-relation": 0})
	c.severities(z, "the edited a/gdl.json", map[string]protocol.DiagnosticSeverity{"unmatched-close-paren": errSev, "unused-relation": 0})

	// A new gdl.json nearer to z.
	subConfig := filepath.Join(dir, "a", "sub", "gdl.json")
	writeFile(t, subConfig, `{"severity": {"unmatched-close-paren": "info"}}`)
	c.watchedFilesChanged(protocol.FileEvent{URI: fileURI(subConfig), Type: protocol.FileChangeTypeCreated})
	c.severities(z, "the new a/sub/gdl.json", map[string]protocol.DiagnosticSeverity{"unmatched-close-paren": info, "unused-relation": info})
	c.severities(x, "a/gdl.json still", map[string]protocol.DiagnosticSeverity{"unmatched-close-paren": errSev})

	// Broken: an unknown code. Reported on the file, at the code, and shown once.
	writeFile(t, aConfig, "{\"severity\": {\n  \"no-such-code\": \"off\"}}")
	c.watchedFilesChanged(protocol.FileEvent{URI: fileURI(aConfig), Type: protocol.FileChangeTypeChanged})
	c.waitPublication(fileURI(aConfig), "a diagnostic on the broken gdl.json", func(p protocol.PublishDiagnosticsParams) bool {
		return len(p.Diagnostics) == 1 && strings.Contains(p.Diagnostics[0].Message, `unknown diagnostic code "no-such-code"`) &&
			p.Diagnostics[0].Range == rng(1, 2, 1, 16) && p.Diagnostics[0].Severity == errSev
	})
	c.severities(x, "the client's settings under a broken gdl.json", map[string]protocol.DiagnosticSeverity{"unmatched-close-paren": hint, "unused-relation": info})
	waitFor(t, "window/showMessage about the broken gdl.json", func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		for _, m := range c.messages {
			if strings.Contains(m, aConfig) && strings.Contains(m, "no-such-code") {
				return true
			}
		}
		return false
	})

	// Fixed: the file's diagnostics are cleared and it applies again.
	writeFile(t, aConfig, `{"severity": {"unmatched-close-paren": "warning"}}`)
	c.watchedFilesChanged(protocol.FileEvent{URI: fileURI(aConfig), Type: protocol.FileChangeTypeChanged})
	c.waitPublication(fileURI(aConfig), "the broken gdl.json's diagnostics cleared", func(p protocol.PublishDiagnosticsParams) bool {
		return len(p.Diagnostics) == 0
	})
	c.severities(x, "the fixed a/gdl.json", map[string]protocol.DiagnosticSeverity{"unmatched-close-paren": warning})

	// Deleted: the client's settings.
	os.Remove(aConfig)
	c.watchedFilesChanged(protocol.FileEvent{URI: fileURI(aConfig), Type: protocol.FileChangeTypeDeleted})
	c.severities(x, "no gdl.json any more", map[string]protocol.DiagnosticSeverity{"unmatched-close-paren": hint})
}

// TestOpenConfigDocument: an open gdl.json is checked as it is typed (diagnostics per version,
// syntax errors placed where they are); other requests about it get null; saving it applies it
// to the documents under it (here, for a client that does not watch files).
func TestOpenConfigDocument(t *testing.T) {
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "gdl.json")
	c := startServer(t)
	c.initialize()
	game := fileURI(filepath.Join(dir, "games", "g.kif"))
	c.open(game, configGame)
	c.severities(game, "the defaults", map[string]protocol.DiagnosticSeverity{"unmatched-close-paren": protocol.DiagnosticSeverityError})

	cfg := fileURI(cfgPath)
	broken := "{\"severity\": {\"unused-relation\" \"off\"}}"
	c.notify("textDocument/didOpen", protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: cfg, LanguageID: "json", Version: 1, Text: broken,
	}})
	c.mu.Lock()
	c.version[cfg] = 1
	c.mu.Unlock()
	diags := c.diagnosticsFor(cfg, 1)
	if len(diags) != 1 || diags[0].Range.Start.Character != 32 || !strings.Contains(diags[0].Message, "invalid character") {
		t.Fatalf("diagnostics of the broken gdl.json: %+v", diags)
	}
	var h json.RawMessage
	c.mustCall("textDocument/hover", tdpp(cfg, pos(0, 3)), &h)
	if len(h) != 0 && string(h) != "null" {
		t.Errorf("hover on gdl.json: %s", h)
	}
	fixed := `{"severity": {"unused-relation": "off", "unmatched-close-paren": "warning"}}`
	v := c.change(cfg, rng(0, 31, 0, 31), ":")
	if diags := c.diagnosticsFor(cfg, v); len(diags) != 0 {
		t.Fatalf("diagnostics after the fix: %+v", diags)
	}
	// Not saved yet: the game keeps its settings.
	writeFile(t, cfgPath, fixed)
	c.notify("textDocument/didSave", protocol.DidSaveTextDocumentParams{TextDocument: docID(cfg)})
	c.severities(game, "the saved gdl.json", map[string]protocol.DiagnosticSeverity{"unmatched-close-paren": protocol.DiagnosticSeverityWarning, "unused-relation": 0})
}

// TestConfigErrorPlaces: a gdl.json error is marked on the very key or value at fault, as
// analysis.ParseConfig places it.
func TestConfigErrorPlaces(t *testing.T) {
	c := startServer(t)
	c.initialize()
	for i, tc := range []struct {
		text string
		want protocol.Range
		msg  string
	}{
		{"{\"severity\": {\"order-hint\": \"loud\"}}", rng(0, 28, 0, 34), "loud"},
		{"{\n  \"eval\": {\"timeoutMs\": -5}\n}", rng(1, 24, 1, 26), "timeoutMs"},
		{"{\"severity\": {\"order-hint\": \"off\",\n \"order-hint\": \"hint\"}}", rng(1, 1, 1, 13), "order-hint"},
	} {
		u := fileURI(filepath.Join(t.TempDir(), "gdl.json"))
		c.notify("textDocument/didOpen", protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
			URI: u, LanguageID: "json", Version: 1, Text: tc.text,
		}})
		c.mu.Lock()
		c.version[u] = 1
		c.mu.Unlock()
		diags := c.diagnosticsFor(u, 1)
		if len(diags) != 1 || diags[0].Range != tc.want || !strings.Contains(diags[0].Message, tc.msg) {
			t.Errorf("case %d %q: diagnostics %+v, want one at %v naming %s", i, tc.text, diags, tc.want, tc.msg)
		}
	}
}
