package lsp

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
)

// TestGameViewCommandsOverStdio: over real stdio, the state commands carry the board drawn, the
// squares of each legal move and the line of joint moves; gdl.gotoStep goes back and forward
// along the line; gdl.computerMove plays the search's move; gdl.playouts gives the figures of
// gdl play; and the gdl.json board section decides the board.
func TestGameViewCommandsOverStdio(t *testing.T) {
	src, err := os.ReadFile("../testdata/games/tictactoe.kif")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "ttt.kif")
	writeFile(t, path, string(src))
	c := startServer(t)
	caps := c.initialize().Capabilities
	for _, cmd := range []string{"gdl.gotoStep", "gdl.computerMove", "gdl.playouts"} {
		if caps.ExecuteCommandProvider == nil || !slices.Contains(caps.ExecuteCommandProvider.Commands, cmd) {
			t.Fatalf("%s not advertised: %+v", cmd, caps.ExecuteCommandProvider)
		}
	}
	u := fileURI(path)
	c.open(u, string(src))
	c.diagnosticsFor(u, 1)
	command := stateCommand(t, c, u)
	st := command("gdl.showState", map[string]any{})
	if st.View == nil || len(st.View.Boards) != 1 || len(st.View.Boards[0].Rows) != 3 || len(st.View.Boards[0].Columns) != 3 {
		t.Fatalf("the initial state's board: %+v", st.View)
	}
	if !strings.Contains(st.Board, "cell (3 rows, 3 columns)") {
		t.Errorf("board text:\n%s", st.Board)
	}
	legal := st.Legal["xplayer"]
	i := slices.Index(legal, "(mark 2 3)")
	if i < 0 || len(st.Squares["xplayer"][i]) != 1 {
		t.Fatalf("(mark 2 3) and its square: %v %+v", legal, st.Squares)
	}
	sq := st.Squares["xplayer"][i][0]
	if b := st.View.Boards[sq.Board]; b.Cells[sq.Row][sq.Column].Fluents[0] != "(cell 2 3 b)" {
		t.Errorf("(mark 2 3) names the square of %v", b.Cells[sq.Row][sq.Column].Fluents)
	}
	command("gdl.playMove", map[string]any{"moves": []string{"(mark 2 3)", "noop"}})
	st = command("gdl.playMove", map[string]any{"moves": []string{"noop", "(mark 1 1)"}})
	if st.Step != 2 || len(st.Line) != 2 {
		t.Fatalf("after two moves: %+v", st)
	}
	if st = command("gdl.gotoStep", map[string]any{"step": 0}); st.Step != 0 || len(st.Line) != 2 || st.Error != "" {
		t.Errorf("back to step 0: step %d, line %v, error %q", st.Step, st.Line, st.Error)
	}
	if st = command("gdl.gotoStep", map[string]any{"step": 2}); st.Step != 2 || !strings.Contains(st.Board, "1 o . .") {
		t.Errorf("forward to step 2: step %d\n%s", st.Step, st.Board)
	}
	if st = command("gdl.gotoStep", map[string]any{"step": 3}); st.Step != 2 || st.Error == "" {
		t.Errorf("past the line: %+v", st)
	}
	var bad struct{}
	if err := c.call("workspace/executeCommand", protocol.ExecuteCommandParams{Command: "gdl.gotoStep", Arguments: []interface{}{map[string]any{"uri": u}}}, &bad); err == nil ||
		!strings.Contains(err.Error(), "give the step") {
		t.Errorf("gdl.gotoStep without a step: %v", err)
	}
	st = command("gdl.computerMove", map[string]any{"playouts": 300})
	if st.Step != 3 || len(st.Computer) != 1 || st.Computer[0].Role != "xplayer" || st.Computer[0].Playouts != 300 || st.Error != "" {
		t.Errorf("computer move: %+v", st)
	}
	if got := st.History[2][0]; got != st.Computer[0].Move {
		t.Errorf("played %s, the search chose %s", got, st.Computer[0].Move)
	}
	var po playoutsResult
	c.mustCall("workspace/executeCommand", protocol.ExecuteCommandParams{Command: "gdl.playouts",
		Arguments: []interface{}{map[string]any{"uri": u, "playouts": 300, "seed": 3}}}, &po)
	total := 0
	for _, l := range po.Lengths {
		total += l.Count
	}
	if po.Error != "" || po.Playouts != 300 || total != 300 || po.First == nil || po.First.Role != "xplayer" ||
		po.First.Wins+po.First.Draws+po.First.Losses != 300 || len(po.Goals["oplayer"]) == 0 {
		t.Errorf("playouts: %+v", po)
	}

	// A game that never ends: the playouts that reach the depth limit are its own figure, not a
	// violation, as in gdl play --format json.
	endless := filepath.Join(dir, "endless.kif")
	endlessText := "(role r) (init (at 0)) (legal r wait) (<= (next (at 0)) (true (at 0))) (<= terminal (true (at 1))) (goal r 100)\n"
	writeFile(t, endless, endlessText)
	c.open(fileURI(endless), endlessText)
	c.diagnosticsFor(fileURI(endless), 1)
	var ep playoutsResult
	c.mustCall("workspace/executeCommand", protocol.ExecuteCommandParams{Command: "gdl.playouts",
		Arguments: []interface{}{map[string]any{"uri": fileURI(endless), "playouts": 3}}}, &ep)
	if ep.DepthLimit == nil || ep.DepthLimit.Playouts != 3 || ep.DepthLimit.MaxDepth != 1000 || len(ep.Violations) != 0 {
		t.Errorf("playouts of a game that never ends: depth limit %+v, violations %+v", ep.DepthLimit, ep.Violations)
	}

	// A gdl.json that makes the second argument the row draws the board transposed, rows up.
	other := filepath.Join(dir, "configured", "ttt.kif")
	writeFile(t, other, string(src))
	writeFile(t, filepath.Join(dir, "configured", "gdl.json"), `{"board": {"boards": [{"relation": "cell", "row": 2, "column": 1, "rowsUp": true}], "pieces": {"x": "X"}}}`)
	u = fileURI(other)
	c.open(u, string(src))
	c.diagnosticsFor(u, 1)
	command = stateCommand(t, c, u)
	st = command("gdl.playMove", map[string]any{"moves": []string{"(mark 2 3)", "noop"}})
	b := st.View.Boards[0]
	if !b.Configured || b.RowArg != 2 || b.ColumnArg != 1 || b.Rows[0] != "3" {
		t.Fatalf("the configured board: %+v", b)
	}
	if !strings.Contains(st.Board, "3 . X .") {
		t.Errorf("(cell 2 3 x) at row 3, column 2, shown as X:\n%s", st.Board)
	}
}

// stateCommand returns a function that runs a state command of the document u and returns the
// game state it gives.
func stateCommand(t *testing.T, c *testClient, u protocol.DocumentURI) func(name string, args map[string]any) gameState {
	return func(name string, args map[string]any) gameState {
		t.Helper()
		args["uri"] = u
		var st gameState
		c.mustCall("workspace/executeCommand", protocol.ExecuteCommandParams{Command: name, Arguments: []interface{}{args}}, &st)
		return st
	}
}

// TestViewAsOverStdio: in a GDL-II game, a state command with viewAs carries the state as that
// role knows it, and the computer plays a role from what it knows.
func TestViewAsOverStdio(t *testing.T) {
	src, err := os.ReadFile("../testdata/games/montyhall.kif")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "montyhall.kif")
	writeFile(t, path, string(src))
	c := startServer(t)
	c.initialize()
	u := fileURI(path)
	c.open(u, string(src))
	c.diagnosticsFor(u, 1)
	command := stateCommand(t, c, u)
	command("gdl.playMove", map[string]any{"moves": []string{"noop", "(hide 2)"}})
	command("gdl.playMove", map[string]any{"moves": []string{"(pick 2)", "noop"}})
	st := command("gdl.playMove", map[string]any{"moves": []string{"noop", "(reveal 3)"}, "viewAs": "contestant"})
	v := st.ViewAs
	if v == nil || v.Role != "contestant" || v.States != 2 || !v.Complete || !slices.Contains(v.UnknownOthers, "prize") ||
		!slices.Contains(v.Known, "(shown 3)") || slices.Contains(v.Known, "(prize 2)") {
		t.Fatalf("viewAs contestant: %+v", v)
	}
	if st = command("gdl.showState", map[string]any{}); st.ViewAs != nil {
		t.Errorf("a state command without viewAs: %+v", st.ViewAs)
	}
	st = command("gdl.computerMove", map[string]any{"playouts": 300, "seed": 1, "viewAs": "contestant"})
	if len(st.Computer) != 1 || st.Computer[0].Move != "switch" || st.Computer[0].States != 2 {
		t.Errorf("the contestant, the car behind its door, knows no better than to switch: %+v", st.Computer)
	}
	if st.ViewAs == nil || st.ViewAs.States != 1 {
		t.Errorf("after the decision the contestant sees the car: %+v", st.ViewAs)
	}
}

// Issue 22, item 15: gdl.computerMove with a playout budget of a billion took an hour, and the
// document's state commands waited for it. The budget now runs within the move time, and a
// state command sent while the computer thinks cuts the search short.
func TestComputerMoveYields(t *testing.T) {
	src, err := os.ReadFile("../testdata/games/tictactoe.kif")
	if err != nil {
		t.Fatal(err)
	}
	c := startServer(t)
	c.initialize()
	u := fileURI(filepath.Join(t.TempDir(), "ttt.kif"))
	c.open(u, string(src))
	c.diagnosticsFor(u, 1)
	exec := func(name string, args map[string]any) protocol.ExecuteCommandParams {
		args["uri"] = u
		return protocol.ExecuteCommandParams{Command: name, Arguments: []interface{}{args}}
	}
	var st gameState
	c.mustCall("workspace/executeCommand", exec("gdl.computerMove", map[string]any{"playouts": 1_000_000_000, "moveTimeMs": 300}), &st)
	if st.Step != 1 || len(st.Computer) != 1 || st.Computer[0].Playouts >= 1_000_000_000 {
		t.Fatalf("a billion playouts within 300 ms: %+v", st)
	}

	done := make(chan error, 1)
	var thought gameState
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		_, err := c.conn.Call(ctx, "workspace/executeCommand", exec("gdl.computerMove", map[string]any{"playouts": 1_000_000_000}), &thought)
		done <- err
	}()
	// A state command sent while the computer thinks waits a moment, not for the search. One
	// may run before the computer move starts: the next one then cuts it short.
	var shown gameState
	for i := 0; ; i++ {
		c.mustCall("workspace/executeCommand", exec("gdl.showState", map[string]any{}), &shown)
		select {
		case err := <-done:
			if err != nil || thought.Step != 2 || len(thought.Computer) != 1 || thought.Computer[0].Playouts >= 1_000_000_000 {
				t.Fatalf("the computer move cut short: %+v, %v", thought, err)
			}
			c.mustCall("workspace/executeCommand", exec("gdl.showState", map[string]any{}), &shown)
			if shown.Step != 2 {
				t.Errorf("after the computer move: step %d", shown.Step)
			}
			return
		case <-time.After(100 * time.Millisecond):
		}
		if i == 100 {
			t.Fatal("the computer move is still thinking after 100 state commands")
		}
	}
}
