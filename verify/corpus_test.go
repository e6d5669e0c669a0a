package verify

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/game"
	"github.com/gdl-lsp/gdl/internal/corpus"
)

// listedPath lists the findings of gdl verify on corpus games that are genuine defects of the
// games, each with the reason.
const listedPath = "../testdata/corpus-verify.tsv"

// listed reads the list: path, property, role (- for none), kind, why. A state that could not
// be evaluated is listed with property "error" and kind "limit".
func listed(t *testing.T) map[string]string {
	f, err := os.Open(listedPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) != 5 || cols[4] == "" {
			t.Fatalf("%s:%d: want path, property, role, kind and why, tab-separated", listedPath, n)
		}
		out[strings.Join(cols[:4], "\t")] = cols[4]
	}
	return out
}

// findingKeys are the list's keys of what a run found.
func findingKeys(path string, r *Result) []string {
	var out []string
	seen := map[string]bool{}
	add := func(k string) {
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	for _, f := range r.Findings {
		role := f.Role
		if role == "" {
			role = "-"
		}
		add(strings.Join([]string{path, string(f.Property), role, f.Kind}, "\t"))
	}
	if len(r.Errors) > 0 {
		add(strings.Join([]string{path, "error", "-", "limit"}, "\t"))
	}
	return out
}

var all = flag.Bool("all", false, "TestCorpus: verify every corpus game, with a larger budget")

// TestCorpus verifies a fixed sample of the corpus games (one in ten, and a few named ones)
// within a small budget, or with -all every game within a larger one, and writes a table of the
// results to the test summary. Every finding must be a genuine defect listed in
// testdata/corpus-verify.tsv; a listed finding of a game explored completely must be found.
// Each finding's witness has been replayed by Verify.
func TestCorpus(t *testing.T) {
	games := corpus.Games(t)
	opts := Options{MaxStates: 20_000, Timeout: 3 * time.Second}
	if !*all {
		games = corpus.Sample(games, 10, "ticTacToe/", "connectFour/", "montyhall", "4pffa/", "colonelBlotto/", "dualConnect4/")
		opts = Options{MaxStates: 3000, Timeout: time.Second}
	}
	list := listed(t)
	var rows []string
	complete, total, refused := 0, 0, 0
	unlisted := 0
	for _, e := range games {
		src, err := os.ReadFile(e.Abs())
		if err != nil {
			t.Fatal(err)
		}
		g, _, err := game.Load(bg, string(src), game.Options{Ground: eval.GroundLimits{Timeout: 2 * time.Second}})
		if err != nil {
			t.Errorf("%s: %v", e.Path, err)
			continue
		}
		total++
		r, err := Verify(bg, g, opts)
		var ref *eval.RefusedError
		switch {
		case errors.As(err, &ref):
			// Rules without a defined meaning: the analyzer's errors, listed in
			// corpus-defects.tsv.
			refused++
			rows = append(rows, fmt.Sprintf("%-90s refused: %s", e.Path, ref.Relation+" has no defined meaning"))
			continue
		case err != nil:
			t.Errorf("%s: %v", e.Path, err)
			continue
		}
		if r.Complete {
			complete++
		}
		found := findingKeys(e.Path, r)
		var names []string
		for _, k := range found {
			names = append(names, strings.Join(strings.Split(k, "\t")[1:], " "))
			if _, ok := list[k]; !ok {
				unlisted++
				t.Errorf("%s: %s is not listed in %s: list it with the reason if the game is wrong, else fix the bug\n%s",
					e.Path, strings.ReplaceAll(k, "\t", " "), listedPath, describe(r))
			}
		}
		if r.Complete {
			for k := range list {
				if strings.HasPrefix(k, e.Path+"\t") && !strings.Contains(strings.Join(found, "\n"), k) {
					t.Errorf("%s: listed finding %q not found in the complete exploration", e.Path, k)
				}
			}
		}
		status := "complete"
		if !r.Complete {
			status = "incomplete (" + r.Stopped + ")"
		}
		findings := "nothing found"
		if len(names) > 0 {
			findings = strings.Join(names, ", ")
		}
		rows = append(rows, fmt.Sprintf("%-90s %-24s %7d states, depth %3d, %s engine: %s", e.Path, status, r.States, r.Depth, g.Engine(), findings))
	}
	sort.Strings(rows)
	lines := []string{fmt.Sprintf("%d corpus games, within %d states and %v each: %d explored completely, %d refused (rules without a defined meaning), %d findings not listed",
		total, opts.MaxStates, opts.Timeout, complete, refused, unlisted)}
	if !*all {
		lines = append(lines, "(a fixed sample of one in ten games and a few named ones; go test ./verify -run TestCorpus -args -all verifies every game)")
	}
	lines = append(lines, "game, result, states, findings:")
	lines = append(lines, rows...)
	for _, l := range lines {
		t.Log(l)
	}
	if err := corpus.WriteSummary("verify: gdl verify on the corpus", lines); err != nil {
		t.Error(err)
	}
}

// describe writes a result's findings for a failure message.
func describe(r *Result) string {
	var b strings.Builder
	for _, f := range r.Findings {
		fmt.Fprintf(&b, "  %s %s %s: %s: --moves '%s'\n", f.Property, f.Role, f.Kind, f.Message, strings.Join(f.Joints, " "))
	}
	for _, e := range r.Errors {
		fmt.Fprintf(&b, "  error: %s: --moves '%s'\n", e.Message, strings.Join(e.Joints, " "))
	}
	return b.String()
}
