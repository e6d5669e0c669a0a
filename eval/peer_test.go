package eval

// Expectations of other GGP implementations' own tests about the shared corpus, as listed in
// ../shared/games/PEER_TESTS.md: GGP-Base's ProverStateMachineTest and GdlCleanerTest,
// libgdl's reasoner and next-state tests, and the Dresden gamecontroller's match traces.

import (
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gdl-lsp/gdl/internal/corpus"
)

var bg = context.Background()

// machine wraps a game with helpers that fail the test on evaluation errors.
type machine struct {
	t *testing.T
	g *Program
}

func load(t *testing.T, rel string) machine {
	t.Helper()
	return machine{t, corpusGame(t, rel)}
}

func (m machine) roles() []string { return m.g.Strings(m.g.Roles()) }

func (m machine) init() *State {
	m.t.Helper()
	s, err := m.g.Initial(bg)
	if err != nil {
		m.t.Fatal(err)
	}
	return s
}

func (m machine) legal(s *State, role string) []string {
	m.t.Helper()
	ls, err := m.g.Legal(bg, s)
	if err != nil {
		m.t.Fatal(err)
	}
	return m.g.Strings(ls[m.role(role)])
}

func (m machine) role(name string) int {
	m.t.Helper()
	for i, r := range m.g.Roles() {
		if strings.EqualFold(m.g.String(r), name) {
			return i
		}
	}
	m.t.Fatalf("no role %s", name)
	return -1
}

func (m machine) terminal(s *State) bool {
	m.t.Helper()
	b, err := m.g.Terminal(bg, s)
	if err != nil {
		m.t.Fatal(err)
	}
	return b
}

func (m machine) goals(s *State, role string) []string {
	m.t.Helper()
	gs, err := m.g.Goals(bg, s)
	if err != nil {
		m.t.Fatal(err)
	}
	return m.g.Strings(gs[m.role(role)])
}

// play plays joint moves written as in the GGP PLAY message, checking legality.
func (m machine) play(s *State, moves string) *State {
	m.t.Helper()
	joints, err := m.g.ParseJointMoves(moves)
	if err != nil {
		m.t.Fatal(err)
	}
	for _, j := range joints {
		if s, err = nextLegal(bg, m.g, s, j); err != nil {
			m.t.Fatalf("%s: %v", m.g.FormatJoint(j), err)
		}
	}
	return s
}

func (m machine) ask(s *State, query string) []string {
	m.t.Helper()
	q, err := m.g.ParseQuery(query)
	if err != nil {
		m.t.Fatal(err)
	}
	as, err := m.g.Ask(bg, s, nil, q)
	if err != nil {
		m.t.Fatal(err)
	}
	var out []string
	for _, a := range as {
		out = append(out, q.Format(a))
	}
	slices.Sort(out)
	return out
}

func eq(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s: got %q, want %q", what, got, want)
	}
}

const ggpTest = "ggp-org__ggp-base/games/test/"

// GGP-Base ProverStateMachineTest.
func TestProverStateMachineTicTacToe(t *testing.T) {
	m := load(t, ggpTest+"ticTacToe.kif")
	eq(t, "roles", []string{m.g.String(m.g.Roles()[0]), m.g.String(m.g.Roles()[1])}, "xplayer", "oplayer")
	s := m.init()
	if m.terminal(s) {
		t.Fatal("initial state is terminal")
	}
	if x, o := m.legal(s, "xplayer"), m.legal(s, "oplayer"); len(x)*len(o) != 9 || len(x) != 9 {
		t.Errorf("legal: x %v, o %v", x, o)
	}
	eq(t, "oplayer legal", m.legal(s, "oplayer"), "noop")
	s = m.play(s, "((mark 1 1) noop) (noop (mark 1 3)) ((mark 3 1) noop) (noop (mark 2 2)) ((mark 2 1) noop)")
	if !m.terminal(s) {
		t.Fatal("not terminal after x completes column 1")
	}
	eq(t, "xplayer goal", m.goals(s, "xplayer"), "100")
	eq(t, "oplayer goal", m.goals(s, "oplayer"), "0")
}

func TestProverStateMachineTestCases(t *testing.T) {
	cases := []struct {
		file, role string
		legal      []string
		terminal   bool   // after the only legal move
		goal       string // after it, "" when not checked
	}{
		{"test_case_3c", "xplayer", []string{"win"}, true, "100"},
		{"test_case_5a", "you", []string{"proceed"}, true, "100"},
		{"test_case_5b", "you", []string{"(draw 1 1 1 2)"}, true, ""},
		{"test_case_5c", "you", []string{"proceed"}, true, "100"},
		{"test_case_5d", "you", []string{"proceed"}, true, "100"},
		{"test_clean_not_distinct", "player", []string{"proceed"}, true, "100"},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			m := load(t, ggpTest+c.file+".kif")
			eq(t, "roles", m.roles(), c.role)
			s := m.init()
			eq(t, "legal", m.legal(s, c.role), c.legal...)
			s = m.play(s, "("+c.legal[0]+")")
			if m.terminal(s) != c.terminal {
				t.Errorf("terminal after %s: %v", c.legal[0], !c.terminal)
			}
			if c.goal != "" {
				eq(t, "goal", m.goals(s, c.role), c.goal)
			}
		})
	}
}

func TestProverStateMachineTimeInvariantGoal(t *testing.T) {
	m := load(t, ggpTest+"test_case_1a.kif")
	eq(t, "roles", m.roles(), "you")
	s := m.init()
	if m.terminal(s) {
		t.Error("initial state is terminal")
	}
	eq(t, "goal in the initial state", m.goals(s, "you"), "100")
	s = m.play(s, "(proceed)")
	if !m.terminal(s) {
		t.Error("not terminal after proceed")
	}
	eq(t, "goal", m.goals(s, "you"), "100")
}

func TestProverStateMachineRecursiveLegal(t *testing.T) {
	m := load(t, ggpTest+"test_case_5e.kif")
	eq(t, "roles", m.roles(), "robot")
	eq(t, "legal", m.legal(m.init(), "robot"), "(reduce a 0)", "(reduce a 1)", "(reduce c 0)", "(reduce c 1)",
		"(reduce c 2)", "(reduce c 3)", "(reduce c 4)")
}

func TestProverStateMachineDistinctBeginningRule(t *testing.T) {
	m := load(t, ggpTest+"test_distinct_beginning_rule.kif")
	eq(t, "roles", m.roles(), "you")
	s := m.init()
	if n := len(m.legal(s, "you")); n != 2 {
		t.Errorf("%d legal moves, want 2", n)
	}
	s = m.play(s, "((do a b))")
	if !m.terminal(s) {
		t.Error("not terminal after (do a b)")
	}
	eq(t, "goal", m.goals(s, "you"), "100")
}

const libgdl = "sumedhghaisas__libgdl/data/"

// libgdl gdl_tests: next state, terminal and goal of 3puzzle.
func TestLibgdl3Puzzle(t *testing.T) {
	m := load(t, libgdl+"games/3puzzle.kif")
	s := m.init()
	if m.terminal(s) {
		t.Error("initial state is terminal")
	}
	eq(t, "initial goal", m.goals(s, m.roles()[0]), "0")
	eq(t, "next state after right", m.g.Strings(m.play(s, "(right)").Fluents()),
		"(cell 1 1 3)", "(cell 1 2 b)", "(cell 2 1 2)", "(cell 2 2 1)", "(step 2)")
	s = m.play(s, "(down) (right) (up) (left) (down) (right)")
	if !m.terminal(s) {
		t.Error("not terminal after down right up left down right")
	}
	eq(t, "goal", m.goals(s, m.roles()[0]), "100")
}

func TestLibgdlNineBoardLegal(t *testing.T) {
	m := load(t, libgdl+"games/nine_board_tictactoe.kif")
	s := m.init()
	n := 1
	for _, r := range m.roles() {
		n *= len(m.legal(s, r))
	}
	if n != 81 {
		t.Errorf("%d legal joint moves, want 81", n)
	}
}

// libgdl gdlreasoner_tests, kif_tests and flattener_tests: answer counts of queries.
func TestLibgdlAnswers(t *testing.T) {
	cases := []struct {
		file, query string
		count       int      // -1: at least one
		answers     []string // when given, exactly these
	}{
		{"questions/question1.kif", "(engineer ?x)", 1, []string{"(engineer bajaj)"}},
		{"questions/question2.kif", "(married cam ?x)", 1, []string{"(married cam carrie)"}},
		{"argument_test/hash_test1.kif", "(base ?x)", 302, nil},
		{"flattener_tests/recurse.kif", "(base ?x)", 10, nil},
		{"parser_tests/opt1.kif", "(test2 ?x ?y)", 2, []string{"(test2 1 2)", "(test2 2 1)"}},
		{"games/8puzzle.kif", "(init ?x)", -1, nil},
		// MGUCheckTest asks only that the query is answered. Counted by hand: horizontal holds
		// for the 3 ordered pairs of f, g, h joined by add (f g, g h, f h) on each of 8
		// ranks, for each of 2 roles.
		{"parser_tests/mgu_check.kif", "(input ?x ?y)", 48, nil},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			m := load(t, libgdl+c.file)
			got := m.ask(m.g.empty, c.query)
			if c.count < 0 && len(got) == 0 || c.count >= 0 && len(got) != c.count {
				t.Errorf("%s: %d answers, want %d: %v", c.query, len(got), c.count, got)
			}
			if c.answers != nil {
				eq(t, c.query, got, c.answers...)
			}
		})
	}
}

// libgdl kif_tests: programs without a defined meaning (unstratified negation or recursion,
// unsafe head, negation or disjunction variables) are refused with the analyzer's diagnostics.
func TestLibgdlRefused(t *testing.T) {
	for _, name := range []string{"notunstrat", "headsafe", "notsafe", "orsafe"} {
		t.Run(name, func(t *testing.T) {
			m := load(t, libgdl+"parser_tests/"+name+".kif")
			var refused *RefusedError
			var lastErr error
			// Some relation the game defines must be refused; ask them all.
			for _, r := range m.g.warm().rels {
				if len(r.rules) == 0 && r.refused == nil {
					continue
				}
				q, err := m.g.ParseQuery(pattern(r))
				if err != nil {
					t.Fatal(err)
				}
				if _, err := m.g.Ask(bg, m.g.empty, nil, q); errors.As(err, &refused) {
					lastErr = err
					break
				}
			}
			if refused == nil {
				t.Fatalf("no relation was refused")
			}
			if len(refused.Diagnostics) == 0 {
				t.Fatalf("refusal without diagnostics: %v", lastErr)
			}
			for _, d := range refused.Diagnostics {
				if d.Code != "unsafe-variable" && d.Code != "unstratified-negation" {
					t.Errorf("diagnostic %s: %s", d.Code, d.Message)
				}
			}
		})
	}
}

// libgdl also rejects parser_tests/recurseunstrat, which breaks the recursion restriction (a
// function term built around a recursive variable) but is safe and stratified: its meaning is
// defined, and its minimal model is finite because nothing starts the recursion.
func TestLibgdlRecursionRestriction(t *testing.T) {
	m := load(t, libgdl+"parser_tests/recurseunstrat.kif")
	eq(t, "(test ?x)", m.ask(m.g.empty, "(test ?x)"))
}

// pattern returns a query for every fact of r: (name ?a0 ... ?an).
func pattern(r *relation) string {
	if r.arity == 0 {
		return r.name
	}
	var b strings.Builder
	b.WriteString("(" + r.name)
	for i := 0; i < r.arity; i++ {
		fmt.Fprintf(&b, " ?a%d", i)
	}
	b.WriteString(")")
	return b.String()
}

// The Dresden gamecontroller's MatchTraceBuilderTest re-traces recorded matches: every state,
// every legal move of every role, terminal and the goal values must come out as recorded.
type trace struct {
	Steps []traceStep `xml:"steps>step"`
}

type traceStep struct {
	Nb    int       `xml:"nb,attr"`
	State []string  `xml:"state>fluent"`
	Legal []move    `xml:"legal_moves>move"`
	Moves []move    `xml:"moves>move"`
	Term  *struct{} `xml:"terminal"`
	Goals []move    `xml:"goal_values>goal_value"`
}

type move struct {
	Role string `xml:"role,attr"`
	Text string `xml:",chardata"`
}

const dresden = "arnaudsj__ggpserver/gamecontroller/testdata/"

func readTrace(t *testing.T, name string) trace {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(corpusDir, dresden, "traces", name+".trace.xml"))
	if err != nil {
		corpus.Skipf(t, "SKIPPED: the shared corpus (%s) is not there: %v", corpusDir, err)
	}
	var tr trace
	if err := xml.Unmarshal(data, &tr); err != nil {
		t.Fatal(err)
	}
	if len(tr.Steps) == 0 {
		t.Fatal("the trace has no step")
	}
	return tr
}

// lowerKIF case-folds and normalises the spacing of KIF texts, sorted.
func lowerKIF(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strings.ToLower(strings.Join(strings.Fields(s), " "))
	}
	slices.Sort(out)
	return out
}

// checkStep compares the legal moves of every role, terminal and (in a terminal state) the goal
// values in state s with the trace's step. It reports whether the step is terminal.
func checkStep(t *testing.T, m machine, s *State, st traceStep) bool {
	t.Helper()
	if got := m.terminal(s); got != (st.Term != nil) {
		t.Fatalf("step %d: terminal %v", st.Nb, got)
	}
	if st.Term != nil {
		for _, gv := range st.Goals {
			eq(t, fmt.Sprintf("step %d: goal of %s", st.Nb, gv.Role), lowerKIF(m.goals(s, gv.Role)), strings.TrimSpace(gv.Text))
		}
		if len(st.Goals) != len(m.roles()) {
			t.Errorf("trace has %d goal values for %d roles", len(st.Goals), len(m.roles()))
		}
		return true
	}
	for _, r := range m.roles() {
		var want []string
		for _, mv := range st.Legal {
			if strings.EqualFold(mv.Role, r) {
				want = append(want, mv.Text)
			}
		}
		eq(t, fmt.Sprintf("legal moves of %s in step %d", r, st.Nb), lowerKIF(m.legal(s, r)), lowerKIF(want)...)
	}
	return false
}

// jointOf reads a step's moves as a joint move in role order.
func jointOf(t *testing.T, m machine, st traceStep) []Term {
	t.Helper()
	joint := make([]Term, len(m.g.Roles()))
	for _, mv := range st.Moves {
		mt, err := m.g.ParseTerm(mv.Text)
		if err != nil {
			t.Fatal(err)
		}
		joint[m.role(mv.Role)] = mt
	}
	return joint
}

// replayTrace plays the trace's moves from the initial state and compares every step.
func replayTrace(t *testing.T, m machine, tr trace) {
	t.Helper()
	s := m.init()
	for _, st := range tr.Steps {
		if got, want := lowerKIF(m.g.Strings(s.Fluents())), lowerKIF(st.State); !slices.Equal(got, want) {
			t.Fatalf("state of step %d: %q", st.Nb, diff(got, want))
		}
		if checkStep(t, m, s, st) {
			return
		}
		var err error
		if s, err = nextLegal(bg, m.g, s, jointOf(t, m, st)); err != nil {
			t.Fatalf("step %d: %v", st.Nb, err)
		}
	}
	t.Fatal("the trace has no terminal step")
}

func TestDresdenTraces(t *testing.T) {
	for _, name := range []string{"8puzzle", "checkers", "maze"} {
		t.Run(name, func(t *testing.T) {
			replayTrace(t, load(t, dresden+"games/"+name+".lisp"), readTrace(t, name))
		})
	}
}

// othello-fourway-teamswitch's last two clear rules negate (onaline ?i ?j white ?x ?y black
// ?odir) before ?x and ?y are bound by (coordinate ?x) (coordinate ?y):
//
//	(<= (clear ?i ?j black ?m ?n)
//	    (onalinep ?i ?j white ?m ?n black ?dir) (opp ?dir ?odir)
//	    (not (onaline ?i ?j white ?x ?y black ?odir)) (coordinate ?x) (coordinate ?y))
//
// The gamecontroller evaluates bodies left to right, so it reads the negation as "there is no
// ?x ?y such that ...". GDL's semantics (and ours) read "there are ?x ?y such that not ...",
// which holds for nearly every piece, so clear holds for pieces that the move flips, and the
// frame rule (next (cell ?m ?n white)) <= (true (cell ?m ?n white)) ... (clear ...) keeps them.
// The recorded match follows the gamecontroller's reading, so replaying it diverges at the first
// flip (the move of step 2: in the state of step 3, (cell c5 c4) is white and, for us, also
// black). These tests check the whole trace anyway, two ways.

// From each recorded state: the legal moves of every role, terminal and the goals are as
// recorded in all 121 steps, and the next state differs from the recorded one exactly by the
// pieces the move flips, which our reading keeps in their old colour as well.
func TestDresdenOthelloFromRecordedStates(t *testing.T) {
	const name = "othello-fourway-teamswitch"
	m := load(t, dresden+"games/"+name+".lisp")
	tr := readTrace(t, name)
	other := map[string]string{"white": "black", "black": "white"}
	diverged, flips := 0, 0
	for k, st := range tr.Steps {
		s, err := m.g.ParseState(strings.Join(st.State, " "))
		if err != nil {
			t.Fatalf("step %d: %v", st.Nb, err)
		}
		if checkStep(t, m, s, st) {
			if k != len(tr.Steps)-1 {
				t.Fatalf("step %d is terminal, but the trace goes on", st.Nb)
			}
			break
		}
		if k+1 == len(tr.Steps) {
			t.Fatal("the trace has no terminal step")
		}
		next, err := nextLegal(bg, m.g, s, jointOf(t, m, st))
		if err != nil {
			t.Fatalf("step %d: %v", st.Nb, err)
		}
		now, recorded := lowerKIF(st.State), lowerKIF(tr.Steps[k+1].State)
		// The pieces the recorded move flips: (cell m n c) now, (cell m n other(c)) next.
		var flipped []string
		for _, f := range now {
			var i, j, c string
			if n, _ := fmt.Sscanf(f, "(cell %s %s %s", &i, &j, &c); n == 3 {
				c = strings.TrimSuffix(c, ")")
				if o, ok := other[c]; ok && slices.Contains(recorded, fmt.Sprintf("(cell %s %s %s)", i, j, o)) {
					flipped = append(flipped, "+"+f)
				}
			}
		}
		got := diff(lowerKIF(m.g.Strings(next.Fluents())), recorded)
		eq(t, fmt.Sprintf("next state of step %d minus the recorded step %d", st.Nb, st.Nb+1), got, flipped...)
		if len(got) > 0 {
			diverged++
		}
		flips += len(flipped)
	}
	// The match flips pieces in 60 of its 120 joint moves, 134 pieces in all: the check above
	// ran on each of them.
	if diverged != 60 || flips != 134 {
		t.Errorf("%d steps diverged, %d pieces flipped; want 60 and 134", diverged, flips)
	}
}

// With the two rules rewritten to the gamecontroller's reading, "no ?x ?y such that onaline",
// the match replays exactly from the initial state to its terminal state and goal values.
func TestDresdenOthelloLeftToRightReading(t *testing.T) {
	const name = "othello-fourway-teamswitch"
	src, err := os.ReadFile(filepath.Join(corpusDir, dresden, "games", name+".lisp"))
	if err != nil {
		corpus.Skipf(t, "SKIPPED: the shared corpus (%s) is not there: %v", corpusDir, err)
	}
	text := string(src)
	for _, c := range [][2]string{{"white", "black"}, {"black", "white"}} {
		old := "(not (onaline ?i ?j " + c[0] + " ?x ?y " + c[1] + " ?odir))\n    (coordinate ?x)\n    (coordinate ?y))"
		if strings.Count(text, old) != 1 {
			t.Fatalf("the game no longer has the rule %q", old)
		}
		text = strings.Replace(text, old, "(not (onalineto ?i ?j "+c[0]+" "+c[1]+" ?odir)))", 1)
	}
	text += "\n(<= (onalineto ?i ?j ?c1 ?c2 ?dir) (onaline ?i ?j ?c1 ?x ?y ?c2 ?dir))\n"
	g, _ := Load(text)
	replayTrace(t, machine{t, g}, readTrace(t, name))
}

// diff lists the strings only in got (+) and only in want (-).
func diff(got, want []string) []string {
	var out []string
	for _, g := range got {
		if !slices.Contains(want, g) {
			out = append(out, "+"+g)
		}
	}
	for _, w := range want {
		if !slices.Contains(got, w) {
			out = append(out, "-"+w)
		}
	}
	return out
}

// GGP-Base's StaticValidationTest rejects test_case_3b, 3e and 3f as unsafe. The evaluator
// refuses exactly the relations that need the unsafe rules, with unsafe-variable diagnostics.
func TestProverUnsafeRefused(t *testing.T) {
	for _, c := range []struct{ file, query string }{
		{"test_case_3b", "(distinctCell 1 1 1 2)"},
		{"test_case_3e", "(goal ?r ?v)"},
		{"test_case_3f", "(goal ?r ?v)"},
	} {
		t.Run(c.file, func(t *testing.T) {
			m := load(t, ggpTest+c.file+".kif")
			_, err := m.try(c.query)
			var ref *RefusedError
			if !errors.As(err, &ref) || !hasCode(ref.Diagnostics, "unsafe-variable") {
				t.Fatalf("%s: %v, want a refusal with unsafe-variable", c.query, err)
			}
		})
	}
	// The safe part of test_case_3b still plays.
	m := load(t, ggpTest+"test_case_3b.kif")
	if s := m.init(); !m.terminal(s) {
		t.Error("test_case_3b starts terminal")
	}
}
