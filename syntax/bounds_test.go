package syntax

import (
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gdl-lsp/gdl/internal/cputime"
	"github.com/gdl-lsp/gdl/internal/gengame"
)

// checkBounds checks FormBounds and ParseForms against the whole parse f of the prefix text src:
// where the scan of the bytes says it can tell, its spans are those of f's forms, and each form
// parsed alone (from the start of the one before) is f's: the same tree, errors and doc.
func checkBounds(src string, f *File) string { return checkBoundsEvery(src, f, 1) }

// checkBoundsEvery is checkBounds parsing alone only every step-th form.
func checkBoundsEvery(src string, f *File, step int) string {
	spans, ok := FormBounds(src)
	forms := f.Forms()
	if !ok {
		return ""
	}
	if len(spans) != len(forms) {
		return fmt.Sprintf("FormBounds: %d forms, Parse %d", len(spans), len(forms))
	}
	for i, fm := range forms {
		if spans[i] != fm.Span() {
			return fmt.Sprintf("FormBounds: form %d at %v, Parse's at %v", i, spans[i], fm.Span())
		}
		if i%step != 0 {
			continue
		}
		from := 0
		if i > 0 {
			from = spans[i-1].Start
		}
		got := ParseForms(src, Prefix, from, spans[i].End)
		if len(got) == 0 {
			return fmt.Sprintf("ParseForms(%d, %d): no form", from, spans[i].End)
		}
		alone := got[len(got)-1]
		var a, b strings.Builder
		dumpNode(&a, alone.text, alone.base, alone.n, 0)
		dumpNode(&b, fm.text, fm.base, fm.n, 0)
		if a.String() != b.String() {
			return fmt.Sprintf("form %d parsed alone:\n%s\nin the file:\n%s", i, clip(a.String()), clip(b.String()))
		}
		if !reflect.DeepEqual(alone.Errors(), fm.Errors()) || alone.Doc() != fm.Doc() {
			return fmt.Sprintf("form %d parsed alone: errors %v doc %q; in the file: errors %v doc %q", i, alone.Errors(), alone.Doc(), fm.Errors(), fm.Doc())
		}
	}
	return ""
}

// TestFormBounds: the scan of the bytes tells the forms where a byte tells what the parser does,
// and says it cannot elsewhere.
func TestFormBounds(t *testing.T) {
	cases := []struct {
		src   string
		spans []Span
		ok    bool
	}{
		{"", nil, true},
		{"(a)\n; (b\n(c ; )\n d)", []Span{{0, 3}, {9, 19}}, true},
		{") (a))\r\n\uFEFF(b)", []Span{{2, 5}, {11, 14}}, true},
		{"(a\x01 é)\x02(b)", []Span{{0, 7}, {8, 11}}, true},
		{"(a) b", nil, false},            // a constant fact
		{"(a) p(x) :- q(x)", nil, false}, // an infix statement
		{"(a) ?x", nil, false},
		{"(a) é", nil, false},
		{"(a) (b", nil, false}, // never closed
	}
	for _, c := range cases {
		spans, ok := FormBounds(c.src)
		if ok != c.ok || !reflect.DeepEqual(spans, c.spans) {
			t.Errorf("FormBounds(%q) = %v, %v; want %v, %v", c.src, spans, ok, c.spans, c.ok)
		}
		if f, _ := Parse(c.src); ok {
			if msg := checkBounds(c.src, f); msg != "" {
				t.Errorf("%q: %s", c.src, msg)
			}
		}
	}
}

// TestFirstFormBounds: the first form's span is FormBounds's first one, told from the bytes up
// to its end only (what follows it, a top-level word or a form never closed, does not matter).
func TestFirstFormBounds(t *testing.T) {
	cases := []struct {
		src          string
		first        Span
		found, ok    bool
		wholeFileTop bool // FormBounds of the whole text says ok
	}{
		{"", Span{}, false, true, true},
		{" ; only a comment\n", Span{}, false, true, true},
		{"(a)\n; (b\n(c ; )\n d)", Span{0, 3}, true, true, true},
		{"\uFEFF (game x)(test)", Span{4, 12}, true, true, true},
		{"(a) b", Span{0, 3}, true, true, false},      // the word after the first form is not read
		{"(a (b)) (c", Span{0, 7}, true, true, false}, // nor the form never closed
		{"b (a)", Span{}, false, false, false},        // a word before it: the bytes do not tell
		{"(a (b)", Span{}, false, false, false},       // never closed
	}
	for _, c := range cases {
		first, found, ok := FirstFormBounds(c.src)
		if first != c.first || found != c.found || ok != c.ok {
			t.Errorf("FirstFormBounds(%q) = %v, %v, %v; want %v, %v, %v", c.src, first, found, ok, c.first, c.found, c.ok)
		}
		if spans, ok := FormBounds(c.src); ok != c.wholeFileTop || ok && len(spans) > 0 && spans[0] != first {
			t.Errorf("FormBounds(%q) = %v, %v; want ok %v and the first span %v", c.src, spans, ok, c.wholeFileTop, first)
		}
	}
}

// TestFormBoundsCorpus checks FormBounds and ParseForms on every file of the shared corpus
// (with -short, ParseForms on every 16th form).
func TestFormBoundsCorpus(t *testing.T) {
	step := 1
	if testing.Short() {
		step = 16
	}
	for _, cf := range loadCorpus(t) {
		f, _ := Parse(cf.src)
		if msg := checkBoundsEvery(cf.src, f, step); msg != "" {
			t.Errorf("%s: %s", cf.path, msg)
		}
	}
}

// BenchmarkFormBounds is the scan of the bytes on issue 21's 3 MB hostile file, beside its parse
// (BenchmarkParseHostile): about 3 ns a byte against about 45, in CPU time.
//
// Run: go test ./syntax -run '^$' -bench FormBounds
func BenchmarkFormBounds(b *testing.B) {
	src := gengame.UnknownRelations(3 << 20)
	b.SetBytes(int64(len(src)))
	var cpu time.Duration
	for b.Loop() {
		c0, _ := cputime.Process()
		FormBounds(src)
		c1, _ := cputime.Process()
		cpu += c1 - c0
	}
	b.ReportMetric(float64(cpu)/float64(b.N)/1e6, "cpu-ms/op")
}

// formBoundsByByte is FormBounds read one byte at a time: the reference of TestFormBoundsWords.
func formBoundsByByte(src string) ([]Span, bool) {
	var spans []Span
	depth, start := 0, 0
	for i := 0; i < len(src); i++ {
		switch c := boundClass[src[i]]; {
		case c == bNone || c == bToken && depth > 0:
		case c == bOpen:
			if depth == 0 {
				start = i
			}
			depth++
		case c == bClose:
			if depth > 0 {
				if depth--; depth == 0 {
					spans = append(spans, Span{start, i + 1})
				}
			}
		case c == bSemi:
			i = commentEnd(src, i) - 1
		case strings.HasPrefix(src[i:], "\uFEFF"):
			i += 2
		default:
			return nil, false
		}
	}
	if depth > 0 {
		return nil, false
	}
	return spans, true
}

// TestFormBoundsWords: FormBounds, which reads the inside of forms 8 bytes at a time, finds what
// a scan of one byte at a time finds, on random texts of parentheses, comments, line breaks,
// words and non-ASCII runes in every alignment (and, where it finds forms, what Parse finds).
func TestFormBoundsWords(t *testing.T) {
	rng := rand.New(rand.NewSource(21))
	pieces := []string{"(", "(", ")", ")", "; c", ";(", ";)", "\n", "\r", " ", "ab", "?x", "é", "\uFEFF", "(<= (r1 ?x) (role ?x))\n", "\x00"}
	for i := 0; i < 20000; i++ {
		var b strings.Builder
		for n := rng.Intn(40); n > 0; n-- {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		src := b.String()
		spans, ok := FormBounds(src)
		wantSpans, wantOK := formBoundsByByte(src)
		if ok != wantOK || !reflect.DeepEqual(spans, wantSpans) {
			t.Fatalf("FormBounds(%q) = %v, %v; one byte at a time %v, %v", src, spans, ok, wantSpans, wantOK)
		}
		if ok {
			if f, _ := Parse(src); checkBounds(src, f) != "" {
				t.Fatalf("%q: %s", src, checkBounds(src, f))
			}
		}
	}
}
