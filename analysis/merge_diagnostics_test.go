package analysis

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gdl-lsp/gdl/syntax"
)

// TestMergeDiagnostics: diagnostics given in runs (each check's), some sorted and some
// not, with ties within and across runs, come out as a stable sort of them all would order
// them, for few runs (merged) and many (sorted whole).
func TestMergeDiagnostics(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 2))
	codes := []string{"a", "b", "c"}
	for round := range 400 {
		var ds []Diagnostic
		var runs [][]Diagnostic
		for r := range 1 + rng.IntN(2*maxMergedRuns) {
			n := rng.IntN(12)
			if r == 0 && rng.IntN(3) == 0 {
				n = 0 // an empty first run
			}
			run := make([]Diagnostic, n)
			for i := range run {
				s := rng.IntN(30)
				run[i] = Diagnostic{Span: syntax.Span{Start: s, End: s + rng.IntN(3)}, Code: codes[rng.IntN(len(codes))],
					Message: fmt.Sprintf("run %d, %d", r, i)}
			}
			if rng.IntN(2) == 0 {
				slices.SortStableFunc(run, func(a, b Diagnostic) int { return compareDiagnostics(&a, &b) })
			}
			ds = append(ds, run...)
			runs = append(runs, slices.Clone(run))
		}
		want := slices.Clone(ds)
		slices.SortStableFunc(want, func(a, b Diagnostic) int { return compareDiagnostics(&a, &b) })
		got := mergeDiagnostics(runs)
		if g, w := fmt.Sprint(got), fmt.Sprint(want); g != w {
			t.Fatalf("round %d, %d runs:\n got %s\nwant %s", round, len(runs), g, w)
		}
	}
}
