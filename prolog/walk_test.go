package prolog_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/prolog"
)

// TestParseWalk: complete steps are kept, a step cut off by a kill is dropped, and output the
// walk driver never prints is an error.
func TestParseWalk(t *testing.T) {
	cases := []struct {
		name, out string
		steps     int
		end       string
		err       string
	}{
		{"terminal", "state (c 1)\nlegal r a b\nterminal false\ngoal r\ndoes a\nstate (c 2)\nlegal r\nterminal true\ngoal r 100\nend terminal\n", 2, "terminal", ""},
		{"killed inside a step", "state (c 1)\nlegal r a\nterminal false\ngoal r\ndoes a\nstate (c 2)\nlegal r a\n", 1, "", ""},
		{"killed after a joint move", "state (c 1)\nlegal r a\nterminal false\ngoal r\ndoes a\n", 1, "", ""},
		{"nothing", "", 0, "", ""},
		{"end without reason", "state\nlegal r\nterminal false\ngoal r\nend\n", 0, "", "end without a reason"},
		{"a line outside a state", "legal r a\n", 0, "", "outside a state"},
		{"an unknown line", "state\nWarning: something\n", 0, "", "unexpected line"},
		{"a state without a move", "state (c 1)\nlegal r\nstate (c 2)\n", 0, "", "before state 1 has a joint move"},
		{"output after the end", "state\nlegal r\nterminal true\ngoal r 0\nend terminal\nstate\n", 0, "", "after the end"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w, err := parseWalk(c.out)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(w.steps) != c.steps || w.end != c.end {
				t.Errorf("%d steps, end %q; want %d, %q", len(w.steps), w.end, c.steps, c.end)
			}
		})
	}
}

// recorder collects what compareProgram reports, so that a test can check that a failure is
// reported rather than skipped.
type recorder struct{ errs []string }

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

const tttPath = "../testdata/games/tictactoe.kif"

func loadTestGame(t *testing.T, path string) (*eval.Program, string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return convertSource(t, string(data))
}

func convertSource(t *testing.T, src string) (*eval.Program, string) {
	t.Helper()
	g, res := eval.Load(src)
	prog, blocking := prolog.Convert(res)
	if blocking != nil {
		t.Fatalf("refused: %s", blocking[0].Message)
	}
	return g, prog
}

// TestDifferentialFailuresAreNotSkips: an SWI-Prolog error on a converted program (a syntax
// error, a missing predicate) is a failure of the differential test; only a time-out is a skip,
// and it says so.
func TestDifferentialFailuresAreNotSkips(t *testing.T) {
	swipl := needSWI(t)
	g, prog := loadTestGame(t, tttPath)
	quick := walkLimits{steps: 20, budget: time.Second, hard: 20 * time.Second, replayBudget: 10 * time.Second, replayHard: 20 * time.Second}
	cases := []struct {
		name   string
		prog   string
		lim    walkLimits
		report string // what compareProgram must report ("" for nothing)
		skip   string // substring of the skip reason ("" for compared)
	}{
		{name: "the translation as it is", prog: prog, lim: quick},
		{name: "a syntax error", prog: prog + "\nr_broken(:- .\n", lim: quick, report: "SWI-Prolog failed on the converted program", skip: "FAILED"},
		{name: "a missing predicate", prog: strings.Replace(prog, "gdl_init(S) :-", "gdl_init_gone(S) :-", 1), lim: quick,
			report: "SWI-Prolog failed on the converted program", skip: "FAILED"},
		{name: "a wrong answer", prog: prog + "\nr_legal('oplayer', 'resign').\n", lim: quick, report: "legal moves of role 1 differ", skip: "FAILED"},
		{name: "a time-out", prog: strings.Replace(prog, "gdl_init(S) :-", "gdl_init(S) :- repeat, fail.\ngdl_init_gone(S) :-", 1),
			lim:  walkLimits{steps: 20, budget: time.Second, hard: 2 * time.Second, replayBudget: time.Second, replayHard: 10 * time.Second},
			skip: "SWI-Prolog did not finish the initial state within the hard limit of 2s"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var rec recorder
			r := compareProgram(t, &rec, swipl, g, c.prog, 1, c.lim)
			if c.report == "" && len(rec.errs) > 0 {
				t.Errorf("reported: %v", rec.errs)
			}
			if c.report != "" && (len(rec.errs) != 1 || !strings.Contains(rec.errs[0], c.report)) {
				t.Errorf("reported %q, want one report with %q", rec.errs, c.report)
			}
			if c.skip == "" && (r.skip != "" || r.steps < 6 || r.end != "terminal") {
				t.Errorf("want a walk compared to its terminal state: %+v", r)
			}
			if c.skip != "" && !strings.Contains(r.skip, c.skip) {
				t.Errorf("skip %q, want %q", r.skip, c.skip)
			}
		})
	}
}

// TestReplayComparesEveryStep: the replay compares the state, legal moves, terminal and goals
// of every step, terminal or not: a change to any of them in any step is a mismatch.
func TestReplayComparesEveryStep(t *testing.T) {
	swipl := needSWI(t)
	g, prog := loadTestGame(t, tttPath)
	w, err := walkSWI(t, swipl, prog, 2, 20, 0, 20*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if len(w.steps) < 6 || w.end != "terminal" || w.steps[1].terminal {
		t.Fatalf("want a walk of tic-tac-toe to its end: %d steps, end %q", len(w.steps), w.end)
	}
	if n, err := replay(g, w.steps, 0, 20*time.Second); err != nil || n != len(w.steps) {
		t.Fatalf("the walk as printed: %d of %d states, %v", n, len(w.steps), err)
	}
	last := len(w.steps) - 1
	mutations := []struct {
		name   string
		change func(s []step)
		want   string
	}{
		{"a goal in a non-terminal state", func(s []step) { s[1].goals[0] = append(s[1].goals[0], "100") }, "step 1: goals of role 0 differ"},
		{"a goal in the terminal state", func(s []step) { s[last].goals[1] = []string{"42"} }, fmt.Sprintf("step %d: goals of role 1 differ", last)},
		{"a legal move", func(s []step) { s[2].legal[1] = append(s[2].legal[1], "(mark 9 9)") }, "step 2: legal moves of role 1 differ"},
		{"terminal", func(s []step) { s[3].terminal = true }, "step 3: terminal is false"},
		{"the state", func(s []step) { s[4].state = s[4].state[1:] }, "step 4: state differs"},
		{"a missing goal line", func(s []step) { s[0].goals = s[0].goals[:1] }, "step 0: SWI-Prolog printed 2 legal and 1 goal lines"},
	}
	for _, m := range mutations {
		t.Run(m.name, func(t *testing.T) {
			steps := make([]step, len(w.steps))
			for i, s := range w.steps {
				steps[i] = step{state: append([]string(nil), s.state...), terminal: s.terminal, does: s.does}
				for _, l := range s.legal {
					steps[i].legal = append(steps[i].legal, append([]string(nil), l...))
				}
				for _, gs := range s.goals {
					steps[i].goals = append(steps[i].goals, append([]string(nil), gs...))
				}
			}
			m.change(steps)
			if _, err := replay(g, steps, 0, 20*time.Second); err == nil || !strings.Contains(err.Error(), m.want) {
				t.Errorf("error %v, want %q", err, m.want)
			}
		})
	}
}

// TestNameCollisions: relation names that an encoding of names into Prolog atoms could merge
// (`a-b` and `a_x2d_b` both became r_a_x2d_b) stay apart, and the walk agrees with the
// evaluator's.
func TestNameCollisions(t *testing.T) {
	swipl := needSWI(t)
	g, prog := convertSource(t, `
		(role p)
		(init (s 0))
		(a-b 1) (a_x2d_b 2) (a_b 3) (a__b 4) (x 5) (_x 6)
		(<= (legal p (m ?x)) (true (s 0)) (a-b ?x))
		(<= (legal p (n ?x)) (true (s 0)) (a_x2d_b ?x))
		(<= (legal p (o ?x)) (true (s 0)) (a_b ?x))
		(<= (legal p (q ?x)) (true (s 0)) (a__b ?x))
		(<= (legal p (u ?x)) (true (s 0)) (x ?x))
		(<= (legal p (v ?x)) (true (s 0)) (_x ?x))
		(<= (next (s 1)) (does p ?any))
		(<= terminal (true (s 1)))
		(goal p 100)
	`)
	w, err := walkSWI(t, swipl, prog, 1, 5, 0, 20*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if len(w.steps) != 2 || len(w.steps[0].legal) != 1 {
		t.Fatalf("walk: %+v", w)
	}
	want := "(m 1) (n 2) (o 3) (q 4) (u 5) (v 6)"
	if got := strings.Join(canon(w.steps[0].legal[0]), " "); got != want {
		t.Errorf("SWI-Prolog's legal moves: %s, want %s", got, want)
	}
	if _, err := replay(g, w.steps, 0, 20*time.Second); err != nil {
		t.Error(err)
	}
}

// TestFloorAndSummary: with the full corpus, fewer compared games than the floor fail the
// differential test; the summary reaches the file that scripts/test.sh prints.
func TestFloorAndSummary(t *testing.T) {
	for _, c := range []struct {
		compared, games int
		short, ok       bool
	}{
		{minCompared, fullCorpus, false, true},
		{minCompared - 1, fullCorpus, false, false},
		{0, fullCorpus, false, false},
		{0, fullCorpus + 10, false, false},
		{0, fullCorpus, true, true},
		{0, 100, false, true},
	} {
		if line, ok := floorCheck(c.compared, c.games, c.short); ok != c.ok {
			t.Errorf("%d of %d (short %v): ok %v, want %v (%s)", c.compared, c.games, c.short, ok, c.ok, line)
		}
	}
	path := filepath.Join(t.TempDir(), "summary")
	t.Setenv("GDL_TEST_SUMMARY", path)
	writeSummary(t, "first", []string{"a", "b"})
	writeSummary(t, "second", []string{"c"})
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := "first\n  a\n  b\nsecond\n  c\n"; string(data) != want {
		t.Errorf("summary file %q, want %q", data, want)
	}
}
