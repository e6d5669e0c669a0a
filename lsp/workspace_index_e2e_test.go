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

// TestWorkspaceSymbolsBeforeWatcher: workspace/symbol right after initialized answers from the
// files on disk although the client has not answered the registration of the file watcher yet
// (the index used to start only then); a file created before the watcher starts is found too.
func TestWorkspaceSymbolsBeforeWatcher(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "a.kif"), "(role red)\n(alpha_rel 1)\n")
	c := startServer(t)
	c.mu.Lock()
	c.holdRegistration = make(chan struct{})
	c.mu.Unlock()
	c.initializeParams(map[string]any{
		"processId": os.Getpid(), "rootUri": fileURI(dir),
		"capabilities": map[string]any{"workspace": map[string]any{
			"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true},
		}},
	})
	query := func(q string) string {
		var syms []protocol.SymbolInformation
		c.mustCall("workspace/symbol", protocol.WorkspaceSymbolParams{Query: q}, &syms)
		return strings.Join(symbolNames(syms), " ")
	}
	if got := query("rel"); got != "alpha_rel/1@a.kif" {
		t.Errorf("workspace/symbol before the watcher is registered: %q, want alpha_rel/1@a.kif", got)
	}
	writeFile(t, filepath.Join(dir, "b.kif"), "(beta_rel 1)\n")
	waitFor(t, "client/registerCapability", func() bool { return c.count("client/registerCapability") > 0 })
	close(c.holdRegistration)
	waitFor(t, "the file created before the watcher", func() bool { return query("rel") == "alpha_rel/1@a.kif beta_rel/1@b.kif" })
}

// TestWorkspaceIndexSymlinks: the index does not follow symbolic links, neither listing the
// folders nor on the client's file events: not out of the workspace, not round a loop, not to a
// second name of a file it has. A workspace folder that is itself a link is indexed, under the
// name the client gave it.
func TestWorkspaceIndexSymlinks(t *testing.T) {
	base := t.TempDir()
	wsA, wsB, outside := filepath.Join(base, "a"), filepath.Join(base, "b"), filepath.Join(base, "outside")
	writeFile(t, filepath.Join(wsA, "games", "in.kif"), "(inside_rel 1)\n")
	writeFile(t, filepath.Join(wsB, "mine.kif"), "(mine_rel 1)\n")
	writeFile(t, filepath.Join(outside, "out.kif"), "(outside_rel 1)\n")
	writeFile(t, filepath.Join(outside, "sub", "deep.kif"), "(outside_deep_rel 1)\n")
	for _, l := range [][2]string{
		{outside, filepath.Join(wsA, "linked")},                                  // a folder out of the workspace
		{wsA, filepath.Join(wsA, "games", "loop")},                               // a loop
		{filepath.Join(wsA, "games", "in.kif"), filepath.Join(wsA, "alias.kif")}, // a second name
		{filepath.Join(outside, "out.kif"), filepath.Join(wsB, "out.kif")},       // a file out of the workspace
		{wsA, filepath.Join(base, "a-link")},                                     // the workspace folder
	} {
		if err := os.Symlink(l[0], l[1]); err != nil {
			t.Skipf("no symbolic links here: %v", err)
		}
	}
	rootA := filepath.Join(base, "a-link")
	c := startServer(t)
	c.initializeParams(map[string]any{
		"processId": os.Getpid(), "rootUri": fileURI(rootA),
		"workspaceFolders": []map[string]any{{"uri": fileURI(rootA), "name": "a"}, {"uri": fileURI(wsB), "name": "b"}},
		"capabilities": map[string]any{"workspace": map[string]any{
			"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true},
		}},
	})
	query := func() string {
		var syms []protocol.SymbolInformation
		c.mustCall("workspace/symbol", protocol.WorkspaceSymbolParams{Query: "rel"}, &syms)
		var out []string
		for _, s := range syms {
			out = append(out, s.Name+"@"+strings.TrimPrefix(uriPath(s.Location.URI), base))
		}
		sort.Strings(out)
		return strings.Join(out, " ")
	}
	want := "inside_rel/1@/a-link/games/in.kif mine_rel/1@/b/mine.kif"
	if got := query(); got != want {
		t.Errorf("symbols: %q, want %q", got, want)
	}
	// File events for paths through links change nothing.
	c.watchedFilesChanged(
		protocol.FileEvent{URI: fileURI(filepath.Join(rootA, "linked", "sub", "deep.kif")), Type: protocol.FileChangeTypeCreated},
		protocol.FileEvent{URI: fileURI(filepath.Join(wsB, "out.kif")), Type: protocol.FileChangeTypeChanged},
		protocol.FileEvent{URI: fileURI(filepath.Join(rootA, "games", "loop", "games", "in.kif")), Type: protocol.FileChangeTypeCreated},
	)
	if got := query(); got != want {
		t.Errorf("symbols after file events through links: %q, want %q", got, want)
	}
}
