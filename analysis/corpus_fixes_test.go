package analysis

import (
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"testing"

	"github.com/gdl-lsp/gdl/syntax"
)

// TestCorpusFixes applies, one at a time, every fix offered on a valid corpus game (a game of
// kind game with no error-severity diagnostic) and analyses the result again: the fixed code must
// be reported fewer times, no error may appear, and no other code may be reported more often.
// On real games this exercises the fixes far beyond the marker cases: the order-hint reorder on
// hundreds of rules written by others, and the case, parenthesis and empty-body rewrites.
// Games with errors are left out: there a fix may expose a defect that the broken form hid (the
// outer (and ...) of a Prolog-style rule, once flattened, shows a head variable bound in one
// branch of an or only), which is right but is not what this test pins.
func TestCorpusFixes(t *testing.T) {
	games := corpusGameFiles(t)
	applied, valid := 0, 0
	for _, g := range games {
		data, err := os.ReadFile(filepath.Join(corpusDir, g))
		if err != nil {
			t.Errorf("%s: %v", g, err)
			continue
		}
		src := string(data)
		f, _ := syntax.Parse(src)
		res := Analyze(f, nil)
		before := codeCounts(res)
		if before.errors > 0 {
			continue
		}
		valid++
		for _, d := range res.Diagnostics {
			for _, fix := range d.Fixes {
				applied++
				out := applyEdits(src, fix.Edits)
				g2, _ := syntax.Parse(out)
				after := codeCounts(Analyze(g2, nil))
				where := func() string {
					p := syntax.NewLineIndex(src).Position(d.Span.Start, syntax.UTF8)
					return g + ":" + strconv.Itoa(p.Line+1)
				}
				if after.byCode[d.Code] >= before.byCode[d.Code] {
					t.Errorf("%s: fix %q of %s leaves it reported (%d before, %d after)",
						where(), fix.Title, d.Code, before.byCode[d.Code], after.byCode[d.Code])
				}
				if after.errors > 0 {
					t.Errorf("%s: fix %q of %s introduces %d error(s): %v",
						where(), fix.Title, d.Code, after.errors, after.errorCodes)
				}
				for code, n := range after.byCode {
					if code != d.Code && n > before.byCode[code] {
						t.Errorf("%s: fix %q of %s makes %s reported more often (%d before, %d after)",
							where(), fix.Title, d.Code, code, before.byCode[code], n)
					}
				}
			}
		}
	}
	if valid == 0 || applied == 0 {
		t.Fatalf("no fix applied on %d valid games of %d: the test checks nothing", valid, len(games))
	}
	t.Logf("%d fixes applied on %d valid corpus games", applied, valid)
}

type diagnosticCounts struct {
	byCode     map[string]int
	errors     int
	errorCodes []string
}

func codeCounts(res *Result) diagnosticCounts {
	c := diagnosticCounts{byCode: map[string]int{}}
	for _, d := range res.Diagnostics {
		c.byCode[d.Code]++
		if d.Severity == Error {
			c.errors++
			c.errorCodes = append(c.errorCodes, d.Code)
		}
	}
	return c
}

// applyEdits applies non-overlapping edits to src, the last first so earlier offsets stay valid.
func applyEdits(src string, edits []syntax.TextEdit) string {
	es := append([]syntax.TextEdit(nil), edits...)
	sort.Slice(es, func(i, j int) bool { return es[i].Span.Start > es[j].Span.Start })
	for _, e := range es {
		src = src[:e.Span.Start] + e.NewText + src[e.Span.End:]
	}
	return src
}
