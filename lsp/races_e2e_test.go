package lsp

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/protocol"
)

// counterGame is a two-player game of 120 steps in which both roles may always move.
func counterGame() string {
	var b strings.Builder
	b.WriteString("(role a)\n(role b)\n(init (step 0))\n")
	b.WriteString("(<= (legal ?r go) (role ?r))\n(<= (legal ?r stay) (role ?r))\n")
	b.WriteString("(<= (next (step ?m)) (true (step ?n)) (succ ?n ?m))\n")
	b.WriteString("(<= terminal (true (step 120)))\n(<= (goal ?r 50) (role ?r))\n")
	for i := 0; i < 120; i++ {
		fmt.Fprintf(&b, "(succ %d %d)\n", i, i+1)
	}
	return b.String()
}

// TestConcurrentStateCommands: state commands sent at once each play their move; none is lost
// (a command reads the history, plays and writes it back atomically per document).
func TestConcurrentStateCommands(t *testing.T) {
	c := startServer(t)
	c.initialize()
	const uri = "file:///w/counter.kif"
	c.open(uri, counterGame())
	c.diagnosticsFor(uri, 1)
	// Rounds of 16 commands at once; each round loses moves more often than not without the fix.
	const n = 6 * 16
	var wg sync.WaitGroup
	var mu sync.Mutex
	played := 0
	for i := 0; i < n; i++ {
		if i%16 == 0 {
			wg.Wait()
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			var st gameState
			if err := c.call("workspace/executeCommand", protocol.ExecuteCommandParams{Command: "gdl.playRandom",
				Arguments: []interface{}{map[string]any{"uri": uri}}}, &st); err != nil {
				t.Errorf("playRandom: %v", err)
				return
			}
			if st.Error != "" {
				t.Errorf("playRandom: %s", st.Error)
				return
			}
			mu.Lock()
			played++
			mu.Unlock()
		}()
	}
	wg.Wait()
	var st gameState
	c.mustCall("workspace/executeCommand", protocol.ExecuteCommandParams{Command: "gdl.showState",
		Arguments: []interface{}{map[string]any{"uri": uri}}}, &st)
	if st.Step != played || played != n {
		t.Fatalf("%d of %d random moves played, but the state is at step %d", played, n, st.Step)
	}
	if !contains(st.State, fmt.Sprintf("(step %d)", n)) {
		t.Fatalf("state after %d moves: %v", n, st.State)
	}
}

// TestSettingsRefreshOrder: when an older settings refresh finishes after a newer one (its
// workspace/configuration answer arrives late), the newer settings stay.
func TestSettingsRefreshOrder(t *testing.T) {
	c := startServer(t)
	setSeverity := func(sev string) {
		c.mu.Lock()
		c.settings = map[string]any{"severity": map[string]string{"unmatched-close-paren": sev}}
		c.mu.Unlock()
	}
	setSeverity("warning")
	c.initialize()
	<-c.configAsked
	const uri = "file:///w/order.kif"
	c.open(uri, "(role robot))\n(init (p 1))\n(<= (legal robot go) (true (p 1)))\n")
	hasSeverity := func(sev protocol.DiagnosticSeverity) func(protocol.PublishDiagnosticsParams) bool {
		return func(p protocol.PublishDiagnosticsParams) bool {
			s, ok := severityOf(p, "unmatched-close-paren")
			return ok && s == sev
		}
	}
	c.waitPublication(uri, "the initial settings (warning)", hasSeverity(protocol.DiagnosticSeverityWarning))

	// Refresh 1 is answered "hint", 1.5 s late; refresh 2, sent after it, is answered "info" at once.
	setSeverity("hint")
	c.mu.Lock()
	c.configDelay = 1500 * time.Millisecond
	c.mu.Unlock()
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": nil})
	<-c.configAsked
	setSeverity("info")
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": nil})
	<-c.configAsked
	c.waitPublication(uri, "the newer settings (info)", hasSeverity(protocol.DiagnosticSeverityInformation))

	// Once the server has dropped the late answer (it says so on stderr), no publication may
	// show it: a dropped refresh schedules no diagnostics.
	c.waitStderr("dropping settings refresh")
	c.mu.Lock()
	ps := append([]protocol.PublishDiagnosticsParams(nil), c.diags[uri]...)
	c.mu.Unlock()
	last := ps[len(ps)-1]
	if s, _ := severityOf(last, "unmatched-close-paren"); s != protocol.DiagnosticSeverityInformation {
		t.Fatalf("the older settings overwrote the newer: last publication has severity %v", s)
	}
	for _, p := range ps {
		if hasSeverity(protocol.DiagnosticSeverityHint)(p) {
			t.Fatalf("the older settings were applied after the newer ones")
		}
	}
}
