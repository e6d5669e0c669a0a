package analysis

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/gdl-lsp/gdl/internal/corpus"
	"github.com/gdl-lsp/gdl/syntax"
)

const corpusDir = "../../shared/games"

// defectNotes says, per code, why an error on a corpus game is a genuine defect of that game.
var defectNotes = map[string]string{
	"and-not-gdl":           "uses (and ...), which is not GDL",
	"keyword-as-term":       "a GDL keyword (not, does, ...) used as a constant or function name",
	"keyword-arity":         "a keyword relation with the wrong number of arguments",
	"keyword-placement":     "next used in a rule body (GDL reads the state through true)",
	"recursion-restriction": "recursion over growing terms (lists), outside GDL's recursion restriction",
	"undefined-relation":    "a relation used in a body is defined nowhere",
	"unsafe-variable":       "a variable bound by no positive atom (rules written for (and ...) or Prolog evaluation)",
	"unstratified-negation": "negation through recursion, typically (<= (goal r 0) (not (goal r 100)))",
	"variable-in-fact":      "a fact with variables (base declarations written as patterns)",
	"goal-value":            "a goal value that is not one of the constants 0..100 (00 is not 0)",
	"state-dependent":       "a keyword depends on the state or the moves where GDL forbids it",
}

type defect struct {
	path, code string
	line, n    int
}

func (d defect) key() string { return fmt.Sprintf("%s\t%s\t%d", d.path, d.code, d.line) }

// corpusGameFiles lists the corpus files of kind game.
func corpusGameFiles(t testing.TB) []string {
	data, err := os.ReadFile(filepath.Join(corpusDir, "MANIFEST.tsv"))
	if err != nil {
		corpus.Skipf(t, "SKIPPED: ../shared/games/MANIFEST.tsv is not there; the corpus tests need ../shared beside the repository")
	}
	var out []string
	for _, line := range strings.Split(string(data), "\n")[1:] {
		cols := strings.Split(line, "\t")
		if len(cols) == 7 && cols[6] == "game" {
			out = append(out, cols[0])
		}
	}
	return out
}

// TestCorpusErrors analyses every corpus game. Every error must be a known genuine defect listed
// in testdata/corpus-defects.tsv, and every listed defect must still be reported: a new false
// positive or a lost true positive fails. Refresh the list with -update after checking each new
// row by hand.
func TestCorpusErrors(t *testing.T) {
	games := corpusGameFiles(t)
	got := map[string]defect{}
	for _, g := range games {
		src, err := os.ReadFile(filepath.Join(corpusDir, g))
		if err != nil {
			t.Fatal(err)
		}
		f, _ := syntax.Parse(string(src))
		res := Analyze(f, nil)
		for _, d := range res.Diagnostics {
			if d.Severity != Error {
				continue
			}
			line := f.Lines().Position(d.Span.Start, syntax.UTF8).Line + 1
			k := defect{g, d.Code, line, 0}.key()
			x := got[k]
			x.path, x.code, x.line = g, d.Code, line
			x.n++
			got[k] = x
		}
	}
	const listPath = "../testdata/corpus-defects.tsv"
	if *update {
		var rows []defect
		for _, d := range got {
			rows = append(rows, d)
		}
		sort.Slice(rows, func(i, j int) bool { return rows[i].key() < rows[j].key() })
		var b strings.Builder
		b.WriteString("# Genuine defects of corpus games (../shared/games), one row per file, code and line.\n")
		b.WriteString("# Checked by hand; TestCorpusErrors asserts this list exactly. Columns: path, code, line, count, why.\n")
		for _, d := range rows {
			fmt.Fprintf(&b, "%s\t%d\t%s\n", d.key(), d.n, defectNotes[d.code])
		}
		if err := os.WriteFile(listPath, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(listPath)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]defect{}
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) < 4 {
			t.Fatalf("bad row %q", line)
		}
		ln, _ := strconv.Atoi(cols[2])
		n, _ := strconv.Atoi(cols[3])
		d := defect{cols[0], cols[1], ln, n}
		want[d.key()] = d
	}
	files := map[string]bool{}
	for k, d := range got {
		files[d.path] = true
		w, ok := want[k]
		switch {
		case !ok:
			t.Errorf("new error on a corpus game (a false positive, or a genuine defect to add with -update): %s (%d)", k, d.n)
		case w.n != d.n:
			t.Errorf("%s: %d errors, the list says %d", k, d.n, w.n)
		}
	}
	for k := range want {
		if _, ok := got[k]; !ok {
			t.Errorf("listed defect no longer reported: %s", k)
		}
	}
	t.Logf("%d corpus games analysed; %d have listed genuine defects (%d rows)", len(games), len(files), len(got))
}
