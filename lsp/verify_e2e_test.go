package lsp

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
)

// verifyDiagnostics returns the verification findings among a publication.
func verifyFindings(p protocol.PublishDiagnosticsParams) []protocol.Diagnostic {
	var out []protocol.Diagnostic
	for _, d := range p.Diagnostics {
		if code, _ := d.Code.(string); strings.HasPrefix(code, "verify-") {
			out = append(out, d)
		}
	}
	return out
}

// "Verify game" over stdio: progress begins and ends, the finding is published on the rules
// involved with its witness, the quick fix replays the witness into the state, and an edit
// drops the findings.
func TestVerifyCommand(t *testing.T) {
	src, err := os.ReadFile("../testdata/verify/playability.kif")
	if err != nil {
		t.Fatal(err)
	}
	c := startServer(t)
	defer c.shutdown()
	c.initializeWith(map[string]any{"window": map[string]any{"workDoneProgress": true}})
	const uri = "file:///w/playability.kif"
	c.open(uri, string(src))
	c.diagnosticsFor(uri, 1)

	var res verifyResult
	c.mustCall("workspace/executeCommand", map[string]any{"command": "gdl.verify", "arguments": []any{map[string]any{"uri": uri}}}, &res)
	if !res.Complete || len(res.Findings) != 1 || res.Findings[0].Property != "playability" || res.Findings[0].Role != "bob" || len(res.Findings[0].Moves) != 5 {
		t.Fatalf("result %+v", res)
	}
	// Progress: created by the server, begun and ended.
	c.mu.Lock()
	notes := append([]progressNote(nil), c.progress...)
	asked := strings.Join(c.requests, " ")
	c.mu.Unlock()
	if !strings.Contains(asked, "window/workDoneProgress/create") || len(notes) < 2 ||
		!strings.Contains(notes[0].Value, `"begin"`) || !strings.Contains(notes[len(notes)-1].Value, `"end"`) ||
		!strings.Contains(notes[len(notes)-1].Value, "verified all") {
		t.Errorf("progress: requests %s, notes %+v", asked, notes)
	}

	var found []protocol.Diagnostic
	c.waitPublication(uri, "the verification's finding", func(p protocol.PublishDiagnosticsParams) bool {
		found = verifyFindings(p)
		return len(found) == 1
	})
	d := found[0]
	lines := strings.Split(string(src), "\n")
	if d.Code != "verify-playability" || d.Severity != protocol.DiagnosticSeverityError ||
		!strings.HasPrefix(strings.TrimSpace(lines[d.Range.Start.Line][d.Range.Start.Character:]), "(legal") ||
		!strings.Contains(d.Message, "bob") || !strings.Contains(d.Message, "(after ") {
		t.Errorf("finding %+v on line %q", d, lines[d.Range.Start.Line])
	}

	// The quick fix replays the witness: bob has no legal move in the state reached.
	var actions []protocol.CodeAction
	c.mustCall("textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": uri}, "range": d.Range,
		"context": map[string]any{"diagnostics": []protocol.Diagnostic{d}},
	}, &actions)
	var replay *protocol.Command
	for _, a := range actions {
		if a.Command != nil && a.Command.Command == "gdl.replayMoves" {
			replay = a.Command
		}
	}
	if replay == nil {
		t.Fatalf("no replay action among %+v", actions)
	}
	var st gameState
	c.mustCall("workspace/executeCommand", map[string]any{"command": replay.Command, "arguments": replay.Arguments}, &st)
	if st.Step != 5 || st.Terminal || len(st.Legal["bob"]) != 0 || st.Error != "" {
		t.Errorf("replayed state %+v", st)
	}

	// An edit makes another version: the findings were of the old one.
	c.change(uri, protocol.Range{Start: protocol.Position{Line: 0}, End: protocol.Position{Line: 0}}, "; edited\n")
	c.waitPublication(uri, "a publication of version 2 without findings", func(p protocol.PublishDiagnosticsParams) bool {
		return p.Version == 2 && len(verifyFindings(p)) == 0
	})
}

// The user cancels a verification from its progress report: the command fails saying so.
func TestVerifyCancelled(t *testing.T) {
	src, err := os.ReadFile("../testdata/games/sim.kif")
	if err != nil {
		t.Fatal(err)
	}
	c := startServer(t)
	defer c.shutdown()
	c.initialize()
	const uri = "file:///w/sim.kif"
	c.open(uri, string(src))
	c.diagnosticsFor(uri, 1)
	done := make(chan error, 1)
	go func() {
		var res json.RawMessage
		done <- c.call("workspace/executeCommand", map[string]any{"command": "gdl.verify", "workDoneToken": "tok-1",
			"arguments": []any{map[string]any{"uri": uri, "maxStates": 100_000_000, "timeoutMs": 600_000}}}, &res)
	}()
	// Wait for the report to begin, then cancel it.
	deadline := time.Now().Add(20 * time.Second)
	for {
		c.mu.Lock()
		begun := len(c.progress) > 0
		c.mu.Unlock()
		if begun {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the verification never reported progress")
		}
		time.Sleep(10 * time.Millisecond)
	}
	c.notify("window/workDoneProgress/cancel", map[string]any{"token": "tok-1"})
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "cancelled by the user") {
			t.Errorf("cancelled verification: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the cancelled verification did not stop")
	}
}
