package lsp

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gdl-lsp/gdl/ggp"
)

// "Run a match" over stdio: a match between a GGP player over HTTP on 127.0.0.1 and the
// built-in mcts player, with progress; the result starts the document's line at the match,
// which gdl.gotoStep walks to the terminal state and its goals.
func TestRunMatchCommand(t *testing.T) {
	src, err := os.ReadFile("../testdata/games/tictactoe.kif")
	if err != nil {
		t.Fatal(err)
	}
	remote := httptest.NewServer(ggp.NewPlayer(ggp.PlayerOptions{Seed: 4}))
	defer remote.Close()
	c := startServer(t)
	defer c.shutdown()
	caps := c.initializeWith(map[string]any{"window": map[string]any{"workDoneProgress": true}}).Capabilities
	if caps.ExecuteCommandProvider == nil || !slices.Contains(caps.ExecuteCommandProvider.Commands, "gdl.runMatch") {
		t.Fatalf("gdl.runMatch not advertised: %+v", caps.ExecuteCommandProvider)
	}
	const uri = "file:///w/ttt.kif"
	c.open(uri, string(src))
	c.diagnosticsFor(uri, 1)

	var res matchResult
	c.mustCall("workspace/executeCommand", map[string]any{"command": "gdl.runMatch", "arguments": []any{map[string]any{
		"uri": uri, "players": []string{"mcts", remote.URL}, "playouts": 200, "playclockMs": 30_000, "startclockMs": 30_000}}}, &res)
	m := res.Match
	if m == nil || !m.Completed || m.Errors != 0 || m.Players[1] != remote.URL+"/" || m.PlayClock != 30 {
		t.Fatalf("match %+v", m)
	}
	if res.Step != 0 || len(res.Line) != len(m.Moves) || len(res.History) != 0 || res.View == nil {
		t.Fatalf("the state after the match: step %d, line %v, history %v", res.Step, res.Line, res.History)
	}
	for i, s := range m.Moves {
		if !slices.Equal(res.Line[i], s.Joint) {
			t.Errorf("line %d: %v, the match played %v", i+1, res.Line[i], s.Joint)
		}
	}
	if !strings.Contains(res.Summary, "terminal after") {
		t.Errorf("summary %q", res.Summary)
	}
	c.mu.Lock()
	notes := append([]progressNote(nil), c.progress...)
	c.mu.Unlock()
	if len(notes) < 2 || !strings.Contains(notes[0].Value, `"begin"`) || !strings.Contains(notes[0].Value, "Match of ttt.kif: mcts against "+remote.URL) ||
		!strings.Contains(notes[len(notes)-1].Value, "terminal after") {
		t.Errorf("progress %+v", notes)
	}

	// The view steps through the match: its end is the terminal state with the record's goals.
	var st gameState
	c.mustCall("workspace/executeCommand", map[string]any{"command": "gdl.gotoStep", "arguments": []any{map[string]any{"uri": uri, "step": len(res.Line)}}}, &st)
	if !st.Terminal || st.Step != len(m.Moves) {
		t.Fatalf("end of the line: %+v", st)
	}
	for r, role := range m.Roles {
		if !slices.Equal(st.Goals[role], []int{m.Goals[r]}) {
			t.Errorf("%s: goals %v, the match gave %d", role, st.Goals[role], m.Goals[r])
		}
	}

	// Players that do not fit are refused, naming what is wanted.
	err = c.call("workspace/executeCommand", map[string]any{"command": "gdl.runMatch", "arguments": []any{map[string]any{"uri": uri, "players": []string{"random"}}}}, &json.RawMessage{})
	if err == nil || !strings.Contains(err.Error(), "1 players for 2 roles (xplayer, oplayer)") {
		t.Errorf("one player: %v", err)
	}
	err = c.call("workspace/executeCommand", map[string]any{"command": "gdl.runMatch", "arguments": []any{map[string]any{"uri": uri}}}, &json.RawMessage{})
	if err == nil || !strings.Contains(err.Error(), "give the players") {
		t.Errorf("no players: %v", err)
	}
}

// The user cancels a match from its progress report while a player thinks: the players get
// ABORT and the result keeps the joint moves played.
func TestRunMatchCancelled(t *testing.T) {
	src, err := os.ReadFile("../testdata/games/tictactoe.kif")
	if err != nil {
		t.Fatal(err)
	}
	// A player that answers START and ABORT at once and never answers a PLAY.
	aborted := make(chan struct{}, 1)
	playing := make(chan struct{}, 1)
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		m, err := ggp.Parse(string(body))
		switch {
		case err != nil:
			http.Error(w, err.Error(), http.StatusBadRequest)
		case m.Kind == ggp.Start:
			io.WriteString(w, "ready")
		case m.Kind == ggp.Play:
			select {
			case playing <- struct{}{}:
			default:
			}
			<-r.Context().Done()
		default:
			if m.Kind == ggp.Abort {
				aborted <- struct{}{}
			}
			io.WriteString(w, "done")
		}
	}))
	defer slow.Close()
	c := startServer(t)
	defer c.shutdown()
	c.initialize()
	const uri = "file:///w/ttt.kif"
	c.open(uri, string(src))
	c.diagnosticsFor(uri, 1)
	done := make(chan error, 1)
	var res matchResult
	go func() {
		done <- c.call("workspace/executeCommand", map[string]any{"command": "gdl.runMatch", "workDoneToken": "match-1",
			"arguments": []any{map[string]any{"uri": uri, "players": []string{"random", slow.URL}, "playclockMs": 600_000}}}, &res)
	}()
	// Wait for the match to be under way (the slow player asked for its first move; a
	// cancellation while the game is still being loaded fails the request instead), then cancel
	// the report.
	select {
	case <-playing:
	case <-time.After(30 * time.Second):
		t.Fatal("the match never asked the slow player for a move")
	}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		c.mu.Lock()
		begun := len(c.progress) > 0
		c.mu.Unlock()
		if begun {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the match reported no progress")
		}
	}
	c.notify("window/workDoneProgress/cancel", map[string]any{"token": "match-1"})
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the cancelled match did not stop")
	}
	select {
	case <-aborted:
	default:
		t.Error("the slow player got no ABORT")
	}
	if res.Match == nil || res.Match.Completed || res.Match.Aborted != "cancelled: cancelled by the user" || len(res.Line) != len(res.Match.Moves) {
		t.Errorf("cancelled match: %+v, line %v", res.Match, res.Line)
	}
}
