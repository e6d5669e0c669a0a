package ide

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/syntax"
)

// TestFixAll applies FixAll to the analyzer's cases, the marker cases and, when the shared
// corpus is beside the repository, every corpus game, and checks what an editor's "fix all"
// promises: the edits do not overlap; the text they give re-analyses without the diagnostics
// the fixes were for (none with the same code and message where the fix was made), and a file
// without errors gets none; and applying FixAll again and again ends, with no safe fix left.
func TestFixAll(t *testing.T) {
	paths, _ := filepath.Glob("../testdata/check/*.kif")
	markerCases, _ := filepath.Glob("testdata/markers/*.kif")
	paths = append(paths, markerCases...)
	corpus := 0
	filepath.WalkDir(corpusDir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".kif") || strings.HasSuffix(p, ".gdl")) {
			paths = append(paths, p)
			corpus++
		}
		return nil
	})
	if corpus == 0 {
		t.Logf("skipping the corpus games: none in %s (the shared corpus is not beside the repository)", corpusDir)
	}
	fixed, files := 0, 0
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		for round := 0; ; round++ {
			if round == 10 {
				t.Errorf("%s: safe fixes still left after 10 rounds of fix all", p)
				break
			}
			snap := NewSnapshot(1, text)
			edits, applied, err := FixAll(context.Background(), snap, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(applied) == 0 {
				break
			}
			if round == 0 {
				files++
			}
			fixed += len(applied)
			for i := 1; i < len(edits); i++ {
				if a, b := edits[i-1].Span, edits[i].Span; a.Start >= b.Start || a.End > b.Start {
					t.Fatalf("%s: edits %v and %v overlap or are out of order", p, edits[i-1], edits[i])
				}
			}
			next := analysis.ApplyEdits(text, edits)
			after := NewSnapshot(2, next).Analysis().Diagnostics
			for _, f := range applied {
				d := f.Diagnostic
				at := movedOffset(edits, d.Span.Start)
				for _, a := range after {
					if a.Code == d.Code && a.Message == d.Message && a.Span.Start == at {
						t.Errorf("%s: fix all applied %q but %s is still reported there: %s", p, f.Title, d.Code, d.Message)
					}
				}
			}
			if countErrors(snap.Analysis().Diagnostics) == 0 && countErrors(after) > 0 {
				t.Errorf("%s: fix all made errors in a file without any: %v", p, after)
			}
			text = next
		}
	}
	t.Logf("%d files, %d with safe fixes, %d fixes applied", len(paths), files, fixed)
}

// movedOffset returns where offset off of the text before the edits is after them; an offset
// inside an edited span goes to that span's start.
func movedOffset(edits []syntax.TextEdit, off int) int {
	d := 0
	for _, e := range edits {
		switch {
		case e.Span.End <= off && !(e.Span.Start == e.Span.End && e.Span.Start == off):
			d += len(e.NewText) - (e.Span.End - e.Span.Start)
		case e.Span.Start <= off:
			return e.Span.Start + d
		}
	}
	return off + d
}

func countErrors(ds []analysis.Diagnostic) int {
	n := 0
	for _, d := range ds {
		if d.Severity == analysis.Error {
			n++
		}
	}
	return n
}
