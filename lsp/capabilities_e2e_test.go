package lsp

import (
	"os"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// TestPlainClientOverStdio: a client that takes plain-text hovers only and flat symbols gets
// them: no Markdown markup in hovers, SymbolInformation (with containers) for the outline.
func TestPlainClientOverStdio(t *testing.T) {
	data, err := os.ReadFile("../testdata/games/tictactoe.kif")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	c := startServer(t)
	c.initializeWith(map[string]any{
		"textDocument": map[string]any{
			"hover":          map[string]any{"contentFormat": []string{"plaintext"}},
			"documentSymbol": map[string]any{"hierarchicalDocumentSymbolSupport": false},
		},
	})
	const uri = "file:///w/tictactoe.kif"
	c.open(uri, text)
	c.diagnosticsFor(uri, 1)

	for _, needle := range []string{"legal ?player (mark", "?player (mark", "mark ?m"} {
		var h protocol.Hover
		c.mustCall("textDocument/hover", tdpp(uri, positionOf(t, text, needle, 1)), &h)
		if h.Contents.Kind != protocol.PlainText || h.Contents.Value == "" {
			t.Errorf("hover on %q: kind %q, want plaintext: %q", needle, h.Contents.Kind, h.Contents.Value)
		}
		if strings.ContainsAny(h.Contents.Value, "`*") || strings.Contains(h.Contents.Value, "---") {
			t.Errorf("plain-text hover on %q has Markdown markup: %q", needle, h.Contents.Value)
		}
	}
	var h protocol.Hover
	c.mustCall("textDocument/hover", tdpp(uri, positionOf(t, text, "legal ?player (mark", 1)), &h)
	if !strings.Contains(h.Contents.Value, "keyword relation legal/2") || !strings.Contains(h.Contents.Value, "(legal xplayer (mark 1 1))") {
		t.Errorf("plain-text hover on legal: %q", h.Contents.Value)
	}

	var flat []protocol.SymbolInformation
	c.mustCall("textDocument/documentSymbol", protocol.DocumentSymbolParams{TextDocument: docID(uri)}, &flat)
	var relations, clauses int
	for _, s := range flat {
		if s.Location.URI != uri {
			t.Errorf("symbol %s in %s", s.Name, s.Location.URI)
		}
		if s.ContainerName == "" {
			relations++
		} else {
			clauses++
		}
	}
	if relations == 0 || clauses <= relations || flat[0].Name != "role" {
		t.Errorf("flat symbols: %d relations, %d clauses: %+v", relations, clauses, flat)
	}
}

// TestMarkdownHoverByPreference: a client that lists Markdown first gets Markdown.
func TestMarkdownHoverByPreference(t *testing.T) {
	c := startServer(t)
	c.initializeWith(map[string]any{"textDocument": map[string]any{"hover": map[string]any{"contentFormat": []string{"markdown", "plaintext"}}}})
	const uri = "file:///w/m.kif"
	text := "(role robot)\n(<= (legal robot go) (true (p 1)))\n"
	c.open(uri, text)
	c.diagnosticsFor(uri, 1)
	var h protocol.Hover
	c.mustCall("textDocument/hover", tdpp(uri, positionOf(t, text, "legal robot", 1)), &h)
	if h.Contents.Kind != protocol.Markdown || !strings.Contains(h.Contents.Value, "**keyword relation** `legal/2`") {
		t.Errorf("hover: %+v", h.Contents)
	}
}

// TestLegalFactHints: a legal fact gets an inlay hint naming its move, as a legal rule does.
func TestLegalFactHints(t *testing.T) {
	c := startServer(t)
	c.initialize()
	const uri = "file:///w/facts.kif"
	text := "(role robot)\n(init (p 1))\n(legal robot wait)\n(<= (legal robot go) (true (p 1)))\n(<= (next (p 1)) (true (p 1)))\n(<= terminal (true (p 2)))\n(goal robot 100)\n"
	c.open(uri, text)
	c.diagnosticsFor(uri, 1)
	var hints []inlayHint
	c.mustCall("textDocument/inlayHint", inlayHintParams{TextDocument: docID(uri), Range: rng(0, 0, 10, 0)}, &hints)
	byLine := map[uint32]string{}
	for _, h := range hints {
		byLine[h.Position.Line] = h.Label
	}
	if byLine[2] != "→ 1 move: wait" || byLine[3] != "→ 1 move: go" {
		t.Errorf("hints on the legal fact (line 3) and rule (line 4): %+v", hints)
	}
}
