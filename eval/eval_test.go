package eval

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdl-lsp/gdl/syntax"
)

func loadSrc(t *testing.T, src string) machine {
	t.Helper()
	g, _ := Load(src)
	return machine{t, g}
}

// answers asks a query in the empty state and returns its sorted answers, or the error text.
func (m machine) try(query string) ([]string, error) {
	q, err := m.g.ParseQuery(query)
	if err != nil {
		return nil, err
	}
	as, err := m.g.Ask(bg, m.g.empty, nil, q)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, a := range as {
		out = append(out, q.Format(a))
	}
	slices.Sort(out)
	return out, nil
}

func TestSemantics(t *testing.T) {
	m := loadSrc(t, `
		(num 1) (num 2) (num 3) (num 4)
		(succ 1 2) (succ 2 3) (succ 3 4)
		; transitive closure, recursive on both sides
		(<= (lt ?x ?y) (succ ?x ?y))
		(<= (lt ?x ?z) (lt ?x ?y) (lt ?y ?z))
		; negation of a lower stratum, distinct, or
		(<= (max ?x) (num ?x) (not (bigger ?x)))
		(<= (bigger ?x) (lt ?x ?y))
		(<= (pair ?x ?y) (num ?x) (num ?y) (distinct ?x ?y) (or (succ ?x ?y) (succ ?y ?x)))
		; (not (distinct ..)) is equality; (not (or ..)) is a conjunction of negations
		(<= (same ?x ?y) (num ?x) (num ?y) (not (distinct ?x ?y)))
		(<= (middle ?x) (num ?x) (not (or (max ?x) (succ 0 ?x) (succ ?x 2))))
		; function terms, and a variable bound only inside one
		(<= (wrap (f ?x (g ?x))) (num ?x) (lt ?x 2))
		(<= (unwrap ?y) (wrap (f ?x ?y)))
		; zero-arity relations written both ways
		(<= (done) (max 4))
		(<= ok done)
		; a negated literal before the atom that binds its variable
		(<= (late ?x) (not (lt ?x 3)) (num ?x))
	`)
	cases := []struct {
		query string
		want  []string
	}{
		{"(lt 1 ?y)", []string{"(lt 1 2)", "(lt 1 3)", "(lt 1 4)"}},
		{"(lt ?x ?x)", nil},
		{"(max ?x)", []string{"(max 4)"}},
		{"(pair 2 ?y)", []string{"(pair 2 1)", "(pair 2 3)"}},
		{"(same ?x ?x)", []string{"(same 1 1)", "(same 2 2)", "(same 3 3)", "(same 4 4)"}},
		{"(same 1 2)", nil},
		{"(middle ?x)", []string{"(middle 2)", "(middle 3)"}},
		{"(unwrap ?y)", []string{"(unwrap (g 1))"}},
		{"(wrap ?w)", []string{"(wrap (f 1 (g 1)))"}},
		{"done", []string{"done"}},
		{"(ok)", []string{"ok"}},
		{"(late ?x)", []string{"(late 3)", "(late 4)"}},
		{"(lt ?x 3) (not (lt ?x 2))", []string{"(lt 2 3) (not (lt 2 2))"}},
	}
	for _, c := range cases {
		got, err := m.try(c.query)
		if err != nil {
			t.Errorf("%s: %v", c.query, err)
			continue
		}
		eq(t, c.query, got, c.want...)
	}
	if _, err := m.try("(not (lt ?x 2))"); err == nil || !strings.Contains(err.Error(), "?x") {
		t.Errorf("an unsafe query must be refused naming the variable: %v", err)
	}
}

// TestQueryNames: a query of a relation the game never mentions, or with an arity it never
// uses, is an error naming what the game has; relations it mentions without defining are empty.
func TestQueryNames(t *testing.T) {
	m := loadSrc(t, `
		(role r) (init (cell a))
		(<= (legal r (go ?x)) (true (cell ?x)) (not (blocked ?x)))
		(<= (next (cell ?x)) (does r (go ?x)))
		(<= terminal (true (cell b)))
		(goal r 100)
		(step 1) (step 1 2)
	`)
	cases := []struct {
		query string
		err   string   // substring of the error; "" for none
		want  []string // answers when there is no error
	}{
		{"(blocked ?x)", "", nil},
		{"(sees ?r ?p)", "", nil},
		{"(base ?p)", "", nil},
		{"(and (step ?x) (step ?x ?y))", "", []string{"(and (step 1) (step 1 2))"}},
		{"(and (step ?x) (and (step ?x ?y)))", "", []string{"(and (step 1) (and (step 1 2)))"}},
		{"(legl ?r ?m)", "unknown relation legl/2: the game does not mention it (did you mean legal?)", nil},
		{"(legal ?r)", "legal has arity 2 in this game, not 1", nil},
		{"(step ?a ?b ?c)", "step has arity 1 or 2 in this game, not 3", nil},
		{"(cell ?x)", "unknown relation cell/1: in this game cell is a function of arity 1, not a relation", nil},
		{"(go ?x)", "in this game go is a function of arity 1", nil},
		{"a", "unknown relation a/0: in this game a is a constant, not a relation", nil},
		{"(step ?x) (not (zzz ?x))", "unknown relation zzz/1: the game does not mention it", nil},
		{"(step ?x) (or (step ?x 2) (zzz ?x))", "unknown relation zzz/1", nil},
		{"(step ?x) (not (and (step ?x 2)))", "(and ...) is only a conjunction at the top of a query", nil},
	}
	for _, c := range cases {
		got, err := m.try(c.query)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.query, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: error %v, want %q", c.query, err, c.err)
		case c.err == "":
			eq(t, c.query, got, c.want...)
		}
	}
	// A failed query leaves no trace: the unknown relation stays unknown.
	if _, err := m.try("(legl ?r ?m)"); err == nil {
		t.Error("second query of legl: no error")
	}
}

// Every evaluation has a time limit: limits without one take DefaultLimits' timeout.
func TestDefaultTimeLimit(t *testing.T) {
	if DefaultLimits.Timeout <= 0 {
		t.Fatalf("DefaultLimits has no time limit: %+v", DefaultLimits)
	}
	m := loadSrc(t, "(role r)")
	for _, l := range []Limits{{}, {MaxFacts: 10}, {Timeout: -time.Second}} {
		m.g.SetLimits(l)
		if m.g.lim.Load().Timeout != DefaultLimits.Timeout {
			t.Errorf("SetLimits(%+v): timeout %v, want %v", l, m.g.lim.Load().Timeout, DefaultLimits.Timeout)
		}
	}
	if g, _ := Load("(role r)"); g.lim.Load().Timeout != DefaultLimits.Timeout {
		t.Errorf("a new game's timeout is %v", g.lim.Load().Timeout)
	}
}

// A static relation computed whole that asks a demanded relation with nothing bound, for more
// than staticDemandCap answers, is itself switched to demand: sudoku's exactlyOne/10 asks
// exactlyFirst/10 (43 million facts) so, and its goal in any state took minutes, then stopped at
// a limit. Here big/6 has 295,245 facts, small/6 asks it with nothing bound, and the goal asks
// small with every argument bound by the state.
func TestDemandSwitchesCaller(t *testing.T) {
	m := loadSrc(t, `
		(role p) (init (v 1 2 3 4 5 6)) (legal p go) (<= (next (v 1 2 3 4 5 6)) (does p go))
		(i 1) (i 2) (i 3) (i 4) (i 5) (i 6) (i 7) (i 8) (i 9)
		(<= (big ?z ?a ?b ?c ?d ?e) (i ?z) (i ?a) (i ?b) (i ?c) (i ?d) (i ?e)
			(distinct ?z ?b) (distinct ?z ?c) (distinct ?z ?d) (distinct ?z ?e))
		(<= (small ?z ?a ?b ?c ?d ?e) (big ?z ?a ?b ?c ?d ?e))
		(<= (small ?z ?a ?b ?c ?d ?e) (big ?z ?b ?a ?c ?d ?e))
		(<= found (true (v ?z ?a ?b ?c ?d ?e)) (small ?z ?a ?b ?c ?d ?e))
		(<= (goal p 100) found)
		(<= (goal p 0) (not found))
		(<= terminal (true (v 9 9 9 9 9 9)))
	`)
	m.g.SetLimits(Limits{MaxFacts: 250_000})
	eq(t, "goal", m.goals(m.init(), "p"), "100")
}

// A limit reached in a reachable state ends that playout with a violation that names the moves
// reaching it; the other playouts go on. A refusal is still an error.
func TestPlayoutEvaluationError(t *testing.T) {
	data, err := os.ReadFile("../testdata/games/growing.kif")
	if err != nil {
		t.Fatal(err)
	}
	g, _ := Load(string(data))
	g.SetLimits(Limits{MaxDepth: 4})
	rng := rand.New(rand.NewPCG(5, 5))
	terminal, wins, limited := 0, 0, 0
	for i := 0; i < 30; i++ {
		res, err := g.Playout(bg, rng, 100)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case res.Terminal && len(res.Violations) == 0:
			terminal++
			if len(res.Goals[0]) == 1 && g.String(res.Goals[0][0]) == "100" {
				wins++
			}
		case len(res.Violations) == 1:
			v := res.Violations[0]
			var lim *LimitError
			if v.Kind != ViolationEval || !errors.As(v.Err, &lim) || lim.Limit != LimitDepth || lim.Relation != "next/1" || len(v.Moves) != 4 {
				t.Errorf("violation %+v", v)
			}
			limited++
		default:
			t.Errorf("playout %d: terminal %v, violations %+v", i, res.Terminal, res.Violations)
		}
	}
	if terminal == 0 || limited == 0 || wins != terminal {
		t.Errorf("terminal %d (won %d), stopped by the depth limit %d", terminal, wins, limited)
	}

	refused, _ := Load("(role r) (init (c ?x)) (legal r go) (<= terminal (true (c 1)))")
	if _, err := refused.Playout(bg, rand.New(rand.NewPCG(1, 1)), 10); err == nil {
		t.Error("a refused initial state gave no error")
	} else if r := (*RefusedError)(nil); !errors.As(err, &r) {
		t.Errorf("refusal: %v", err)
	}
}

func TestSpellingAndCase(t *testing.T) {
	m := loadSrc(t, "(ROLE Xplayer) (INIT (Cell A)) (<= (LEGAL ?p (Mark ?c)) (role ?p) (true (cell ?c)))")
	eq(t, "roles", m.roles(), "Xplayer")
	s := m.init()
	eq(t, "state", m.g.Strings(s.Fluents()), "(Cell A)")
	eq(t, "legal", m.legal(s, "xplayer"), "(Mark A)")
	got, err := m.g.ParseQuery("(legal XPLAYER ?m)")
	if err != nil {
		t.Fatal(err)
	}
	as, _ := m.g.Ask(bg, s, nil, got)
	if len(as) != 1 || got.Format(as[0]) != "(LEGAL Xplayer (Mark A))" {
		t.Errorf("answers %v", as)
	}
}

func TestLimits(t *testing.T) {
	grow := "(role r) (p 0)\n(<= (p (s ?x)) (p ?x))\n"
	m := loadSrc(t, grow)
	m.g.SetLimits(Limits{MaxDepth: 20})
	_, err := m.try("(p ?x)")
	var lim *LimitError
	if !errors.As(err, &lim) || lim.Limit != LimitDepth || lim.Relation != "p/1" || lim.Line != 2 {
		t.Fatalf("depth: %#v", err)
	}
	if !strings.Contains(err.Error(), "term depth limit 20") || !strings.Contains(err.Error(), "p/1") {
		t.Errorf("message: %v", err)
	}

	wide := "(role r) (n 0) (n 1) (n 2) (n 3) (n 4) (n 5) (n 6) (n 7) (n 8) (n 9)\n" +
		"(<= (t ?a ?b ?c ?d ?e) (n ?a) (n ?b) (n ?c) (n ?d) (n ?e))\n"
	m = loadSrc(t, wide)
	m.g.SetLimits(Limits{MaxFacts: 5000})
	// All of t/5 (100,000 facts): asked with arguments bound, it is evaluated on demand.
	if _, err = m.try("(t ?a ?b ?c ?d ?e)"); !errors.As(err, &lim) || lim.Limit != LimitFacts || lim.Relation != "t/5" {
		t.Fatalf("facts: %v", err)
	}
	// Under the default limits the same relation evaluates, and the game is usable after an error.
	m.g.SetLimits(Limits{})
	if got, err := m.try("(t 1 2 3 4 ?e)"); err != nil || len(got) != 10 {
		t.Fatalf("after the limit: %v %v", got, err)
	}

	// Query answers count against MaxFacts like derived facts: a cross product of three
	// relations has 1,000 answers and no derived fact.
	m.g.SetLimits(Limits{MaxFacts: 500})
	_, err = m.try("(n ?a) (n ?b) (n ?c)")
	if !errors.As(err, &lim) || lim.Limit != LimitFacts || lim.Query != "(n ?a) (n ?b) (n ?c)" ||
		!strings.Contains(err.Error(), "more than 500 facts derived (answers included) while answering (n ?a) (n ?b) (n ?c)") {
		t.Fatalf("answers: %v", err)
	}
	m.g.SetLimits(Limits{MaxFacts: 1000})
	if got, err := m.try("(n ?a) (n ?b) (n ?c)"); err != nil || len(got) != 1000 {
		t.Fatalf("1,000 answers under a limit of 1,000: %d, %v", len(got), err)
	}

	// Issue 22, item 1: a state that doubles on every move stops at MaxState, while its next
	// facts are derived; a smaller state is played as before.
	doubling := "(role a) (init (c z)) (<= (legal a go) (true (c ?x))) (<= (next (c (f ?x))) (true (c ?x))) " +
		"(<= (next (c (g ?x))) (true (c ?x))) (<= terminal (true (c done))) (<= (goal a 0) (true (c z)))\n"
	m = loadSrc(t, doubling)
	m.g.SetLimits(Limits{MaxState: 100})
	s, err := m.g.Initial(bg)
	goMove, _ := m.g.ParseTerm("go")
	go1 := []Term{goMove}
	for step := 1; err == nil; step++ {
		var next *State
		if next, err = m.g.Next(bg, s, go1); err == nil {
			if len(next.Fluents()) != 2*len(s.Fluents()) || step > 6 {
				t.Fatalf("step %d: %d fluents", step, len(next.Fluents()))
			}
			s = next
		}
	}
	if !errors.As(err, &lim) || lim.Limit != LimitState || lim.Relation != "next/1" || len(s.Fluents()) != 64 ||
		!strings.Contains(err.Error(), "a state of more than 100 fluents while deriving next/1") {
		t.Fatalf("state size: %v after a state of %d", err, len(s.Fluents()))
	}

	slow := "(role r) (n 0) (n 1) (n 2) (n 3) (n 4) (n 5) (n 6) (n 7) (n 8) (n 9)\n" +
		"(<= (q ?a) (n ?a) (n ?b) (n ?c) (n ?d) (n ?e) (n ?f) (n ?g) (n ?h) (distinct ?h ?h))\n"
	m = loadSrc(t, slow)
	m.g.SetLimits(Limits{Timeout: 50 * time.Millisecond})
	start := time.Now()
	if _, err = m.try("(q ?a)"); !errors.As(err, &lim) || lim.Limit != LimitTime || lim.Relation != "q/1" {
		t.Fatalf("time: %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the time limit took %v to act", d)
	}
	m.g.SetLimits(Limits{})
	ctx, cancel := context.WithCancel(bg)
	go func() { time.Sleep(20 * time.Millisecond); cancel() }()
	q, _ := m.g.ParseQuery("(q ?a)")
	if _, err = m.g.Ask(ctx, m.g.empty, nil, q); !errors.As(err, &lim) || lim.Limit != LimitCanceled || !errors.Is(err, context.Canceled) {
		t.Fatalf("cancel: %v", err)
	}
}

func TestRefusal(t *testing.T) {
	m := loadSrc(t, `(role r) (a 1)
		(<= (unsafe ?x ?y) (a ?x))
		(<= (uses ?x) (unsafe ?x 1))
		(<= (p ?x) (a ?x) (not (q ?x)))
		(<= (q ?x) (a ?x) (not (p ?x)))
		(<= (fine ?x) (a ?x))
		(<= (broken ?x) (a ?x) (b ?x`)
	for _, c := range []struct{ query, code string }{
		{"(unsafe ?x ?y)", "unsafe-variable"},
		{"(uses ?x)", "unsafe-variable"},
		{"(p ?x)", "unstratified-negation"},
	} {
		_, err := m.try(c.query)
		var ref *RefusedError
		if !errors.As(err, &ref) {
			t.Errorf("%s: %v, want a refusal", c.query, err)
			continue
		}
		found := false
		for _, d := range ref.Diagnostics {
			found = found || d.Code == c.code
		}
		if !found {
			t.Errorf("%s: diagnostics %v, want %s", c.query, ref.Diagnostics, c.code)
		}
	}
	if _, err := m.try("(broken ?x)"); err == nil {
		t.Error("a relation defined in a form with syntax errors must be refused")
	}
	// Issue 22, item 5: the analysis lists a file's first syntax.MaxErrors syntax errors; a
	// broken form after them is refused with its own.
	late := loadSrc(t, strings.Repeat(")", syntax.MaxErrors+1)+"\n(role r) (a 1)\n(<= (late ?x) (a ?x) (b ?))\n(<= (uses ?x) (late ?x))\n")
	var ref *RefusedError
	if _, err := late.try("(late ?x)"); !errors.As(err, &ref) || len(ref.Diagnostics) == 0 || ref.Diagnostics[0].Code != syntax.CodeEmptyVariable {
		t.Errorf("a broken form after %d syntax errors: %v", syntax.MaxErrors+1, err)
	}
	got, err := m.try("(fine ?x)")
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "fine", got, "(fine 1)")
}

func TestGameAPI(t *testing.T) {
	m := load(t, "ggp-org__ggp-base/games/games/ticTacToe/ticTacToe.kif")
	s0 := m.init()
	joints, err := m.g.ParseJointMoves("((mark 2 2) noop)")
	if err != nil {
		t.Fatal(err)
	}
	s1, err := m.g.Next(bg, s0, joints[0])
	if err != nil {
		t.Fatal(err)
	}
	// Interleaved questions about two states give the same answers as fresh ones.
	a := m.legal(s1, "oplayer")
	b := m.legal(s0, "xplayer")
	eq(t, "oplayer after (mark 2 2)", m.legal(s1, "oplayer"), a...)
	eq(t, "xplayer initially", m.legal(s0, "xplayer"), b...)
	if len(a) != 8 || len(b) != 9 {
		t.Errorf("legal counts %d %d", len(a), len(b))
	}
	again, _ := m.g.Next(bg, s0, joints[0])
	if !again.Equal(s1) {
		t.Error("Next is not deterministic")
	}
	st, err := m.g.ParseState("(cell 1 1 x) (cell 1 2 x) (cell 1 3 x) (control oplayer)")
	if err != nil {
		t.Fatal(err)
	}
	if !m.terminal(st) {
		t.Error("a row of x is terminal")
	}
	eq(t, "goal", m.goals(st, "xplayer"), "100")
	// A query about a joint move: next.
	q, _ := m.g.ParseQuery("(next (cell 2 2 ?m))")
	if !q.NeedsMove() {
		t.Error("next needs a move")
	}
	as, err := m.g.Ask(bg, s0, joints[0], q)
	if err != nil || len(as) != 1 || q.Format(as[0]) != "(next (cell 2 2 x))" {
		t.Errorf("next: %v %v", as, err)
	}
	// Illegal moves.
	bad, _ := m.g.ParseJointMoves("(noop noop)")
	var ill *illegalMoveError
	if _, err := nextLegal(bg, m.g, s0, bad[0]); !errors.As(err, &ill) || ill.Role != "xplayer" || ill.Move != "noop" {
		t.Errorf("illegal: %v", err)
	}
}

func TestSees(t *testing.T) {
	m := loadSrc(t, `(role a) (role random)
		(init (hidden 1))
		(<= (legal random (hide ?n)) (n ?n))
		(legal a look)
		(n 1) (n 2)
		(<= (sees a (was ?n)) (does random (hide ?n)))
		(<= (next (hidden ?n)) (does random (hide ?n)))
		(<= terminal (true (hidden 2)))`)
	s := m.init()
	j, _ := m.g.ParseJointMoves("(look (hide 2))")
	sees, err := m.g.Sees(bg, s, j[0])
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "sees a", m.g.Strings(sees[0]), "(was 2)")
	eq(t, "sees random", m.g.Strings(sees[1]))
}

// Concurrent callers of one Program each evaluate on a session of their own (run with -race).
func TestConcurrentUse(t *testing.T) {
	m := load(t, "ggp-org__ggp-base/games/games/ticTacToe/ticTacToe.kif")
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := m.g.Initial(bg)
			if err != nil {
				t.Error(err)
				return
			}
			for k := 0; k < 20; k++ {
				ls, err := m.g.Legal(bg, s)
				if err != nil || len(ls[0]) != 9 {
					t.Errorf("legal: %v %v", ls, err)
					return
				}
			}
		}()
	}
	wg.Wait()
}
