package lsp

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
)

// TestCodeLensResolveOverStdio: codeLens lists unresolved lenses, one per contiguous group of a
// relation's clauses; codeLens/resolve titles them; the next lens counts the answers after the
// legal joint moves of the state and running it returns them per joint move.
func TestCodeLensResolveOverStdio(t *testing.T) {
	data, err := os.ReadFile("../testdata/games/tictactoe.kif")
	if err != nil {
		t.Fatal(err)
	}
	// A second group of legal clauses, after the goal rules.
	text := string(data) + "\n(<= (legal ?player noop) (true (control ?player)) (true (cell 9 9 b)))\n"
	c := startServer(t)
	caps := c.initialize().Capabilities
	if caps.CodeLensProvider == nil || !caps.CodeLensProvider.ResolveProvider {
		t.Fatalf("codeLensProvider.resolveProvider not advertised: %+v", caps.CodeLensProvider)
	}
	const uri = "file:///w/tictactoe.kif"
	c.open(uri, text)
	c.diagnosticsFor(uri, 1)

	lenses := c.lenses(uri) // fails the test if codeLens already resolved them
	byKey := map[string][]protocol.CodeLens{}
	for _, l := range lenses {
		key := strings.SplitN(l.Command.Title, ":", 2)[0]
		byKey[key] = append(byKey[key], l)
	}
	if ls := byKey["legal"]; len(ls) != 2 || ls[0].Command.Title != "legal: 10 answers" || ls[1].Command.Title != "legal: 10 answers" {
		t.Errorf("legal, defined in two groups: want two lenses titled %q, got %+v", "legal: 10 answers", ls)
	} else if ls[1].Range.Start.Line <= ls[0].Range.Start.Line {
		t.Errorf("the second legal lens is not on the second group: %+v", ls)
	}
	if ls := byKey["next"]; len(ls) != 1 || ls[0].Command.Title != "next: 10 answers after each of 9 joint moves" {
		t.Fatalf("next lens: %+v", ls)
	}
	var res queryResult
	c.mustCall("workspace/executeCommand", protocol.ExecuteCommandParams{Command: "gdl.runQuery", Arguments: byKey["next"][0].Command.Arguments}, &res)
	if res.Error != "" || res.JointMoves != 9 || len(res.ByMove) != 9 || len(res.State) != 10 {
		t.Fatalf("running the next lens in the initial state: %+v", res)
	}
	for _, m := range res.ByMove {
		if len(m.Move) != 2 || m.Move[1] != "noop" || len(m.Answers) != 10 || m.Error != "" {
			t.Fatalf("next after %v: %+v", m.Move, m)
		}
	}
	first := res.ByMove[0]
	if !contains(first.Answers, "(next (cell 1 1 x))") || !contains(first.Answers, "(next (control oplayer))") {
		t.Errorf("next after %v: %v", first.Move, first.Answers)
	}

	// In a state with one legal joint move, the title names it.
	var st gameState
	for _, move := range [][]string{{"(mark 1 1)", "noop"}, {"noop", "(mark 2 2)"}, {"(mark 1 2)", "noop"}, {"noop", "(mark 3 3)"}} {
		c.mustCall("workspace/executeCommand", protocol.ExecuteCommandParams{Command: "gdl.playMove",
			Arguments: []interface{}{map[string]any{"uri": uri, "moves": move}}}, &st)
	}
	if st.Error != "" || st.Step != 4 {
		t.Fatalf("playing: %+v", st)
	}
	for _, l := range c.lenses(uri) {
		if strings.HasPrefix(l.Command.Title, "next:") && l.Command.Title != "next: 10 answers after each of 5 joint moves" {
			t.Errorf("next lens after 4 moves: %q", l.Command.Title)
		}
	}
}

// TestCodeLensWithoutResolve: with codeLens.resolve off, codeLens returns titled lenses.
func TestCodeLensWithoutResolve(t *testing.T) {
	c := startServer(t)
	c.mu.Lock()
	c.settings = map[string]any{"codeLens": map[string]any{"resolve": false}}
	c.mu.Unlock()
	c.initialize()
	const uri = "file:///w/small.kif"
	c.open(uri, "(role robot)\n(init (p 1))\n(<= (legal robot go) (true (p 1)))\n(<= (next (p 2)) (does robot go))\n(<= terminal (true (p 2)))\n(goal robot 100)\n")
	c.diagnosticsFor(uri, 1)
	var lenses []protocol.CodeLens
	// The pulled settings apply on the server's side soon after initialized.
	waitFor(t, "titled lenses", func() bool {
		c.mustCall("textDocument/codeLens", protocol.CodeLensParams{TextDocument: docID(uri)}, &lenses)
		for _, l := range lenses {
			if l.Command == nil || strings.HasSuffix(l.Command.Title, "evaluating…") {
				return false
			}
		}
		return len(lenses) > 0
	})
	titles := []string{}
	for _, l := range lenses {
		if l.Command == nil {
			t.Fatalf("unresolved lens with codeLens.resolve off: %+v", l)
		}
		titles = append(titles, l.Command.Title)
	}
	want := []string{"role: 1 answer", "init: 1 answer", "legal: 1 answer", "next: 1 answer after go", "terminal: false", "goal: 1 answer"}
	if fmt.Sprint(titles) != fmt.Sprint(want) {
		t.Errorf("titles: %q, want %q", titles, want)
	}
}

// reachGame is a game whose first legal derives the transitive closure of a chain of n edges
// (n²/2 facts: about half a second for n = 1000).
func reachGame(n int) string {
	var b strings.Builder
	b.WriteString("; reach\n(role robot)\n(init (at 0))\n")
	b.WriteString("(<= (reach ?x ?y) (edge ?x ?y))\n(<= (reach ?x ?z) (edge ?x ?y) (reach ?y ?z))\n")
	b.WriteString("(<= (legal robot (go ?x)) (true (at ?y)) (reach ?y ?x))\n(<= (next (at ?x)) (does robot (go ?x)))\n")
	b.WriteString("(<= terminal (true (at 5)))\n(goal robot 100)\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "(edge %d %d)\n", i, i+1)
	}
	return b.String()
}

// TestSlowEvaluationOverStdio: a hover does not wait for a slow evaluation (it says it is still
// running, and a later hover shows the answers); a lens says "evaluating…" and the client is
// asked to refresh its lenses when the evaluation is done; an edit of a comment keeps the
// evaluated results, an edit of a clause does not.
func TestSlowEvaluationOverStdio(t *testing.T) {
	c := startServer(t)
	c.mu.Lock()
	c.settings = map[string]any{"eval": map[string]any{"timeoutMs": 60000}} // the race detector is slow
	c.mu.Unlock()
	c.initializeWith(map[string]any{
		"workspace":    map[string]any{"configuration": true, "codeLens": map[string]any{"refreshSupport": true}},
		"textDocument": map[string]any{"hover": map[string]any{"contentFormat": []string{"markdown"}}},
	})
	<-c.configAsked
	const uri = "file:///w/reach.kif"
	text := reachGame(1000)
	c.open(uri, text)
	c.diagnosticsFor(uri, 1)
	at := tdpp(uri, positionOf(t, text, "legal robot (go", 1))
	hoverText := func() string {
		var h protocol.Hover
		c.mustCall("textDocument/hover", at, &h)
		return h.Contents.Value
	}
	if h := hoverText(); !strings.Contains(h, "still running") || !strings.Contains(h, "keyword relation") {
		t.Fatalf("first hover on legal: want the summary and 'still running', got %q", h)
	}
	var lensTitle string
	for _, l := range c.lenses(uri) {
		if strings.HasPrefix(l.Command.Title, "legal:") {
			lensTitle = l.Command.Title
		}
	}
	if lensTitle != "legal: evaluating…" && lensTitle != "legal: 1000 answers" {
		t.Errorf("legal lens while evaluating: %q", lensTitle)
	}
	waitFor(t, "the answers in a hover", func() bool { return strings.Contains(hoverText(), "In the initial state, 1000 answers") })
	if lensTitle == "legal: evaluating…" {
		waitFor(t, "workspace/codeLens/refresh", func() bool { return c.count("workspace/codeLens/refresh") > 0 })
	}

	// A comment edited: the game and its answers carry over; the first hover has them.
	c.change(uri, rng(0, 2, 0, 7), "reachability game")
	if h := hoverText(); !strings.Contains(h, "In the initial state, 1000 answers") {
		t.Errorf("hover after editing a comment: %q", h)
	}
	// A clause edited: evaluated again.
	c.change(uri, rng(8, 0, 8, 0), "(edge 5000 5001)\n")
	if h := hoverText(); !strings.Contains(h, "still running") {
		t.Errorf("hover after editing the clauses: %q", h)
	}
}

// waitFor polls cond for up to 30 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if cond() {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("timed out waiting for %s", what)
}

// TestLimitLineAfterCommentEdit: after lines of comments are added above, the game carries over,
// and an evaluation stopped by a limit names the rule's line in the edited text.
func TestLimitLineAfterCommentEdit(t *testing.T) {
	c := startServer(t)
	c.mu.Lock()
	c.settings = map[string]any{"eval": map[string]any{"maxFacts": 100}}
	c.mu.Unlock()
	c.initialize()
	const uri = "file:///w/limit.kif"
	c.open(uri, reachGame(50))
	// The limit must apply before the first evaluation (the facts of reach are derived once per
	// game).
	c.settingsApplied(uri)
	lineOf := func() int {
		var res queryResult
		c.mustCall("workspace/executeCommand", protocol.ExecuteCommandParams{Command: "gdl.runQuery",
			Arguments: []interface{}{map[string]any{"uri": uri, "query": "(reach ?x ?y)"}}}, &res)
		var line int
		i := strings.Index(res.Error, "by the rule on line ")
		if i < 0 {
			return -1
		}
		fmt.Sscanf(res.Error[i+len("by the rule on line "):], "%d", &line)
		return line
	}
	before := lineOf()
	if before != 4 && before != 5 {
		t.Fatalf("limit error on line %d, want a reach rule (line 4 or 5)", before)
	}
	c.change(uri, rng(0, 0, 0, 0), "; a comment\n; and another\n")
	if after := lineOf(); after != before+2 {
		t.Errorf("after two comment lines above: line %d, want %d", after, before+2)
	}
}
