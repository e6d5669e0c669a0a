// Package cputime reads the CPU time of the process, for benchmarks on machines shared with
// other jobs: wall-clock time per operation swings with the load, CPU time much less.
package cputime

import (
	"syscall"
	"time"
)

// Now returns the user and system CPU time the process has used so far (every thread, so the
// garbage collector's work counts), or 0 where the system cannot tell.
func Now() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// Report adds the CPU time per operation since start, in milliseconds, to b's results as the
// metric cpu-ms/op. b is a *testing.B; the interface keeps this package free of testing.
func Report(b interface{ ReportMetric(float64, string) }, start time.Duration, n int) {
	if n <= 0 {
		return
	}
	b.ReportMetric(float64(Now()-start)/float64(n)/1e6, "cpu-ms/op")
}
