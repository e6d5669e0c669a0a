package syntax

import (
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gdl-lsp/gdl/internal/gengame"
)

// fuzzSeeds are the inputs of testdata/syntax plus a few shapes the scanner cares about.
func fuzzSeeds(f *testing.F) []string {
	seeds := []string{
		"", "(", ")", "(()", "())", "(<=)", "((a))", "(?x a)", "?", "?x", ";;;", "\uFEFF(a)",
		"(a\r(b)\r\n(c)\n", "(a ; c\n b)", "\xff\x80(p \xe9)", "(a\x01b)", "(f (g\n(h)", "a b c",
		"(<= (p ?x) (q ?x) (not (r ?x)) (distinct ?x a) (or (s) t))", "😀(a 😀)",
		"p(X) :- q(X) & ~r(X) & (s | t) & distinct(X,a)", "f(g(h(", "a :- b &\nc :- d", "\"Quoted Name\"(1).",
		"~~p", "x(y z)", ":-", "p :- (a & b | c)", "% c\n(role x)\nrole(y)", "legal(W,m(X)) :- ?x ; old",
	}
	// The nesting shapes of issue 22, a few thousand levels deep (gengame.Nested writes them
	// deeper for the tests of the analysis).
	for _, shape := range gengame.NestingShapes {
		seeds = append(seeds, gengame.Nested(shape, 2000))
	}
	paths := localCases(f)
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, string(data))
	}
	return seeds
}

// FuzzParse checks that Parse never panics, that the tree is lossless and well formed, that error
// ranges lie inside the input, and that the views and the line index work on whatever comes out.
func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		for _, d := range []Dialect{Prefix, Infix} {
			checkParse(t, src, d)
		}
	})
}

// checkParse checks the parse of src in dialect d: invariants, views, conversion, LeafAt and
// the line index.
func checkParse(t *testing.T, src string, d Dialect) {
	{
		file, errs := ParseDialect(src, d)
		if msg := checkInvariants(file); msg != "" {
			t.Fatalf("ParseDialect(%q, %v): %s", src, d, msg)
		}
		if len(errs) != len(file.Errors()) {
			t.Fatalf("Parse returned %d errors, Errors() %d", len(errs), len(file.Errors()))
		}
		if d == Prefix {
			if msg := checkBounds(src, file); msg != "" {
				t.Fatalf("Parse(%q): %s", clip(src), msg)
			}
		}
		for _, fm := range file.Forms() {
			walkViews(fm)
			fm.Doc()
			if !fm.HasErrors() {
				fm.Convert(1 - d)
			}
		}
		checkConvert(t, file)
		step := max(1, len(src)/512) // LeafAt is linear in the width of a list: sample big inputs
		for off := 0; off <= len(src); off += step {
			leaf, path := file.LeafAt(off)
			if leaf.Valid() {
				if leaf.Kind() == List {
					t.Fatalf("LeafAt(%d) returned a list, not a token", off)
				}
				sp := leaf.Span()
				if sp.Start > off || off > sp.End {
					t.Fatalf("LeafAt(%d) = %v, which does not touch the offset", off, sp)
				}
				for _, c := range path {
					if c.Kind() != List || !c.Span().Contains(off) {
						t.Fatalf("LeafAt(%d): path element %s %v", off, c.Kind(), c.Span())
					}
				}
			}
		}
		li := file.Lines()
		for off := 0; off <= len(src); {
			for _, enc := range []Encoding{UTF8, UTF16, UTF32} {
				pos := li.Position(off, enc)
				back := li.Offset(pos, enc)
				if back != off && !(off > 0 && src[off-1] == '\r' && off < len(src) && src[off] == '\n') {
					t.Fatalf("%q: Offset(Position(%d, %d) = %v) = %d", src, off, enc, pos, back)
				}
			}
			if off == len(src) {
				break
			}
			_, n := utf8.DecodeRuneInString(src[off:])
			off += n
		}
	}
}

// checkConvert checks that a file without syntax errors that converts to the other notation
// gives, parsed back, a file without errors and with the same forms, which converts back to the
// same text.
func checkConvert(t *testing.T, f *File) {
	if len(f.Errors()) > 0 {
		return
	}
	other := 1 - f.Dialect()
	text, err := f.Convert(other)
	if err != nil {
		return
	}
	g, errs := ParseDialect(text, other)
	if len(errs) > 0 {
		t.Fatalf("%v %q converts to %v %q, which has errors: %v", f.Dialect(), f.Source(), other, text, errs)
	}
	if len(g.Forms()) != len(f.Forms()) {
		t.Fatalf("%v %q has %d forms, its conversion %q %d", f.Dialect(), f.Source(), len(f.Forms()), text, len(g.Forms()))
	}
	back, err := g.Convert(f.Dialect())
	if err != nil {
		t.Fatalf("%q converts to %q, which does not convert back: %v", f.Source(), text, err)
	}
	again, _ := ParseDialect(back, f.Dialect())
	if len(again.Errors()) > 0 {
		t.Fatalf("%q back and forth is %q, with errors %v", f.Source(), back, again.Errors())
	}
	for i, fm := range f.Forms() {
		if k1, k2 := formKey(fm), formKey(again.Forms()[i]); k1 != k2 {
			t.Fatalf("%q back and forth is %q: form %d is %s, then %s", f.Source(), back, i, k1, k2)
		}
	}
}

// formKey writes a form's meaning in one canonical text: names folded, variables without
// their notation, and the connectives by their keyword.
func formKey(fm Form) string {
	var b strings.Builder
	var walk func(c Cursor)
	walk = func(c Cursor) {
		switch c.Kind() {
		case Variable:
			b.WriteString("?" + strings.TrimPrefix(Fold(c.Text()), "?"))
		case List:
			b.WriteByte('(')
			for i, e := range c.Elements() {
				if i > 0 {
					b.WriteByte(' ')
				}
				walk(e)
			}
			b.WriteByte(')')
		default:
			b.WriteString(c.Symbol().Key())
		}
	}
	walk(fm.Cursor)
	return b.String()
}

// walkViews calls every typed view on a form, to find panics on malformed shapes.
func walkViews(fm Form) {
	if fm.IsRule() {
		r := fm.Rule()
		r.Arrow().Key()
		if h, ok := r.RuleHead(); ok {
			walkAtom(h)
		}
		for _, l := range r.Body() {
			walkLiteral(l)
		}
		return
	}
	walkAtom(fm.Fact())
}

func walkAtom(a Atom) {
	a.Valid()
	a.Arity()
	a.Parenthesized()
	if a.Valid() {
		a.Name().Key()
	}
	for _, t := range a.Args() {
		walkTerm(t)
	}
}

func walkTerm(t Term) {
	switch t.Kind() {
	case TermConstant, TermVariable, TermFunction:
		t.Name().Key()
		t.Name().IsVariable()
	}
	for _, a := range t.Args() {
		walkTerm(a)
	}
}

func walkLiteral(l Literal) {
	switch l.Kind() {
	case LitAtom:
		walkAtom(l.Atom())
	case LitNot, LitOr:
		l.Keyword().Name()
		for _, o := range l.Operands() {
			walkLiteral(o)
		}
	case LitDistinct:
		for _, t := range l.Terms() {
			walkTerm(t)
		}
	}
}

// FuzzEdit checks that File.Edit gives the same file as Parse of the edited text.
func FuzzEdit(f *testing.F) {
	for i, s := range fuzzSeeds(f) {
		f.Add(s, uint16(i*7), uint16(i*3), []string{"(", ")", "\n(", ";", "\r", ")\n("}[i%6])
	}
	f.Fuzz(func(t *testing.T, src string, at, n uint16, text string) {
		for _, d := range []Dialect{Prefix, Infix} {
			file, _ := ParseDialect(src, d)
			start := int(at) % (len(src) + 1)
			end := min(len(src), start+int(n)%64)
			got := file.Edit(start, end, text)
			want, _ := ParseDialect(src[:start]+text+src[end:], d)
			if diff := sameFile(got, want); diff != "" {
				t.Fatalf("%v: Edit(%d, %d, %q) of %q: %s", d, start, end, text, src, diff)
			}
			if msg := checkInvariants(got); msg != "" {
				t.Fatalf("%v: Edit(%d, %d, %q) of %q: %s", d, start, end, text, src, msg)
			}
		}
	})
}

// FuzzEditTwice applies two edits in a row, the second to the result of the first, so that what
// an edited File carries over (errors, unclosed forms, parenthesis balances) is checked too.
func FuzzEditTwice(f *testing.F) {
	for i, s := range fuzzSeeds(f) {
		f.Add(s, uint16(i*5), uint16(i), "(", uint16(i*11), uint16(2), ")")
	}
	f.Fuzz(func(t *testing.T, src string, at1, n1 uint16, text1 string, at2, n2 uint16, text2 string) {
		for _, d := range []Dialect{Prefix, Infix} {
			file, _ := ParseDialect(src, d)
			// Find the balances of the first file from the end, as a file that was edited before has.
			if len(file.items) > 0 {
				file.suffixLow(len(file.items) / 2)
			}
			s1 := int(at1) % (len(src) + 1)
			e1 := min(len(src), s1+int(n1)%64)
			mid := file.Edit(s1, e1, text1)
			src2 := mid.Source()
			s2 := int(at2) % (len(src2) + 1)
			e2 := min(len(src2), s2+int(n2)%64)
			got := mid.Edit(s2, e2, text2)
			want, _ := ParseDialect(src2[:s2]+text2+src2[e2:], d)
			if diff := sameFile(got, want); diff != "" {
				t.Fatalf("%v: Edit(%d, %d, %q) then Edit(%d, %d, %q) of %q: %s", d, s1, e1, text1, s2, e2, text2, src, diff)
			}
		}
	})
}
