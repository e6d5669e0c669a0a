// Package gctune sets the garbage collector of gdl's processes. The analyses of large files
// allocate much and keep much alive, and with Go's default (a collection each time the heap
// doubles) a third of the checker's CPU went to collections. A small heap is therefore let grow
// to four times what is live (GOGC 300), but only up to a ceiling: 160 MiB for the language
// server (or twice what is live, when more is), and for one-shot commands 256 MiB plus 100 times
// the size of their input. Above the ceiling the collector runs as it would by default. GOGC or
// GOMEMLIMIT set in the environment win over both.
package gctune

import (
	"os"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

const (
	percent     = 300
	serverFloor = 160 << 20
	batchFloor  = 256 << 20
	perByte     = 100
)

var (
	mu      sync.Mutex
	managed bool  // the environment left the collector to us
	largest int64 // the largest input a batch command read
)

// Batch sets the collector for a command that has read an input of inputBytes and exits; the
// ceiling follows the largest input read so far.
func Batch(inputBytes int64) {
	if !take() {
		return
	}
	mu.Lock()
	largest = max(largest, inputBytes)
	limit := batchFloor + perByte*largest
	mu.Unlock()
	debug.SetGCPercent(percent)
	debug.SetMemoryLimit(limit)
}

// Server sets the collector for the language server; call Adjust after large pieces of work.
func Server() {
	if !take() {
		return
	}
	debug.SetGCPercent(percent)
	debug.SetMemoryLimit(serverFloor)
}

// Adjust sets the server's ceiling to twice the heap found live by the last collection, or the
// floor: a server holding a 3 MB file does not collect all the time, one holding small files
// stays small.
func Adjust() {
	mu.Lock()
	defer mu.Unlock()
	if !managed {
		return
	}
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return
	}
	debug.SetMemoryLimit(max(serverFloor, 3*int64(s[0].Value.Uint64())))
}

// take reports whether the environment leaves the collector to gdl, and records it.
func take() bool {
	mu.Lock()
	defer mu.Unlock()
	managed = os.Getenv("GOGC") == "" && os.Getenv("GOMEMLIMIT") == ""
	return managed
}
