package syntax

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gdl-lsp/gdl/internal/markers"
)

var update = flag.Bool("update", false, "rewrite the golden tree dumps in testdata/syntax")

// localCases returns the test inputs written by this team: prefix .kif and infix .hrf files.
func localCases(t testing.TB) []string {
	var paths []string
	for _, ext := range []string{"kif", "hrf"} {
		ps, err := filepath.Glob("../testdata/syntax/*." + ext)
		if err != nil || len(ps) == 0 {
			t.Fatalf("no .%s inputs in testdata/syntax: %v", ext, err)
		}
		paths = append(paths, ps...)
	}
	return paths
}

// parseCase parses a test input in the dialect of its name.
func parseCase(path, src string) (*File, []Error) { return ParseDialect(src, Detect(path, src)) }

// TestGolden compares the tree dump of every testdata/syntax input with its .dump file; run
// `go test ./syntax -update` to rewrite them after an intended change.
func TestGolden(t *testing.T) {
	for _, path := range localCases(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			f, _ := parseCase(path, string(data))
			if msg := checkInvariants(f); msg != "" {
				t.Fatal(msg)
			}
			got := f.Dump()
			golden := strings.TrimSuffix(path, filepath.Ext(path)) + ".dump"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run `go test ./syntax -update` to create it)", err)
			}
			if got != string(want) {
				t.Errorf("the tree of %s differs from %s (run `go test ./syntax -update` after an intended change):\n%s",
					path, golden, lineDiff(string(want), got))
			}
		})
	}
}

// lineDiff shows the first differing line of two dumps with a little context.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(w), len(g)); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return fmt.Sprintf("line %d:\n  want: %s\n  got:  %s", i+1, wl, gl)
		}
	}
	return "(no line differs)"
}

type wantError struct {
	code string
	span Span
}

// TestErrorMarkers checks that the errors of every testdata/syntax input are exactly the ones its
// markers announce, with exact ranges: every marker is matched and every error has a marker.
func TestErrorMarkers(t *testing.T) {
	for _, path := range localCases(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			src := string(data)
			f, errs := parseCase(path, src)
			want, problems := errorMarkers(f)
			for _, p := range problems {
				t.Error(p)
			}
			show := func(code string, sp Span) string {
				p := f.Lines().Position(sp.Start, UTF8)
				return fmt.Sprintf("%s:%d:%d: %s %q", filepath.Base(path), p.Line+1, p.Column+1, code, src[sp.Start:sp.End])
			}
			left := map[wantError]int{}
			for _, w := range want {
				left[w]++
			}
			for _, e := range errs {
				k := wantError{e.Code, e.Span}
				if left[k] > 0 {
					left[k]--
					continue
				}
				t.Errorf("unexpected error %s: %s", show(e.Code, e.Span), e.Message)
			}
			var missing []string
			for k, n := range left {
				for ; n > 0; n-- {
					missing = append(missing, show(k.code, k.span))
				}
			}
			sort.Strings(missing)
			for _, m := range missing {
				t.Errorf("expected error not reported: %s", m)
			}
		})
	}
}

// errorMarkers reads the markers of f (internal/markers): `@error(CODE, "text")` says that the
// parser reports an error with that code covering exactly the text on the marker's line, the
// n-th occurrence with "text"#n.
func errorMarkers(f *File) (want []wantError, problems []string) {
	src := f.Source()
	ms, errs := markers.ParseComments(src, f.Dialect().CommentMarks()[0])
	for _, e := range errs {
		problems = append(problems, e.Error())
	}
	for _, m := range ms {
		if m.Name != "error" || len(m.Args) != 2 {
			problems = append(problems, fmt.Sprintf("line %d: @%s: a syntax case has only @error(CODE, \"text\") markers", m.Line+1, m.Name))
			continue
		}
		start, end, err := m.Find(src, m.Args[1])
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		want = append(want, wantError{m.Arg(0), Span{start, end}})
	}
	return want, problems
}
