package markers

import (
	"fmt"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	src := "(role r) ; @hover(r) @def(?x#2) text @symbols\n" +
		"(<= (p ?x) (q ?x)) ; @want(unsafe-variable, \"(q ?x)\") @rename(p, next)\r\n" +
		"; @complete((#3) @play(\"(mark 1, 1)\", noop) @query(\"(next ?x)\"#2)\r" +
		"(f a) ; mail@example.com @empty()\n"
	ms, errs := Parse(src)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var got []string
	for _, m := range ms {
		var args []string
		for _, a := range m.Args {
			args = append(args, fmt.Sprintf("%q/%v/%d", a.Text, a.Quoted, a.Nth))
		}
		got = append(got, fmt.Sprintf("%d %s [%s] | %s", m.Line, m.Name, strings.Join(args, " "), m.Title()))
	}
	want := []string{
		`0 hover ["r"/false/1] | hover 1 r`,
		`0 def ["?x"/false/2] | def 1 ?x#2`,
		`0 symbols [] | symbols 1`,
		`1 want ["unsafe-variable"/false/1 "(q ?x)"/true/1] | want 2 unsafe-variable, "(q ?x)"`,
		`1 rename ["p"/false/1 "next"/false/1] | rename 2 p, next`,
		`2 complete ["("/false/3] | complete 3 (#3`,
		`2 play ["(mark 1, 1)"/true/1 "noop"/false/1] | play 3 "(mark 1, 1)", noop`,
		`2 query ["(next ?x)"/true/2] | query 3 "(next ?x)"#2`,
		`3 example [] | example 4`,
		`3 empty [] | empty 4`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestFind(t *testing.T) {
	src := "(a ?x (b ?x)) ; @t(?x#2) @t(\"(b ?x)\") @t(?x#3) @t(zz)\n(c\n  d) ; @t(\"(c\\n  d)\")\n(e) ; @t(\"(e) ; @t\")\n"
	ms, errs := Parse(src)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var got []string
	for _, m := range ms {
		s, e, err := m.Find(src, m.Args[0])
		if err != nil {
			got = append(got, "error: "+err.Error())
			continue
		}
		got = append(got, fmt.Sprintf("%d-%d %q", s, e, src[s:e]))
	}
	want := []string{
		`9-11 "?x"`,
		`6-12 "(b ?x)"`,
		`error: line 1: @t: no occurrence 3 of "?x" on the line`,
		`error: line 1: @t: no occurrence 1 of "zz" on the line`,
		`error: line 3: @t: no occurrence 1 of "(c\n  d)" on the line`,
		`error: line 4: @t: no occurrence 1 of "(e) ; @t" on the line`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestParseErrors(t *testing.T) {
	for src, want := range map[string]string{
		"(a) ; @t(x":               "1:11: @t: the argument list is not closed with )",
		"(a)\n; @t(\"x)":           "2:6: @t: the string is not closed with \"",
		"; @t(\"x\" y)":            "1:10: @t: expected , or ) after an argument, found 'y'",
		"; @t(x#0)":                "1:7: @t: # must be followed by an occurrence number from 1",
		"; @t(\"x\"#)":             "1:9: @t: # must be followed by an occurrence number from 1",
		"; @ok(a) @t(\"\\q\") @ok": "1:13: @t: bad string \"\\q\": invalid syntax",
	} {
		ms, errs := Parse(src)
		if len(errs) != 1 || errs[0].Error() != want {
			t.Errorf("%q: errors %v, want %s", src, errs, want)
		}
		for _, m := range ms {
			if m.Name != "ok" {
				t.Errorf("%q: malformed marker kept: %+v", src, m)
			}
		}
	}
}

func TestDiff(t *testing.T) {
	want := "-- a 1 --\nx\n-- b 2 --\ny\n"
	if d := Diff(want, want); len(d) != 0 {
		t.Errorf("equal texts differ: %v", d)
	}
	d := Diff(want, "-- a 1 --\nz\n-- c 3 --\n")
	if len(d) != 3 || !strings.HasPrefix(d[0], `section "a 1":`) || !strings.HasPrefix(d[1], `section "c 3" is new`) || d[2] != `section "b 2" is gone` {
		t.Errorf("diff: %q", d)
	}
	if d := Diff("plain\n", "other\n"); len(d) != 1 {
		t.Errorf("texts without sections: %q", d)
	}
}

// TestEmptySection: a section without text is the same in both goldens, not new and gone.
func TestEmptySection(t *testing.T) {
	text := "-- fixes 3 p --\n-- fixes 4 q --\none fix\n-- folding 5 --\n"
	if d := Diff(text, text); len(d) != 0 {
		t.Errorf("Diff of a golden with empty sections against itself: %q", d)
	}
	if d := Diff(text, "-- fixes 3 p --\n-- fixes 4 q --\none fix\n"); len(d) != 1 {
		t.Errorf("an empty section that is gone: %q, want one difference", d)
	}
}
