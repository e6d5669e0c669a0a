//go:build js && wasm

package sched

import (
	"runtime"
	"time"
)

// every is the most work Yield lets pass between two turns of the scheduler.
const every = 2 * time.Millisecond

// last is when Yield last gave the scheduler a turn. One thread runs every goroutine, so it
// needs no lock.
var last time.Time

// Yield gives the scheduler a turn (expired timers fire, runnable goroutines run) when more than
// a couple of milliseconds passed since the last turn it gave.
func Yield() {
	now := time.Now()
	if now.Sub(last) < every {
		return
	}
	runtime.Gosched()
	last = time.Now()
}
