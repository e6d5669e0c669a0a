package syntax

import (
	"flag"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

var editSeed = flag.Int64("editseed", 1, "seed of the random edits of TestIncrementalDifferential")

// sameFile reports how two files differ, or "" when they have the same items, trees and errors.
// It compares structure directly: Dump is too slow for the inner loop of the differential test.
func sameFile(got, want *File) string {
	if got.src != want.src {
		return "sources differ"
	}
	if got.dialect != want.dialect {
		return fmt.Sprintf("dialect %v, want %v", got.dialect, want.dialect)
	}
	if len(got.items) != len(want.items) {
		return fmt.Sprintf("%d items, want %d", len(got.items), len(want.items))
	}
	for i := range got.items {
		g, w := got.items[i], want.items[i]
		if g.start != w.start || g.text != w.text || g.unclosed != w.unclosed || g.extra != w.extra {
			return fmt.Sprintf("item %d: start %d unclosed %v %q, want start %d unclosed %v %q",
				i, g.start, g.unclosed, clip(g.text), w.start, w.unclosed, clip(w.text))
		}
		if !sameNode(&g.node, &w.node) {
			return fmt.Sprintf("item %d at %d: trees differ", i, g.start)
		}
		if !reflect.DeepEqual(g.errs, w.errs) {
			return fmt.Sprintf("item %d at %d: errors %v, want %v", i, g.start, g.errs, w.errs)
		}
	}
	if len(got.errs) != len(want.errs) || (len(got.errs) > 0 && !reflect.DeepEqual(got.errs, want.errs)) {
		return fmt.Sprintf("file errors %v, want %v", got.errs, want.errs)
	}
	if got.errCount != want.errCount {
		return fmt.Sprintf("%d errors counted, want %d", got.errCount, want.errCount)
	}
	return ""
}

// Issue 22, item 5: a file lists its first MaxErrors errors and counts them all, after an edit
// as after a parse: a megabyte of ')' was a million errors, each with its fix.
func TestErrorsCapped(t *testing.T) {
	src := "(role a)\n" + strings.Repeat(")", 3*MaxErrors) + "\n(p ?)\n"
	f, errs := Parse(src)
	if len(errs) != MaxErrors || f.ErrorCount() != 3*MaxErrors+1 || errs[0].Code != CodeUnmatchedClose || errs[0].Span.Start != 9 {
		t.Fatalf("%d errors listed, %d counted; the first %+v", len(errs), f.ErrorCount(), errs[0])
	}
	for i, edit := range []func(src string) (int, int, string){
		func(string) (int, int, string) { return 9, 9, "(" },                                   // closes a stray ')': one error fewer
		func(string) (int, int, string) { return 0, 0, "))" },                                  // two more, before the others
		func(src string) (int, int, string) { return strings.Index(src, "(p"), len(src), "" },  // the last form's error goes
		func(src string) (int, int, string) { return 11, strings.LastIndex(src, ")") - 9, "" }, // all but ten of the stray ')'
		func(src string) (int, int, string) { return 0, len(src), "(role a) ) (p ?)" },         // below the cap again
	} {
		start, end, text := edit(f.Source())
		next := f.Edit(start, end, text)
		want, _ := Parse(next.Source())
		if d := sameFile(next, want); d != "" {
			t.Errorf("edit %d: %s", i, d)
		}
		f = next
	}
	if f.ErrorCount() != 2 || len(f.Errors()) != 2 {
		t.Errorf("at last: %d errors listed, %d counted", len(f.Errors()), f.ErrorCount())
	}
}

func sameNode(a, b *Node) bool {
	if a.Kind != b.Kind || a.Unclosed != b.Unclosed || a.Infix != b.Infix || a.Quoted != b.Quoted ||
		a.Start != b.Start || a.End != b.End || len(a.Kids) != len(b.Kids) {
		return false
	}
	for i := range a.Kids {
		if !sameNode(&a.Kids[i], &b.Kids[i]) {
			return false
		}
	}
	return true
}

func clip(s string) string {
	if len(s) > 60 {
		return s[:60] + "..."
	}
	return s
}

// randomEdit picks an edit of src: insertions and deletions of text, parentheses (also at the
// start of a line), splits of a form in two, joins of two forms, comment starts, line breaks of
// every flavour and a byte-order mark.
func randomEdit(rng *rand.Rand, src string) (start, end int, text string) {
	n := len(src)
	at := rng.Intn(n + 1)
	snippets := []string{
		"(", ")", "\n(", "(\n", ")\n(", ")\n\n(", " ", "\n", "\r", "\r\n", ";", "; note\n", ";(",
		"(role x)", "(<= (p ?x) (q ?x))", "?x", "?", "a", "<=", "(<=)", "()", "((a))", "\t",
		"\uFEFF", "\xff", "\x01", "é", "😀", "(f (g", "))", "\n;doc\n(d)",
		"\xc3", "\xa9", "\xf0\x9f", "\x98\x80", "\xef\xbb", "\xbf", // halves of characters
		// Infix, in both dialects: statements, their operators and what ends them.
		"p(X)", " :- ", ":-", ":", "-", " & ", "&", "~", " | ", "|", ",", ".", "%", "% c\n", "\"", "\"A b\"",
		"X", "legal(W,mark(X,Y)) :- true(c(X,Y,b)) & ~q(W)\n", "f(", "\nr(X) :- ", "(a | b)", "\n(<= (p ?x) (q ?x))\n",
		// The layout of ggp-base's games, rule bodies in column 0, where an unclosed rule ends
		// at a rule, or after a blank or comment line; body-only literals never end it.
		"\n(true (c 1))", "\n(does r m)", "\n(not (q ?x))", "\n(<= (p ?x)\n(q ?x)", "\n\n(", "\n; c\n(", "(<=", "true", "\n(<= ",
		"\n  (", "  ", "\n  (<= (p ?x)\n      (q ?x)", "\n  (true a)",
	}
	switch r := rng.Intn(10); {
	case r < 3: // insert a snippet
		return at, at, snippets[rng.Intn(len(snippets))]
	case r < 5: // delete a short range
		return at, min(n, at+1+rng.Intn(12)), ""
	case r < 6: // replace a short range
		return at, min(n, at+rng.Intn(8)), snippets[rng.Intn(len(snippets))]
	case r < 7: // split a form: close it and open a new one at the start of a line
		return at, at, ")\n("
	case r < 8: // join two forms: delete from a ')' through the next '('
		if c := strings.IndexByte(src[at:], ')'); c >= 0 {
			c += at
			if o := strings.IndexByte(src[c:], '('); o >= 0 {
				return c, c + o + 1, ""
			}
		}
		return at, at, " "
	case r < 9: // delete a whole line, or a line break
		ls := strings.LastIndexAny(src[:at], "\r\n") + 1
		le := strings.IndexAny(src[at:], "\r\n")
		if le < 0 {
			return ls, n, ""
		}
		if rng.Intn(2) == 0 {
			return at + le, at + le + 1, ""
		}
		return ls, at + le + 1, ""
	default: // delete a large range, or paste a piece of the text elsewhere
		e := min(n, at+rng.Intn(400))
		if rng.Intn(2) == 0 {
			return at, e, ""
		}
		p := rng.Intn(n + 1)
		return p, p, src[at:e]
	}
}

// TestIncrementalDifferential applies thousands of random edits to corpus games and to this
// package's test inputs, each to the result of the previous edit, and checks every result of
// File.Edit against a fresh Parse of the same text.
func TestIncrementalDifferential(t *testing.T) {
	var inputs []corpusFile
	_, err := os.Stat(filepath.Join(corpusDir, "MANIFEST.tsv"))
	haveCorpus := err == nil
	if haveCorpus {
		for i, cf := range loadCorpus(t) {
			// Every 12th file, the cut-off files (unclosed forms) and the small broken ones.
			if i%12 == 0 || cf.kind == "other" && (len(cf.src) > 10000 || len(cf.src) < 200) {
				inputs = append(inputs, cf)
			}
		}
	} else {
		t.Logf("the shared game corpus is absent (%v): editing only testdata/syntax", err)
	}
	for _, path := range localCases(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, corpusFile{path: path, src: string(data), dialect: Detect(path, string(data))})
	}
	// Corpus games written in infix (every 24th), so that Edit meets long infix files too.
	if haveCorpus {
		for i, cf := range loadCorpus(t) {
			if i%24 != 0 || cf.kind != "game" {
				continue
			}
			f, _ := Parse(cf.src)
			if text, err := f.Convert(Infix); err == nil {
				inputs = append(inputs, corpusFile{path: cf.path + " (infix)", src: text, dialect: Infix})
			}
		}
	}
	edits := 80
	if !haveCorpus {
		edits = 400 // fewer, smaller inputs: more edits each
	}
	if testing.Short() {
		edits = 10
	}
	rng := rand.New(rand.NewSource(*editSeed))
	total := 0
	for _, in := range inputs {
		f, _ := ParseDialect(in.src, in.dialect)
		for i := 0; i < edits; i++ {
			src := f.Source()
			if len(src) > 4*len(in.src)+1000 || rng.Intn(30) == 0 {
				f, _ = ParseDialect(in.src, in.dialect) // start over before the text drifts too far
				src = in.src
			}
			s, e, text := randomEdit(rng, src)
			got := f.Edit(s, e, text)
			newSrc := src[:s] + text + src[e:]
			want, _ := ParseDialect(newSrc, in.dialect)
			total++
			if diff := sameFile(got, want); diff != "" {
				t.Fatalf("%s: edit %d (seed %d): replacing %d..%d %q with %q: Edit differs from Parse: %s\n"+
					"reparsed %v\nbefore:\n%s\nafter Edit:\n%s\nafter Parse:\n%s",
					in.path, i, *editSeed, s, e, src[s:e], text, diff, got.reparsed,
					clipLines(src, s), clipLines(got.Dump(), -1), clipLines(want.Dump(), -1))
			}
			if sp, _ := got.Reparsed(); sp.Start < 0 || sp.End > len(newSrc) || sp.Start > s || sp.End < s+len(text) {
				t.Fatalf("%s: edit %d..%d %q: reparsed region %v does not cover the edit", in.path, s, e, text, sp)
			}
			f = got
		}
	}
	t.Logf("%d random edits on %d inputs agree with a fresh parse", total, len(inputs))
	if total < 1000 && haveCorpus && !testing.Short() {
		t.Errorf("only %d edits were checked; the corpus or testdata is missing files", total)
	}
}

func clipLines(s string, around int) string {
	if len(s) <= 3000 {
		return s
	}
	if around < 0 {
		return s[:3000] + "\n..."
	}
	lo := max(0, around-1500)
	return "..." + s[lo:min(len(s), lo+3000)] + "..."
}

// TestEditReuse checks that an edit inside one form of a large valid file reparses about that
// form and reuses every other item.
func TestEditReuse(t *testing.T) {
	src := bigFile(t, 400<<10)
	f, errs := Parse(src)
	if len(errs) > 0 {
		t.Fatalf("the generated file has syntax errors, first: %v", errs[0])
	}
	fm, word := middleForm(t, f)
	for _, tc := range []struct {
		name       string
		start, end int
		text       string
	}{
		{"type a character", word.Span().End, word.Span().End, "x"},
		{"delete a character", word.Span().Start, word.Span().Start + 1, ""},
		{"insert a subterm", word.Span().End, word.Span().End, " (f ?y)"},
		{"insert a comment line", word.Span().End, word.Span().End, " ; comment\n"},
	} {
		g := f.Edit(tc.start, tc.end, tc.text)
		sp, reused := g.Reparsed()
		form := fm.Span()
		if sp.Start < form.Start || sp.End > form.End+len(tc.text)+1 {
			t.Errorf("%s: reparsed %v (%d bytes) for an edit in the form at %v (%d bytes)",
				tc.name, sp, sp.Len(), form, form.Len())
		}
		if reused < len(g.items)-1 {
			t.Errorf("%s: reused %d of %d items, want all but the edited form", tc.name, reused, len(g.items))
		}
		want, _ := Parse(g.Source())
		if diff := sameFile(g, want); diff != "" {
			t.Errorf("%s: Edit differs from Parse: %s", tc.name, diff)
		}
	}
}

// TestEditReuseAfterUnclosed checks that a form left unclosed near the start of a large file does
// not make every later edit reparse the file from there.
func TestEditReuseAfterUnclosed(t *testing.T) {
	src := "(init (unclosed\n" + bigFile(t, 400<<10)
	f, errs := Parse(src)
	if len(errs) != 1 || errs[0].Code != CodeUnclosedOpen {
		t.Fatalf("errors %v, want one unclosed-paren", errs)
	}
	fm, word := middleForm(t, f)
	at := word.Span().End
	g := f.Edit(at, at, "x")
	sp, reused := g.Reparsed()
	if sp.Start < fm.Span().Start || sp.End > fm.Span().End+1 || reused < len(g.items)-1 {
		t.Errorf("reparsed %v and reused %d of %d items for an edit in the form at %v", sp, reused, len(g.items), fm.Span())
	}
	// Two ')' after a form close the two lists left open at the start: reparse from there.
	h := g.Edit(fm.Span().End+1, fm.Span().End+1, "))")
	if sp, _ := h.Reparsed(); sp.Start != 0 {
		t.Errorf("an edit that closes the first form reparsed only %v", sp)
	}
	for _, x := range []*File{g, h} {
		want, _ := Parse(x.Source())
		if diff := sameFile(x, want); diff != "" {
			t.Errorf("Edit differs from Parse: %s", diff)
		}
	}
}

// TestEditOutOfRange checks that Edit clamps offsets outside the text instead of failing.
func TestEditOutOfRange(t *testing.T) {
	src := "(a b)\n(c d)\n"
	f, _ := Parse(src)
	for _, tc := range []struct {
		start, end int
		text, want string
	}{
		{-5, 1, "", "a b)\n(c d)\n"},
		{100, 200, "(e)", src + "(e)"},
		{8, 3, "x", "(a xb)\n(c d)\n"}, // start after end: the start moves to the end
		{0, 0, "", src},
		{len(src), len(src), "", src},
	} {
		g := f.Edit(tc.start, tc.end, tc.text)
		if g.Source() != tc.want {
			t.Errorf("Edit(%d, %d, %q) = %q, want %q", tc.start, tc.end, tc.text, g.Source(), tc.want)
			continue
		}
		want, _ := Parse(tc.want)
		if diff := sameFile(g, want); diff != "" {
			t.Errorf("Edit(%d, %d, %q): differs from Parse: %s", tc.start, tc.end, tc.text, diff)
		}
	}
}

// TestEditExhaustiveSmall applies every insertion of a set of snippets at every offset, and every
// deletion of up to 4 bytes, to small texts whose tokens are decided by their neighbours: halves
// of UTF-8 characters, a byte-order mark split in two, CR and LF pairs, an unclosed form.
func TestEditExhaustiveSmall(t *testing.T) {
	texts := []string{
		"00\xd30", "(ab \xc3 cd)\n(\xc3\xa9)", "x\xef\xbb\xbfy\xef\xbb", "(a\r\n(b)\r(c ; d\n)",
		"(a (b\n(c)) ?x)\n;\xf0\x9f\x98\x80\n\xf0\x9f(e)", "a\xe2\x82",
	}
	snippets := []string{"", "(", ")", "\n", "\r", "\xc3", "\xa9", "\xa9)", "\xbb\xbf", "\xef", "\x82\xac", "\x9f\x98\x80", ";", "\n("}
	infixTexts := []string{
		"p(a) :- q & r\ns(X)", "a :- b &\nc(X) :- d", "f(g(a,\n(<= x)\n h", "~p(\"A\xc3\") % c\n(a | b)",
		"x(1). y :- ~z.\n  & w", "p(X)q(Y) :- r", "legal(x(1)) :- ?y",
	}
	infixSnippets := append(snippets, ":-", ":", "-", "&", "|", "~", ",", ".", "%", "\"", "X", "a(", "\na")
	for _, tc := range []struct {
		d        Dialect
		texts    []string
		snippets []string
	}{{Prefix, texts, snippets}, {Infix, infixTexts, infixSnippets}, {Prefix, infixTexts, infixSnippets}} {
		for _, src := range tc.texts {
			f, _ := ParseDialect(src, tc.d)
			for s := 0; s <= len(src); s++ {
				for e := s; e <= min(len(src), s+4); e++ {
					for _, text := range tc.snippets {
						got := f.Edit(s, e, text)
						want, _ := ParseDialect(src[:s]+text+src[e:], tc.d)
						if diff := sameFile(got, want); diff != "" {
							t.Fatalf("%v: Edit(%d, %d, %q) of %q: %s", tc.d, s, e, text, src, diff)
						}
					}
				}
			}
		}
	}
}

// TestEditUnclosedSequence types a new form into the middle of a large file, with the form left
// open for a while, closes it far away, reopens it, and so on: the edits where Edit decides from
// the old file's parenthesis balances that a form is never closed, or is closed later on.
func TestEditUnclosedSequence(t *testing.T) {
	src := bigFile(t, 60<<10)
	f, _ := Parse(src)
	fm, _ := middleForm(t, f)
	at := fm.Span().Start
	far := len(src) - 10
	type edit struct {
		start, end int
		text       string
	}
	steps := []edit{
		{at, at, "(p\n"}, {at + 2, at + 2, "x"}, {at + 3, at + 3, " (q"}, {at + 6, at + 6, " a"},
		{far, far, ")"},         // closes the innermost open list far away
		{far + 5, far + 5, ")"}, // and the outer one
		{far, far + 1, ""}, {at + 2, at + 2, ")"}, {at + 2, at + 3, ""},
		{0, 0, "("}, {1, 1, "z"}, {0, 2, ""}, // an unclosed form at the very start
		{at, at, ")"}, {at, at + 1, ""}, {at, at + 3, ""},
	}
	for i, e := range steps {
		old := f.Source()
		got := f.Edit(e.start, e.end, e.text)
		want, _ := Parse(old[:e.start] + e.text + old[e.end:])
		if diff := sameFile(got, want); diff != "" {
			t.Fatalf("step %d: Edit(%d, %d, %q): %s", i, e.start, e.end, e.text, diff)
		}
		f = got
	}
}

// TestEditConcurrent edits one File from several goroutines at once: a File is immutable to its
// users, and the balances it computes lazily are guarded (run with -race).
func TestEditConcurrent(t *testing.T) {
	src := "(init (open\n(a b)\n(c (d e))\n(f)\n"
	for i := 0; i < 50; i++ {
		src += "(p" + strings.Repeat(" x", i%7) + ")\n"
	}
	f, _ := Parse(src)
	done := make(chan string)
	for g := 0; g < 4; g++ {
		go func(g int) {
			at := len(src) - 10*(g+1)
			e := f.Edit(at, at, "(q")
			want, _ := Parse(src[:at] + "(q" + src[at:])
			done <- sameFile(e, want)
		}(g)
	}
	for g := 0; g < 4; g++ {
		if diff := <-done; diff != "" {
			t.Error(diff)
		}
	}
}
