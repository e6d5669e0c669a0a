package lsp

import (
	"os"
	"path/filepath"
	"testing"

	"go.lsp.dev/protocol"
)

// lastDiagnostics returns the codes of the newest publication for u, and whether there is one.
func (c *testClient) lastDiagnostics(u protocol.DocumentURI) ([]string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ps := c.diags[u]
	if len(ps) == 0 {
		return nil, false
	}
	var codes []string
	for _, d := range ps[len(ps)-1].Diagnostics {
		codes = append(codes, d.Code.(string))
	}
	return codes, true
}

// waitCodes waits until the newest publication for u has exactly the given codes, in order.
func (c *testClient) waitCodes(u protocol.DocumentURI, what string, want ...string) {
	c.t.Helper()
	waitFor(c.t.(*testing.T), what, func() bool {
		got, ok := c.lastDiagnostics(u)
		if !ok || len(got) != len(want) {
			return false
		}
		for i := range got {
			if got[i] != want[i] {
				return false
			}
		}
		return true
	})
}

// TestWorkspaceDiagnosticsOverStdio: with diagnostics.workspace on, the game files of the
// workspace that are not open get their diagnostics published (under their gdl.json; a file
// without problems gets none); an open document's own diagnostics replace its file's, and when
// it is closed the file's count again; a change reported by the file watcher is checked again,
// a deleted file is cleared; turning the setting off clears them all.
func TestWorkspaceDiagnosticsOverStdio(t *testing.T) {
	dir := t.TempDir()
	broken := filepath.Join(dir, "broken.kif")
	clean := filepath.Join(dir, "clean.kif")
	quiet := filepath.Join(dir, "quiet", "q.kif")
	writeFile(t, broken, "(role robot)\n(<= (legal robot go) (ready ?x)\n")
	writeFile(t, clean, "(role robot)\n(init (p 1))\n(<= (legal robot go) (true (p 1)))\n(<= (next (p 2)) (does robot go))\n(<= terminal (true (p 2)))\n(goal robot 100)\n")
	writeFile(t, quiet, "(role robot)\n(<= (legal robot go) (ready 1))\n")
	writeFile(t, filepath.Join(dir, "quiet", "gdl.json"), `{"severity": {"missing-goal": "off", "missing-terminal": "off"}}`)
	c := startServer(t)
	c.settings = map[string]any{"diagnostics": map[string]any{"workspace": true}}
	c.initializeParams(map[string]any{
		"processId": os.Getpid(), "rootUri": fileURI(dir),
		"workspaceFolders": []map[string]any{{"uri": fileURI(dir), "name": "w"}},
		"capabilities": map[string]any{"workspace": map[string]any{
			"configuration": true, "didChangeWatchedFiles": map[string]any{"dynamicRegistration": true},
		}},
	})
	c.waitCodes(fileURI(broken), "the diagnostics of broken.kif, not open", "missing-goal", "missing-terminal", "unclosed-paren")
	quietURI := fileURI(quiet)
	c.waitCodes(quietURI, "q.kif's diagnostics under its gdl.json", "undefined-relation")
	if _, seen := c.lastDiagnostics(fileURI(clean)); seen {
		t.Errorf("clean.kif, without problems, got diagnostics published")
	}

	// Opened with the error fixed: the document's diagnostics replace the file's.
	c.open(fileURI(broken), "(role robot)\n(<= (legal robot go) (ready ?x))\n(ready 1)\n")
	if got := c.diagnosticsFor(fileURI(broken), 1); len(got) != 0 && got[0].Code == "unclosed-paren" {
		t.Errorf("the open document: %v", got)
	}
	// Closed: the file on disk, still broken, counts again.
	c.notify("textDocument/didClose", protocol.DidCloseTextDocumentParams{TextDocument: docID(fileURI(broken))})
	c.waitCodes(fileURI(broken), "broken.kif's file diagnostics after its document closed", "missing-goal", "missing-terminal", "unclosed-paren")

	// Fixed on disk and reported by the watcher.
	writeFile(t, broken, "(role robot)\n(<= (legal robot go) (ready ?x))\n(ready 1)\n")
	c.watchedFilesChanged(protocol.FileEvent{URI: fileURI(broken), Type: protocol.FileChangeTypeChanged})
	waitFor(t, "broken.kif's diagnostics after the fix on disk", func() bool {
		got, _ := c.lastDiagnostics(fileURI(broken))
		for _, code := range got {
			if code == "unclosed-paren" {
				return false
			}
		}
		return true
	})
	// A new file with a problem, reported by the watcher; then deleted.
	added := filepath.Join(dir, "added.kif")
	writeFile(t, added, "(role robot)\n(init (p 1)))\n")
	c.watchedFilesChanged(protocol.FileEvent{URI: fileURI(added), Type: protocol.FileChangeTypeCreated})
	waitFor(t, "added.kif's diagnostics", func() bool {
		got, _ := c.lastDiagnostics(fileURI(added))
		for _, code := range got {
			if code == "unmatched-close-paren" {
				return true
			}
		}
		return false
	})
	os.Remove(added)
	c.watchedFilesChanged(protocol.FileEvent{URI: fileURI(added), Type: protocol.FileChangeTypeDeleted})
	c.waitCodes(fileURI(added), "added.kif cleared after it was deleted")

	// The setting turned off: everything published is cleared.
	c.mu.Lock()
	c.settings = map[string]any{"diagnostics": map[string]any{"workspace": false}}
	c.mu.Unlock()
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": nil})
	c.waitCodes(fileURI(broken), "broken.kif cleared when the setting is off")
	c.waitCodes(quietURI, "q.kif cleared when the setting is off")
}
