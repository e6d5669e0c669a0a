package lsp

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// TestNotationDecidedAgain is issue 22, item 16: the notation of a .kif document was decided
// when it was opened and kept, so an infix game typed into an empty .kif document showed
// mixed-notation errors until it was opened again. The diagnostics of a document edited piece
// by piece must equal those of the same text opened afresh: an infix game typed into an empty
// document, an infix rule put before a prefix game and taken away again.
func TestNotationDecidedAgain(t *testing.T) {
	c := startServer(t)
	c.initialize()
	dir := t.TempDir()
	const infix = "role(robot)\ninit(cell(1))\nlegal(robot,go) :- true(cell(1))\nnext(cell(2)) :- does(robot,go)\n" +
		"terminal :- true(cell(2))\ngoal(robot,100) :- true(cell(2))\n"
	const prefix = "(role robot)\n(init (cell 1))\n(<= (legal robot go) (true (cell 1)))\n(<= (next (cell 2)) (does robot go))\n" +
		"(<= terminal (true (cell 2)))\n(<= (goal robot 100) (true (cell 2)))\n"
	const rule = "p(X) :- true(cell(X))\n"
	fresh := 0
	// same opens text in a new document and compares its diagnostics with got's.
	same := func(what string, got []protocol.Diagnostic, text string) {
		t.Helper()
		fresh++
		uri := fileURI(filepath.Join(dir, fmt.Sprintf("fresh%d.kif", fresh)))
		c.open(uri, text)
		if want := c.diagnosticsFor(uri, 1); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the edited document has the diagnostics\n%v\nthe same text opened afresh\n%v", what, got, want)
		}
	}
	// Typed into an empty document, a few characters at a time.
	typed := fileURI(filepath.Join(dir, "typed.kif"))
	c.open(typed, "")
	var text string
	var v int32
	for i := 0; i < len(infix); i += 7 {
		piece := infix[i:min(i+7, len(infix))]
		end := endOf(text)
		v = c.change(typed, protocol.Range{Start: end, End: end}, piece)
		text += piece
	}
	same("an infix game typed into an empty .kif document", c.diagnosticsFor(typed, v), text)
	if got := c.diagnosticsFor(typed, v); len(got) != 0 {
		t.Errorf("diagnostics of a valid infix game typed in: %v", got)
	}

	// An infix rule put before a prefix game, then taken away.
	doc := fileURI(filepath.Join(dir, "prefix.kif"))
	c.open(doc, prefix)
	v = c.change(doc, rng(0, 0, 0, 0), rule)
	same("an infix rule put before a prefix game", c.diagnosticsFor(doc, v), rule+prefix)
	v = c.change(doc, rng(0, 0, 1, 0), "")
	same("the infix rule taken away again", c.diagnosticsFor(doc, v), prefix)
	if got := c.diagnosticsFor(doc, v); len(got) != 0 {
		t.Errorf("diagnostics of the prefix game again: %v", got)
	}
}

// endOf returns the position of the end of text (UTF-16 columns; the texts here are ASCII).
func endOf(text string) protocol.Position {
	line := strings.Count(text, "\n")
	return protocol.Position{Line: uint32(line), Character: uint32(len(text) - strings.LastIndex(text, "\n") - 1)}
}
