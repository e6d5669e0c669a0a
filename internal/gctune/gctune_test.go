package gctune

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
)

// TestPolicies checks the settings each mode makes, that the ceiling follows the live heap after
// a collection, and that GOGC in the environment leaves the collector alone.
func TestPolicies(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	Batch()
	if got := debug.SetGCPercent(percent); got != percent {
		t.Errorf("after Batch, GOGC %d; want %d", got, percent)
	}
	if got := debug.SetMemoryLimit(-1); got != batch.floor {
		t.Errorf("after Batch, memory limit %d; want %d", got, batch.floor)
	}
	// A live heap above the floor raises the ceiling at the next collection.
	big := make([]*[1 << 20]byte, 0, 300)
	for range 300 {
		big = append(big, new([1 << 20]byte))
	}
	runtime.GC()
	runtime.GC() // the finalizer runs after the first
	if got := debug.SetMemoryLimit(-1); got < 2*300<<20 {
		t.Errorf("with 300 MiB live, memory limit %d MiB; want at least twice that", got>>20)
	}
	runtime.KeepAlive(big)
	Server()
	if got := debug.SetMemoryLimit(-1); got != server.floor {
		t.Errorf("after Server, memory limit %d; want %d", got, server.floor)
	}
	if got := debug.SetGCPercent(serverPercent); got != 400 {
		t.Errorf("after Server, GOGC %d; want 400 (a small heap grows to five times what is live)", got)
	}
	if ceiling(server, 256<<20) != 3*256<<20 || ceiling(server, 1<<20) != server.floor {
		t.Errorf("the server's ceiling is not max(floor, 3 x live)")
	}
	if ceiling(server, 2<<30) != 3<<30 || ceiling(batch, 2<<30) != 3<<30 {
		t.Errorf("the ceiling of a heap with 2 GiB live is not 1 GiB above it")
	}
	// Check collects only at its ceiling, which Expect raises above what is live, by at most
	// maxHeadroom.
	Check()
	if got := debug.SetGCPercent(-1); got != -1 {
		t.Errorf("after Check, GOGC %d; want off (-1)", got)
	}
	if got := debug.SetMemoryLimit(-1); got != check.floor {
		t.Errorf("after Check, memory limit %d; want %d", got, check.floor)
	}
	Expect(500 << 20)
	if got, want := debug.SetMemoryLimit(-1), liveHeap()+500<<20; got != max(want, ceiling(check, liveHeap())) {
		t.Errorf("after Expect(500 MiB), memory limit %d MiB; want %d MiB", got>>20, want>>20)
	}
	Expect(8 << 30)
	if got, want := debug.SetMemoryLimit(-1), liveHeap()+maxHeadroom; got != max(want, ceiling(check, liveHeap())) {
		t.Errorf("after Expect(8 GiB), memory limit %d MiB; want %d MiB", got>>20, want>>20)
	}
	Batch()
	Expect(500 << 20)
	if got := debug.SetMemoryLimit(-1); got != batch.floor {
		t.Errorf("Expect changed Batch's memory limit to %d", got)
	}
	debug.SetGCPercent(100)
	t.Setenv("GOGC", "50")
	Batch()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("with GOGC=50 in the environment, Batch set GOGC %d", got)
	}
}
