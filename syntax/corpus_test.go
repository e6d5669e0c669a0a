package syntax

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gdl-lsp/gdl/internal/corpus"
)

// The shared corpus of third-party games lives beside the repository, never inside it.
// GDL_SHARED_GAMES points elsewhere (a nonexistent path shows how the tests skip without it).
var corpusDir = func() string {
	if d := os.Getenv("GDL_SHARED_GAMES"); d != "" {
		return d
	}
	return "../../shared/games"
}()

type corpusFile struct {
	path    string // relative to corpusDir
	kind    string // game, validator-test, prover-test or other
	src     string
	dialect Dialect // the notation src is written in (corpus files are prefix)
}

var (
	corpusOnce  sync.Once
	corpusFiles []corpusFile
	corpusErr   error
)

// loadCorpus reads every file listed in MANIFEST.tsv. It skips the test when the corpus is absent.
func loadCorpus(tb testing.TB) []corpusFile {
	tb.Helper()
	corpusOnce.Do(func() {
		fh, err := os.Open(filepath.Join(corpusDir, "MANIFEST.tsv"))
		if err != nil {
			corpusErr = err
			return
		}
		defer fh.Close()
		sc := bufio.NewScanner(fh)
		first := true
		for sc.Scan() {
			if first {
				first = false
				continue
			}
			cols := strings.Split(sc.Text(), "\t")
			if len(cols) < 7 {
				continue
			}
			data, err := os.ReadFile(filepath.Join(corpusDir, cols[0]))
			if err != nil {
				corpusErr = err
				return
			}
			corpusFiles = append(corpusFiles, corpusFile{path: cols[0], kind: cols[6], src: string(data)})
		}
		corpusErr = sc.Err()
	})
	if corpusErr != nil {
		if os.IsNotExist(corpusErr) {
			corpus.Skipf(tb, "SKIPPED: the shared game corpus is absent (%v); clone it to ../shared beside the repository to run this test", corpusErr)
		}
		tb.Fatalf("reading the shared game corpus: %v", corpusErr)
	}
	if len(corpusFiles) == 0 {
		tb.Fatalf("the shared game corpus manifest %s lists no files", filepath.Join(corpusDir, "MANIFEST.tsv"))
	}
	return corpusFiles
}

// corpusKind returns the corpus files of one kind.
func corpusKind(tb testing.TB, kind string) []corpusFile {
	var out []corpusFile
	for _, cf := range loadCorpus(tb) {
		if cf.kind == kind {
			out = append(out, cf)
		}
	}
	return out
}

// corpusText returns the text of one corpus file, or skips when the corpus is absent.
func corpusText(tb testing.TB, path string) string {
	tb.Helper()
	for _, cf := range loadCorpus(tb) {
		if cf.path == path {
			return cf.src
		}
	}
	tb.Fatalf("%s is not listed in the corpus manifest", path)
	return ""
}

// TestCorpusGames parses every game of the shared corpus: no syntax error, a well-formed lossless
// tree. Every other corpus file must round-trip byte for byte too, errors or not.
func TestCorpusGames(t *testing.T) {
	games := 0
	for _, cf := range loadCorpus(t) {
		f, errs := Parse(cf.src)
		if msg := checkInvariants(f); msg != "" {
			t.Errorf("%s: %s", cf.path, msg)
		}
		if cf.kind != "game" {
			continue
		}
		games++
		for _, e := range errs {
			p := f.Lines().Position(e.Span.Start, UTF32)
			t.Errorf("%s:%d:%d: %s: %s", cf.path, p.Line+1, p.Column+1, e.Code, e.Message)
		}
		if len(f.Forms()) == 0 {
			t.Errorf("%s: a game without forms", cf.path)
		}
	}
	if games < 500 {
		t.Errorf("only %d games in the corpus manifest, expected the 581 of the shared corpus", games)
	}
}

// cutOffFiles are the corpus files that end in the middle of a form.
var cutOffFiles = []string{
	"arnaudsj__ggpserver/ggpserver/03_add_games/duplicatestatelarge.kif",
	"arnaudsj__ggpserver/ggpserver/03_add_games/ruledepthquadratic.kif",
	"arnaudsj__ggpserver/ggpserver/03_add_games/statespacelarge.kif",
	"arnaudsj__ggpserver/gamecontroller/lib/BenderNG/testdata/outputs/output2.kif",
}

// TestCorpusCutOff checks the files cut off mid-form: the last form is reported as unclosed, at
// its '(', every complete form before it has a tree and no error, and applying the error's fix
// gives a file without syntax errors.
func TestCorpusCutOff(t *testing.T) {
	for _, path := range cutOffFiles {
		src := corpusText(t, path)
		f, errs := Parse(src)
		forms := f.Forms()
		if len(forms) < 2 {
			t.Errorf("%s: %d forms, want the complete forms before the cut", path, len(forms))
			continue
		}
		last := forms[len(forms)-1]
		// output2.kif is Lisp output, not GDL: it has lists headed by lists in its last form too.
		if len(errs) == 0 || errs[0].Code != CodeUnclosedOpen || errs[0].Span != (Span{last.Span().Start, last.Span().Start + 1}) {
			t.Errorf("%s: errors %v, want first a %s at the '(' of the last form (%v)", path, errs, CodeUnclosedOpen, last.Span())
			continue
		}
		for _, e := range errs[1:] {
			if e.Code == CodeUnclosedOpen || e.Span.Start < last.Span().Start {
				t.Errorf("%s: error %v outside the cut-off last form", path, e)
			}
		}
		if !last.Unclosed() || last.Span().End != len(src) {
			t.Errorf("%s: the last form %v is not unclosed up to the end of the file", path, last.Span())
		}
		for _, fm := range forms[:len(forms)-1] {
			if fm.Unclosed() || fm.HasErrors() {
				t.Errorf("%s: complete form at %v is unclosed or has errors", path, fm.Span())
			}
		}
		fix := errs[0].Fix
		if fix == nil || len(fix.Edits) != 1 {
			t.Errorf("%s: the unclosed form has no fix", path)
			continue
		}
		te := fix.Edits[0]
		fixed, ferrs := Parse(src[:te.Span.Start] + te.NewText + src[te.Span.End:])
		if len(ferrs) != len(errs)-1 {
			t.Errorf("%s: after the fix %q: %v, want the %d other errors", path, fix.Title, ferrs, len(errs)-1)
		}
		for _, e := range ferrs {
			if e.Code == CodeUnclosedOpen {
				t.Errorf("%s: after the fix %q: %v", path, fix.Title, e)
			}
		}
		if n := len(fixed.Forms()); n != len(forms) {
			t.Errorf("%s: %d forms after the fix, want %d", path, n, len(forms))
		}
	}
}
