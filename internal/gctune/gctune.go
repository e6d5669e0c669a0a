// Package gctune sets the garbage collector of gdl's processes. The analyses of large files
// allocate much and keep much alive, and with Go's default (a collection each time the heap
// doubles) a third of the checker's CPU went to collections. A small heap is therefore let grow
// to four times what is live (GOGC 300; five times in the language server, GOGC 400), but only up
// to a ceiling, set again after every collection from the heap then live: for the language
// server 160 MiB or three times what is live, whichever is more; for one-shot commands 256 MiB
// or twice what is live. So a large heap
// is collected as often as Go's default would (the command) or a little less (the server), and
// never held to a ceiling below what it needs. Above what is live the heap grows by at most
// 1 GiB, though: a file that keeps more than that alive (a million nested ors, 15 MB, keeps
// 1.2 GB) would otherwise have the server grow to 3.6 GB, past a 4 GB address space.
//
// `gdl check` analyses a file and keeps nearly all it allocates until the file's diagnostics
// are out (a 3 MB file: about 480 MB live at the end, 520 MB allocated), so a collection in
// between frees little and costs a pass over all of it (a file of 800 KB met one more
// collection than one of 400 KB, a fifth of its CPU; a 3 MB file four, a fifth of its CPU too).
// It collects only at its ceiling (GOGC off): 64 MiB or twice what is live, which Expect raises
// before each file to leave room for what the file's analysis will keep, by at most 1 GiB.
//
// GOGC or GOMEMLIMIT set in the environment win.
package gctune

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

const percent = 300

// serverPercent is the server's GOGC: higher than the commands', so that below the ceiling a
// small heap grows to five times what is live. 400 KB of real games keep about 30 MB live and an
// edit allocates about 7 MB: at GOGC 300 a collection (about 15 ms of CPU, marking all that is
// live) came every 10 edits, now every 12 or 13, at the ceiling (`GODEBUG=gctrace=1`). A
// session of small games keeps a few MB live; a heap of more than 28 MB live meets the ceiling
// first, as before. 685 files open at once: 121 to 140 MB resident after (111 to 130 MB at
// GOGC 300; 156 MB at GOGC 500), within the 200 MB of issue 14.
const serverPercent = 400

// policy is a ceiling: floor, or factor times the live heap when that is more; and GOGC below it
// (-1: off, the ceiling alone starts a collection).
type policy struct {
	floor   int64
	factor  int64
	percent int
}

var (
	batch  = policy{256 << 20, 2, percent}
	check  = policy{64 << 20, 2, -1}
	server = policy{160 << 20, 3, serverPercent}
)

var (
	mu      sync.Mutex
	current *policy // nil: not started, or the environment decides
)

// Batch sets the collector for a command that runs and exits.
func Batch() { start(&batch) }

// Check sets the collector for a command that analyses its files and exits (gdl check): no
// collection below the ceiling, which is 64 MiB or twice what is live (a directory of small
// files is collected every 64 MiB or so), raised by Expect for each file.
func Check() { start(&check) }

// Expect says that about n bytes are about to be allocated and kept (the analysis of a file):
// under Check, the ceiling is raised to leave them room above what the last collection found
// live (by at most maxHeadroom), so that no collection runs while they are made. Elsewhere it
// does nothing.
func Expect(n int64) {
	mu.Lock()
	defer mu.Unlock()
	if current == nil || current.percent >= 0 {
		return
	}
	live := liveHeap()
	debug.SetMemoryLimit(max(ceiling(*current, live), live+min(n, maxHeadroom)))
}

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
	debug.SetGCPercent(p.percent)
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
