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

// wantRE matches a marker comment: `; want CODE "text"` says that a diagnostic with that code
// covers exactly the text "text" on this line. Several markers may follow one another.
var wantRE = regexp.MustCompile(`want ([a-z0-9-]+) "((?:[^"\\]|\\.)*)"`)

type marker struct {
	line int
	code string
	text string
}

// TestCheckMarkers runs the analyzer over every case in testdata/check and compares its
// diagnostics with the `; want` markers beside the offending tokens: every marker must be matched
// and every diagnostic must have a marker.
func TestCheckMarkers(t *testing.T) {
	files, err := filepath.Glob("../testdata/check/*.kif")
	if err != nil || len(files) == 0 {
		t.Fatalf("no cases in testdata/check: %v", err)
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			src := string(data)
			f, _ := syntax.Parse(src)
			res := Analyze(f, nil)
			lines := f.Lines()
			var want []marker
			for i, l := range strings.Split(src, "\n") {
				if c := strings.Index(l, ";"); c >= 0 {
					for _, m := range wantRE.FindAllStringSubmatch(l[c:], -1) {
						want = append(want, marker{i + 1, m[1], strings.ReplaceAll(m[2], `\"`, `"`)})
					}
				}
			}
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
