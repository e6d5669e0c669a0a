//go:build unix

package main

import (
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

// Issue 22: small inputs that made a command take all the memory or run past its budget. Each
// runs the real binary under a limit of 4 GB of address space (ulimit -v), so that a regression
// is a failed test (the runtime's "out of memory"), not a machine out of memory.

// boundedLimit is the address space a command gets (ulimit -v, in KiB).
const boundedLimit = 4_000_000

// bounded runs the binary under ulimit -v boundedLimit, killed after limit.
func bounded(t *testing.T, limit time.Duration, stdin io.Reader, args ...string) (string, string, int) {
	t.Helper()
	script := fmt.Sprintf(`ulimit -v %d && exec "$0" "$@"`, boundedLimit)
	out, errOut, code := runWithin(t, limit, "sh", stdin, append([]string{"-c", script, buildGDL(t)}, args...)...)
	if strings.Contains(errOut, "out of memory") || strings.Contains(errOut, "goroutine ") {
		t.Fatalf("gdl %s: crashed (exit %d): %s", strings.Join(args, " "), code, abbreviateLog(errOut))
	}
	return out, errOut, code
}

func abbreviateLog(s string) string {
	if len(s) > 2000 {
		return s[:2000] + "..."
	}
	return s
}

// wideGame has roles roles of moves moves each, all legal in every state: roles^moves joint
// moves per state (10 x 10: 10^10).
func wideGame(roles, moves int) string {
	var b strings.Builder
	for i := range roles {
		fmt.Fprintf(&b, "(role r%d) ", i)
	}
	b.WriteString("(init (t 0)) ")
	for i := range moves {
		fmt.Fprintf(&b, "(num %d) ", i)
	}
	b.WriteString("(<= (legal ?r (m ?n)) (role ?r) (num ?n)) (<= (next (t 1)) (true (t 0))) (<= (next (t 0)) (true (t 1))) (<= terminal (true (t 9))) (<= (goal ?r 50) (role ?r))\n")
	return b.String()
}

// Item 4: verify and stats allocated one key per joint move of a state at once: 10 roles of 10
// moves asked for 90 GB once the exploration's room for successors was used up.
func TestWideJointMoves(t *testing.T) {
	game := writeFile(t, t.TempDir(), "wide.kif", wideGame(10, 10))
	for _, args := range [][]string{
		{"verify", game, "--max-states", "10"},
		{"stats", game, "--max-states", "10", "--playouts", "5"},
	} {
		out, errOut, code := bounded(t, time.Minute, nil, args...)
		if code != 0 || !strings.Contains(out, "incomplete (--max-states reached)") {
			t.Errorf("gdl %s: exit %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), code, out, abbreviateLog(errOut))
		}
	}
}
