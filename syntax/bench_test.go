package syntax

import (
	goparser "go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gdl-lsp/gdl/internal/cputime"
	"github.com/gdl-lsp/gdl/internal/gengame"
)

// corpusGames returns the texts of the corpus games and their total size.
func corpusGames(tb testing.TB) ([]string, int) {
	var texts []string
	total := 0
	for _, cf := range corpusKind(tb, "game") {
		texts = append(texts, cf.src)
		total += len(cf.src)
	}
	return texts, total
}

// BenchmarkParseCorpus measures full-parse throughput over every game of the shared corpus.
func BenchmarkParseCorpus(b *testing.B) {
	texts, total := corpusGames(b)
	b.SetBytes(int64(total))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, src := range texts {
			Parse(src)
		}
	}
}

// BenchmarkGoParser parses about as many bytes of Go standard library source with go/parser (with
// comments), as the yardstick for BenchmarkParseCorpus.
func BenchmarkGoParser(b *testing.B) {
	_, want := corpusGames(b)
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skipf("SKIP: cannot locate GOROOT with `go env GOROOT`: %v", err)
	}
	root := filepath.Join(strings.TrimSpace(string(out)), "src")
	type goFile struct {
		name string
		src  []byte
	}
	var files []goFile
	total := 0
	// A fixed, ordered selection: the packages under go/, then net/, then the rest of src.
	for _, dir := range []string{"go", "net", "."} {
		filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil || total >= want {
				return filepath.SkipDir
			}
			if d.IsDir() {
				if d.Name() == "testdata" {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			for _, f := range files {
				if f.name == path {
					return nil
				}
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return nil
			}
			if _, err := goparser.ParseFile(token.NewFileSet(), path, data, goparser.ParseComments); err != nil {
				return nil // build-tagged or deliberately broken files
			}
			files = append(files, goFile{path, data})
			total += len(data)
			return nil
		})
	}
	if total < want/2 {
		b.Skipf("SKIP: found only %d bytes of Go source under %s", total, root)
	}
	b.SetBytes(int64(total))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		fset := token.NewFileSet()
		for _, f := range files {
			goparser.ParseFile(fset, f.name, f.src, goparser.ParseComments)
		}
	}
}

var reservedWords = map[string]bool{
	"role": true, "init": true, "true": true, "does": true, "next": true, "legal": true,
	"goal": true, "terminal": true, "distinct": true, "base": true, "input": true, "<=": true,
	"not": true, "or": true, "sees": true, "random": true,
}

// renamed returns src with every non-reserved, non-numeric symbol suffixed with _N, so that
// concatenated games do not share relations.
func renamed(src string, n int) string {
	f, _ := Parse(src)
	var b strings.Builder
	b.Grow(len(src) + len(src)/4)
	suffix := "_" + strconv.Itoa(n)
	var walk func(text string, nd *Node)
	walk = func(text string, nd *Node) {
		if nd.Kind == List {
			for i := range nd.Kids {
				walk(text, &nd.Kids[i])
			}
			return
		}
		s := text[nd.Start:nd.End]
		b.WriteString(s)
		if nd.Kind == Word && !reservedWords[Fold(s)] {
			if _, err := strconv.Atoi(s); err != nil {
				b.WriteString(suffix)
			}
		}
	}
	for _, it := range f.items {
		walk(it.text, &it.node)
	}
	return b.String()
}

// bigFile concatenates renamed corpus games until the text is at least size bytes. Only games
// without syntax errors are used, so the result is a valid file.
func bigFile(tb testing.TB, size int) string {
	texts, _ := corpusGames(tb)
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		src := texts[i%len(texts)]
		b.WriteString(renamed(src, i))
		b.WriteString("\n")
	}
	return b.String()
}

// middleForm returns the form of f that contains the middle of the text, and a word inside it.
func middleForm(tb testing.TB, f *File) (Form, Cursor) {
	mid := len(f.Source()) / 2
	for _, fm := range f.Forms() {
		sp := fm.Span()
		if sp.End < mid || fm.Kind() != List {
			continue
		}
		var word Cursor
		var find func(c Cursor)
		find = func(c Cursor) {
			for _, e := range c.Elements() {
				if word.Valid() {
					return
				}
				if e.Kind() == Word && e.Text() != "<=" {
					word = e
				} else if e.Kind() == List {
					find(e)
				}
			}
		}
		find(fm.Cursor)
		if word.Valid() {
			return fm, word
		}
	}
	tb.Fatal("no form with a word after the middle of the file")
	return Form{}, Cursor{}
}

// BenchmarkEdit400KB measures an edit inside one form of a 400 KB file: typing one character into
// a relation name, then deleting it again (two edits per iteration).
func BenchmarkEdit400KB(b *testing.B) {
	src := bigFile(b, 400<<10)
	f, errs := Parse(src)
	if len(errs) > 0 {
		b.Fatalf("the generated file has syntax errors: %v", errs[0])
	}
	_, word := middleForm(b, f)
	at := word.Span().End
	items := len(f.items)
	var reparsed, reused int
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		g := f.Edit(at, at, "x")
		f = g.Edit(at, at+1, "")
		sp, n := f.Reparsed()
		reparsed, reused = sp.Len(), n
	}
	b.StopTimer()
	if f.Source() != src {
		b.Fatal("typing and deleting a character did not restore the text")
	}
	b.ReportMetric(float64(len(src)), "file-bytes")
	b.ReportMetric(float64(reparsed), "reparsed-bytes")
	b.ReportMetric(float64(items-reused), "items-parsed")
}

// BenchmarkParseForm parses the text of the form that BenchmarkEdit400KB edits on its own: the
// part of an edit's cost that follows the form.
func BenchmarkParseForm(b *testing.B) {
	f, _ := Parse(bigFile(b, 400<<10))
	fm, _ := middleForm(b, f)
	text := fm.Text()
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		Parse(text)
	}
}

// BenchmarkEditUnclosed400KB measures typing inside a form that is not closed yet: a new line
// starting with '(' at the middle of a 400 KB file, with a name being typed after it.
func BenchmarkEditUnclosed400KB(b *testing.B) {
	src := bigFile(b, 400<<10)
	f, _ := Parse(src)
	fm, _ := middleForm(b, f)
	at := fm.Span().Start
	f = f.Edit(at, at, "(p\n")
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		g := f.Edit(at+2, at+2, "x")
		f = g.Edit(at+2, at+3, "")
	}
	b.StopTimer()
	sp, _ := f.Reparsed()
	b.ReportMetric(float64(len(f.Source())), "file-bytes")
	b.ReportMetric(float64(sp.Len()), "reparsed-bytes")
}

// BenchmarkParseHostile parses issue 21's hostile files (gengame.Families) at 768 KB and 3 MB,
// and a 3 MB file of corpus games one after another (gengame.Corpus), one sub-benchmark each,
// with its bytes and allocations: the time per byte at the two sizes gives the growth.
//
// Run: go test ./syntax -run '^$' -bench ParseHostile -benchtime 10x
func BenchmarkParseHostile(b *testing.B) {
	type input struct{ name, src string }
	var inputs []input
	if src, err := gengame.Corpus(corpusDir, 3<<20); err == nil {
		inputs = append(inputs, input{"corpus-3MB", src})
	} else {
		b.Logf("SKIP corpus: %v", err)
	}
	for _, fam := range gengame.Families {
		inputs = append(inputs, input{fam.Name + "-768KB", fam.Make(768 << 10)}, input{fam.Name + "-3MB", fam.Make(3 << 20)})
	}
	for _, in := range inputs {
		b.Run(in.name, func(b *testing.B) {
			b.SetBytes(int64(len(in.src)))
			b.ReportAllocs()
			var cpu time.Duration
			for b.Loop() {
				c0, _ := cputime.Process()
				Parse(in.src)
				c1, _ := cputime.Process()
				cpu += c1 - c0
			}
			b.ReportMetric(float64(cpu)/float64(b.N)/1e6, "cpu-ms/op")
		})
	}
}
