package analysis

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gdl-lsp/gdl/syntax"
)

// applyAllFixes applies the first fix of every diagnostic at once, as an editor's "fix all"
// does (ApplyFixes), and returns the new text and the fixes applied.
func applyAllFixes(src string, ds []Diagnostic) (string, []syntax.Fix) {
	out, applied := ApplyFixes(src, ds, nil)
	fixes := make([]syntax.Fix, len(applied))
	for i, a := range applied {
		fixes[i] = a.Fix
	}
	return out, fixes
}

var variableRE = regexp.MustCompile(`\?[^\s()]+`)

// alphaKey is the canonical text of a form with its variables renamed in order of first
// appearance: two rules with the same alphaKey mean the same.
func alphaKey(c syntax.Cursor) string {
	names := map[string]string{}
	return variableRE.ReplaceAllStringFunc(TermKey(c), func(v string) string {
		if n, ok := names[v]; ok {
			return n
		}
		names[v] = "?v" + strconv.Itoa(len(names))
		return names[v]
	})
}

// checkHelpersAfterFixAll applies every fix of src at once and checks that the helper
// relations of the unsafe-variable fixes keep the file's meaning: each helper name is defined
// only by rules that say exactly what the negated atom it replaced said, was not a symbol of the
// file before (unless the file already defined it as that very helper), and the helper rules
// are safe. It returns the number of helper fixes applied.
func checkHelpersAfterFixAll(t *testing.T, name, src string) int {
	t.Helper()
	f := parseCase(name, src)
	d := f.Dialect()
	before := Analyze(f, nil)
	if !hasHelperFix(before) {
		return 0
	}
	fixed, applied := applyAllFixes(src, before.Diagnostics)
	nf, _ := syntax.ParseDialect(fixed, d)
	after := Analyze(nf, nil)
	want := map[string]string{} // helper key -> alphaKey of the rule it must be
	helpers := 0
	for _, fix := range applied {
		if !strings.Contains(fix.Title, "helper relation") {
			continue
		}
		helpers++
		repl := fix.Edits[0]
		head, _ := syntax.ParseDialect(repl.NewText, d)
		key := head.Forms()[0].Fact().Name().Key()
		rule, _ := syntax.ParseDialect(d.Rule(repl.NewText, src[repl.Span.Start:repl.Span.End]), d)
		k := alphaKey(rule.Forms()[0].Cursor)
		if old, ok := want[key]; ok && old != k {
			t.Errorf("%s: helper %s stands for two different atoms:\n  %s\n  %s", name, key, old, k)
		}
		want[key] = k
		if len(fix.Edits) == 2 { // a new helper: its name was free in any spelling
			if before.Model.Relations[key] != nil || before.Model.Functions[key] != nil || before.Model.Constants[key] != nil {
				t.Errorf("%s: new helper %s clashes with a symbol of the file", name, key)
			}
		}
	}
	for key, k := range want {
		defs := after.Model.Definitions(key)
		if len(defs) == 0 {
			t.Errorf("%s: helper %s is not defined after the fixes:\n%s", name, key, fixed)
		}
		for _, c := range defs {
			if got := alphaKey(c.Form.Cursor); got != k {
				t.Errorf("%s: helper %s is also defined as %s, which is not the negated atom %s:\n%s", name, key, got, k, fixed)
			}
			for _, d := range after.Diagnostics {
				if d.Code == "unsafe-variable" && d.Span.Start >= c.Form.Span().Start && d.Span.End <= c.Form.Span().End {
					t.Errorf("%s: helper rule %s is unsafe: %s", name, c.Form.Text(), d.Message)
				}
			}
		}
	}
	return helpers
}

func hasHelperFix(res *Result) bool {
	for _, d := range res.Diagnostics {
		for _, f := range d.Fixes {
			if strings.Contains(f.Title, "helper relation") {
				return true
			}
		}
	}
	return false
}

// TestFixAllKeepsMeaning applies all fixes of a file at once, on every marker case and every
// corpus game, and checks the helper relations of the unsafe-variable fixes by structure.
func TestFixAllKeepsMeaning(t *testing.T) {
	files := checkCases(t)
	helpers := 0
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		helpers += checkHelpersAfterFixAll(t, p, string(data))
	}
	if helpers < 4 {
		t.Errorf("only %d helper fixes applied on the marker cases: the test checks little", helpers)
	}
	games := corpusGameFiles(t)
	helpers = 0
	for _, g := range games {
		data, err := os.ReadFile(filepath.Join(corpusDir, g))
		if err != nil {
			t.Fatal(err)
		}
		helpers += checkHelpersAfterFixAll(t, g, string(data))
	}
	t.Logf("%d helper fixes applied at once on %d corpus games", helpers, len(games))
}
