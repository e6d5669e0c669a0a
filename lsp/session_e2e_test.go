package lsp

import (
	"slices"
	"testing"

	"go.lsp.dev/protocol"
)

// TestSessionCommandsOverStdio: over real stdio, gdl.undoMove takes back the last joint move,
// and a joint move after the end of the game is refused with the game API's reason (as gdl
// query --moves refuses it), even one the rules make legal in the terminal state.
func TestSessionCommandsOverStdio(t *testing.T) {
	c := startServer(t)
	caps := c.initialize().Capabilities
	if caps.ExecuteCommandProvider == nil || !slices.Contains(caps.ExecuteCommandProvider.Commands, "gdl.undoMove") {
		t.Fatalf("gdl.undoMove not advertised: %+v", caps.ExecuteCommandProvider)
	}
	const uri = "file:///w/steps.kif"
	c.open(uri, "(role solo)\n(init (step 0))\n(<= (legal solo go) (true (step ?n)))\n"+
		"(<= (next (step 1)) (true (step 0)))\n(<= terminal (true (step 1)))\n(goal solo 100)\n")
	c.diagnosticsFor(uri, 1)
	command := func(name string, args map[string]any) gameState {
		args["uri"] = uri
		var st gameState
		c.mustCall("workspace/executeCommand", protocol.ExecuteCommandParams{Command: name, Arguments: []interface{}{args}}, &st)
		return st
	}
	if st := command("gdl.playMove", map[string]any{"moves": []string{"go"}}); st.Error != "" || st.Step != 1 || !st.Terminal {
		t.Fatalf("go: %+v", st)
	}
	const over = "the state is terminal: the game is over, so no move can be played"
	if st := command("gdl.playMove", map[string]any{"moves": []string{"go"}}); st.Error != over || st.Step != 1 {
		t.Errorf("go after the end: %+v, want the error %q", st, over)
	}
	if st := command("gdl.playRandom", map[string]any{}); st.Error != over || st.Step != 1 {
		t.Errorf("a random move after the end: %+v, want the error %q", st, over)
	}
	if st := command("gdl.undoMove", map[string]any{}); st.Error != "" || st.Step != 0 || st.Terminal || !slices.Equal(st.State, []string{"(step 0)"}) {
		t.Errorf("undo: %+v", st)
	}
	if st := command("gdl.undoMove", map[string]any{}); st.Error == "" || st.Step != 0 {
		t.Errorf("undo in the initial state: %+v, want an error", st)
	}
}
