package lsp

import (
	"os"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// TestEvaluationOverStdio drives the evaluation features of the real binary on our tic-tac-toe:
// code lenses with live counts, running a lens, playing moves, the state commands, inlay hints,
// and formatting.
func TestEvaluationOverStdio(t *testing.T) {
	data, err := os.ReadFile("../testdata/games/tictactoe.kif")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	c := startServer(t)
	caps := c.initialize().Capabilities
	if caps.CodeLensProvider == nil || caps.ExecuteCommandProvider == nil || !caps.InlayHintProvider || !caps.DocumentFormattingProvider {
		t.Fatalf("evaluation capabilities missing: %+v", caps)
	}
	const uri = "file:///w/tictactoe.kif"
	c.open(uri, text)
	c.diagnosticsFor(uri, 1)

	lenses := c.lenses(uri)
	titles := map[string]protocol.CodeLens{}
	for _, l := range lenses {
		titles[strings.SplitN(l.Command.Title, ":", 2)[0]] = l
	}
	for key, want := range map[string]string{"legal": "legal: 10 answers", "init": "init: 10 answers", "role": "role: 2 answers", "terminal": "terminal: false"} {
		if l, ok := titles[key]; !ok || l.Command.Title != want {
			t.Errorf("lens %s: got %q, want %q", key, l.Command.Title, want)
		}
	}
	legalLens := titles["legal"]
	if legalLens.Command.Command != "gdl.runQuery" {
		t.Fatalf("legal lens runs %q", legalLens.Command.Command)
	}

	// Running the lens returns the answers in the current (initial) state.
	var res queryResult
	c.mustCall("workspace/executeCommand", protocol.ExecuteCommandParams{Command: "gdl.runQuery", Arguments: legalLens.Command.Arguments}, &res)
	if len(res.Answers) != 10 || res.Answers[0] != "(legal oplayer noop)" || len(res.State) != 10 || res.Error != "" {
		t.Fatalf("runQuery: %+v", res)
	}

	// Hovering legal shows its answers in the current state.
	var h protocol.Hover
	c.mustCall("textDocument/hover", tdpp(uri, positionOf(t, text, "(legal ?player (mark", 1)), &h)
	if !strings.Contains(h.Contents.Value, "In the initial state, 10 answers") || !strings.Contains(h.Contents.Value, "`(legal xplayer (mark 1 1))`") {
		t.Errorf("hover of legal: %s", h.Contents.Value)
	}

	// Play a joint move: the state, the lenses and the queries follow.
	var st gameState
	c.mustCall("workspace/executeCommand", protocol.ExecuteCommandParams{Command: "gdl.playMove",
		Arguments: []interface{}{map[string]any{"uri": uri, "moves": []string{"(mark 1 1)", "noop"}}}}, &st)
	if st.Error != "" || st.Step != 1 || len(st.Legal["oplayer"]) != 8 || len(st.Legal["xplayer"]) != 1 || st.Terminal {
		t.Fatalf("after (mark 1 1): %+v", st)
	}
	if !contains(st.State, "(cell 1 1 x)") || !contains(st.State, "(control oplayer)") {
		t.Fatalf("state after (mark 1 1): %v", st.State)
	}
	for _, l := range c.lenses(uri) {
		if strings.HasPrefix(l.Command.Title, "legal:") && l.Command.Title != "legal: 9 answers" {
			t.Errorf("legal lens after a move: %q", l.Command.Title)
		}
	}
	res = queryResult{}
	c.mustCall("workspace/executeCommand", protocol.ExecuteCommandParams{Command: "gdl.runQuery",
		Arguments: []interface{}{map[string]any{"uri": uri, "query": "(next (cell 1 1 ?c))"}}}, &res)
	// A query about a joint move is answered after each legal joint move of the current state:
	// oplayer's 8 marks, xplayer's noop.
	if len(res.Answers) != 1 || res.Answers[0] != "(next (cell 1 1 x))" || len(res.ByMove) != 8 || res.JointMoves != 8 {
		t.Fatalf("next after the legal joint moves: %+v", res)
	}
	if m := res.ByMove[0]; len(m.Move) != 2 || m.Move[0] != "noop" || len(m.Answers) != 1 {
		t.Fatalf("next after the first joint move: %+v", m)
	}

	// An illegal move is refused with a reason; the state stays.
	st = gameState{}
	c.mustCall("workspace/executeCommand", protocol.ExecuteCommandParams{Command: "gdl.playMove",
		Arguments: []interface{}{map[string]any{"uri": uri, "moves": []string{"(mark 1 1)", "noop"}}}}, &st)
	if st.Error == "" || st.Step != 1 {
		t.Fatalf("illegal move accepted: %+v", st)
	}
	st = gameState{}
	c.mustCall("workspace/executeCommand", protocol.ExecuteCommandParams{Command: "gdl.playRandom",
		Arguments: []interface{}{map[string]any{"uri": uri}}}, &st)
	if st.Error != "" || st.Step != 2 {
		t.Fatalf("random move: %+v", st)
	}
	var shown gameState
	c.mustCall("workspace/executeCommand", protocol.ExecuteCommandParams{Command: "gdl.showState",
		Arguments: []interface{}{map[string]any{"uri": uri}}}, &shown)
	if shown.Step != 2 || len(shown.History) != 2 {
		t.Fatalf("showState: %+v", shown)
	}

	// Inlay hints: init facts say whether they still hold; legal rules list their moves.
	var hints []inlayHint
	c.mustCall("textDocument/inlayHint", inlayHintParams{TextDocument: docID(uri), Range: rng(0, 0, 500, 0)}, &hints)
	var notNow, legalHints int
	for _, h := range hints {
		if h.Label == "✗ not now" {
			notNow++
		}
		if strings.HasPrefix(h.Label, "→ ") {
			legalHints++
		}
	}
	if notNow < 2 || legalHints != 2 {
		t.Errorf("inlay hints after two moves: %d init facts no longer hold (want >= 2), %d legal hints (want 2): %+v", notNow, legalHints, hints)
	}

	st = gameState{}
	c.mustCall("workspace/executeCommand", protocol.ExecuteCommandParams{Command: "gdl.resetState",
		Arguments: []interface{}{map[string]any{"uri": uri}}}, &st)
	if st.Step != 0 || len(st.Legal["xplayer"]) != 9 {
		t.Fatalf("reset: %+v", st)
	}

	// Formatting returns the canonical layout (our game is already formatted: no edits) and
	// refuses a document with syntax errors.
	var edits []protocol.TextEdit
	c.mustCall("textDocument/formatting", protocol.DocumentFormattingParams{TextDocument: docID(uri)}, &edits)
	const messy = "file:///w/messy.kif"
	c.open(messy, "(role a) (role b)\n")
	c.mustCall("textDocument/formatting", protocol.DocumentFormattingParams{TextDocument: docID(messy)}, &edits)
	if len(edits) != 1 || edits[0].NewText != "(role a)\n(role b)\n" {
		t.Fatalf("formatting: %+v", edits)
	}
	const broken = "file:///w/broken.kif"
	c.open(broken, "(role a\n")
	if err := c.call("textDocument/formatting", protocol.DocumentFormattingParams{TextDocument: docID(broken)}, &edits); err == nil {
		t.Fatal("formatting a broken document must fail")
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
