package analysis

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gdl-lsp/gdl/internal/markers"
	"github.com/gdl-lsp/gdl/syntax"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestCheckMarkers runs the analyzer over every case in testdata/check and compares its
// diagnostics with the markers beside the offending code (internal/markers):
// `@want(CODE, "text")` says that a diagnostic with that code covers exactly the text on the
// marker's line (the n-th occurrence with "text"#n). Every marker must be matched and every
// diagnostic must have a marker. The severity, message, related locations and fixes of every
// diagnostic are compared with NAME.golden beside the case (refresh with -update after reading
// the difference).
func TestCheckMarkers(t *testing.T) {
	for _, path := range checkCases(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			src := string(data)
			f := parseCase(path, src)
			res := Analyze(f, nil)
			lines := f.Lines()
			checkGolden(t, strings.TrimSuffix(path, filepath.Ext(path))+".golden", goldenDiagnostics(src, lines, res.Diagnostics))
			type want struct {
				code       string
				start, end int
			}
			show := func(w want) string {
				p := lines.Position(w.start, syntax.UTF8)
				return fmt.Sprintf("%d:%d %s %q", p.Line+1, p.Column+1, w.code, src[w.start:w.end])
			}
			ms, errs := markers.ParseComments(src, f.Dialect().CommentMarks()[0])
			for _, e := range errs {
				t.Errorf("%s: %v", path, e)
			}
			left := map[want]int{}
			for _, m := range ms {
				if m.Name != "want" || len(m.Args) != 2 {
					t.Errorf("%s:%d: @%s: a check case has only @want(CODE, \"text\") markers", path, m.Line+1, m.Name)
					continue
				}
				start, end, err := m.Find(src, m.Args[1])
				if err != nil {
					t.Errorf("%s: %v", path, err)
					continue
				}
				left[want{m.Arg(0), start, end}]++
			}
			var extra []string
			for _, d := range res.Diagnostics {
				k := want{d.Code, d.Span.Start, d.Span.End}
				if left[k] > 0 {
					left[k]--
					continue
				}
				extra = append(extra, show(k)+": "+d.Message)
			}
			var missing []string
			for k, n := range left {
				for ; n > 0; n-- {
					missing = append(missing, show(k))
				}
			}
			sort.Strings(missing)
			sort.Strings(extra)
			for _, k := range missing {
				t.Errorf("%s: expected diagnostic not reported: %s", path, k)
			}
			for _, k := range extra {
				t.Errorf("%s: unexpected diagnostic: %s", path, k)
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
