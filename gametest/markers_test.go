package gametest

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/game"
	"github.com/gdl-lsp/gdl/internal/markers"
	"github.com/gdl-lsp/gdl/syntax"
	"github.com/gdl-lsp/gdl/verify"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestMarkers reads, checks and runs every test file of testdata and compares what it finds
// with the markers beside the steps (internal/markers): `@want(CODE, "text")` is a diagnostic
// of the file (the parser's, Read's, Check's) that covers exactly the text, `@fail(CODE,
// "text")` a failure of a step (or of a test, at its name) found by running it. Every
// diagnostic and every failure must have its marker, and every marker its diagnostic or
// failure. What each one says (message, expected, found, the moves, the state, the line of a
// bounded search) is compared with NAME.golden beside NAME.test.kif (refresh with -update after reading the
// difference).
func TestMarkers(t *testing.T) {
	var cases []string
	for _, ext := range TestExt {
		more, _ := filepath.Glob("testdata/*" + ext)
		cases = append(cases, more...)
	}
	if len(cases) == 0 {
		t.Fatal("no cases in testdata")
	}
	for _, path := range cases {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			src := string(data)
			f, _ := syntax.ParseDialect(src, syntax.Detect(path, src))
			if !IsTestFile(path, f) {
				t.Fatalf("%s is not recognised as a test file", path)
			}
			s, _ := Read(f)
			g, res := loadCaseGame(t, path, s)
			suite, diags := Static(f, res)
			results, err := Run(context.Background(), g, suite.Tests, Options{Bounded: verify.BoundedOptions{MaxStates: 100_000}})
			if err != nil {
				t.Fatal(err)
			}
			lines := f.Lines()
			at := func(sp syntax.Span) string {
				p := lines.Position(sp.Start, syntax.UTF32)
				return fmt.Sprintf("%d:%d %q", p.Line+1, p.Column+1, src[sp.Start:sp.End])
			}
			type key struct {
				marker     string
				code       string
				start, end int
			}
			show := func(k key) string {
				return fmt.Sprintf("@%s(%s) at %s", k.marker, k.code, at(syntax.Span{Start: k.start, End: k.end}))
			}
			ms, errs := markers.ParseComments(src, f.Dialect().CommentMarks()[0])
			for _, e := range errs {
				t.Errorf("%s: %v", path, e)
			}
			left := map[key]int{}
			for _, m := range ms {
				if (m.Name != "want" && m.Name != "fail") || len(m.Args) != 2 {
					t.Errorf("%s:%d: @%s: a case has only @want(CODE, \"text\") and @fail(CODE, \"text\") markers", path, m.Line+1, m.Name)
					continue
				}
				start, end, err := m.Find(src, m.Args[1])
				if err != nil {
					t.Errorf("%s: %v", path, err)
					continue
				}
				left[key{m.Name, m.Arg(0), start, end}]++
			}
			var extra []string
			found := func(k key, msg string) {
				if left[k] > 0 {
					left[k]--
					return
				}
				extra = append(extra, show(k)+": "+msg)
			}
			var golden strings.Builder
			for _, d := range diags {
				found(key{"want", d.Code, d.Span.Start, d.Span.End}, d.Message)
				fmt.Fprintf(&golden, "%s %s %s: %s\n", at(d.Span), d.Severity, d.Code, d.Message)
			}
			for _, r := range results {
				fmt.Fprintf(&golden, "test %s: %s\n", r.Test.Name, r.Status)
				if (r.Status == Passed) != (len(r.Failures) == 0) {
					t.Errorf("%s: test %s is %s with %d failures", path, r.Test.Name, r.Status, len(r.Failures))
				}
				for _, fl := range r.Failures {
					found(key{"fail", fl.Code, fl.Span.Start, fl.Span.End}, fl.Message())
					fmt.Fprintf(&golden, "    step %d at %s %s\n        expected: %s\n", fl.Step, at(fl.Span), fl.Code, fl.Expected)
					if fl.Found != "" {
						fmt.Fprintf(&golden, "        found: %s\n", fl.Found)
					}
					if len(fl.Moves) > 0 {
						fmt.Fprintf(&golden, "        after: %s\n", strings.Join(fl.Moves, " "))
					}
					if len(fl.Line) > 0 {
						fmt.Fprintf(&golden, "        line: %s\n", strings.Join(fl.Line, " "))
					}
					for _, l := range strings.Split(strings.TrimSpace(fl.Context), "\n") {
						if l != "" {
							fmt.Fprintf(&golden, "        %s\n", l)
						}
					}
				}
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
				t.Errorf("%s: expected but not found: %s", path, k)
			}
			for _, k := range extra {
				t.Errorf("%s: found without a marker: %s", path, k)
			}
			stem := strings.TrimSuffix(strings.TrimSuffix(path, filepath.Ext(path)), ".test")
			markers.Check(t, stem+".golden", golden.String(), *update)
		})
	}
}

// loadCaseGame loads the game a case names.
func loadCaseGame(t testing.TB, path string, s *Suite) (*game.Game, *analysis.Result) {
	t.Helper()
	var gamePath string
	for _, p := range GameCandidates(path, s) {
		if _, err := os.Stat(p); err == nil {
			gamePath = p
			break
		}
	}
	if gamePath == "" {
		t.Fatalf("%s: no game among %v", path, GameCandidates(path, s))
	}
	data, err := os.ReadFile(gamePath)
	if err != nil {
		t.Fatal(err)
	}
	src := string(data)
	gf, _ := syntax.ParseDialect(src, syntax.Detect(gamePath, src))
	res := analysis.Analyze(gf, nil)
	g, err := game.New(context.Background(), res, game.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return g, res
}
