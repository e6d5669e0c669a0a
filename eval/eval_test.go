package eval

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
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
		{"(unknown ?x)", nil},
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
	if _, err = m.try("(t 1 2 3 4 ?e)"); !errors.As(err, &lim) || lim.Limit != LimitFacts || lim.Relation != "t/5" {
		t.Fatalf("facts: %v", err)
	}
	// Under the default limits the same relation evaluates, and the game is usable after an error.
	m.g.SetLimits(Limits{})
	if got, err := m.try("(t 1 2 3 4 ?e)"); err != nil || len(got) != 10 {
		t.Fatalf("after the limit: %v %v", got, err)
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
	var ill *IllegalMoveError
	if _, err := m.g.NextLegal(bg, s0, bad[0]); !errors.As(err, &ill) || ill.Role != "xplayer" || ill.Move != "noop" {
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

// The Game serialises concurrent callers (run with -race).
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
