// Package sched gives the timers and the other goroutines of a program compiled to WebAssembly
// (GOOS=js) a turn during long computations.
//
// Go's WebAssembly port runs every goroutine on one thread and never preempts one: a goroutine
// that computes for a minute keeps the thread for that minute, and the timers of
// context.WithTimeout, which a search's time budget rests on, fire only when it blocks. A
// search bounded by a context's deadline therefore never stops. Yield, called in the loops that
// can run long (an evaluation's joins, a game's state transitions), lets the scheduler run what
// is due every few milliseconds on js/wasm; on every other platform it does nothing and costs
// nothing, the runtime preempting goroutines by itself.
package sched
