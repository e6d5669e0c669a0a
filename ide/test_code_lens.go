package ide

import (
	"fmt"

	"github.com/gdl-lsp/gdl/gametest"
)

// TestLens is a lens of a test document: above the first test, run them all; above each test,
// run it, titled with its last result.
type TestLens struct {
	Offset int
	Test   string // "" for the lens that runs every test
	Title  string
}

// TestLenses lists the lenses of a test document, in order. name is the document's name for
// runs (its last results give the titles).
func TestLenses(d *TestDoc, runs *TestRuns, name string) []TestLens {
	tests := d.Suite().Tests
	out := []TestLens{}
	if len(tests) == 0 {
		return out
	}
	out = append(out, TestLens{Offset: tests[0].Span.Start, Title: fmt.Sprintf("▶ Run all %s", plural(len(tests), "test"))})
	for _, t := range tests {
		title := "▶ Run test"
		if runs != nil {
			if r, ok := runs.Last(name, d, t.Name); ok {
				title = lensResult(r)
			}
		}
		out = append(out, TestLens{Offset: t.Span.Start, Test: t.Name, Title: title})
	}
	return out
}

// lensResult titles a test's lens with its last result; running it again is the lens's command.
func lensResult(r gametest.Result) string {
	switch r.Status {
	case gametest.Passed:
		return "✓ passed, run again"
	case gametest.Failed:
		return fmt.Sprintf("✗ failed at step %d, run again", r.Failures[0].Step)
	}
	return "✗ could not run, run again"
}
