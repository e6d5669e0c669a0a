package analysis

import (
	"testing"

	"github.com/gdl-lsp/gdl/internal/gengame"
	"github.com/gdl-lsp/gdl/syntax"
)

// TestDeepNesting is issue 22, items 2 and 3: a body nesting not a million levels deep
// overflowed the goroutine stack in Model.literal, and nested or took quadratic memory in its
// fixes (and a million nested infix ors, 15 MB, a million diagnostics). Every shape of gengame.Nested is analysed, and its safe fixes applied, with the
// goroutine stack limited to 4 MB: 200,000 levels overflow it if anything recurses per level
// (the cmd/gdl and lsp tests run the real binary on a million levels under a memory limit).
func TestDeepNesting(t *testing.T) {
	gengame.EachNested(t, 200_000, 50_000, func(t *testing.T, shape, src string) {
		d := syntax.Prefix
		if gengame.Infix(shape) {
			d = syntax.Infix
		}
		f, errs := syntax.ParseDialect(src, d)
		if len(errs) > 0 {
			t.Fatalf("the generated game has syntax errors: %v", errs[0])
		}
		res := Analyze(f, nil)
		if len(res.Model.Clauses) < 9 {
			t.Fatalf("%d clauses", len(res.Model.Clauses))
		}
		fixed, _ := ApplyFixes(src, res.Diagnostics, func(_ Diagnostic, fx syntax.Fix) bool { return fx.Safe })
		if len(fixed) > len(src)+len(src)/2 {
			t.Errorf("the fixed text grew from %d to %d bytes", len(src), len(fixed))
		}
		if shape != "or" && shape != "infix-or" {
			return
		}
		// One diagnostic for the whole chain of nested ors, whose fix is one edit (not two per
		// or: a reply of hundreds of megabytes), and merges them all.
		var chain []Diagnostic
		for _, d := range res.Diagnostics {
			if d.Code == "bad-disjunction" {
				chain = append(chain, d)
			}
		}
		if len(chain) != 1 || len(chain[0].Fixes) != 1 || len(chain[0].Fixes[0].Edits) != 1 {
			t.Fatalf("%d bad-disjunction diagnostics, the first: %.200v", len(chain), chain)
		}
		g, _ := syntax.ParseDialect(fixed, d)
		for _, d := range Analyze(g, nil).Diagnostics {
			if d.Code == "bad-disjunction" {
				t.Fatalf("after the fix: %s", d.Message)
			}
		}
	})
}
