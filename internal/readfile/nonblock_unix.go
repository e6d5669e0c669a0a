//go:build unix

package readfile

import "syscall"

// nonBlock opens without waiting for a pipe's writer.
const nonBlock = syscall.O_NONBLOCK
