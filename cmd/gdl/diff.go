package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// unifiedDiff writes the changes from old to new, two texts named oldName and newName, as a
// unified diff with three lines of context (what `gdl fmt -d` prints, as `gofmt -d` does).
//
// The lines are matched by anchors: the lines that occur exactly once in each text, in the
// longest sequence that keeps their order in both (patience sorting), each extended by the
// equal lines around it; what lies between two matched runs is replaced. That takes O(n log n)
// time and linear memory whatever the texts, and gives the diff a reader expects for a layout
// change, whose unique lines (a rule's head) stay and whose lines around them move.
func unifiedDiff(w io.Writer, oldName, newName, old, new string) {
	x, y := splitLines(old), splitLines(new)
	runs := matchLines(x, y)
	const context = 3
	type edit struct{ x0, x1, y0, y1 int } // x[x0:x1] replaced by y[y0:y1]
	var edits []edit
	i, j := 0, 0
	for _, r := range runs {
		if r.x > i || r.y > j {
			edits = append(edits, edit{i, r.x, j, r.y})
		}
		i, j = r.x+r.n, r.y+r.n
	}
	if len(edits) == 0 {
		return
	}
	fmt.Fprintf(w, "--- %s\n+++ %s\n", oldName, newName)
	for k := 0; k < len(edits); {
		// A hunk: the edits whose contexts touch, with the context before the first and after
		// the last.
		end := k
		for end+1 < len(edits) && edits[end+1].x0-edits[end].x1 <= 2*context {
			end++
		}
		// The lines before the first edit and after the last are equal in both texts.
		first, last := edits[k], edits[end]
		x0 := max(first.x0-context, 0)
		y0 := first.y0 - (first.x0 - x0)
		x1 := min(last.x1+context, len(x))
		y1 := last.y1 + (x1 - last.x1)
		fmt.Fprintf(w, "@@ -%s +%s @@\n", hunkRange(x0, x1-x0), hunkRange(y0, y1-y0))
		at := x0
		for _, e := range edits[k : end+1] {
			writeLines(w, " ", x[at:e.x0])
			writeLines(w, "-", x[e.x0:e.x1])
			writeLines(w, "+", y[e.y0:e.y1])
			at = e.x1
		}
		writeLines(w, " ", x[at:x1])
		k = end + 1
	}
}

// hunkRange is a hunk header's start,count: 1-based, and the line before an empty range.
func hunkRange(start, n int) string {
	switch n {
	case 0:
		return fmt.Sprintf("%d,0", start)
	case 1:
		return fmt.Sprint(start + 1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

// writeLines writes lines with a prefix each; a last line without its newline is marked as
// diff and patch expect.
func writeLines(w io.Writer, prefix string, lines []string) {
	for _, l := range lines {
		if text, ok := strings.CutSuffix(l, "\n"); ok {
			fmt.Fprintf(w, "%s%s\n", prefix, text)
		} else {
			fmt.Fprintf(w, "%s%s\n\\ No newline at end of file\n", prefix, l)
		}
	}
}

// splitLines cuts s after each newline; the last line may lack one.
func splitLines(s string) []string {
	var out []string
	for s != "" {
		i := strings.IndexByte(s, '\n') + 1
		if i == 0 {
			i = len(s)
		}
		out = append(out, s[:i])
		s = s[i:]
	}
	return out
}

// lineRun is a run of n equal lines, x[x:x+n] == y[y:y+n].
type lineRun struct{ x, y, n int }

// matchLines returns the runs of equal lines of x and y, increasing in both (see unifiedDiff),
// ending with an empty run at the ends of both.
func matchLines(x, y []string) []lineRun {
	chain := increasingAnchors(uniqueAnchors(x, y))
	// Each anchor grows into the equal lines around it, not past the run before; the common
	// start and end of the texts are runs too.
	var runs []lineRun
	i, j := 0, 0
	grow := func(ax, ay int) {
		for ax > i && ay > j && x[ax-1] == y[ay-1] {
			ax, ay = ax-1, ay-1
		}
		n := 0
		for ax+n < len(x) && ay+n < len(y) && x[ax+n] == y[ay+n] {
			n++
		}
		if n > 0 {
			runs = append(runs, lineRun{ax, ay, n})
			i, j = ax+n, ay+n
		}
	}
	grow(0, 0)
	for _, a := range chain {
		if a[0] >= i && a[1] >= j {
			grow(a[0], a[1])
		}
	}
	// The common end, where no anchor reached it.
	ex, ey := len(x), len(y)
	for ex > i && ey > j && x[ex-1] == y[ey-1] {
		ex, ey = ex-1, ey-1
	}
	if ex < len(x) {
		runs = append(runs, lineRun{ex, ey, len(x) - ex})
	}
	return append(runs, lineRun{len(x), len(y), 0})
}

// uniqueAnchors returns the lines unique in both x and y, as (index in x, index in y), in x's
// order.
func uniqueAnchors(x, y []string) [][2]int {
	type count struct{ nx, ny, ix, iy int }
	counts := map[string]*count{}
	for i, l := range x {
		c := counts[l]
		if c == nil {
			c = &count{}
			counts[l] = c
		}
		c.nx++
		c.ix = i
	}
	for j, l := range y {
		if c := counts[l]; c != nil {
			c.ny++
			c.iy = j
		}
	}
	var anchors [][2]int
	for i, l := range x {
		if c := counts[l]; c.nx == 1 && c.ny == 1 {
			anchors = append(anchors, [2]int{i, c.iy})
		}
	}
	return anchors
}

// increasingAnchors returns the longest run of anchors (increasing in x) increasing in y too:
// patience sorting, each pile's top the smallest y ending an increasing sequence of its length,
// with a link to the one before.
func increasingAnchors(anchors [][2]int) [][2]int {
	var tops []int // indexes into anchors
	prev := make([]int, len(anchors))
	for k, a := range anchors {
		p, _ := slices.BinarySearchFunc(tops, a[1], func(t, yv int) int { return anchors[t][1] - yv })
		if p > 0 {
			prev[k] = tops[p-1]
		} else {
			prev[k] = -1
		}
		if p == len(tops) {
			tops = append(tops, k)
		} else {
			tops[p] = k
		}
	}
	var chain [][2]int
	if len(tops) > 0 {
		for k := tops[len(tops)-1]; k >= 0; k = prev[k] {
			chain = append(chain, anchors[k])
		}
		slices.Reverse(chain)
	}
	return chain
}
