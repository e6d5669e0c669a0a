package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/syntax"
)

// TestDocumentsOutOfUseAnswerAlike opens more documents than the server keeps in use (hotDocs),
// over stdio with the real binary, so that the first ones' trees and analyses are released, and
// checks that they then answer hover, definition, references, outline and semantic tokens as
// they did while in use, and that an edit of one of them gets its diagnostics.
func TestDocumentsOutOfUseAnswerAlike(t *testing.T) {
	data, err := os.ReadFile("../testdata/games/tictactoe.kif")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	c := startServer(t)
	c.initialize()
	uri := func(i int) protocol.DocumentURI {
		return protocol.DocumentURI(fmt.Sprintf("file:///out-of-use/game%d.kif", i))
	}
	lines := syntax.NewLineIndex(text)
	var at []protocol.Position
	for _, word := range []string{"(cell", "?x", "(line", "(control", "xplayer", "(<= (legal"} {
		p := lines.Position(strings.Index(text, word)+1, syntax.UTF16)
		at = append(at, protocol.Position{Line: uint32(p.Line), Character: uint32(p.Column)})
	}
	answers := func(u protocol.DocumentURI) string {
		var b strings.Builder
		for _, p := range at {
			var h json.RawMessage
			c.mustCall("textDocument/hover", tdpp(u, p), &h)
			var defs, refs json.RawMessage
			c.mustCall("textDocument/definition", tdpp(u, p), &defs)
			c.mustCall("textDocument/references", protocol.ReferenceParams{TextDocumentPositionParams: tdpp(u, p),
				Context: protocol.ReferenceContext{IncludeDeclaration: true}}, &refs)
			fmt.Fprintf(&b, "%v: %s %s %s\n", p, h, defs, refs)
		}
		var syms, toks json.RawMessage
		c.mustCall("textDocument/documentSymbol", protocol.DocumentSymbolParams{TextDocument: docID(u)}, &syms)
		c.mustCall("textDocument/semanticTokens/full", protocol.SemanticTokensParams{TextDocument: docID(u)}, &toks)
		fmt.Fprintf(&b, "%s\n%s\n", syms, toks)
		return b.String()
	}

	c.open(uri(0), text)
	first := c.diagnosticsFor(uri(0), 1)
	want := answers(uri(0))
	if !strings.Contains(want, "cell") {
		t.Fatalf("no answers about cell in use:\n%s", want)
	}
	for i := 1; i <= hotDocs+2; i++ {
		c.open(uri(i), text)
	}
	for i := 1; i <= hotDocs+2; i++ {
		if got := c.diagnosticsFor(uri(i), 1); len(got) != len(first) {
			t.Errorf("document %d: %d diagnostics, want %d", i, len(got), len(first))
		}
	}
	// Each document opened after the first is used once more, so that the first is out of use.
	for i := 1; i <= hotDocs+2; i++ {
		var syms json.RawMessage
		c.mustCall("textDocument/documentSymbol", protocol.DocumentSymbolParams{TextDocument: docID(uri(i))}, &syms)
	}
	if got := answers(uri(0)); got != want {
		t.Errorf("out of use, the document answers otherwise:\n got %s\nwant %s", got, want)
	}

	// An edit of a document out of use (again): a rule whose variable is unbound.
	for i := 1; i <= hotDocs+2; i++ {
		c.mustCall("textDocument/documentSymbol", protocol.DocumentSymbolParams{TextDocument: docID(uri(i))}, new(json.RawMessage))
	}
	end := lines.Position(len(text), syntax.UTF16)
	pos := protocol.Position{Line: uint32(end.Line), Character: uint32(end.Column)}
	v := c.change(uri(0), protocol.Range{Start: pos, End: pos}, "\n(<= (cell ?x ?y b) (true (control ?z)))\n")
	got := c.diagnosticsFor(uri(0), v)
	found := false
	for _, d := range got {
		found = found || d.Code == "unsafe-variable"
	}
	if !found {
		t.Errorf("after an edit of a document out of use: no unsafe-variable diagnostic in %v", got)
	}
}

// TestSlotsNewestFirst: when every slot is taken, the analysis that waited last gets the next
// free slot, and one whose context ends while waiting takes none.
func TestSlotsNewestFirst(t *testing.T) {
	s := newSlots()
	n := max(1, runtime.GOMAXPROCS(0))
	for range n {
		if !s.acquire(context.Background()) {
			t.Fatal("acquire failed with free slots")
		}
	}
	waiting := func(k int) { // wait until k acquirers are queued
		for {
			s.mu.Lock()
			l := len(s.waiting)
			s.mu.Unlock()
			if l == k {
				return
			}
			runtime.Gosched()
		}
	}
	got := make(chan int, 3)
	for i := range 3 {
		go func() {
			if s.acquire(context.Background()) {
				got <- i
			}
		}()
		waiting(i + 1)
	}
	ctx, cancel := context.WithCancel(context.Background())
	gaveUp := make(chan bool)
	go func() { gaveUp <- s.acquire(ctx) }()
	waiting(4)
	cancel()
	if <-gaveUp {
		t.Fatal("an acquirer whose context ended got a slot")
	}
	for want := 2; want >= 0; want-- {
		s.release()
		if i := <-got; i != want {
			t.Fatalf("slot went to waiter %d, want %d (the newest)", i, want)
		}
	}
	s.release()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.free != 1 || len(s.waiting) != 0 {
		t.Fatalf("after releasing: %d free, %d waiting; want 1 and 0", s.free, len(s.waiting))
	}
}
