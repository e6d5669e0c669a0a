//go:build !unix

package eval

import "time"

// processCPU reports that CPU time is not measured on this system.
func processCPU() (time.Duration, bool) { return 0, false }
