//go:build !(js && wasm)

package sched

// Yield does nothing: outside js/wasm the runtime preempts long-running goroutines itself.
func Yield() {}
