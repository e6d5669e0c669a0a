package lsp

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

func symbolNames(syms []protocol.SymbolInformation) []string {
	var out []string
	for _, s := range syms {
		out = append(out, s.Name+"@"+uriBase(s.Location.URI))
	}
	sort.Strings(out)
	return out
}

// TestWorkspaceSymbolsOnDisk: workspace/symbol also finds the relations of the workspace's game
// files that are not open (not those under node_modules or hidden folders), an open document
// replacing its file on disk; file events of the client's watcher keep the index current.
func TestWorkspaceSymbolsOnDisk(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "games", "a.kif"), "(role red)\n(alpha_rel 1)\n")
	writeFile(t, filepath.Join(dir, "sub", "deep", "b.gdl"), "(role blue)\n(<= (beta_rel ?x) (alpha_rel ?x))\n")
	writeFile(t, filepath.Join(dir, "node_modules", "pkg", "n.kif"), "(hidden_rel 1)\n")
	writeFile(t, filepath.Join(dir, ".git", "g.kif"), "(hidden_rel 2)\n")
	writeFile(t, filepath.Join(dir, "notes.txt"), "(hidden_rel 3)\n")
	c := startServer(t)
	c.initializeParams(map[string]any{
		"processId": os.Getpid(), "rootUri": fileURI(dir),
		"workspaceFolders": []map[string]any{{"uri": fileURI(dir), "name": "w"}},
		"capabilities": map[string]any{"workspace": map[string]any{
			"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true},
		}},
	})
	waitFor(t, "client/registerCapability", func() bool { return c.count("client/registerCapability") > 0 })
	open := fileURI(filepath.Join(dir, "games", "a.kif"))
	c.open(open, "(role red)\n(alpha_rel 1)\n(alpha_two 2)\n")
	c.diagnosticsFor(open, 1)

	query := func(q string) []string {
		var syms []protocol.SymbolInformation
		c.mustCall("workspace/symbol", protocol.WorkspaceSymbolParams{Query: q}, &syms)
		return symbolNames(syms)
	}
	if got := strings.Join(query("_"), " "); got != "alpha_rel/1@a.kif alpha_two/1@a.kif beta_rel/1@b.gdl" {
		t.Errorf("symbols with _: %s", got)
	}
	if got := strings.Join(query("blue"), " "); got != "blue@b.gdl" {
		t.Errorf("roles: %s", got)
	}

	// A file created, one deleted: reported by the watcher.
	gamma := filepath.Join(dir, "sub", "c.kif")
	writeFile(t, gamma, "(gamma_rel 1)\n")
	os.Remove(filepath.Join(dir, "sub", "deep", "b.gdl"))
	c.watchedFilesChanged(
		protocol.FileEvent{URI: fileURI(gamma), Type: protocol.FileChangeTypeCreated},
		protocol.FileEvent{URI: fileURI(filepath.Join(dir, "sub", "deep", "b.gdl")), Type: protocol.FileChangeTypeDeleted},
	)
	if got := strings.Join(query("_rel"), " "); got != "alpha_rel/1@a.kif gamma_rel/1@c.kif" {
		t.Errorf("after the file events: %s", got)
	}
	// Changed on disk and reported; a file in node_modules reported by a watcher stays out.
	writeFile(t, gamma, "(gamma_changed 1)\n")
	writeFile(t, filepath.Join(dir, "node_modules", "pkg", "m.kif"), "(hidden_rel 4)\n")
	c.watchedFilesChanged(
		protocol.FileEvent{URI: fileURI(gamma), Type: protocol.FileChangeTypeChanged},
		protocol.FileEvent{URI: fileURI(filepath.Join(dir, "node_modules", "pkg", "m.kif")), Type: protocol.FileChangeTypeCreated},
	)
	if got := strings.Join(query("gamma"), " ") + "|" + strings.Join(query("hidden"), " "); got != "gamma_changed/1@c.kif|" {
		t.Errorf("after a change: %s", got)
	}
	// Closing the open document: its file on disk counts again.
	c.notify("textDocument/didClose", protocol.DidCloseTextDocumentParams{TextDocument: docID(open)})
	c.diagnosticsFor(open, 0)
	if got := strings.Join(query("alpha"), " "); got != "alpha_rel/1@a.kif" {
		t.Errorf("after closing a.kif: %s", got)
	}
}

// TestWorkspaceSymbolsWithoutWatcher: a client that does not watch files still sees a file that
// changed on disk (its size and time are checked on each request), and a new file (the folders
// are listed again, at most every relistEvery).
func TestWorkspaceSymbolsWithoutWatcher(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.kif")
	writeFile(t, p, "(first_rel 1)\n")
	c := startServer(t)
	c.initializeParams(map[string]any{"processId": os.Getpid(), "rootUri": fileURI(dir), "capabilities": map[string]any{}})
	query := func(q string) string {
		var syms []protocol.SymbolInformation
		c.mustCall("workspace/symbol", protocol.WorkspaceSymbolParams{Query: q}, &syms)
		return strings.Join(symbolNames(syms), " ")
	}
	waitFor(t, "the index", func() bool { return query("rel") == "first_rel/1@a.kif" })
	writeFile(t, p, "(second_rel_longer 1)\n")
	if got := query("rel"); got != "second_rel_longer/1@a.kif" {
		t.Errorf("after the file changed: %s", got)
	}
	writeFile(t, filepath.Join(dir, "new", "b.gdl"), "(third_rel 1)\n")
	waitFor(t, "the new file in the index", func() bool { return strings.Contains(query("rel"), "third_rel/1@b.gdl") })
}
