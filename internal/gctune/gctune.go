// Package gctune sets the garbage collector of gdl's processes. The analyses of large files
// allocate much and keep much alive, and with Go's default (a collection each time the heap
// doubles) a third of the checker's CPU went to collections. A small heap is therefore let grow
// to four times what is live (GOGC 300), but only up to a ceiling, set again after every
// collection from the heap then live: for the language server 160 MiB or three times what is
// live, whichever is more; for one-shot commands 256 MiB or twice what is live. So a large heap
// is collected as often as Go's default would (the command) or a little less (the server), and
// never held to a ceiling below what it needs. Above what is live the heap grows by at most
// 1 GiB, though: a file that keeps more than that alive (a million nested ors, 15 MB, keeps
// 1.2 GB) would otherwise have the server grow to 3.6 GB, past a 4 GB address space. GOGC or
// GOMEMLIMIT set in the environment win.
package gctune

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

const percent = 300

// policy is a ceiling: floor, or factor times the live heap when that is more.
type policy struct {
	floor  int64
	factor int64
}

var (
	batch  = policy{256 << 20, 2}
	server = policy{160 << 20, 3}
)

var (
	mu      sync.Mutex
	current *policy // nil: not started, or the environment decides
)

// Batch sets the collector for a command that runs and exits.
func Batch() { start(&batch) }

// Server sets the collector for the language server.
func Server() { start(&server) }

func start(p *policy) {
	mu.Lock()
	defer mu.Unlock()
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		current = nil
		return
	}
	first := current == nil
	current = p
	debug.SetGCPercent(percent)
	debug.SetMemoryLimit(p.floor)
	if first {
		armHook()
	}
}

// armHook makes adjust run after the next collection, and again after each one after it: the
// finalizer of an unreachable object runs once the collector has found it unreachable.
func armHook() {
	sentinel := new([16]byte)
	runtime.SetFinalizer(sentinel, func(*[16]byte) {
		if adjust() {
			armHook()
		}
	})
}

// adjust sets the ceiling from the live heap; it reports whether gctune still decides.
func adjust() bool {
	mu.Lock()
	defer mu.Unlock()
	if current == nil {
		return false
	}
	debug.SetMemoryLimit(ceiling(*current, liveHeap()))
	return true
}

// maxHeadroom bounds how far above the live heap a ceiling lets the heap grow.
const maxHeadroom = 1 << 30

func ceiling(p policy, live int64) int64 {
	return max(p.floor, live+min((p.factor-1)*live, maxHeadroom))
}

// liveHeap is the heap the last collection found live, in bytes.
func liveHeap() int64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64())
}
