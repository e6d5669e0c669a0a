//go:build !unix

package cputime

import "time"

// Process reports that CPU time is not measured on this system.
func Process() (time.Duration, bool) { return 0, false }
