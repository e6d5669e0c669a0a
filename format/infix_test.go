package format

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	games "github.com/gdl-lsp/gdl/internal/corpus"
	"github.com/gdl-lsp/gdl/syntax"
)

func TestInfixCases(t *testing.T) {
	cases := []struct{ in, want string }{
		{"role(a) role(b)\n", "role(a)\nrole(b)\n"},
		{"p(X) :-   q( X ,Y )\n\t& ~ r(X)", "p(X) :- q(X,Y) & ~r(X)"},
		{"legal(Player,mark(Row,Column)) :- true(cell(Row,Column,blank)) & true(control(Player))\n",
			"legal(Player,mark(Row,Column)) :-\n    true(cell(Row,Column,blank)) &\n    true(control(Player))\n"},
		{"p(X) :- % why p\n q(X) % why q\n & r(X)\n", "p(X) :- % why p\n    q(X) & % why q\n    r(X)\n"},
		{"f(a % c\n, b)\n", "f(a, % c\n    b)\n"},
		{"role(a)\r\n\r\n\r\nrole(b)\r\n", "role(a)\r\n\r\nrole(b)\r\n"},
		{"legal(r, m) :-\n", "legal(r,m) :-\n"},
		{"legal(r, m) :- .\nnext(a)\n", "legal(r,m) :-.\nnext(a)\n"},
		{"p(a) .  q(b).r(c)\n", "p(a).\nq(b).\nr(c)\n"},
		{"p :- (a|b | ~ c) & distinct( X , \"Y z\" )", "p :- (a | b | ~c) & distinct(X,\"Y z\")"},
		{"role(a)  % keep\n", "role(a) % keep\n"},
		{"terminal :-\n    % first\n    % second\n    open\n", "terminal :-\n    % first\n    % second\n    open\n"},
		{"p :- q % trailing\n.\n", "p :- q % trailing\n.\n"},
		{"f (a)\n", "f(a)\n"},
	}
	for _, c := range cases {
		got, err := SourceDialect(c.in, syntax.Infix)
		if err != nil {
			t.Fatalf("%q: %v", c.in, err)
		}
		if got != c.want {
			t.Errorf("format(%q):\n got %q\nwant %q", c.in, got, c.want)
		}
		checkInfixFormatted(t, c.in, got)
	}
	if _, err := SourceDialect("role(a", syntax.Infix); err != ErrSyntax {
		t.Errorf("broken file: err %v, want ErrSyntax", err)
	}
}

// checkInfixFormatted checks that formatting src gave out without changing its meaning: the
// same tokens in the same order and the same comments in the same order (a separator may move
// before a comment), and that formatting out again changes nothing.
func checkInfixFormatted(t *testing.T, src, out string) {
	t.Helper()
	tokens, comments := infixMeaning(src)
	tokens2, comments2 := infixMeaning(out)
	if tokens != tokens2 {
		t.Errorf("formatting changed the tokens of %q:\n%s\n%s", clip(src), tokens, tokens2)
	}
	if comments != comments2 {
		t.Errorf("formatting changed the comments of %q:\n%s\n%s", clip(src), comments, comments2)
	}
	again, err := SourceDialect(out, syntax.Infix)
	if err != nil || again != out {
		t.Errorf("not idempotent on %q: %q, %v", clip(out), clip(again), err)
	}
}

func clip(s string) string {
	if len(s) > 200 {
		return s[:200] + "..."
	}
	return s
}

// infixMeaning returns the tokens of an infix file that are neither whitespace nor comments,
// and its comments (without trailing blanks), each in order.
func infixMeaning(src string) (tokens, comments string) {
	f, _ := syntax.ParseDialect(src, syntax.Infix)
	var tb, cb strings.Builder
	var walk func(c syntax.Cursor)
	walk = func(c syntax.Cursor) {
		switch c.Kind() {
		case syntax.List:
			for _, k := range c.Children() {
				walk(k)
			}
		case syntax.Whitespace:
		case syntax.Comment:
			cb.WriteString(strings.TrimRight(c.Text(), " \t") + "\n")
		default:
			tb.WriteString(c.Text() + " ")
		}
	}
	for _, it := range f.Items() {
		walk(it)
	}
	return tb.String(), cb.String()
}

// TestInfixFiles formats the infix games and parser inputs of testdata that have no syntax
// error.
func TestInfixFiles(t *testing.T) {
	var paths []string
	for _, g := range []string{"../testdata/games/*.hrf", "../testdata/syntax/*.hrf", "../testdata/check/*.hrf", "../testdata/examples/*.hrf"} {
		ps, _ := filepath.Glob(g)
		paths = append(paths, ps...)
	}
	n := 0
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out, err := SourceDialect(string(data), syntax.Infix)
		if err != nil {
			continue // a file with syntax errors on purpose
		}
		checkInfixFormatted(t, string(data), out)
		n++
	}
	if n < 2 {
		t.Errorf("only %d infix files of testdata were formatted", n)
	}
}

// formKeys returns the meaning of each form of a file, in order, in one canonical text that
// does not depend on the notation: names case-folded and without quotes, variables as ?x, the
// connectives by their keyword.
func formKeys(f *syntax.File) []string {
	var out []string
	for _, fm := range f.Forms() {
		var b strings.Builder
		stack := []syntax.Cursor{fm.Cursor}
		for len(stack) > 0 {
			c := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if !c.Valid() {
				b.WriteByte(')')
				continue
			}
			if c.Kind() != syntax.List {
				b.WriteString(c.Symbol().Key() + " ")
				continue
			}
			b.WriteByte('(')
			stack = append(stack, syntax.Cursor{})
			el := c.Elements()
			for i := len(el) - 1; i >= 0; i-- {
				stack = append(stack, el[i])
			}
		}
		out = append(out, b.String())
	}
	return out
}

// TestConvertCorpusRoundTrip converts every corpus game (with -short, a sample) to infix and back:
// the infix text parses without error, formatting it again changes nothing, every comment is
// kept, and back in prefix every form has the meaning it had. A game whose names infix cannot
// write is refused with an error that names the symbol and its position.
func TestConvertCorpusRoundTrip(t *testing.T) {
	list := games.Games(t)
	list = games.ShortSample(t, list, 10, "ticTacToe/", "montyhall")
	converted, refused := 0, []string{}
	for _, e := range list {
		data, err := os.ReadFile(e.Abs())
		if err != nil {
			t.Fatal(err)
		}
		f, errs := syntax.Parse(string(data))
		if len(errs) > 0 {
			continue // a broken corpus file: convert refuses it with its syntax error
		}
		infix, cerr := Convert(f, syntax.Infix)
		if cerr != nil {
			if !strings.Contains(cerr.Message, "cannot be written in infix") || cerr.Span.End <= cerr.Span.Start {
				t.Errorf("%s: conversion refused without naming a symbol and its place: %v %v", e.Path, cerr.Span, cerr.Message)
			}
			refused = append(refused, fmt.Sprintf("%s: %s", e.Path, cerr.Message))
			continue
		}
		g, errs := syntax.ParseDialect(infix, syntax.Infix)
		if len(errs) > 0 {
			t.Errorf("%s: the infix text has a syntax error: %v", e.Path, errs[0])
			continue
		}
		if again := File(g); again != infix {
			t.Errorf("%s: formatting the infix text changes it", e.Path)
		}
		if c1, c2 := countComments(f), countComments(g); c1 != c2 {
			t.Errorf("%s: %d comments in prefix, %d in infix", e.Path, c1, c2)
		}
		back, cerr := Convert(g, syntax.Prefix)
		if cerr != nil {
			t.Errorf("%s: the infix text does not convert back: %v", e.Path, cerr.Message)
			continue
		}
		h, _ := syntax.Parse(back)
		want, got := formKeys(f), formKeys(h)
		if len(want) != len(got) {
			t.Errorf("%s: %d forms, %d after the round trip", e.Path, len(want), len(got))
			continue
		}
		for i := range want {
			if want[i] != got[i] {
				t.Errorf("%s: form %d changed in the round trip:\n%s\n%s", e.Path, i, want[i], got[i])
				break
			}
		}
		converted++
	}
	t.Logf("%d games converted to infix and back, %d refused", converted, len(refused))
	for _, r := range refused {
		t.Log(r)
	}
	if converted == 0 {
		t.Error("no game was converted")
	}
}

func countComments(f *syntax.File) int {
	n := 0
	var walk func(c syntax.Cursor)
	walk = func(c syntax.Cursor) {
		if c.Kind() == syntax.Comment {
			n++
		}
		for _, k := range c.Children() {
			walk(k)
		}
	}
	for _, it := range f.Items() {
		walk(it)
	}
	return n
}
