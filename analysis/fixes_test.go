package analysis

import (
	"os"
	"sort"
	"testing"

	"github.com/gdl-lsp/gdl/syntax"
)

// applyFix applies a fix's edits (non-overlapping) to src.
func applyFix(src string, fix syntax.Fix) string {
	edits := append([]syntax.TextEdit(nil), fix.Edits...)
	sort.Slice(edits, func(i, j int) bool { return edits[i].Span.Start > edits[j].Span.Start })
	for _, e := range edits {
		src = src[:e.Span.Start] + e.NewText + src[e.Span.End:]
	}
	return src
}

// TestFixesRepair applies every fix offered on the marker cases: the diagnostic it belongs to
// must disappear and no new error-severity diagnostic may appear.
func TestFixesRepair(t *testing.T) {
	files := checkCases(t)
	applied := 0
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		src := string(data)
		f := parseCase(path, src)
		before := Analyze(f, nil)
		errorsBefore := map[string]int{}
		for _, d := range before.Diagnostics {
			if d.Severity == Error {
				errorsBefore[d.Code]++
			}
		}
		for _, d := range before.Diagnostics {
			for _, fix := range d.Fixes {
				fixed := applyFix(src, fix)
				nf, _ := syntax.ParseDialect(fixed, f.Dialect())
				after := Analyze(nf, nil)
				errorsAfter := map[string]int{}
				same := 0
				for _, a := range after.Diagnostics {
					if a.Severity == Error {
						errorsAfter[a.Code]++
					}
					if a.Code == d.Code {
						same++
					}
				}
				for code, n := range errorsAfter {
					// Where a missing ')' belongs is a guess; other fixes must not add errors.
					if n > errorsBefore[code] && d.Category != CategorySyntax {
						t.Errorf("%s: fix %q for %s adds %s errors:\n%s", path, fix.Title, d.Code, code, fixed)
					}
				}
				count := 0
				for _, b := range before.Diagnostics {
					if b.Code == d.Code {
						count++
					}
				}
				if same >= count {
					t.Errorf("%s: fix %q does not remove the %s diagnostic at %v:\n%s", path, fix.Title, d.Code, d.Span, fixed)
				}
				applied++
			}
		}
	}
	if applied == 0 {
		t.Fatal("no fix was applied")
	}
	t.Logf("applied %d fixes", applied)
}
