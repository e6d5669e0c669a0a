package lsp

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
)

// slowGame has a transitive closure over a chain of 1300 nodes: about 850,000 derived facts
// (under the default limit of 1,000,000), a good fraction of a second of work, so that a request
// can be cancelled or overtaken mid-evaluation.
func slowGame() string {
	var b strings.Builder
	b.WriteString("(role solo)\n(init (at 0))\n(<= (legal solo wait) (true (at 0)))\n(<= (next (at 0)) (does solo wait))\n(<= terminal (true (at 1)))\n(<= (goal solo 0) (true (at 0)))\n")
	for i := 0; i < 100; i++ {
		fmt.Fprintf(&b, "(num %d)\n", i)
	}
	for i := 0; i < 1300; i++ {
		fmt.Fprintf(&b, "(edge n%d n%d)\n", i, i+1)
	}
	b.WriteString("(<= (reach ?x ?y) (edge ?x ?y))\n(<= (reach ?x ?z) (reach ?x ?y) (edge ?y ?z))\n")
	b.WriteString("(<= (any ?x) (reach ?x ?y))\n")
	return b.String()
}

// startSlowQuery sends gdl.runQuery for (any ?x) and returns the channel of its outcome.
func startSlowQuery(c *testClient, uri protocol.DocumentURI) chan error {
	errc := make(chan error, 1)
	go func() {
		var res queryResult
		err := c.call("workspace/executeCommand", protocol.ExecuteCommandParams{
			Command:   "gdl.runQuery",
			Arguments: []interface{}{map[string]any{"uri": uri, "query": "(any ?x)"}},
		}, &res)
		if err == nil {
			err = fmt.Errorf("answered with a result: %d answers, error %q after %.0f ms", len(res.Answers), res.Error, res.ElapsedMs)
		}
		errc <- err
	}()
	return errc
}

// TestCancelQueryOverStdio cancels a running evaluation with $/cancelRequest: the answer is
// RequestCancelled (about 1.2 s of evaluation when not cancelled), and the server goes on.
func TestCancelQueryOverStdio(t *testing.T) {
	c := startServer(t)
	c.initialize()
	const uri = "file:///w/slow.kif"
	c.open(uri, slowGame())
	c.diagnosticsFor(uri, 1)
	start := time.Now()
	errc := startSlowQuery(c, uri)
	time.Sleep(20 * time.Millisecond)
	// The client numbers its calls: 1 initialize, 2 the query.
	c.notify("$/cancelRequest", map[string]any{"id": 2})
	select {
	case err := <-errc:
		if rpcCode(err) != -32800 {
			t.Errorf("cancelled query: %v, want RequestCancelled (-32800)", err)
		}
		t.Logf("cancelled query answered %v after it was sent", time.Since(start).Round(time.Millisecond))
	case <-time.After(15 * time.Second):
		t.Fatal("cancelled query never answered")
	}
	var res queryResult
	c.mustCall("workspace/executeCommand", protocol.ExecuteCommandParams{
		Command: "gdl.runQuery", Arguments: []interface{}{map[string]any{"uri": uri, "query": "(num ?x)"}},
	}, &res)
	if len(res.Answers) != 100 {
		t.Errorf("query after the cancel: %+v", res)
	}
	if err := c.shutdown(); err != nil {
		t.Errorf("exit: %v", err)
	}
}

// TestSupersededQueryOverStdio edits the document while a query on it runs: the answer is
// ContentModified.
func TestSupersededQueryOverStdio(t *testing.T) {
	c := startServer(t)
	c.initialize()
	const uri = "file:///w/slow2.kif"
	c.open(uri, slowGame())
	c.diagnosticsFor(uri, 1)
	errc := startSlowQuery(c, uri)
	time.Sleep(20 * time.Millisecond)
	c.change(uri, rng(0, 0, 0, 0), "; edited\n")
	select {
	case err := <-errc:
		if rpcCode(err) != -32801 {
			t.Errorf("overtaken query: %v, want ContentModified (-32801)", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("overtaken query never answered")
	}
	if err := c.shutdown(); err != nil {
		t.Errorf("exit: %v", err)
	}
}

// TestTimeLimitSettingOverStdio: the eval.timeoutMs setting is the evaluator's time limit (not
// capped by a default of its own): a query over its limit fails with the evaluator's message
// naming that limit.
func TestTimeLimitSettingOverStdio(t *testing.T) {
	c := startServer(t)
	c.mu.Lock()
	c.settings = map[string]any{"eval": map[string]any{"timeoutMs": 7}}
	c.mu.Unlock()
	c.initialize()
	const uri = "file:///w/slow.kif"
	c.open(uri, slowGame())
	c.settingsApplied(uri)
	var res queryResult
	err := c.call("workspace/executeCommand", protocol.ExecuteCommandParams{
		Command:   "gdl.runQuery",
		Arguments: []interface{}{map[string]any{"uri": uri, "query": "(any ?x)"}},
	}, &res)
	msg := res.Error
	if err != nil {
		msg = err.Error()
	}
	if !strings.Contains(msg, "time limit 7ms") {
		t.Errorf("query over a 7 ms limit: error %q, result %d answers; want the evaluator's time limit of 7ms named", msg, len(res.Answers))
	}
}
