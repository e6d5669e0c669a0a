// Package cputime reads the CPU time of the process: playout statistics report it, and
// benchmarks on machines shared with other jobs compare it, since wall-clock time per operation
// swings with the load and CPU time much less.
package cputime

import "time"

// Now returns the user and system CPU time the process has used so far (every thread, so the
// garbage collector's work counts), or 0 where the system does not report it.
func Now() time.Duration {
	d, _ := Process()
	return d
}

// Report adds the CPU time per operation since start, in milliseconds, to b's results as the
// metric cpu-ms/op. b is a *testing.B; the interface keeps this package free of testing.
func Report(b interface{ ReportMetric(float64, string) }, start time.Duration, n int) {
	if n <= 0 {
		return
	}
	b.ReportMetric(float64(Now()-start)/float64(n)/1e6, "cpu-ms/op")
}
