package analysis

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/gdl-lsp/gdl/syntax"
)

var update = flag.Bool("update", false, "rewrite golden files")

// wantRE matches a marker comment: `; want CODE "text"` (in an infix case, `% want ...`) says
// that a diagnostic with that code covers exactly the text "text" on this line. Several markers
// may follow one another.
var wantRE = regexp.MustCompile(`want ([a-z0-9-]+) "((?:[^"\\]|\\.)*)"`)

type marker struct {
	line int
	code string
	text string
}

// TestCheckMarkers runs the analyzer over every case in testdata/check and compares its
// diagnostics with the `; want` markers beside the offending tokens: every marker must be matched
// and every diagnostic must have a marker. The severity, message, related locations and fixes
// of every diagnostic are compared with NAME.golden beside the case (refresh with -update after
// reading the difference).
func TestCheckMarkers(t *testing.T) {
	files := checkCases(t)
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			src := string(data)
			f := parseCase(path, src)
			res := Analyze(f, nil)
			lines := f.Lines()
			var want []marker
			for i, l := range strings.Split(src, "\n") {
				if c := strings.Index(l, f.Dialect().CommentMarks()); c >= 0 {
					for _, m := range wantRE.FindAllStringSubmatch(l[c:], -1) {
						want = append(want, marker{i + 1, m[1], strings.ReplaceAll(m[2], `\"`, `"`)})
					}
				}
			}
			checkGolden(t, strings.TrimSuffix(path, filepath.Ext(path))+".golden", goldenDiagnostics(src, lines, res.Diagnostics))
			var got []marker
			for _, d := range res.Diagnostics {
				p := lines.Position(d.Span.Start, syntax.UTF8)
				got = append(got, marker{p.Line + 1, d.Code, src[d.Span.Start:d.Span.End]})
			}
			key := func(m marker) string { return fmt.Sprintf("%d %s %q", m.line, m.code, m.text) }
			count := map[string]int{}
			for _, m := range want {
				count[key(m)]++
			}
			var missing, extra []string
			for _, m := range got {
				if count[key(m)] > 0 {
					count[key(m)]--
				} else {
					extra = append(extra, key(m))
				}
			}
			for k, n := range count {
				for ; n > 0; n-- {
					missing = append(missing, k)
				}
			}
			sort.Strings(missing)
			sort.Strings(extra)
			for _, k := range missing {
				t.Errorf("%s: expected diagnostic not reported: line %s", path, k)
			}
			for _, k := range extra {
				for _, d := range res.Diagnostics {
					p := lines.Position(d.Span.Start, syntax.UTF8)
					if key(marker{p.Line + 1, d.Code, src[d.Span.Start:d.Span.End]}) == k {
						t.Errorf("%s: unexpected diagnostic: line %s: %s", path, k, d.Message)
						break
					}
				}
			}
		})
	}
}

// checkCases returns the analyzer cases of testdata/check: prefix .kif and infix .hrf files.
func checkCases(t testing.TB) []string {
	var files []string
	for _, ext := range []string{"kif", "hrf"} {
		fs, err := filepath.Glob("../testdata/check/*." + ext)
		if err != nil || len(fs) == 0 {
			t.Fatalf("no .%s cases in testdata/check: %v", ext, err)
		}
		files = append(files, fs...)
	}
	return files
}

// parseCase parses a test file in the notation of its name (.hrf is infix).
func parseCase(path, src string) *syntax.File {
	f, _ := syntax.ParseDialect(src, syntax.Detect(path, src))
	return f
}

// goldenDiagnostics writes every diagnostic in full, one per line with its range, the text
// under it, severity, code and message; then its related locations and its fixes' edits (a safe
// fix, which gdl check --fix applies, says so).
func goldenDiagnostics(src string, lines *syntax.LineIndex, ds []Diagnostic) string {
	var b strings.Builder
	at := func(sp syntax.Span) string {
		p, q := lines.Position(sp.Start, syntax.UTF32), lines.Position(sp.End, syntax.UTF32)
		return fmt.Sprintf("%d:%d-%d:%d %q", p.Line+1, p.Column+1, q.Line+1, q.Column+1, src[sp.Start:sp.End])
	}
	for _, d := range ds {
		fmt.Fprintf(&b, "%s %s %s: %s\n", at(d.Span), d.Severity, d.Code, d.Message)
		for _, r := range d.Related {
			fmt.Fprintf(&b, "    related %s: %s\n", at(r.Span), r.Message)
		}
		for _, f := range d.Fixes {
			if f.Safe {
				fmt.Fprintf(&b, "    safe fix %q\n", f.Title)
			} else {
				fmt.Fprintf(&b, "    fix %q\n", f.Title)
			}
			for _, e := range f.Edits {
				fmt.Fprintf(&b, "        %s -> %q\n", at(e.Span), e.NewText)
			}
		}
	}
	return b.String()
}

// checkGolden compares got with the golden file, or rewrites it under -update.
func checkGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./analysis -run TestCheckMarkers -update to create it)", err)
	}
	if string(want) == got {
		return
	}
	wl, gl := strings.Split(string(want), "\n"), strings.Split(got, "\n")
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			t.Errorf("%s: line %d differs (run with -update if the change is right):\n got: %s\nwant: %s", path, i+1, g, w)
			return
		}
	}
}
