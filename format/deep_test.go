package format

import (
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/gdl-lsp/gdl/syntax"
)

// deepShapes are files whose forms nest depth deep, in the shapes the printer treats apart.
var deepShapes = []struct {
	name string
	gen  func(depth int) string
}{
	{"nested terms", func(d int) string { // the repro of issue 10
		return "(p " + strings.Repeat("(f ", d) + "a" + strings.Repeat(")", d) + ")\n"
	}},
	{"comment at every level", func(d int) string {
		return "(p " + strings.Repeat("(f ; c\n ", d) + "a" + strings.Repeat(")", d) + ")\n"
	}},
	{"rule body literal", func(d int) string {
		return "(<= (p ?x) (q " + strings.Repeat("(f ", d) + "?x" + strings.Repeat(")", d) + ") ; why\n (r ?x))\n"
	}},
}

// allocated returns the bytes of heap memory fn allocates.
func allocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestDeepNestingLinearMemory is the regression test of issue 10, item 1: the printer built a
// longer indentation string for each level of nesting and kept them all, so an 80 KB file of
// nested terms took 1.5 GB. Formatting must allocate memory linear in the size of the file,
// whatever its depth: measured at two depths, the bytes allocated stay under the same linear
// bound, which a quadratic printer exceeds by far at the larger one.
func TestDeepNestingLinearMemory(t *testing.T) {
	for _, shape := range deepShapes {
		for _, depth := range []int{1000, 10000} {
			src := shape.gen(depth)
			f, errs := syntax.Parse(src)
			if len(errs) > 0 {
				t.Fatalf("%s, depth %d: %v", shape.name, depth, errs[0])
			}
			var out string
			got := allocated(func() { out = File(f) })
			t.Logf("%s %d: %d bytes, %d allocated, %d out", shape.name, depth, len(src), got, len(out))
			if limit := uint64(64*len(src) + 64<<10); got > limit {
				t.Errorf("%s, depth %d: formatting %d bytes allocated %d bytes, more than the linear bound %d",
					shape.name, depth, len(src), got, limit)
			}
			if meaning(out) != meaning(src) {
				t.Errorf("%s, depth %d: formatting changed the tokens", shape.name, depth)
			}
			if again, err := Source(out); err != nil || again != out {
				t.Errorf("%s, depth %d: not idempotent (%v)", shape.name, depth, err)
			}
			for _, line := range strings.Split(out, "\n") {
				if indent := len(line) - len(strings.TrimLeft(line, " ")); indent > MaxIndentLevels*len(Indent) {
					t.Fatalf("%s, depth %d: a line is indented %d columns, more than %d",
						shape.name, depth, indent, MaxIndentLevels*len(Indent))
				}
			}
		}
	}
}

// TestIndentationCap shows where continuation lines go: one indentation step per level of
// nesting, up to MaxIndentLevels.
func TestIndentationCap(t *testing.T) {
	in := "(p (f ; c\n a) " + strings.Repeat("(f ", 20) + "; deep\n a" + strings.Repeat(")", 20) + ")\n"
	want := "(p (f ; c\n        a) " + strings.Repeat("(f ", 20) + "; deep\n" +
		strings.Repeat(Indent, MaxIndentLevels) + "a" + strings.Repeat(")", 20) + ")\n"
	got, err := Source(in)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// BenchmarkDeepNesting formats the repro of issue 10 (depth 20,000, 80 KB).
func BenchmarkDeepNesting(b *testing.B) {
	src := deepShapes[0].gen(20000)
	f, _ := syntax.Parse(src)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		File(f)
	}
}

// BenchmarkGame formats a game of ordinary shape.
func BenchmarkGame(b *testing.B) {
	data, err := os.ReadFile("../testdata/games/tictactoe.kif")
	if err != nil {
		b.Fatal(err)
	}
	f, _ := syntax.Parse(string(data))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		File(f)
	}
}
