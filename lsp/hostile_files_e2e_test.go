//go:build unix

package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"go.lsp.dev/protocol"
)

// TestHostileFilesOnDisk is issue 10, item 4, in the server: a named pipe called gdl.json in a
// parent folder hung the documents under it, and the workspace index would read a named pipe or
// a link to /dev/zero named like a game without end. The pipe is reported as a broken gdl.json,
// the document under it gets its diagnostics, and workspace/symbol answers with the real games.
func TestHostileFilesOnDisk(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "gdl.json"), 0o644); err != nil {
		t.Skipf("SKIPPED: no named pipes here: %v", err)
	}
	writeFile(t, filepath.Join(dir, "games", "a.kif"), "(role red)\n(alpha_rel 1)\n")
	if err := syscall.Mkfifo(filepath.Join(dir, "games", "pipe.kif"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "games", "zero.kif")); err != nil {
		t.Fatal(err)
	}
	c := startServer(t)
	c.initializeParams(map[string]any{
		"processId": os.Getpid(), "rootUri": fileURI(dir),
		"workspaceFolders": []map[string]any{{"uri": fileURI(dir), "name": "w"}},
		"capabilities":     map[string]any{},
	})
	doc := fileURI(filepath.Join(dir, "games", "b.kif"))
	c.open(doc, configGame)
	if diags := c.diagnosticsFor(doc, 1); len(diags) == 0 {
		t.Errorf("no diagnostics for a document under a named pipe called gdl.json")
	}
	config := fileURI(filepath.Join(dir, "gdl.json"))
	c.waitPublication(config, "the named pipe reported as a broken gdl.json", func(p protocol.PublishDiagnosticsParams) bool {
		return len(p.Diagnostics) == 1 && strings.Contains(p.Diagnostics[0].Message, "a named pipe (FIFO), not a regular file")
	})
	var syms []protocol.SymbolInformation
	c.mustCall("workspace/symbol", protocol.WorkspaceSymbolParams{Query: "alpha"}, &syms)
	if got := strings.Join(symbolNames(syms), " "); got != "alpha_rel/1@a.kif" {
		t.Errorf("workspace symbols: %s", got)
	}
	if err := c.shutdown(); err != nil {
		t.Fatalf("server exit: %v", err)
	}
}
