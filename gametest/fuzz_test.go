package gametest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gdl-lsp/gdl/syntax"
	"github.com/gdl-lsp/gdl/verify"
)

// FuzzTestFile reads, checks and runs arbitrary text as a test file of tic-tac-toe, in both
// notations: nothing panics, every span lies in the text, and every test has a result.
func FuzzTestFile(f *testing.F) {
	cases, _ := filepath.Glob("testdata/*.test.*")
	for _, c := range cases {
		data, _ := os.ReadFile(c)
		f.Add(string(data))
	}
	f.Add("(test a (play (mark 1 1) noop) (holds (not (line ?x))) (can-force xplayer 100 9)")
	f.Add("test(a, play(mark(1,1), noop), holds(line(X)))")
	f.Add("(test a (holds " + strings.Repeat("(f ", 3000) + strings.Repeat(")", 3000) + "))")
	g, res := loadCaseGame(f, "testdata/kinds.test.kif", &Suite{Game: "../../testdata/games/tictactoe.kif"})
	f.Fuzz(func(t *testing.T, src string) {
		for _, d := range []syntax.Dialect{syntax.Prefix, syntax.Infix} {
			file, _ := syntax.ParseDialect(src, d)
			s, ds := Static(file, res)
			for _, x := range ds {
				if x.Span.Start < 0 || x.Span.End > len(src) || x.Span.Start > x.Span.End {
					t.Fatalf("diagnostic %s at %v outside the text of %d bytes", x.Code, x.Span, len(src))
				}
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			results, err := Run(ctx, g, s.Tests, Options{Bounded: verify.BoundedOptions{MaxStates: 2000}})
			cancel()
			if err == nil && len(results) != len(s.Tests) {
				t.Fatalf("%d results for %d tests", len(results), len(s.Tests))
			}
			for _, r := range results {
				for _, fl := range r.Failures {
					if fl.Span.Start < 0 || fl.Span.End > len(src) {
						t.Fatalf("failure at %v outside the text", fl.Span)
					}
				}
			}
		}
	})
}
