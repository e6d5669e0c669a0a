package format

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gdl-lsp/gdl/syntax"
)

// apply applies non-overlapping edits to src.
func apply(src string, edits []syntax.TextEdit) string {
	es := append([]syntax.TextEdit(nil), edits...)
	sort.Slice(es, func(i, j int) bool { return es[i].Span.Start > es[j].Span.Start })
	for _, e := range es {
		src = src[:e.Span.Start] + e.NewText + src[e.Span.End:]
	}
	return src
}

// TestRangeCases formats a part of a file: the forms the range meets change, the rest stays.
func TestRangeCases(t *testing.T) {
	src := "(role a)   (role b)\n(<= (p ?x)   (q ?x)\n\t(not (r ?x)))\n(<= (s ?x)   (q ?x))\n"
	cases := []struct {
		from, to string // the range: from the first occurrence of from to the end of to
		want     string
	}{
		{"(<= (p", "(r ?x)))", "(role a)   (role b)\n(<= (p ?x)\n    (q ?x)\n    (not (r ?x)))\n(<= (s ?x)   (q ?x))\n"},
		{"(q ?x)\n", "(q ?x)\n", "(role a)   (role b)\n(<= (p ?x)\n    (q ?x)\n    (not (r ?x)))\n(<= (s ?x)   (q ?x))\n"},
		{"(role b)", "(role b)", "(role a)\n(role b)\n(<= (p ?x)   (q ?x)\n\t(not (r ?x)))\n(<= (s ?x)   (q ?x))\n"},
		{"(<= (s", "(q ?x))\n", "(role a)   (role b)\n(<= (p ?x)   (q ?x)\n\t(not (r ?x)))\n(<= (s ?x)\n    (q ?x))\n"},
	}
	f, _ := syntax.Parse(src)
	for _, c := range cases {
		start := strings.Index(src, c.from)
		end := strings.LastIndex(src, c.to) + len(c.to)
		edits, err := Range(f, start, end)
		if err != nil {
			t.Fatal(err)
		}
		if got := apply(src, edits); got != c.want {
			t.Errorf("range %q..%q:\n got %q\nwant %q", c.from, c.to, got, c.want)
		}
	}
	broken, _ := syntax.Parse("(role a")
	if _, err := Range(broken, 0, 3); err != ErrSyntax {
		t.Errorf("broken file: %v, want ErrSyntax", err)
	}
}

// TestRangeCorpus: on every corpus game (and the infix games of testdata), the edits of the
// whole file give File's result, and formatting one form leaves the text before it as it was
// and the file formats to the same result.
func TestRangeCorpus(t *testing.T) {
	var files []string
	data, err := os.ReadFile(filepath.Join(corpus, "MANIFEST.tsv"))
	if err == nil {
		for _, line := range strings.Split(string(data), "\n")[1:] {
			if cols := strings.Split(line, "\t"); len(cols) == 7 && cols[6] == "game" {
				files = append(files, filepath.Join(corpus, cols[0]))
			}
		}
	}
	hrf, _ := filepath.Glob("../testdata/games/*.hrf")
	files = append(files, hrf...)
	if testing.Short() && len(files) > 60 {
		var sample []string
		for i := 0; i < len(files); i += 10 {
			sample = append(sample, files[i])
		}
		files = append(sample, hrf...)
	}
	checked := 0
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		src := string(data)
		f, errs := syntax.ParseDialect(src, syntax.Detect(p, src))
		if len(errs) > 0 {
			continue
		}
		want := File(f)
		edits, err := Range(f, 0, len(src))
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		if got := apply(src, edits); got != want {
			t.Errorf("%s: the whole range differs from File", p)
			continue
		}
		forms := f.Forms()
		if len(forms) > 2 {
			sp := forms[len(forms)/2].Span()
			edits, _ := Range(f, sp.Start, sp.End)
			got := apply(src, edits)
			// The text before the blanks before the form stays.
			before := strings.TrimRight(src[:sp.Start], " \t\r\n\uFEFF")
			if !strings.HasPrefix(got, before) {
				t.Errorf("%s: formatting one form changed the text before it", p)
			}
			g, _ := syntax.ParseDialect(got, f.Dialect())
			if File(g) != want {
				t.Errorf("%s: after formatting one form the file formats differently", p)
			}
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no file checked")
	}
	t.Logf("range formatting checked on %d files", checked)
}
