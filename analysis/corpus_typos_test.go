package analysis

import (
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/gdl-lsp/gdl/internal/corpus"
	"github.com/gdl-lsp/gdl/syntax"
)

// typoCodes are the checks of things that never hold, and of base and input coverage (issue
// 14): on a game that works they must find nothing, so every finding on a corpus game is a
// genuine defect of that game.
var typoCodes = map[string]string{
	"fluent-not-in-base": "a fluent that init or next produces and base does not list",
	"legal-not-in-input": "a legal move that input does not list",
	"undefined-fluent":   "a fluent tested with true that init and next never produce",
	"undefined-move":     "a move tested with does that no legal rule allows (or a role that has none)",
	"undefined-relation": "a relation used in a body that nothing defines",
	"role-without-legal": "a role that no legal rule is for",
	"role-without-goal":  "a role that no goal rule is for",
}

const typoListPath = "../testdata/corpus-typos.tsv"

// TestCorpusTypos runs the checks of typoCodes on every corpus game (with -short, a fixed
// sample of one in eight) and compares the findings with testdata/corpus-typos.tsv, the genuine
// defects they find, each checked by hand: a new finding is a false alarm (or a defect to add
// with -update, which needs the whole corpus), a missing one a lost true positive.
func TestCorpusTypos(t *testing.T) {
	games := corpus.Games(t)
	if testing.Short() {
		if *update {
			t.Fatal("-update needs every corpus game: run without -short")
		}
		games = corpus.Sample(games, 8, "slidingpieces/", "ii_stratego")
	}
	sampled := map[string]bool{}
	got := map[string]defect{}
	for _, e := range games {
		sampled[e.Path] = true
		src, err := os.ReadFile(e.Abs())
		if err != nil {
			t.Fatal(err)
		}
		f, _ := syntax.Parse(string(src))
		for _, d := range Analyze(f, nil).Diagnostics {
			if _, ok := typoCodes[d.Code]; !ok {
				continue
			}
			line := f.Lines().Position(d.Span.Start, syntax.UTF8).Line + 1
			k := defect{e.Path, d.Code, line, 0}.key()
			x := got[k]
			x.path, x.code, x.line = e.Path, d.Code, line
			x.n++
			got[k] = x
		}
	}
	if *update {
		notes := map[string]string{} // the notes written by hand stay
		if old, err := os.ReadFile(typoListPath); err == nil {
			for _, line := range strings.Split(string(old), "\n") {
				if cols := strings.Split(line, "\t"); len(cols) >= 5 && !strings.HasPrefix(line, "#") {
					notes[strings.Join(cols[:3], "\t")] = cols[4]
				}
			}
		}
		var rows []defect
		for _, d := range got {
			rows = append(rows, d)
		}
		sort.Slice(rows, func(i, j int) bool { return rows[i].key() < rows[j].key() })
		var b strings.Builder
		b.WriteString("# What the checks of things that never hold find on corpus games (../shared/games): genuine\n")
		b.WriteString("# defects, each checked by hand. TestCorpusTypos asserts this list. Columns: path, code, line, count,\n")
		b.WriteString("# why it is a defect (kept by -update once written).\n")
		for _, d := range rows {
			note := notes[d.key()]
			if note == "" {
				note = typoCodes[d.code]
			}
			fmt.Fprintf(&b, "%s\t%d\t%s\n", d.key(), d.n, note)
		}
		if err := os.WriteFile(typoListPath, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(typoListPath)
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
		if sampled[d.path] {
			want[d.key()] = d
		}
	}
	files := map[string]bool{}
	for k, d := range got {
		files[d.path] = true
		w, ok := want[k]
		switch {
		case !ok:
			t.Errorf("new finding on a corpus game (a false alarm, or a genuine defect to add with -update): %s (%d)", k, d.n)
		case w.n != d.n:
			t.Errorf("%s: %d findings, the list says %d", k, d.n, w.n)
		}
	}
	for k := range want {
		if _, ok := got[k]; !ok {
			t.Errorf("listed defect no longer found: %s", k)
		}
	}
	msg := fmt.Sprintf("%d corpus games checked; %d findings in %d games, all listed genuine defects", len(games), len(got), len(files))
	if testing.Short() {
		msg += " (-short: a fixed sample of one in eight games)"
	}
	t.Log(msg)
}
