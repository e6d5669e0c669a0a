package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

const gameTestFile = `; Tests of ttt.kif.
(test passes
    (play (mark 1 1) noop)
    (holds (true (cell 1 1 x))))

(test fails
    (play (mark 1 1) noop)
    (goal xplayer 100))

(test typo
    (holds (lines x)))

(test typing
    (play (mark 2 2) noop)
    (play noop ))
`

// waitDiagnostics waits for a publication of uri, after the first `after`, whose diagnostics
// satisfy ok.
func (c *testClient) waitDiagnostics(u protocol.DocumentURI, after int, what string, ok func([]protocol.Diagnostic) bool) []protocol.Diagnostic {
	c.t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		c.mu.Lock()
		ps := c.diags[u]
		c.mu.Unlock()
		for i := len(ps) - 1; i >= after; i-- {
			if ok(ps[i].Diagnostics) {
				return ps[i].Diagnostics
			}
		}
		select {
		case <-c.notified:
		case <-time.After(50 * time.Millisecond):
		case <-deadline:
			c.t.Fatalf("%s: no publication for %s (got %d: %+v)", what, u, len(ps), ps)
		}
	}
}

func hasCode(ds []protocol.Diagnostic, code, text string) bool {
	for _, d := range ds {
		if d.Code == code && strings.Contains(d.Message, text) {
			return true
		}
	}
	return false
}

// TestGameTestDocuments: a test file opened in the editor gets the diagnostics of a test file
// (not of a game), then the failures of its tests run in the background; hover, completion,
// definition into the game, lenses and symbols work on it; gdl.listTests and gdl.runTests list
// and run the tests of a file that is not open; an edit of the game checks the tests again.
func TestGameTestDocuments(t *testing.T) {
	dir := t.TempDir()
	game, err := os.ReadFile("../testdata/games/tictactoe.kif")
	if err != nil {
		t.Fatal(err)
	}
	gamePath := filepath.Join(dir, "ttt.kif")
	testPath := filepath.Join(dir, "ttt.test.kif")
	otherPath := filepath.Join(dir, "other.test.kif")
	for p, text := range map[string]string{gamePath: string(game), testPath: gameTestFile,
		otherPath: "(game ttt.kif)\n(test start (not terminal))\n(test wrong terminal)\n"} {
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	testURI := protocol.DocumentURI(uri.File(testPath))
	gameURI := protocol.DocumentURI(uri.File(gamePath))
	c := startServer(t)
	c.initialize()
	c.open(testURI, gameTestFile)
	static := c.waitDiagnostics(testURI, 0, "static", func(ds []protocol.Diagnostic) bool {
		return hasCode(ds, "test-relation", "did you mean line?")
	})
	for _, d := range static {
		if !strings.HasPrefix(d.Code.(string), "test-") {
			t.Errorf("a game's diagnostic on a test file: %+v", d)
		}
	}
	ds := c.waitDiagnostics(testURI, 0, "the run's failures", func(ds []protocol.Diagnostic) bool {
		return hasCode(ds, "test-failed", "test fails: expected the goal of xplayer is 100; goal 50")
	})
	for _, d := range ds {
		if d.Code == "test-failed" && d.Range.Start != pos(7, 4) {
			t.Errorf("the failure is not at its step: %+v", d)
		}
	}

	// Hover on a step: the state it is checked in.
	var h protocol.Hover
	c.mustCall("textDocument/hover", tdpp(testURI, pos(7, 6)), &h)
	if !strings.Contains(h.Contents.Value, "Checked in the initial state, after 1 joint move") || !strings.Contains(h.Contents.Value, "(cell 1 1 x)") {
		t.Errorf("hover: %q", h.Contents.Value)
	}
	// Completion of the second move: oplayer's legal moves after (mark 2 2).
	var list protocol.CompletionList
	c.mustCall("textDocument/completion", protocol.CompletionParams{TextDocumentPositionParams: tdpp(testURI, pos(14, 15))}, &list)
	var labels []string
	for _, it := range list.Items {
		labels = append(labels, it.Label)
	}
	if len(labels) != 8 || labels[0] != "(mark 1 1)" || strings.Contains(strings.Join(labels, " "), "(mark 2 2)") {
		t.Errorf("completion: %v", labels)
	}
	// Definition: into the game, which is not open.
	var locs []protocol.Location
	c.mustCall("textDocument/definition", tdpp(testURI, pos(3, 25)), &locs)
	if len(locs) != 1 || locs[0].URI != gameURI {
		t.Errorf("definition: %+v", locs)
	}
	// Lenses: run all, and each test with its last result.
	var lenses []protocol.CodeLens
	c.mustCall("textDocument/codeLens", protocol.CodeLensParams{TextDocument: docID(testURI)}, &lenses)
	if len(lenses) != 5 || lenses[0].Command.Title != "▶ Run all 4 tests" || lenses[0].Command.Command != "gdl.runTests" ||
		lenses[1].Command.Title != "✓ passed, run again" || lenses[2].Command.Title != "✗ failed at step 2, run again" {
		t.Errorf("lenses: %+v", lenses)
	}
	// Symbols: the tests.
	var syms []protocol.DocumentSymbol
	c.mustCall("textDocument/documentSymbol", protocol.DocumentSymbolParams{TextDocument: docID(testURI)}, &syms)
	if len(syms) != 4 || syms[1].Name != "fails" {
		t.Errorf("symbols: %+v", syms)
	}

	// The commands, on a test file that is not open.
	otherURI := protocol.DocumentURI(uri.File(otherPath))
	var tl testList
	c.mustCall("workspace/executeCommand", protocol.ExecuteCommandParams{Command: "gdl.listTests", Arguments: []interface{}{map[string]any{"uri": otherURI}}}, &tl)
	if len(tl.Tests) != 2 || tl.Tests[1].Name != "wrong" || tl.Game != string(gameURI) || tl.Tests[1].Range.Start != pos(2, 0) {
		t.Errorf("gdl.listTests: %+v", tl)
	}
	var run testRun
	c.mustCall("workspace/executeCommand", protocol.ExecuteCommandParams{Command: "gdl.runTests", Arguments: []interface{}{map[string]any{"uri": otherURI, "tests": []string{"wrong"}}}}, &run)
	if len(run.Results) != 1 || run.Results[0].Status != "failed" || len(run.Results[0].Failures) != 1 ||
		run.Results[0].Failures[0].Range.Start != pos(2, 12) || run.Results[0].Failures[0].Expected != "the state is terminal" {
		t.Errorf("gdl.runTests: %+v", run)
	}

	// An edit of the game (opened) checks the open test file again: xplayer now has two goals.
	c.open(gameURI, string(game))
	i := strings.Index(string(game), "(<= (goal ?player 100)")
	lines := strings.Split(string(game)[:i], "\n")
	at := pos(uint32(len(lines)-1), 0)
	before := c.publications(testURI)
	c.change(gameURI, protocol.Range{Start: at, End: at}, "(<= (goal xplayer 100) (true (cell 1 1 x)))\n")
	c.waitDiagnostics(testURI, before, "after the game changed", func(ds []protocol.Diagnostic) bool {
		return hasCode(ds, "test-failed", "several goal values: 100 50") && hasCode(ds, "test-relation", "lines")
	})
}
