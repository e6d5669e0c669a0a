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
	"strconv"
	"strings"
	"testing"
)

var bg = context.Background()

// machine wraps a game with helpers that fail the test on evaluation errors.
type machine struct {
	t *testing.T
	g *Game
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
		if s, err = m.g.NextLegal(bg, s, j); err != nil {
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
			for _, r := range m.g.rels {
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
	Steps []struct {
		Nb    int       `xml:"nb,attr"`
		State []string  `xml:"state>fluent"`
		Legal []move    `xml:"legal_moves>move"`
		Moves []move    `xml:"moves>move"`
		Term  *struct{} `xml:"terminal"`
		Goals []move    `xml:"goal_values>goal_value"`
	} `xml:"steps>step"`
}

type move struct {
	Role string `xml:"role,attr"`
	Text string `xml:",chardata"`
}

func TestDresdenTraces(t *testing.T) {
	dir := filepath.Join(corpusDir, "arnaudsj__ggpserver/gamecontroller/testdata")
	for _, name := range []string{"8puzzle", "checkers", "maze", "othello-fourway-teamswitch"} {
		t.Run(name, func(t *testing.T) {
			// othello-fourway-teamswitch's clear rules negate (onaline ?i ?j white ?x ?y black
			// ?odir) before ?x and ?y are bound by (coordinate ?x) (coordinate ?y). The
			// gamecontroller evaluates left to right, so it reads "no ?x ?y such that ...";
			// GDL's semantics (and ours) read "some ?x ?y such that not ...". The trace follows
			// the former from step 3 on, where a flipped black piece also stays black for us.
			divergeAt, divergence := 0, []string(nil)
			if name == "othello-fourway-teamswitch" {
				divergeAt, divergence = 3, []string{"+(cell c5 c4 black)"}
			}
			m := load(t, "arnaudsj__ggpserver/gamecontroller/testdata/games/"+name+".lisp")
			data, err := os.ReadFile(filepath.Join(dir, "traces", name+".trace.xml"))
			if err != nil {
				t.Fatal(err)
			}
			var tr trace
			if err := xml.Unmarshal(data, &tr); err != nil {
				t.Fatal(err)
			}
			lower := func(ss []string) []string {
				out := make([]string, len(ss))
				for i, s := range ss {
					out[i] = strings.ToLower(strings.Join(strings.Fields(s), " "))
				}
				slices.Sort(out)
				return out
			}
			s := m.init()
			roles := m.roles()
			for _, st := range tr.Steps {
				if got, want := lower(m.g.Strings(s.Fluents())), lower(st.State); st.Nb == divergeAt {
					eq(t, "known divergence at step "+strconv.Itoa(st.Nb), diff(got, want), divergence...)
					return
				} else if !slices.Equal(got, want) {
					t.Fatalf("state of step %d:\n got %q\nwant %q", st.Nb, got, want)
				}
				if got := m.terminal(s); got != (st.Term != nil) {
					t.Fatalf("step %d: terminal %v", st.Nb, got)
				}
				if st.Term != nil {
					for _, gv := range st.Goals {
						eq(t, "goal of "+gv.Role, lower(m.goals(s, gv.Role)), strings.TrimSpace(gv.Text))
					}
					if len(st.Goals) != len(roles) {
						t.Errorf("trace has %d goal values for %d roles", len(st.Goals), len(roles))
					}
					return
				}
				for _, r := range roles {
					var want []string
					for _, mv := range st.Legal {
						if strings.EqualFold(mv.Role, r) {
							want = append(want, mv.Text)
						}
					}
					eq(t, "legal moves of "+r+" in step "+strconv.Itoa(st.Nb), lower(m.legal(s, r)), lower(want)...)
				}
				joint := make([]Term, len(roles))
				for _, mv := range st.Moves {
					mt, err := m.g.ParseTerm(mv.Text)
					if err != nil {
						t.Fatal(err)
					}
					joint[m.role(mv.Role)] = mt
				}
				if s, err = m.g.NextLegal(bg, s, joint); err != nil {
					t.Fatalf("step %d: %v", st.Nb, err)
				}
			}
			t.Fatal("the trace has no terminal step")
		})
	}
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
