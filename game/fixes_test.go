package game

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/internal/corpus"
	"github.com/gdl-lsp/gdl/syntax"
)

// The analyzer's quick fixes, applied and played: a fix must repair what it says without
// turning the game into another one. Safe fixes (the ones gdl check --fix applies) must leave
// the game's play unchanged; the others must leave it evaluable; and on cases whose intended
// game is known (testdata/fixes, the README's example), the first fixes must give that game.

var fixLimits = eval.Limits{Timeout: 10 * time.Second, MaxFacts: 1_000_000}

// loadText analyses and loads a game with the interpreter.
func loadText(ctx context.Context, src string) (*Game, *analysis.Result, error) {
	return Load(ctx, src, Options{Engine: Interpreted, Limits: fixLimits})
}

// playTrace walks a game at random (the choices drawn from seed, by index into the sorted legal
// moves) and writes what it sees: each state's fluents, terminal, legal moves and goals. Two
// games that play alike give equal traces. An evaluation error ends the trace with its text.
func playTrace(ctx context.Context, g *Game, seed uint64, walks, steps int) (string, error) {
	var b strings.Builder
	rng := rand.New(rand.NewPCG(seed, 3))
	for w := range walks {
		s, err := g.Initial(ctx)
		if err != nil {
			return b.String(), err
		}
		for step := 0; step < steps; step++ {
			fmt.Fprintf(&b, "walk %d step %d: %s\n", w, step, strings.Join(g.Strings(s.Fluents()), " "))
			term, err := g.Terminal(ctx, s)
			if err != nil {
				return b.String(), err
			}
			goals, err := g.Goals(ctx, s)
			if err != nil {
				return b.String(), err
			}
			for r := range goals {
				fmt.Fprintf(&b, "  goal %s: %v\n", g.RoleNames()[r], g.Strings(goals[r]))
			}
			if term {
				b.WriteString("  terminal\n")
				break
			}
			legal, err := g.Legal(ctx, s)
			if err != nil {
				return b.String(), err
			}
			joint := make([]eval.Term, len(legal))
			stuck := false
			for r, ms := range legal {
				names := g.Strings(ms)
				fmt.Fprintf(&b, "  legal %s: %v\n", g.RoleNames()[r], names)
				if len(ms) == 0 {
					stuck = true
					continue
				}
				sorted := slices.Clone(names)
				slices.Sort(sorted)
				pick := sorted[rng.IntN(len(sorted))]
				joint[r] = ms[slices.Index(names, pick)]
			}
			if stuck {
				break
			}
			if s, err = g.Next(ctx, s, joint); err != nil {
				return b.String(), err
			}
		}
	}
	return b.String(), nil
}

// firstDifference returns the first line where two traces differ.
func firstDifference(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) || i < len(bl); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return fmt.Sprintf("line %d:\n  before: %s\n  after:  %s", i+1, x, y)
		}
	}
	return ""
}

// checkFixes applies each fix offered on src (at most perCode per diagnostic code, in order),
// one at a time, and checks it. It returns the number of fixes applied.
func checkFixes(t *testing.T, name, src string, perCode int) int {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	f, _ := syntax.ParseDialect(src, syntax.Detect(name, src))
	res := analysis.Analyze(f, nil)
	errs := 0
	for _, d := range res.Diagnostics {
		if d.Severity == analysis.Error {
			errs++
		}
	}
	g0, _, err0 := loadText(ctx, src)
	var trace0 string
	var werr0 error
	if err0 == nil {
		trace0, werr0 = playTrace(ctx, g0, 1, 2, 30)
	}
	applied := 0
	taken := map[string]int{}
	for _, d := range res.Diagnostics {
		for _, fix := range d.Fixes {
			if taken[d.Code] >= perCode {
				continue
			}
			taken[d.Code]++
			applied++
			where := fmt.Sprintf("%s:%d: fix %q of %s", name, f.Lines().Position(d.Span.Start, syntax.UTF8).Line+1, fix.Title, d.Code)
			out, got := analysis.ApplyFixes(src, []analysis.Diagnostic{{Fixes: []syntax.Fix{fix}}}, nil)
			if len(got) != 1 {
				t.Errorf("%s: its edits do not apply", where)
				continue
			}
			f1, _ := syntax.ParseDialect(out, f.Dialect())
			// Where the diagnosed text starts after the edits.
			at := d.Span.Start
			for _, e := range fix.Edits {
				if e.Span.End <= d.Span.Start && e.Span != d.Span {
					at += len(e.NewText) - (e.Span.End - e.Span.Start)
				}
			}
			errs1 := 0
			for _, d1 := range analysis.Analyze(f1, nil).Diagnostics {
				if d1.Severity == analysis.Error {
					errs1++
				}
				if d1.Code == d.Code && d1.Span.Start == at {
					t.Errorf("%s: still reported there: %s", where, d1.Message)
				}
			}
			// On a game without errors, a fix brings none. (On one with errors, a fix may show a
			// defect the broken text hid: the outer (and ...) of a Prolog-style rule, flattened,
			// shows the and nested in its or.)
			if errs == 0 && errs1 > 0 {
				t.Errorf("%s: %d errors after it", where, errs1)
			}
			if err0 != nil {
				continue // the game did not load before: nothing to compare
			}
			g1, _, err := loadText(ctx, out)
			if err != nil {
				t.Errorf("%s: the game loaded before the fix, not after: %v", where, err)
				continue
			}
			trace1, werr1 := playTrace(ctx, g1, 1, 2, 30)
			switch {
			case werr1 != nil && werr0 == nil:
				t.Errorf("%s: the game played before the fix; after it: %v", where, werr1)
			case fix.Safe && werr0 == nil && trace0 != trace1:
				t.Errorf("%s: a safe fix changes how the game plays: %s", where, firstDifference(trace0, trace1))
			}
		}
	}
	return applied
}

// TestFixesPlay applies every fix offered on the games and analyzer cases of testdata and on the
// corpus games (with -short, a fixed sample of one in ten; at most three fixes per code and
// game), one at a time: the fixed diagnostic goes, no error comes, the game still loads and
// plays, and a safe fix leaves its play (states, legal moves, goals, along seeded random walks)
// unchanged.
func TestFixesPlay(t *testing.T) {
	applied := 0
	for _, p := range fixCaseFiles() {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		applied += checkFixes(t, p, string(src), 1000)
	}
	if applied < 40 {
		t.Errorf("only %d fixes applied on testdata: the test checks little", applied)
	}
	games := corpus.Games(t)
	if testing.Short() {
		games = corpus.Sample(games, 10, "ticTacToe/")
	}
	capplied := 0
	for _, e := range games {
		src, err := os.ReadFile(e.Abs())
		if err != nil {
			t.Fatal(err)
		}
		capplied += checkFixes(t, e.Path, string(src), 3)
	}
	t.Logf("%d fixes applied on testdata, %d on %d corpus games", applied, capplied, len(games))
}

// fixCaseFiles lists the games and cases of testdata whose fixes the tests apply.
func fixCaseFiles() []string {
	var files []string
	for _, pat := range []string{"../testdata/games/*.kif", "../testdata/games/*.hrf", "../testdata/check/*.kif", "../testdata/check/*.hrf", "../testdata/examples/*.kif", "../testdata/fixes/*.kif"} {
		fs, _ := filepath.Glob(pat)
		files = append(files, fs...)
	}
	return files
}

// TestFixesGiveIntendedGame applies the first fix of every diagnostic, as often as fixes are
// offered, to each case whose intended game is known, and compares the play of the result with
// the intended game's: the unsafe-variable fixes must rename a typo (the README's ?who) rather
// than move a misspelt atom into a helper, and keep a real negation scope.
func TestFixesGiveIntendedGame(t *testing.T) {
	cases := map[string]string{"../testdata/examples/tictactoe-bug.kif": "../testdata/games/tictactoe.kif"}
	intended, _ := filepath.Glob("../testdata/fixes/*.intended.kif")
	for _, p := range intended {
		cases[strings.TrimSuffix(p, ".intended.kif")+".kif"] = p
	}
	if len(cases) < 3 {
		t.Fatalf("only %d cases", len(cases))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for broken, want := range cases {
		data, err := os.ReadFile(broken)
		if err != nil {
			t.Fatal(err)
		}
		src := string(data)
		for range 5 {
			f, _ := syntax.Parse(src)
			out, applied := analysis.ApplyFixes(src, analysis.Analyze(f, nil).Diagnostics, nil)
			if len(applied) == 0 {
				break
			}
			src = out
		}
		f, _ := syntax.Parse(src)
		for _, d := range analysis.Analyze(f, nil).Diagnostics {
			if d.Severity == analysis.Error {
				t.Errorf("%s: after the fixes: %s: %s", broken, d.Code, d.Message)
			}
		}
		wantSrc, err := os.ReadFile(want)
		if err != nil {
			t.Fatal(err)
		}
		gw, _, err := loadText(ctx, string(wantSrc))
		if err != nil {
			t.Fatal(err)
		}
		gf, _, err := loadText(ctx, src)
		if err != nil {
			t.Errorf("%s: the fixed game does not load: %v", broken, err)
			continue
		}
		tw, errW := playTrace(ctx, gw, 7, 10, 40)
		tf, errF := playTrace(ctx, gf, 7, 10, 40)
		if errW != nil || errF != nil {
			t.Errorf("%s: evaluation: intended %v, fixed %v", broken, errW, errF)
		}
		if tw != tf {
			t.Errorf("%s: the fixed game plays unlike %s: %s\nfixed text:\n%s", broken, filepath.Base(want), firstDifference(tw, tf), src)
		}
	}
}
