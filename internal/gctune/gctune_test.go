package gctune

import (
	"math"
	"runtime/debug"
	"testing"
)

// TestBatchAndServer checks the settings each mode makes, and that GOGC in the environment
// leaves the collector alone.
func TestBatchAndServer(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	Batch(1 << 20)
	Batch(1 << 10) // the largest input read sets the ceiling
	if got := debug.SetGCPercent(100); got != percent {
		t.Errorf("after Batch, GOGC %d; want %d", got, percent)
	}
	if got, want := debug.SetMemoryLimit(-1), int64(batchFloor+perByte<<20); got != want {
		t.Errorf("after Batch, memory limit %d; want %d", got, want)
	}
	Server()
	Adjust()
	if got := debug.SetMemoryLimit(-1); got < serverFloor {
		t.Errorf("after Server and Adjust, memory limit %d; want at least %d", got, serverFloor)
	}
	debug.SetGCPercent(100)
	t.Setenv("GOGC", "50")
	Batch(1 << 20)
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("with GOGC=50 in the environment, Batch set GOGC %d", got)
	}
}
