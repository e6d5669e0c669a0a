package sched

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDeadlineFiresInWasm runs testdata/spin compiled to WebAssembly under Node (with the
// wasm_exec_node.js that ships with Go): a loop that computes until a context's 200 ms deadline,
// calling Yield. Without Yield the deadline's timer never fires on js/wasm and the program gives
// up after 20 s.
func TestDeadlineFiresInWasm(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: cannot run WebAssembly built with GOOS=js")
	}
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatalf("go env GOROOT: %v", err)
	}
	runner := filepath.Join(strings.TrimSpace(string(out)), "lib", "wasm", "wasm_exec_node.js")
	if _, err := os.Stat(runner); err != nil {
		t.Skipf("no %s in this Go installation", runner)
	}
	wasm := filepath.Join(t.TempDir(), "spin.wasm")
	build := exec.Command("go", "build", "-o", wasm, "./testdata/spin")
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err = exec.Command(node, runner, wasm).CombinedOutput()
	if err != nil {
		t.Fatalf("spin: %v\n%s", err, out)
	}
	var ms, parity int
	if _, err := fmt.Sscanf(string(out), "stopped after %d ms (%d)", &ms, &parity); err != nil {
		t.Fatalf("spin printed %q", out)
	}
	if ms < 150 || ms > 5000 {
		t.Errorf("the loop stopped after %d ms; want soon after its 200 ms deadline", ms)
	}
}
