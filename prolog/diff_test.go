package prolog_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	gamecorpus "github.com/gdl-lsp/gdl/internal/corpus"

	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/prolog"
	"github.com/gdl-lsp/gdl/syntax"
)

// walkLimits bound one game of the differential test. A walk has up to steps joint moves. So
// that long games are followed for as long as the whole test can afford, SWI-Prolog stops a walk
// (after the step it is in) once it has used budget of CPU time, and the evaluator stops replaying
// it (after the step it is in) once it has used replayBudget of wall time; the steps done are
// compared. A walk still running after hard (one step that never ends) is killed and its
// finished steps are compared; an evaluator call still running at replayHard is a skip.
type walkLimits struct {
	steps                    int
	budget, hard             time.Duration
	replayBudget, replayHard time.Duration
}

// corpusLimits keep the whole prolog package test within about four minutes on the team's
// 2-core machine shared with other jobs (docs/performance.md has the measurements).
var corpusLimits = walkLimits{steps: 200, budget: 2 * time.Second, hard: 30 * time.Second,
	replayBudget: 4 * time.Second, replayHard: 30 * time.Second}

// With the whole corpus (581 games of kind game, or more), at least this many must be compared:
// a change that makes games skip fails the test instead of shrinking it silently.
const (
	fullCorpus  = 581
	minCompared = 570
)

// step is one state of a random walk as SWI-Prolog printed it.
type step struct {
	state    []string
	legal    [][]string // per role
	terminal bool
	goals    [][]string // per role
	does     []string   // the joint move taken from this state, if any
}

// walk is a random walk as SWI-Prolog printed it: its complete steps, and why it ended
// (terminal, no_legal_move, max_steps, budget; "" when it was killed before printing its end).
type walk struct {
	steps []step
	end   string
}

// kifItems splits a line of KIF terms into the terms' texts.
func kifItems(s string) []string {
	f, _ := syntax.Parse(s)
	var out []string
	for _, fm := range f.Forms() {
		out = append(out, fm.Text())
	}
	return out
}

// parseWalk reads the walk driver's output. A step is complete once its joint move (does) or the
// walk's end is printed; an incomplete last step (the walk was killed while in it) is dropped.
func parseWalk(out string) (walk, error) {
	var w walk
	complete := 0
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if line == "" {
			continue
		}
		tag, rest, _ := strings.Cut(line, " ")
		if w.end != "" {
			return w, fmt.Errorf("%q after the end", line)
		}
		switch tag {
		case "state":
			if len(w.steps) > complete {
				return w, fmt.Errorf("state %d starts before state %d has a joint move", len(w.steps)+1, len(w.steps))
			}
			w.steps = append(w.steps, step{state: kifItems(rest)})
		case "legal", "goal", "terminal", "does":
			if len(w.steps) == complete {
				return w, fmt.Errorf("%q outside a state", line)
			}
			s := &w.steps[len(w.steps)-1]
			items := kifItems(rest)
			switch tag {
			case "legal":
				s.legal = append(s.legal, items[1:])
			case "goal":
				s.goals = append(s.goals, items[1:])
			case "terminal":
				s.terminal = rest == "true"
			case "does":
				s.does = items
				complete++
			}
		case "end":
			if rest == "" {
				return w, fmt.Errorf("end without a reason")
			}
			w.end = rest
			if len(w.steps) > complete {
				complete++
			}
		default:
			return w, fmt.Errorf("unexpected line %q", line)
		}
	}
	w.steps = w.steps[:complete]
	return w, nil
}

// walkSWI runs a random walk of prog in SWI-Prolog. A walk killed by the hard limit returns the
// steps it finished with a *swiTimeout; a failure of SWI-Prolog returns a *swiError.
func walkSWI(t testing.TB, swipl, prog string, seed, steps int, budget, hard time.Duration) (walk, error) {
	goal := fmt.Sprintf("walk(%d, %d, %g)", seed, steps, budget.Seconds())
	out, err := runSWI(t, swipl, prog, prolog.WalkDriver, goal, hard)
	var timeout *swiTimeout
	if err != nil && !errors.As(err, &timeout) {
		return walk{}, err
	}
	w, perr := parseWalk(out)
	if perr != nil {
		return w, fmt.Errorf("the walk driver's output: %v", perr)
	}
	if err == nil && w.end == "" {
		return w, fmt.Errorf("the walk ended without an end line")
	}
	return w, err
}

// canon folds case (Prolog prints case-folded names, we print the author's spelling) and sorts.
func canon(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = strings.ToLower(x)
	}
	slices.Sort(out)
	return out
}

func canonTerms(g *eval.Program, ts []eval.Term) []string { return canon(g.Strings(ts)) }

// gameResult is what the differential test learned about one game.
type gameResult struct {
	name    string
	steps   int           // states compared
	end     string        // why the walk ended; "hard time-out" when it was killed
	elapsed time.Duration // SWI-Prolog and the replay
	swi     time.Duration // SWI-Prolog alone
	skip    string        // why the game was not compared ("" when it was)
}

// TestDifferentialAgainstSWIProlog plays a random walk through every corpus game in SWI-Prolog
// (running our Prolog translation) and replays the same joint moves with the evaluator,
// comparing the state, every role's legal moves, terminal and every role's goals at every step.
// An error of SWI-Prolog on a converted program fails the test: only a time-out is a skip.
func TestDifferentialAgainstSWIProlog(t *testing.T) {
	const title = "prolog: differential test against SWI-Prolog"
	if _, err := exec.LookPath("swipl"); err != nil {
		writeSummary(t, title, []string{"SKIPPED: swipl (Debian swi-prolog-nox) is not installed"})
	}
	swipl := needSWI(t)
	if _, err := os.Stat(filepath.Join(corpus, "MANIFEST.tsv")); err != nil {
		writeSummary(t, title, []string{"SKIPPED: ../shared/games is not there"})
	}
	games := gamecorpus.Paths(gamecorpus.ShortSample(t, gamecorpus.Games(t), 20, "ticTacToe/", "connectFour/", "montyhall"))
	var mu sync.Mutex
	var results []gameResult
	record := func(r gameResult) {
		mu.Lock()
		defer mu.Unlock()
		results = append(results, r)
	}
	t.Run("games", func(t *testing.T) {
		for i, g := range games {
			seed := 1 + i%3
			t.Run(g, func(t *testing.T) {
				t.Parallel()
				start := time.Now()
				r := diffGame(t, swipl, g, seed)
				r.name, r.elapsed = g, time.Since(start)
				record(r)
			})
		}
	})
	if len(results) < len(games) {
		t.Logf("only %d of %d games ran (a -run filter?): the floor of compared games is not checked", len(results), len(games))
		return
	}
	lines, compared := summarize(results)
	floor, ok := floorCheck(compared, len(games), testing.Short())
	if !ok {
		t.Errorf("%s; see the skips below", floor)
	}
	lines = append(lines, floor)
	for _, l := range lines {
		t.Log(l)
	}
	writeSummary(t, title, lines)
}

// floorCheck says whether enough games were compared: with the full corpus, at least minCompared
// (not checked with -short, which runs 30 games, or with a partial corpus).
func floorCheck(compared, games int, short bool) (string, bool) {
	switch {
	case short:
		return "-short: a sample of the games (named above), the floor of compared games is not checked", true
	case games < fullCorpus:
		return fmt.Sprintf("the corpus has %d games, not the full %d: the floor of %d compared games is not checked", games, fullCorpus, minCompared), true
	case compared < minCompared:
		return fmt.Sprintf("FAILED: only %d of %d corpus games were compared with SWI-Prolog, fewer than the floor of %d", compared, games, minCompared), false
	}
	return fmt.Sprintf("at least %d games must be compared: ok", minCompared), true
}

// failed marks a game whose comparison failed (the subtest reports why): neither compared nor
// skipped.
const failed = "FAILED (a mismatch or an error of SWI-Prolog, reported above)"

// reporter is where compareProgram reports failures: the test, or a recorder in the tests of the
// differential test itself.
type reporter interface {
	Errorf(format string, args ...any)
}

// diffGame compares one corpus game. Mismatches and failures of SWI-Prolog fail t; a game that
// cannot be compared comes back with the reason in skip.
func diffGame(t *testing.T, swipl, name string, seed int) gameResult {
	data, err := os.ReadFile(filepath.Join(corpus, name))
	if err != nil {
		t.Fatal(err)
	}
	game, res := eval.Load(string(data))
	prog, blocking := prolog.Convert(res)
	if blocking != nil {
		return gameResult{skip: "refused by convert, no defined meaning (" + blocking[0].Code + ")"}
	}
	return compareProgram(t, t, swipl, game, prog, seed, corpusLimits)
}

// compareProgram walks prog (the game's translation) in SWI-Prolog and replays the walk with the
// evaluator. Any failure of SWI-Prolog (an error in the program, a missing predicate, output the
// walk driver does not print) and any mismatch is reported to rep; only time-outs and the
// evaluator's refusals and limits come back as skips.
func compareProgram(t testing.TB, rep reporter, swipl string, game *eval.Program, prog string, seed int, lim walkLimits) gameResult {
	swiStart := time.Now()
	w, err := walkSWI(t, swipl, prog, seed, lim.steps, lim.budget, lim.hard)
	swi := time.Since(swiStart)
	end := w.end
	var timeout *swiTimeout
	switch {
	case errors.As(err, &timeout) && len(w.steps) == 0:
		return gameResult{skip: fmt.Sprintf("SWI-Prolog did not finish the initial state within the hard limit of %s", lim.hard), swi: swi}
	case errors.As(err, &timeout):
		end = "hard time-out"
	case err != nil:
		rep.Errorf("seed %d: SWI-Prolog failed on the converted program: %v", seed, err)
		return gameResult{skip: failed, swi: swi}
	}
	n, err := replay(game, w.steps, lim.replayBudget, lim.replayHard)
	var refused *eval.RefusedError
	var limit *eval.LimitError
	switch {
	case err == nil:
		if n < len(w.steps) {
			end = "evaluator budget"
		}
		return gameResult{steps: n, end: end, swi: swi}
	case errors.As(err, &refused):
		// Prolog runs rules GDL gives no meaning; the evaluator refuses them.
		return gameResult{skip: "refused by the evaluator, no defined meaning", swi: swi}
	case errors.As(err, &limit) && !errors.Is(err, context.DeadlineExceeded):
		// Bottom-up evaluation derives the whole model, which a top-down prover never asks
		// for; some invalid games make it infinite.
		return gameResult{skip: "stopped by an evaluation limit (" + limit.Limit + ")", swi: swi}
	case errors.Is(err, context.DeadlineExceeded):
		return gameResult{skip: fmt.Sprintf("evaluator slower than %s for the first steps", lim.replayHard), swi: swi}
	}
	rep.Errorf("seed %d: %v", seed, err)
	return gameResult{skip: failed, swi: swi}
}

// summarize describes the results: counts, the walks' ends, the skips with the games' names.
func summarize(results []gameResult) ([]string, int) {
	compared, steps := 0, 0
	ends := map[string][]string{}
	skipped := map[string][]string{}
	var slow []gameResult
	for _, r := range results {
		if r.skip != "" {
			skipped[r.skip] = append(skipped[r.skip], r.name)
			continue
		}
		compared++
		steps += r.steps
		ends[r.end] = append(ends[r.end], r.name)
		slow = append(slow, r)
	}
	lines := []string{fmt.Sprintf("compared %d of %d corpus games with SWI-Prolog (%d states; state, legal moves, terminal and goals at every step; walks of up to %d joint moves, at most %s of SWI-Prolog CPU time and %s of replay each)",
		compared, len(results), steps, corpusLimits.steps, corpusLimits.budget, corpusLimits.replayBudget)}
	var endKeys []string
	for k := range ends {
		endKeys = append(endKeys, k)
	}
	sort.Strings(endKeys)
	for _, k := range endKeys {
		gs := ends[k]
		sort.Strings(gs)
		line := fmt.Sprintf("  walk ended by %s: %d games", k, len(gs))
		if k == "budget" || k == "hard time-out" || k == "evaluator budget" {
			line += ": " + strings.Join(gs, ", ")
		}
		lines = append(lines, line)
	}
	var skipKeys []string
	for k := range skipped {
		skipKeys = append(skipKeys, k)
	}
	sort.Strings(skipKeys)
	for _, k := range skipKeys {
		gs := skipped[k]
		sort.Strings(gs)
		lines = append(lines, fmt.Sprintf("skipped %d: %s: %s", len(gs), k, strings.Join(gs, ", ")))
	}
	sort.Slice(slow, func(i, j int) bool { return slow[i].elapsed > slow[j].elapsed })
	var parts []string
	for _, r := range slow[:min(5, len(slow))] {
		parts = append(parts, fmt.Sprintf("%s %.1fs (SWI-Prolog %.1fs; %d states, %s)", filepath.Base(r.name), r.elapsed.Seconds(), r.swi.Seconds(), r.steps, r.end))
	}
	lines = append(lines, "slowest: "+strings.Join(parts, ", "))
	return lines, compared
}

// writeSummary appends a test's summary to the file named by $GDL_TEST_SUMMARY, which
// scripts/test.sh prints after `go test`, so that the figures show in CI output without -v.
func writeSummary(t *testing.T, title string, lines []string) {
	path := os.Getenv("GDL_TEST_SUMMARY")
	if path == "" {
		return
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Errorf("GDL_TEST_SUMMARY: %v", err)
		return
	}
	defer f.Close()
	fmt.Fprintf(f, "%s\n", title)
	for _, l := range lines {
		fmt.Fprintf(f, "  %s\n", l)
	}
}

// replay plays the walk's joint moves with the evaluator and compares every step with SWI-Prolog's:
// the state, each role's legal moves, terminal, and each role's goal values. It returns the
// number of states that agreed; when budget (if not 0) has passed, it stops after the state it is
// in, so that number can be smaller than the walk's. An evaluation still running at hard fails
// with the context's deadline.
func replay(g *eval.Program, walk []step, budget, hard time.Duration) (int, error) {
	ctx, cancel := context.WithTimeout(context.Background(), hard)
	defer cancel()
	start := time.Now()
	s, err := g.Initial(ctx)
	if err != nil {
		return 0, fmt.Errorf("initial state: %w", err)
	}
	roles := len(g.Roles())
	for i, want := range walk {
		if len(want.legal) != roles || len(want.goals) != roles {
			return i, fmt.Errorf("step %d: SWI-Prolog printed %d legal and %d goal lines for %d roles", i, len(want.legal), len(want.goals), roles)
		}
		if got := canonTerms(g, s.Fluents()); !slices.Equal(got, canon(want.state)) {
			return i, fmt.Errorf("step %d: state differs\n got: %v\nwant: %v", i, got, canon(want.state))
		}
		legal, err := g.Legal(ctx, s)
		if err != nil {
			return i, fmt.Errorf("step %d: legal: %w", i, err)
		}
		for r := range want.legal {
			if got := canonTerms(g, legal[r]); !slices.Equal(got, canon(want.legal[r])) {
				return i, fmt.Errorf("step %d: legal moves of role %d differ\n got: %v\nwant: %v", i, r, got, canon(want.legal[r]))
			}
		}
		term, err := g.Terminal(ctx, s)
		if err != nil {
			return i, fmt.Errorf("step %d: terminal: %w", i, err)
		}
		if term != want.terminal {
			return i, fmt.Errorf("step %d: terminal is %v, SWI-Prolog says %v", i, term, want.terminal)
		}
		goals, err := g.Goals(ctx, s)
		if err != nil {
			return i, fmt.Errorf("step %d: goals: %w", i, err)
		}
		for r := range want.goals {
			if got := canonTerms(g, goals[r]); !slices.Equal(got, canon(want.goals[r])) {
				return i, fmt.Errorf("step %d: goals of role %d differ\n got: %v\nwant: %v", i, r, got, canon(want.goals[r]))
			}
		}
		if want.does == nil || budget > 0 && time.Since(start) > budget {
			return i + 1, nil
		}
		joint := make([]eval.Term, len(want.does))
		for k, m := range want.does {
			if joint[k], err = g.ParseTerm(m); err != nil {
				return i, fmt.Errorf("step %d: move %s: %v", i, m, err)
			}
		}
		if s, err = g.Next(ctx, s, joint); err != nil {
			return i, fmt.Errorf("step %d: next after %v: %w", i, want.does, err)
		}
	}
	return len(walk), nil
}
