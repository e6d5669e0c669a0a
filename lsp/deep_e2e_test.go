//go:build unix

package lsp

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/internal/gengame"
)

// TestDeepBodies is issue 22, items 2 and 3, in the real server under ulimit -v 4000000: a
// document nesting not a million levels deep (6 MB) killed the server on didOpen (a fatal stack
// overflow in the analysis), and one nesting or 20,000 levels deep took more than 4 GB. The
// server publishes the diagnostics of each, answers requests on it, and goes on serving another
// document. (The features themselves are tested with a small goroutine stack in package ide.)
func TestDeepBodies(t *testing.T) {
	if raceBuild {
		t.Skip("SKIPPED under the race detector: its shadow memory does not fit under ulimit -v; the test runs without -race")
	}
	deepBodies(t, []string{"not", "or"}, map[string]int{"not": 1_000_000, "or": 20_000})
}

// TestDeepInfixBodies is the last point of issue 22 in the server: a document nesting infix or a
// million levels deep (15 MB) and one nesting parentheses as deep (2 MB), in a server of their
// own (one that has analysed the million nots holds that much address space already, which
// ulimit -v counts).
func TestDeepInfixBodies(t *testing.T) {
	if raceBuild {
		t.Skip("SKIPPED under the race detector: its shadow memory does not fit under ulimit -v; the test runs without -race")
	}
	depth := 1_000_000
	if testing.Short() {
		depth = 100_000
	}
	deepBodies(t, []string{"infix-or", "infix-paren"}, map[string]int{"infix-or": depth, "infix-paren": depth})
}

// deepBodies opens a document of each nesting shape in one server under ulimit -v, asks for its
// diagnostics and the features on it, closes it, and then checks that the server still serves a
// small document.
func deepBodies(t *testing.T, shapes []string, depth map[string]int) {
	c := startBoundedServer(t)
	c.initialize()
	dir := t.TempDir()
	for _, shape := range shapes {
		ext := ".kif"
		if gengame.Infix(shape) {
			ext = ".hrf"
		}
		doc := fileURI(filepath.Join(dir, shape+ext))
		text := gengame.Nested(shape, depth[shape])
		c.open(doc, text)
		deadline := time.Now().Add(4 * time.Minute)
		for c.publications(doc) == 0 {
			if time.Now().After(deadline) {
				t.Fatalf("%s: no diagnostics after 4 minutes", shape)
			}
			time.Sleep(100 * time.Millisecond)
		}
		rule := strings.LastIndex(text[:len(text)-1], "\n") + 1
		var hover *protocol.Hover
		pos := protocol.Position{Line: uint32(strings.Count(text[:rule], "\n")), Character: 3} // the <=
		c.mustCall("textDocument/hover", protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: doc}, Position: pos}}, &hover)
		c.lenses(doc) // evaluated: the game is compiled
		var hints []inlayHint
		c.mustCall("textDocument/inlayHint", inlayHintParams{TextDocument: docID(doc), Range: rng(0, 0, uint32(strings.Count(text, "\n")), 0)}, &hints)
		var folds []protocol.FoldingRange
		c.mustCall("textDocument/foldingRange", protocol.FoldingRangeParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: docID(doc)}}, &folds)
		var symbols []protocol.DocumentSymbol
		c.mustCall("textDocument/documentSymbol", protocol.DocumentSymbolParams{TextDocument: protocol.TextDocumentIdentifier{URI: doc}}, &symbols)
		c.notify("textDocument/didClose", protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: doc}})
	}
	small := fileURI(filepath.Join(dir, "small.kif"))
	c.open(small, "(role robot)\n(init (cell a))\n")
	if diags := c.diagnosticsFor(small, 1); len(diags) == 0 {
		t.Errorf("no diagnostics for a small document after the deep ones")
	}
	if err := c.shutdown(); err != nil {
		t.Fatalf("server exit: %v\n%.3000s", err, c.stderr.String())
	}
}
