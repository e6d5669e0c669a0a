package syntax

import (
	"strings"
	"testing"
)

// formAt returns the form whose text starts with prefix.
func formAt(t *testing.T, f *File, prefix string) Form {
	t.Helper()
	for _, fm := range f.Forms() {
		if strings.HasPrefix(fm.Text(), prefix) {
			return fm
		}
	}
	t.Fatalf("no form starts with %q", prefix)
	return Form{}
}

func TestFormDoc(t *testing.T) {
	src := "; header\n\n; doc of role\n(role robot)\n(init x) ; trailing\n(next y)\n;a\n;;  b  \n(<= p q)\n" +
		"; gap\n\n(f)\n\t; indented doc\n(g)\r\n; crlf one\r\n; crlf two\r\n(h)\r; cr\r(i)\n(j) (k)\n"
	f, errs := Parse(src)
	if len(errs) > 0 {
		t.Fatalf("unexpected errors %v", errs)
	}
	for _, tc := range []struct{ form, doc string }{
		{"(role", "doc of role"},
		{"(init", ""},
		{"(next", ""}, // the comment above trails the form before
		{"(<=", "a\n b"},
		{"(f)", ""}, // a blank line separates the comment
		{"(g)", "indented doc"},
		{"(h)", "crlf one\ncrlf two"},
		{"(i)", "cr"},
		{"(k)", ""},
	} {
		if got := formAt(t, f, tc.form).Doc(); got != tc.doc {
			t.Errorf("Doc of %s = %q, want %q", tc.form, got, tc.doc)
		}
	}
	g, _ := Parse("; first line of the file\n(role x)")
	if got := g.Forms()[0].Doc(); got != "first line of the file" {
		t.Errorf("a comment at the start of the file: Doc = %q", got)
	}
}

func TestLeafAt(t *testing.T) {
	// Offsets: "(role robot)" 0..12, "(p ?x)" 13..19, "; note" 20..26, "(<= (q ?y) (r ?y))" 27..45.
	src := "(role robot) (p ?x) ; note\n(<= (q ?y) (r ?y))"
	f, _ := Parse(src)
	for _, tc := range []struct {
		off   int
		text  string
		kind  Kind
		depth int // length of the path to the leaf
	}{
		{0, "(", LParen, 1},
		{1, "role", Word, 1},
		{5, "role", Word, 1}, // just after a token: the token, not the space after it
		{6, "robot", Word, 1},
		{11, ")", RParen, 1},
		{12, ")", RParen, 1}, // between items: the token that ends there
		{14, "p", Word, 1},
		{17, "?x", Variable, 1},
		{22, "; note", Comment, 0},
		{26, "; note", Comment, 0},
		{27, "(", LParen, 1},
		{33, "q", Word, 2},
		{35, "?y", Variable, 2},
		{len(src), ")", RParen, 1},
	} {
		leaf, path := f.LeafAt(tc.off)
		if !leaf.Valid() || leaf.Text() != tc.text || leaf.Kind() != tc.kind || len(path) != tc.depth {
			var got string
			if leaf.Valid() {
				got = leaf.Kind().String() + " " + leaf.Text()
			}
			t.Errorf("LeafAt(%d) = %q with a path of %d, want %s %q with a path of %d", tc.off, got, len(path), tc.kind, tc.text, tc.depth)
			continue
		}
		if sp := leaf.Span(); src[sp.Start:sp.End] != tc.text {
			t.Errorf("LeafAt(%d): span %v is %q", tc.off, sp, src[sp.Start:sp.End])
		}
	}
	// Inside a run of spaces: the whitespace, with the path from the form to it.
	g, _ := Parse("(a  b)")
	leaf, path := g.LeafAt(3)
	if leaf.Kind() != Whitespace || leaf.Span() != (Span{2, 4}) || len(path) != 1 || path[0].Span() != (Span{0, 6}) {
		t.Errorf("LeafAt(3) = %s %v, path %d", leaf.Kind(), leaf.Span(), len(path))
	}
	// Offsets outside the text clamp to it.
	if leaf, _ := f.LeafAt(-3); leaf.Kind() != LParen || leaf.Span() != (Span{0, 1}) {
		t.Errorf("LeafAt(-3) = %s %v, want the first '('", leaf.Kind(), leaf.Span())
	}
	if leaf, _ := f.LeafAt(len(src) + 7); leaf.Kind() != RParen || leaf.Span().End != len(src) {
		t.Errorf("LeafAt past the end = %s %v, want the last ')'", leaf.Kind(), leaf.Span())
	}
	empty, _ := Parse("")
	if leaf, path := empty.LeafAt(0); leaf.Valid() || path != nil {
		t.Errorf("LeafAt in an empty file must be invalid")
	}
}

func TestViews(t *testing.T) {
	src := "(ROLE Xplayer)\n(<= (p ?x (f a)) (TRUE (cell ?x)) (not (q ?x)) (distinct ?x b) (or (r) s))\n(terminal)\n(bad"
	f, _ := Parse(src)
	forms := f.Forms()
	if len(forms) != 4 {
		t.Fatalf("%d forms, want 4", len(forms))
	}
	role := forms[0].Fact()
	if role.Name().Name() != "ROLE" || role.Name().Key() != "role" || role.Arity() != 1 || role.Args()[0].Name().Key() != "xplayer" {
		t.Errorf("role fact: %q arity %d", role.Name().Name(), role.Arity())
	}
	if forms[0].IsRule() || !forms[1].IsRule() {
		t.Errorf("IsRule")
	}
	r := forms[1].Rule()
	head, ok := r.RuleHead()
	if !ok || head.Name().Name() != "p" || head.Arity() != 2 {
		t.Fatalf("rule head %v %q", ok, head.Text())
	}
	args := head.Args()
	if args[0].Kind() != TermVariable || !args[0].Name().IsVariable() || args[1].Kind() != TermFunction ||
		args[1].Name().Name() != "f" || args[1].Args()[0].Kind() != TermConstant {
		t.Errorf("head arguments: %q %q", args[0].Text(), args[1].Text())
	}
	body := r.Body()
	kinds := []LiteralKind{LitAtom, LitNot, LitDistinct, LitOr}
	if len(body) != len(kinds) {
		t.Fatalf("%d body literals, want %d", len(body), len(kinds))
	}
	for i, k := range kinds {
		if body[i].Kind() != k {
			t.Errorf("literal %d %q: kind %d, want %d", i, body[i].Text(), body[i].Kind(), k)
		}
	}
	if body[0].Atom().Name().Key() != "true" {
		t.Errorf("TRUE does not fold to true")
	}
	if ops := body[1].Operands(); len(ops) != 1 || ops[0].Atom().Name().Name() != "q" {
		t.Errorf("not operands")
	}
	if ts := body[2].Terms(); len(ts) != 2 || ts[1].Text() != "b" {
		t.Errorf("distinct terms")
	}
	if ops := body[3].Operands(); len(ops) != 2 || !ops[0].Atom().Parenthesized() || ops[1].Atom().Parenthesized() {
		t.Errorf("or operands")
	}
	term := forms[2].Fact()
	if !term.Valid() || term.Arity() != 0 || !term.Parenthesized() {
		t.Errorf("(terminal): valid %v arity %d", term.Valid(), term.Arity())
	}
	if !forms[3].Unclosed() || !forms[3].HasErrors() || forms[2].HasErrors() {
		t.Errorf("the unclosed form (bad must be unclosed with an error")
	}
	noHead, _ := Parse("(<=)")
	if _, ok := noHead.Forms()[0].Rule().RuleHead(); ok {
		t.Errorf("(<=) has no head")
	}
	for in, want := range map[string]string{"abc": "abc", "ABC": "abc", "MiXed": "mixed", "Ünï": "ünï", "?X": "?x"} {
		if got := Fold(in); got != want {
			t.Errorf("Fold(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestUnclosedFix checks the fix of an unclosed form: it inserts the missing parentheses after
// the last token of the form, before trailing comments and blank lines.
func TestUnclosedFix(t *testing.T) {
	src := "(init (cell 1 (b) ; comment\n\n(role x)\n"
	_, errs := Parse(src)
	if len(errs) != 1 || errs[0].Code != CodeUnclosedOpen || errs[0].Fix == nil {
		t.Fatalf("errors %v, want one unclosed-paren with a fix", errs)
	}
	te := errs[0].Fix.Edits[0]
	fixed := src[:te.Span.Start] + te.NewText + src[te.Span.End:]
	if want := "(init (cell 1 (b))) ; comment\n\n(role x)\n"; fixed != want {
		t.Errorf("fixed text %q, want %q", fixed, want)
	}
	_, errs = Parse("(a b))\n")
	if len(errs) != 1 || errs[0].Fix == nil || errs[0].Fix.Edits[0].Span != (Span{5, 6}) || errs[0].Fix.Edits[0].NewText != "" {
		t.Errorf("unmatched ')' fix: %v", errs)
	}
}

func TestItemsAndChildren(t *testing.T) {
	src := "; c\n(p (f a) ?x) )\n"
	f, _ := Parse(src)
	pos := 0
	var kinds []Kind
	for _, it := range f.Items() {
		if it.Span().Start != pos {
			t.Fatalf("item %v does not start at %d", it.Span(), pos)
		}
		pos = it.Span().End
		kinds = append(kinds, it.Kind())
	}
	if pos != len(src) {
		t.Errorf("items cover %d of %d bytes", pos, len(src))
	}
	want := []Kind{Comment, Whitespace, List, Whitespace, RParen, Whitespace}
	if len(kinds) != len(want) {
		t.Fatalf("item kinds %v, want %v", kinds, want)
	}
	for i := range want {
		if kinds[i] != want[i] {
			t.Errorf("item %d is %s, want %s", i, kinds[i], want[i])
		}
	}
	form := f.Forms()[0]
	if n := len(form.Children()); n != 7 { // ( p _ (f a) _ ?x )
		t.Errorf("%d children, want 7", n)
	}
	if n := len(form.Node().Elements()); n != 3 {
		t.Errorf("%d elements, want 3", n)
	}
	if sp := form.Span(); sp.Len() != len("(p (f a) ?x)") {
		t.Errorf("form span %v", sp)
	}
	if k := Kind(200).String(); k != "Kind(?)" {
		t.Errorf("unknown kind prints %q", k)
	}
}
