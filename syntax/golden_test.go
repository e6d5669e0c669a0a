package syntax

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
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

// markerRE matches an error marker in a comment: `ERROR code "text"` or `ERROR code "text" #N`.
// The text is a Go string literal; the marker says that an error with that code covers exactly
// that text, which occurs on the marker's line before the comment: the only occurrence, or the
// N-th one.
var markerRE = regexp.MustCompile(`ERROR ([a-z0-9-]+) ("(?:[^"\\]|\\.)*")(?: #([0-9]+))?`)

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
			want, problems := markers(f)
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

// markers reads the ERROR markers of the comments of f.
func markers(f *File) (want []wantError, problems []string) {
	src := f.Source()
	li := f.Lines()
	var walk func(text string, base int, n *Node)
	walk = func(text string, base int, n *Node) {
		for i := range n.Kids {
			walk(text, base, &n.Kids[i])
		}
		if n.Kind != Comment {
			return
		}
		at := base + int(n.Start)
		line := li.Position(at, UTF8).Line
		before := src[li.LineStart(line):at]
		for _, m := range markerRE.FindAllStringSubmatch(text[n.Start:n.End], -1) {
			needle, err := strconv.Unquote(m[2])
			if err != nil || needle == "" {
				problems = append(problems, fmt.Sprintf("line %d: bad marker text %s", line+1, m[2]))
				continue
			}
			var occ []int
			for i := 0; ; {
				j := strings.Index(before[i:], needle)
				if j < 0 {
					break
				}
				occ = append(occ, i+j)
				i += j + 1
			}
			nth := 0
			if m[3] != "" {
				nth, _ = strconv.Atoi(m[3])
			} else if len(occ) == 1 {
				nth = 1
			}
			if nth < 1 || nth > len(occ) {
				problems = append(problems, fmt.Sprintf("line %d: marker %q: %d occurrences of the text before it; say which with #N",
					line+1, m[0], len(occ)))
				continue
			}
			start := li.LineStart(line) + occ[nth-1]
			want = append(want, wantError{m[1], Span{start, start + len(needle)}})
		}
	}
	for _, it := range f.items {
		walk(it.text, it.start, &it.node)
	}
	return want, problems
}
