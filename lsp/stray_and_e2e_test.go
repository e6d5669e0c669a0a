package lsp

import (
	"testing"

	"go.lsp.dev/protocol"
)

// TestStrayAndOverStdio is issue 10, item 2, in the server: a bare and as a body literal made
// the analysis panic, and the document lost every feature until its text changed. It gets its
// diagnostics (the and among them) and its symbols.
func TestStrayAndOverStdio(t *testing.T) {
	c := startServer(t)
	c.initialize()
	const uri = "file:///w/and.kif"
	c.open(uri, "(role r)\n(<= p and)\n(<= q (or and p) (not (and)))\n")
	found := false
	for _, d := range c.diagnosticsFor(uri, 1) {
		found = found || d.Code == "and-not-gdl"
	}
	if !found {
		t.Errorf("no and-not-gdl diagnostic")
	}
	var syms []protocol.DocumentSymbol
	c.mustCall("textDocument/documentSymbol", protocol.DocumentSymbolParams{TextDocument: docID(uri)}, &syms)
	if len(syms) == 0 {
		t.Errorf("no document symbols")
	}
}
