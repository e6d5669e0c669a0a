package syntax

import (
	"strings"
	"testing"
)

// TestDetect: .hrf is infix; other names go by the first telling token of the content.
func TestDetect(t *testing.T) {
	for _, tc := range []struct {
		path, src string
		want      Dialect
	}{
		{"g.hrf", "(role a)", Infix},
		{"g.HRF", "", Infix},
		{"g.kif", "(role a)", Prefix},
		{"g.kif", "role(a)", Infix},
		{"g.gdl", "; c\n% c\n  terminal\n  legal(a, b) :- c", Infix},
		{"-", "terminal :- ~open", Infix},
		{"-", "open\nterminal\n(<= terminal open)", Prefix},
		{"-", "", Prefix},
		{"-", "% only a comment", Infix},
		{"-", "; only a comment", Prefix},
		{"-", `"Named"(1)`, Infix},
		{"-", "(p(X) | q(X))", Infix},
		{"-", "((mark 1 1) noop)", Prefix},
		{"-", "~p", Infix},
	} {
		if got := Detect(tc.path, tc.src); got != tc.want {
			t.Errorf("Detect(%q, %q) = %v, want %v", tc.path, tc.src, got, tc.want)
		}
	}
	if _, ok := DetectText("terminal"); ok {
		t.Error("DetectText(terminal) says it knows")
	}
}

// TestDialectNames: how each notation writes names and variables, and what it cannot write.
func TestDialectNames(t *testing.T) {
	for _, tc := range []struct {
		d        Dialect
		name     string
		want     string
		writable bool
	}{
		{Infix, "cell", "cell", true},
		{Infix, "100", "100", true},
		{Infix, "a-b+c*d/e_f", "a-b+c*d/e_f", true},
		{Infix, "White", `"White"`, true},
		{Infix, "a.b", `"a.b"`, true},
		{Infix, "x<y", `"x<y"`, true},
		{Infix, "élan", "élan", true},
		{Infix, "Élan", `"Élan"`, true},
		{Infix, `a"b`, "", false},
		{Infix, "a\x01b", "", false},
		{Infix, "", "", false},
		{Prefix, "White", "White", true},
		{Prefix, "a b", "", false},
		{Prefix, "a(b", "", false},
		{Prefix, "a;b", "", false},
		{Prefix, "?x", "", false},
		{Prefix, "<=", "", false},
		{Prefix, `a"b`, `a"b`, true},
	} {
		got, ok := tc.d.Name(tc.name)
		if got != tc.want || ok != tc.writable {
			t.Errorf("%v.Name(%q) = %q, %v; want %q, %v", tc.d, tc.name, got, ok, tc.want, tc.writable)
		}
	}
	for _, tc := range []struct {
		d        Dialect
		v, want  string
		writable bool
	}{
		{Infix, "?x", "X", true},
		{Infix, "?board", "Board", true},
		{Infix, "?X", "X", true},
		{Infix, "?n++", "N++", true},
		{Infix, "?1", "", false},
		{Infix, "?_x", "", false},
		{Infix, "?a.b", "", false},
		{Prefix, "X", "?x", true},
		{Prefix, "Board", "?board", true},
		{Prefix, "XY", "?xY", true},
		{Prefix, "?x", "?x", true},
	} {
		got, ok := tc.d.Var(tc.v)
		if got != tc.want || ok != tc.writable {
			t.Errorf("%v.Var(%q) = %q, %v; want %q, %v", tc.d, tc.v, got, ok, tc.want, tc.writable)
		}
	}
	if VarKey("X") != VarKey("?x") || VarKey("?X") != "?x" {
		t.Errorf("VarKey: X %q, ?x %q, ?X %q", VarKey("X"), VarKey("?x"), VarKey("?X"))
	}
}

// TestInfixViews: the typed views read infix trees as they read prefix ones.
func TestInfixViews(t *testing.T) {
	f, errs := ParseDialect(`legal(W,mark(X,"Y z")) :- true(control(W)) & ~p(X) & (a | b) & distinct(X,W) & not(q) & terminal()`, Infix)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	fm := f.Forms()[0]
	if !fm.IsRule() || fm.Rule().Arrow().Key() != "<=" || fm.Rule().Arrow().Name() != ":-" {
		t.Fatalf("not a rule: %s", fm.Text())
	}
	head, _ := fm.Rule().RuleHead()
	if head.Name().Key() != "legal" || head.Arity() != 2 || head.Args()[0].Kind() != TermVariable || head.Args()[0].Name().Key() != "?w" {
		t.Errorf("head %s: %s/%d", head.Text(), head.Name().Key(), head.Arity())
	}
	mark := head.Args()[1]
	if mark.Kind() != TermFunction || mark.Args()[1].Kind() != TermConstant || mark.Args()[1].Name().Name() != "Y z" || mark.Args()[1].Name().Key() != "y z" {
		t.Errorf("term %s: kind %v, quoted argument %q", mark.Text(), mark.Kind(), mark.Args()[1].Name().Name())
	}
	var kinds []LiteralKind
	for _, l := range fm.Rule().Body() {
		kinds = append(kinds, l.Kind())
	}
	want := []LiteralKind{LitAtom, LitNot, LitOr, LitDistinct, LitNot, LitAtom}
	if len(kinds) != len(want) {
		t.Fatalf("body kinds %v, want %v", kinds, want)
	}
	for i := range want {
		if kinds[i] != want[i] {
			t.Errorf("literal %d: kind %v, want %v", i, kinds[i], want[i])
		}
	}
	body := fm.Rule().Body()
	if k := body[1].Keyword(); k.Key() != "not" || !k.IsOperator() || body[1].Operands()[0].Atom().Name().Key() != "p" {
		t.Errorf("~p(X): keyword %q, operand %s", k.Key(), body[1].Operands()[0].Text())
	}
	if ops := body[2].Operands(); len(ops) != 2 || ops[1].Text() != "b" || body[2].Keyword().Key() != "or" {
		t.Errorf("(a | b): operands %v", ops)
	}
	if a := body[5].Atom(); !a.Parenthesized() || a.Arity() != 0 || a.Name().Key() != "terminal" {
		t.Errorf("terminal(): parenthesized %v, arity %d", a.Parenthesized(), a.Arity())
	}
	// A rule without a head has none, and its body starts after ':-'.
	g, _ := ParseDialect(":- p & q", Infix)
	r := g.Forms()[0].Rule()
	if _, ok := r.RuleHead(); ok || len(r.Body()) != 2 {
		t.Errorf(":- p & q: head %v, body %d", ok, len(r.Body()))
	}
}

// TestInfixTokenErrors covers the errors whose markers cannot sit on their line in a test file
// (a ';' comment or an unterminated quote swallows the rest of the line) and multi-line forms.
func TestInfixTokenErrors(t *testing.T) {
	for _, tc := range []struct {
		src, code, text, fix string
	}{
		{"role(a)\n;; old comment\n", CodeMixedNotation, ";;", "%%"},
		{"role(\"White\n", CodeBadQuotedName, "\"White", "\""},
		{"role(a)\n(<= (legal a ?m)\n    (move ?m))\n", CodeMixedNotation, "(<= (legal a ?m)\n    (move ?m))", "legal(a,M) :- move(M)"},
		{"p :- a | b\n", CodeBareDisjunction, "a | b", "("},
		{"p(X) :- q(X), r(X)\n", CodeUnexpectedToken, ",", " &"},
		{"p(?y) :- q(?y)\n", CodeMixedNotation, "?y", "Y"},
	} {
		f, errs := ParseDialect(tc.src, Infix)
		var e Error
		for _, x := range errs {
			if x.Code == tc.code {
				e = x
				break
			}
		}
		if e.Code == "" {
			t.Errorf("%q: errors %v, want one %s", tc.src, errs, tc.code)
			continue
		}
		if got := tc.src[e.Span.Start:e.Span.End]; got != tc.text {
			t.Errorf("%q: %s covers %q, want %q", tc.src, e.Code, got, tc.text)
		}
		if e.Fix == nil || e.Fix.Edits[0].NewText != tc.fix {
			t.Errorf("%q: fix %+v, want one writing %q", tc.src, e.Fix, tc.fix)
		}
		if msg := checkInvariants(f); msg != "" {
			t.Errorf("%q: %s", tc.src, msg)
		}
	}
	// A prefix form left open in an infix file ends at the next name at the start of a line.
	f, errs := ParseDialect("(init (f)\n  (init (g))\nnext(a)\n", Infix)
	if len(errs) != 1 || errs[0].Code != CodeMixedNotation || len(f.Forms()) != 2 || f.Forms()[1].Text() != "next(a)" {
		t.Errorf("an open prefix form: errors %v, forms %d", errs, len(f.Forms()))
	}
}

// TestInfixInPrefix: in a prefix file an infix statement is one error, unless its text is not
// a run of whole prefix tokens with balanced parentheses (then the prefix parser reads it).
func TestInfixInPrefix(t *testing.T) {
	for _, tc := range []struct {
		src   string
		mixed int
	}{
		{"(role a)\nlegal(a, m) :- true(x)\n", 1},
		{"(role a)\nterminal :- ~open.\n", 1},
		{"(role a)\np(a :- b\n", 0},        // unbalanced: left to the prefix parser
		{"(role a)\n0123(5)\n", 0},         // not a name that starts with a letter
		{"(role a)\nterminal (open)\n", 0}, // a word and a form
		{"(role a)\np :- q,r\n", 1},        // Prolog's ',' is one of the statement's errors
		{"(role a)\np :- q.r\n", 0},        // ends inside the prefix token q.r
	} {
		_, errs := Parse(tc.src)
		n := 0
		for _, e := range errs {
			if e.Code == CodeMixedNotation {
				n++
			}
		}
		if n != tc.mixed {
			t.Errorf("%q: %d mixed-notation errors, want %d: %v", tc.src, n, tc.mixed, errs)
		}
	}
}

// TestConvertForms writes forms in the other notation.
func TestConvertForms(t *testing.T) {
	for _, tc := range []struct {
		src  string
		from Dialect
		want string
	}{
		{"(<= (p ?x) (q ?x) (not (r ?x)) (or (s ?x) t) (distinct ?x a))", Prefix, "p(X) :- q(X) & ~r(X) & (s(X) | t) & distinct(X,a)"},
		{"(<= (legal robot move))", Prefix, "legal(robot,move) :-."},
		{"(ROLE XPLAYER)", Prefix, `"ROLE"("XPLAYER")`},
		{"(<= p (NOT q) (OR a))", Prefix, `p :- "NOT"(q) & "OR"(a)`},
		{"(<= p (not a b) (or) (terminal))", Prefix, "p :- not(a,b) & or() & terminal()"},
		{"(p (not x))", Prefix, "p(not(x))"},
		{"(<= p ; why\n q)", Prefix, "p :- % why\n    q"},
		{"p(X) :- q(X) & ~r(X) & (s | ~t(X)) & not(u)", Infix, "(<= (p ?x) (q ?x) (not (r ?x)) (or s (not (t ?x))) (not u))"},
		{`"Cell"(1,"x y")`, Infix, "(Cell 1 x y)"},
	} {
		f, errs := ParseDialect(tc.src, tc.from)
		if len(errs) > 0 {
			t.Fatalf("%q: %v", tc.src, errs)
		}
		got, err := f.Forms()[0].Convert(1 - tc.from)
		if tc.want == "(Cell 1 x y)" {
			if err == nil || !strings.Contains(err.Message, `name "x y" cannot be written in prefix`) {
				t.Errorf("%q: %q, %v; want a refusal naming \"x y\"", tc.src, got, err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%q: %q, %v; want %q", tc.src, got, err, tc.want)
		}
	}
}

// TestEditReach: a statement reads the token after it, so an edit there reparses it: typing
// '&' after a rule makes the next line part of it.
func TestEditReach(t *testing.T) {
	src := "p :- q\nr(X)\n\n\n\n\n\n\n\n\n\n\n\n\n\ns(abcdefghij)\n"
	f, _ := ParseDialect(src, Infix)
	at := strings.Index(src, "\nr(X)")
	g := f.Edit(at, at, " &")
	want, _ := ParseDialect(g.Source(), Infix)
	if diff := sameFile(g, want); diff != "" {
		t.Fatal(diff)
	}
	if len(g.Forms()) != 2 || g.Forms()[0].Text() != "p :- q &\nr(X)" {
		t.Errorf("forms after the edit: %d, first %q", len(g.Forms()), g.Forms()[0].Text())
	}
	// An edit inside the last statement, past the token the rule read after it, reparses that
	// statement alone.
	at = strings.Index(g.Source(), "s(abcdefghij)")
	h := g.Edit(at+10, at+11, "y")
	if sp, reused := h.Reparsed(); sp.Start != at || reused < len(h.items)-2 {
		t.Errorf("an edit in the last statement reparsed %v and reused %d of %d items", sp, reused, len(h.items))
	}
}
