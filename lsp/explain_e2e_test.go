package lsp

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// TestExplainOverStdio: the code action on a literal runs gdl.explain, whose result explains the
// literal in the document's current state with the rules linked; with hover.explainLinks the
// evaluated hover links each answer to the same command.
func TestExplainOverStdio(t *testing.T) {
	c := startServer(t)
	c.mu.Lock()
	c.settings = map[string]any{"hover": map[string]any{"explainLinks": true}}
	c.mu.Unlock()
	c.initialize()
	const uri = "file:///w/explain.kif"
	text := "(role robot)\n(init (cell 1))\n(<= (legal robot (go ?x))\n    (true (cell ?x)))\n(<= (next (cell 2)) (does robot (go 1)))\n(<= terminal (true (cell 2)))\n(goal robot 100)\n"
	c.open(uri, text)
	c.settingsApplied(uri)

	var actions []protocol.CodeAction
	c.mustCall("textDocument/codeAction", protocol.CodeActionParams{TextDocument: docID(uri),
		Range: protocol.Range{Start: positionOf(t, text, "cell ?x", 1), End: positionOf(t, text, "cell ?x", 1)}}, &actions)
	var cmd *protocol.Command
	for _, a := range actions {
		if a.Command != nil && a.Command.Command == "gdl.explain" {
			cmd = a.Command
		}
	}
	if cmd == nil || !strings.Contains(cmd.Title, "(true (cell ?x))") {
		t.Fatalf("no explain action: %+v", actions)
	}
	var res explainResult
	c.mustCall("workspace/executeCommand", map[string]any{"command": cmd.Command, "arguments": cmd.Arguments}, &res)
	if !res.Holds || res.Error != "" || !strings.Contains(res.Markdown, "`(true (cell 1))` — in the state") || res.Explanation == nil {
		t.Errorf("explain result %+v", res)
	}

	c.mustCall("workspace/executeCommand", map[string]any{"command": "gdl.explain",
		"arguments": []any{map[string]any{"uri": uri, "literal": "(legal robot (go 2))"}}}, &res)
	if res.Holds || !strings.Contains(res.Markdown, "does not hold") || !strings.Contains(res.Markdown, "[line 3]("+uri+"#L3,1)") {
		t.Errorf("why-not result %+v", res)
	}
	c.mustCall("workspace/executeCommand", map[string]any{"command": "gdl.explain",
		"arguments": []any{map[string]any{"uri": uri, "literal": "(next (cell 2))"}}}, &res)
	if !res.Holds || len(res.Joint) != 1 || res.Joint[0] != "(go 1)" {
		t.Errorf("a literal about a joint move: %+v", res)
	}

	// The game view asks why a square holds its fluent, and a refused move says why not.
	var st gameState
	c.mustCall("workspace/executeCommand", map[string]any{"command": "gdl.playMove",
		"arguments": []any{map[string]any{"uri": uri, "moves": []string{"(go 2)"}}}}, &st)
	if st.Error == "" || st.Why == nil || st.Why.Holds || !strings.Contains(st.Why.Markdown, "[line 3]("+uri+"#L3,1)") {
		t.Errorf("refused move: %+v", st)
	}
	c.mustCall("workspace/executeCommand", map[string]any{"command": "gdl.playMove",
		"arguments": []any{map[string]any{"uri": uri, "moves": []string{"(go 1)"}}}}, &st)
	c.mustCall("workspace/executeCommand", map[string]any{"command": "gdl.explain",
		"arguments": []any{map[string]any{"uri": uri, "fluent": "(cell 2)"}}}, &res)
	if !res.Holds || res.Literal != "(next (cell 2))" || !strings.Contains(res.Markdown, "joint move 1 was played") {
		t.Errorf("fluent: %+v", res)
	}
	c.mustCall("workspace/executeCommand", map[string]any{"command": "gdl.resetState", "arguments": []any{map[string]any{"uri": uri}}}, &st)

	// The inlay hints' tooltips link to why too: a legal rule's moves, an init fact.
	var hints []struct {
		Label   string          `json:"label"`
		Tooltip json.RawMessage `json:"tooltip"`
	}
	c.mustCall("textDocument/inlayHint", map[string]any{"textDocument": docID(uri), "range": rng(0, 0, 8, 0)}, &hints)
	tips := ""
	for _, h := range hints {
		var mc protocol.MarkupContent
		if json.Unmarshal(h.Tooltip, &mc) == nil && mc.Kind == protocol.Markdown {
			tips += mc.Value + "\n"
		}
	}
	if !strings.Contains(tips, "[Why?](command:gdl.explain?"+url.QueryEscape(`[{"uri":"`+uri+`","fluent":"(cell 1)"}]`)+")") ||
		!strings.Contains(tips, url.QueryEscape(`"literal":"(legal robot (go ?x))"`)) {
		t.Errorf("hints without why links: %+v\n%s", hints, tips)
	}

	var h protocol.Hover
	c.mustCall("textDocument/hover", tdpp(uri, positionOf(t, text, "legal", 1)), &h)
	link := "command:gdl.explain?" + url.QueryEscape(`[{"uri":"`+uri+`","literal":"(legal robot (go 1))"}]`)
	if !strings.Contains(h.Contents.Value, "[why?]("+link+")") {
		t.Errorf("hover without the why link %s:\n%s", link, h.Contents.Value)
	}
}
