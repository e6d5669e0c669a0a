package gametest

import (
	"context"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/gdl-lsp/gdl/syntax"
)

// TestDocsCodes: docs/testing.md lists every code of Codes, with its severity and summary, and
// no other.
func TestDocsCodes(t *testing.T) {
	data, err := os.ReadFile("../docs/testing.md")
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("(?m)^\\| `(test-[a-z-]+)` \\| ([a-z]+) \\| (.*) \\|$")
	documented := map[string]string{}
	for _, m := range row.FindAllStringSubmatch(string(data), -1) {
		documented[m[1]] = m[2] + " " + m[3]
	}
	for _, c := range Codes {
		if got, want := documented[c.Code], c.Severity.String()+" "+c.Summary; got != want {
			t.Errorf("docs/testing.md: %s is %q, want %q", c.Code, got, want)
		}
		delete(documented, c.Code)
	}
	for code := range documented {
		t.Errorf("docs/testing.md documents %s, which is not a code", code)
	}
}

// TestDocsExamples: the tests written in docs/testing.md pass, the prefix ones on
// tictactoe.kif, the infix ones on noughts.hrf.
func TestDocsExamples(t *testing.T) {
	data, err := os.ReadFile("../docs/testing.md")
	if err != nil {
		t.Fatal(err)
	}
	block := regexp.MustCompile("(?s)```(lisp|prolog)\n(.*?)```")
	n := 0
	for _, m := range block.FindAllStringSubmatch(string(data), -1) {
		if !strings.Contains(m[2], "test") || strings.Contains(m[2], "(game ") {
			continue
		}
		game, d := "../testdata/games/tictactoe.kif", syntax.Prefix
		if m[1] == "prolog" {
			game, d = "../testdata/games/noughts.hrf", syntax.Infix
		}
		f, _ := syntax.ParseDialect(m[2], d)
		s, _ := Read(f)
		s.Game = "../" + game
		g, res := loadCaseGame(t, "testdata/docs.test.kif", s)
		suite, ds := Static(f, res)
		if len(ds) > 0 {
			t.Errorf("docs/testing.md: %v\n%s", ds, m[2])
		}
		results, err := Run(context.Background(), g, suite.Tests, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range results {
			n++
			if r.Status != Passed {
				t.Errorf("docs/testing.md: test %s: %+v", r.Test.Name, r.Failures)
			}
		}
	}
	if n < 3 {
		t.Errorf("only %d tests found in docs/testing.md", n)
	}
}
