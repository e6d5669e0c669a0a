package format

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	gamecorpus "github.com/gdl-lsp/gdl/internal/corpus"
	"github.com/gdl-lsp/gdl/syntax"
)

const corpus = "../../shared/games"

func TestPeerFormatterCases(t *testing.T) {
	// gdl-validation's GameIndenterTest: the re-indented Before file equals the After file.
	for _, n := range []string{"formatter1", "formatter2"} {
		dir := filepath.Join(corpus, "AlexLandau__gdl-validation/testgames")
		before, err := os.ReadFile(filepath.Join(dir, n+"Before.kif"))
		if err != nil {
			gamecorpus.Skipf(t, "SKIPPED: ../shared/games is not there")
		}
		after, err := os.ReadFile(filepath.Join(dir, n+"After.kif"))
		if err != nil {
			t.Fatal(err)
		}
		got, err := Source(string(before))
		if err != nil {
			t.Fatal(err)
		}
		if got != string(after) {
			t.Errorf("%s:\ngot:\n%s\nwant:\n%s", n, got, after)
		}
	}
}

func TestCases(t *testing.T) {
	cases := []struct{ in, want string }{
		{"(role a) (role b)\n", "(role a)\n(role b)\n"},
		{"(<= (p ?x)   (q ?x)\n\t(not (r ?x)))", "(<= (p ?x)\n    (q ?x)\n    (not (r ?x)))"},
		{"(<= (p ?x) ; doc of p\n (q ?x) ; why\n)\n", "(<= (p ?x) ; doc of p\n    (q ?x) ; why\n)\n"},
		{"(f a ; c\n b)\n", "(f a ; c\n    b)\n"},
		{"(role a)\r\n\r\n\r\n(role b)\r\n", "(role a)\r\n\r\n(role b)\r\n"},
		{"(<= terminal)\n", "(<= terminal)\n"},
		{"(role A)  ; keep\n", "(role A) ; keep\n"},
		// Forms written side by side, )( (issue 14): each on its own line; a comment stays.
		{"(role a)(role b)(<= terminal (true (s 2)))\n", "(role a)\n(role b)\n(<= terminal\n    (true (s 2)))\n"},
		{"(role a);c\n(role b)terminal\n", "(role a) ;c\n(role b)\nterminal\n"},
		// A byte order mark stays (issue 14).
		{"\uFEFF(role a)   (role b)\n", "\uFEFF(role a)\n(role b)\n"},
		{"\uFEFF\n\n; c\n(role a)\n", "\uFEFF; c\n(role a)\n"},
	}
	for _, c := range cases {
		got, err := Source(c.in)
		if err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("format(%q):\n got %q\nwant %q", c.in, got, c.want)
		}
		if again, err := Source(got); err != nil || again != got {
			t.Errorf("not idempotent on %q: %q, %v", got, again, err)
		}
		if meaning(got) != meaning(c.in) {
			t.Errorf("format(%q) changed the tokens", c.in)
		}
	}
	if _, err := Source("(role a"); err != ErrSyntax {
		t.Errorf("broken file: err %v, want ErrSyntax", err)
	}
}

// meaning is the file's tokens without whitespace: formatting must not change it.
func meaning(src string) string {
	f, _ := syntax.Parse(src)
	var b strings.Builder
	var walk func(c syntax.Cursor)
	walk = func(c syntax.Cursor) {
		if c.Kind() == syntax.List {
			for _, k := range c.Children() {
				walk(k)
			}
			return
		}
		if c.Kind() != syntax.Whitespace {
			b.WriteString(strings.TrimRight(c.Text(), " \t")) // trailing blanks of comments go
			b.WriteByte(' ')
		}
	}
	for _, it := range f.Items() {
		walk(it)
	}
	return b.String()
}

// TestCorpusIdempotent formats every corpus game: the result keeps every token and comment,
// and formatting it again changes nothing.
func TestCorpusIdempotent(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(corpus, "MANIFEST.tsv"))
	if err != nil {
		gamecorpus.Skipf(t, "SKIPPED: ../shared/games/MANIFEST.tsv is not there")
	}
	n := 0
	for _, line := range strings.Split(string(data), "\n")[1:] {
		cols := strings.Split(line, "\t")
		if len(cols) != 7 || cols[6] != "game" {
			continue
		}
		src, err := os.ReadFile(filepath.Join(corpus, cols[0]))
		if err != nil {
			t.Fatal(err)
		}
		once, err := Source(string(src))
		if err != nil {
			t.Errorf("%s: %v", cols[0], err)
			continue
		}
		if meaning(once) != meaning(string(src)) {
			t.Errorf("%s: formatting changed the tokens", cols[0])
		}
		if twice, err := Source(once); err != nil {
			t.Errorf("%s: the formatted file does not parse: %v", cols[0], err)
		} else if twice != once {
			t.Errorf("%s: formatting is not idempotent", cols[0])
		}
		n++
	}
	t.Logf("formatted %d corpus games", n)
}
