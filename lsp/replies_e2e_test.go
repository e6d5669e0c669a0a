package lsp

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// deepForm is one fact nesting depth function terms: (p (f (f ... a ...))).
func deepForm(depth int) string {
	return "(p " + strings.Repeat("(f ", depth) + "a" + strings.Repeat(")", depth) + ")\n"
}

// TestDeepNesting: a form nested 100,000 deep (in an open document and in a file of the
// workspace) leaves every request of the server working, and the selection ranges of its
// innermost token stop at maxSelectionDepth, the last one still the whole form.
func TestDeepNesting(t *testing.T) {
	const depth = 100000
	text := "(role r)\n" + deepForm(depth)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "disk.kif"), text)
	c := startServer(t)
	c.initializeParams(map[string]any{"processId": os.Getpid(), "rootUri": fileURI(dir), "capabilities": map[string]any{
		"textDocument": map[string]any{"documentSymbol": map[string]any{"hierarchicalDocumentSymbolSupport": true}},
	}})
	uri := fileURI(filepath.Join(dir, "open.kif"))
	c.open(uri, text)
	c.diagnosticsFor(uri, 1)
	inner := pos(1, uint32(3+3*depth)) // the a

	var sel []protocol.SelectionRange
	c.mustCall("textDocument/selectionRange", protocol.SelectionRangeParams{TextDocument: docID(uri), Positions: []protocol.Position{inner}}, &sel)
	if len(sel) != 1 {
		t.Fatalf("selectionRange: %d results, want 1", len(sel))
	}
	n, last := 0, protocol.Range{}
	for r := &sel[0]; r != nil; r = r.Parent {
		n, last = n+1, r.Range
	}
	if n > maxSelectionDepth {
		t.Errorf("selectionRange: a chain of %d ranges, want at most %d", n, maxSelectionDepth)
	}
	if want := rng(1, 0, 1, uint32(len(text)-len("(role r)\n")-1)); last != want {
		t.Errorf("selectionRange: the outermost range is %v, want the whole form %v", last, want)
	}
	if sel[0].Range != rng(1, inner.Character, 1, inner.Character+1) {
		t.Errorf("selectionRange: the innermost range is %v, want the a", sel[0].Range)
	}

	// Every other request answers (an error is fine; a crash or no answer is not).
	for _, q := range []struct {
		method string
		params any
	}{
		{"textDocument/hover", tdpp(uri, inner)},
		{"textDocument/definition", tdpp(uri, inner)},
		{"textDocument/references", protocol.ReferenceParams{TextDocumentPositionParams: tdpp(uri, pos(1, 4)), Context: protocol.ReferenceContext{IncludeDeclaration: true}}},
		{"textDocument/documentHighlight", tdpp(uri, pos(1, 4))},
		{"textDocument/documentSymbol", protocol.DocumentSymbolParams{TextDocument: docID(uri)}},
		{"textDocument/foldingRange", map[string]any{"textDocument": docID(uri)}},
		{"textDocument/semanticTokens/full", protocol.SemanticTokensParams{TextDocument: docID(uri)}},
		{"textDocument/completion", protocol.CompletionParams{TextDocumentPositionParams: tdpp(uri, inner)}},
		{"textDocument/codeLens", protocol.CodeLensParams{TextDocument: docID(uri)}},
		{"textDocument/inlayHint", map[string]any{"textDocument": docID(uri), "range": rng(0, 0, 2, 0)}},
		{"textDocument/prepareCallHierarchy", tdpp(uri, pos(1, 1))},
		{"workspace/symbol", protocol.WorkspaceSymbolParams{Query: "p"}},
	} {
		var res json.RawMessage
		if err := c.call(q.method, q.params, &res); err != nil && rpcCode(err) == 0 {
			t.Errorf("%s: %v", q.method, err)
		}
	}
	var syms []protocol.SymbolInformation
	c.mustCall("workspace/symbol", protocol.WorkspaceSymbolParams{Query: "p"}, &syms)
	if got := strings.Join(symbolNames(syms), " "); got != "p/1@disk.kif p/1@open.kif" {
		t.Errorf("workspace/symbol: %s", got)
	}
	if err := c.shutdown(); err != nil {
		t.Errorf("exit: %v", err)
	}
}

// TestRepliesBounded: the outline of a file with many clauses and the references to a relation
// used many times stay within their bounds (maxDocumentSymbols, maxReferences), saying what they
// left out.
func TestRepliesBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("(role r)\n")
	const cells = 6000
	for i := 0; i < cells; i++ {
		fmt.Fprintf(&b, "(cell %d)\n", i)
	}
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&b, "(small%d 1)\n(small%d 2)\n", i, i)
	}
	c := startServer(t)
	c.initialize()
	const uri = "file:///w/many.kif"
	c.open(uri, b.String())
	c.diagnosticsFor(uri, 1)

	var syms []protocol.DocumentSymbol
	c.mustCall("textDocument/documentSymbol", protocol.DocumentSymbolParams{TextDocument: docID(uri)}, &syms)
	entries := len(syms)
	var cell *protocol.DocumentSymbol
	for i, s := range syms {
		entries += len(s.Children)
		if s.Name == "cell" {
			cell = &syms[i]
		}
		if strings.HasPrefix(s.Name, "small") && len(s.Children) != 2 {
			t.Errorf("%s: %d children, want its 2 clauses", s.Name, len(s.Children))
		}
	}
	if len(syms) != 42 || entries > maxDocumentSymbols {
		t.Errorf("documentSymbol: %d relations and %d entries in all, want 42 and at most %d", len(syms), entries, maxDocumentSymbols)
	}
	if cell == nil {
		t.Fatal("documentSymbol: no cell")
	}
	if cell.Detail != "/1, 6000 clauses" {
		t.Errorf("cell's detail %q, want the full count", cell.Detail)
	}
	more := cell.Children[len(cell.Children)-1]
	listed := len(cell.Children) - 1
	if want := fmt.Sprintf("… %d more clauses", cells-listed); more.Name != want || more.Range.End != cell.Range.End {
		t.Errorf("cell's last child %q at %v, want %q up to %v", more.Name, more.Range, want, cell.Range.End)
	}

	var locs []protocol.Location
	at := pos(3000, 1) // a cell in the middle
	c.mustCall("textDocument/references", protocol.ReferenceParams{TextDocumentPositionParams: tdpp(uri, at),
		Context: protocol.ReferenceContext{IncludeDeclaration: true}}, &locs)
	if len(locs) != maxReferences {
		t.Fatalf("references: %d locations, want %d", len(locs), maxReferences)
	}
	if first, last := locs[0].Range.Start.Line, locs[len(locs)-1].Range.Start.Line; first > at.Line || last < at.Line {
		t.Errorf("references: lines %d to %d, want those around line %d", first, last, at.Line)
	}
	waitFor(t, "the message about the references left out", func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		for _, m := range c.messages {
			if strings.Contains(m, fmt.Sprintf("%d references; showing the %d nearest", cells, maxReferences)) {
				return true
			}
		}
		return false
	})
}
