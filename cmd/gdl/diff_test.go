package main

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// applyDiff applies a unified diff to old, checking every context and removed line.
func applyDiff(t *testing.T, old, diff string) string {
	t.Helper()
	x := splitLines(old)
	lines := splitLines(diff)
	if len(lines) < 2 || !strings.HasPrefix(lines[0], "--- ") || !strings.HasPrefix(lines[1], "+++ ") {
		t.Fatalf("no header:\n%s", diff)
	}
	header := regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@\n$`)
	var out []string
	at := 0       // the next line of x
	var prev byte // the kind of the line before
	for _, l := range lines[2:] {
		if m := header.FindStringSubmatch(l); m != nil {
			start, _ := strconv.Atoi(m[1])
			if m[2] != "0" {
				start--
			}
			if start < at || start > len(x) {
				t.Fatalf("hunk at %d out of order (at %d):\n%s", start, at, diff)
			}
			out, at = append(out, x[at:start]...), start
			continue
		}
		if l == "\\ No newline at end of file\n" {
			if prev == '+' {
				out[len(out)-1] = strings.TrimSuffix(out[len(out)-1], "\n")
			}
			continue
		}
		prev = l[0]
		switch l[0] {
		case ' ', '-':
			if at >= len(x) || strings.TrimSuffix(l[1:], "\n") != strings.TrimSuffix(x[at], "\n") {
				t.Fatalf("line %d of the old text is not %q:\n%s", at+1, l[1:], diff)
			}
			if l[0] == ' ' {
				out = append(out, x[at])
			}
			at++
		case '+':
			out = append(out, l[1:])
		default:
			t.Fatalf("bad diff line %q", l)
		}
	}
	return strings.Join(append(out, x[at:]...), "")
}

// TestUnifiedDiff: the diff of random texts (few distinct lines, so lines repeat, and last
// lines with or without a newline) applies to the old text and gives the new one.
func TestUnifiedDiff(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	text := func() string {
		var b strings.Builder
		for range rng.IntN(40) {
			if rng.IntN(4) == 0 {
				fmt.Fprintf(&b, "unique %d\n", rng.IntN(1000))
			} else {
				fmt.Fprintf(&b, "line %d\n", rng.IntN(5))
			}
		}
		if rng.IntN(3) == 0 {
			b.WriteString("no newline")
		}
		return b.String()
	}
	for i := range 3000 {
		old := text()
		new := old
		if i%2 == 0 {
			new = text()
		} else { // a few changes
			ls := splitLines(old)
			for range rng.IntN(4) {
				if len(ls) > 0 {
					k := rng.IntN(len(ls))
					ls[k] = fmt.Sprintf("changed %d\n", rng.IntN(3))
				}
			}
			new = strings.Join(ls, "")
		}
		var b strings.Builder
		unifiedDiff(&b, "a", "b", old, new)
		if old == new {
			if b.Len() != 0 {
				t.Fatalf("a diff of equal texts:\n%s", b.String())
			}
			continue
		}
		if got := applyDiff(t, old, b.String()); got != new {
			t.Fatalf("old %q\nnew %q\ndiff:\n%s\napplied: %q", old, new, b.String(), got)
		}
	}
}
