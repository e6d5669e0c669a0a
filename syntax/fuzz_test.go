package syntax

import (
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"
)

// fuzzSeeds are the inputs of testdata/syntax plus a few shapes the scanner cares about.
func fuzzSeeds(f *testing.F) []string {
	seeds := []string{
		"", "(", ")", "(()", "())", "(<=)", "((a))", "(?x a)", "?", "?x", ";;;", "\uFEFF(a)",
		"(a\r(b)\r\n(c)\n", "(a ; c\n b)", "\xff\x80(p \xe9)", "(a\x01b)", "(f (g\n(h)", "a b c",
		"(<= (p ?x) (q ?x) (not (r ?x)) (distinct ?x a) (or (s) t))", "😀(a 😀)",
	}
	paths, _ := filepath.Glob("../testdata/syntax/*.kif")
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
		file, errs := Parse(src)
		if msg := checkInvariants(file); msg != "" {
			t.Fatalf("Parse(%q): %s", src, msg)
		}
		if len(errs) != len(file.Errors()) {
			t.Fatalf("Parse returned %d errors, Errors() %d", len(errs), len(file.Errors()))
		}
		for _, fm := range file.Forms() {
			walkViews(fm)
			fm.Doc()
		}
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
	})
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
		file, _ := Parse(src)
		start := int(at) % (len(src) + 1)
		end := min(len(src), start+int(n)%64)
		got := file.Edit(start, end, text)
		want, _ := Parse(src[:start] + text + src[end:])
		if diff := sameFile(got, want); diff != "" {
			t.Fatalf("Edit(%d, %d, %q) of %q: %s", start, end, text, src, diff)
		}
		if msg := checkInvariants(got); msg != "" {
			t.Fatalf("Edit(%d, %d, %q) of %q: %s", start, end, text, src, msg)
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
		file, _ := Parse(src)
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
		want, _ := Parse(src2[:s2] + text2 + src2[e2:])
		if diff := sameFile(got, want); diff != "" {
			t.Fatalf("Edit(%d, %d, %q) then Edit(%d, %d, %q) of %q: %s", s1, e1, text1, s2, e2, text2, src, diff)
		}
	})
}
