package game

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/syntax"
)

var bg = context.Background()

func load(t *testing.T, src string, e Engine) *Game {
	t.Helper()
	g, _, err := Load(bg, src, Options{Engine: e})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func loadFile(t *testing.T, path string, e Engine) *Game {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return load(t, string(src), e)
}

// Both engines refuse the same moves with the same errors: a move after the end of the game, an
// illegal move, a joint move of the wrong size.
func TestNextErrors(t *testing.T) {
	for _, e := range []Engine{Compiled, Interpreted} {
		g := loadFile(t, "../testdata/games/tictactoe.kif", e)
		if g.Engine() != e {
			t.Fatalf("engine %s, want %s", g.Engine(), e)
		}
		joints, err := g.ParseJointMoves("((mark 1 1) noop) (noop (mark 2 1)) ((mark 1 2) noop) (noop (mark 2 2)) ((mark 1 3) noop)")
		if err != nil {
			t.Fatal(err)
		}
		p, err := g.Replay(bg, joints)
		if err != nil || p.Err != nil || len(p.States) != 6 {
			t.Fatalf("%s: replay %v %v", e, err, p.Err)
		}
		if term, _ := g.Terminal(bg, p.State()); !term {
			t.Errorf("%s: not terminal after xplayer's row", e)
		}
		more, _ := g.ParseJointMoves("(noop (mark 3 3))")
		p, _ = g.Replay(bg, append(joints, more...))
		var over *GameOverError
		if !errors.As(p.Err, &over) || len(p.Moves) != 5 ||
			p.Err.Error() != "joint move 6 (noop (mark 3 3)): the state after joint move 5 is terminal; the game is over, so no move can be played" {
			t.Errorf("%s: after the end: %v", e, p.Err)
		}
		bad, _ := g.ParseJointMoves("((mark 1 1) noop) ((mark 1 1) noop)")
		p, _ = g.Replay(bg, bad)
		var ill *IllegalMoveError
		if !errors.As(p.Err, &ill) || ill.Role != "xplayer" || ill.Move != "(mark 1 1)" ||
			p.Err.Error() != "joint move 2 ((mark 1 1) noop): (mark 1 1) is not a legal move of role xplayer" {
			t.Errorf("%s: illegal: %v", e, p.Err)
		}
		s, _ := g.Initial(bg)
		var je *JointError
		if _, err := g.Next(bg, s, joints[0][:1]); !errors.As(err, &je) {
			t.Errorf("%s: short joint move: %v", e, err)
		}
	}
}

// The example of the architecture issue: a query of next is about a joint move whatever next's
// rules read, so adding an unrelated rule that reads does changes no answer but its own.
func TestNextQueryMeaning(t *testing.T) {
	base := "(role r) (init (s 1)) (legal r go) (<= (next (s 2)) (true (s 1))) (<= terminal (true (s 2))) (goal r 100)"
	for _, src := range []string{base, base + " (<= (next moved) (does r go))"} {
		for _, e := range []Engine{Compiled, Interpreted} {
			g := load(t, src, e)
			q, err := g.ev.ParseQuery("(next ?x)")
			if err != nil {
				t.Fatal(err)
			}
			if !q.NeedsMove() {
				t.Errorf("%q: (next ?x) is not about a joint move", src)
			}
			s, _ := g.Initial(bg)
			a, err := g.Evaluate(bg, s, q, QueryOptions{})
			if err != nil {
				t.Fatal(err)
			}
			want := []string{"(next (s 2))"}
			if strings.Contains(src, "moved") {
				want = append(want, "(next moved)")
			}
			if !slices.Equal(a.Answers, want) || len(a.ByMove) != 1 || a.JointMoves != 1 {
				t.Errorf("%s %q: %v (by move %v)", e, src, a.Answers, a.ByMove)
			}
		}
	}
}

// A game that does not ground (its state grows without bound) runs on the interpreter under
// auto, saying why, and cannot run under compiled; one whose ground rules are recursive compiles.
func TestEngineChoice(t *testing.T) {
	src, err := os.ReadFile("../testdata/games/growing.kif")
	if err != nil {
		t.Fatal(err)
	}
	g, _, err := Load(bg, string(src), Options{})
	if err != nil || g.Engine() != Interpreted || !strings.Contains(g.Why(), "term depth limit") {
		t.Errorf("auto: %v, engine %s, why %q", err, g.Engine(), g.Why())
	}
	if _, _, err := Load(bg, string(src), Options{Engine: Compiled}); err == nil || !strings.Contains(err.Error(), "compiled engine cannot run") {
		t.Errorf("compiled: %v", err)
	}
	for _, name := range []string{"tictactoe", "reach"} {
		g = loadFile(t, "../testdata/games/"+name+".kif", Auto)
		if g.Engine() != Compiled || g.Why() != "" || g.NetStats() == "" {
			t.Errorf("%s under auto: %s %q", name, g.Engine(), g.Why())
		}
	}
}

// TestEngineReasonOnce: the interpreter's reason for a game whose legal has no defined meaning
// says so once, and eval's Refused names the relation however the game starts (issue 23,
// item 12: "legal/2 has no defined meaning: legal/2 has no defined meaning: ...").
func TestEngineReasonOnce(t *testing.T) {
	const src = "(role x)\n(init (c 1))\n(<= (legal x go) (true (c 1))\n(<= (next (c 2)) (true (c 1)))\n(<= terminal (true (c 1)))\n(goal x 100)\n"
	g := load(t, src, Auto)
	if g.Engine() != Interpreted || strings.Count(g.Why(), "has no defined meaning") != 1 || !strings.HasPrefix(g.Why(), "legal/2 has no defined meaning: '(' is never closed") {
		t.Errorf("engine %s, why %q", g.Engine(), g.Why())
	}
	var ref *eval.RefusedError
	if err := g.ev.Refused(); !errors.As(err, &ref) || ref.Relation != "legal/2" {
		t.Errorf("Refused: %v", err)
	}
	if err := loadFile(t, "../testdata/games/tictactoe.kif", Interpreted).ev.Refused(); err != nil {
		t.Errorf("tictactoe: %v", err)
	}
}

// A Cache makes a game once per text and options, keeps the last ones it was given room for,
// and a nil Cache makes each anew.
func TestCache(t *testing.T) {
	analyse := func(src string) *analysis.Result {
		f, _ := syntax.Parse(src)
		return analysis.Analyze(f, nil)
	}
	src, _ := os.ReadFile("../testdata/games/nim.kif")
	cache := NewCache(2)
	a, err := cache.Game(bg, analyse(string(src)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := cache.Game(bg, analyse(string(src)), Options{})
	c, _ := cache.Game(bg, analyse(string(src)+"\n; a comment"), Options{})
	d, _ := cache.Game(bg, analyse(string(src)), Options{Engine: Interpreted})
	if a != b || a == c || a == d || d.Engine() != Interpreted {
		t.Errorf("same text: %v, other text: %v, other options: %v", a == b, a == c, a == d)
	}
	// Room for two: c and d are kept, a was dropped.
	if e, _ := cache.Game(bg, analyse(string(src)), Options{}); e == a {
		t.Error("a cache of 2 kept 3 games")
	}
	var none *Cache
	e, _ := none.Game(bg, analyse(string(src)), Options{})
	f, _ := none.Game(bg, analyse(string(src)), Options{})
	if e == nil || e == f {
		t.Errorf("a nil cache: %p and %p", e, f)
	}
	if other, _ := NewCache(8).Game(bg, analyse(string(src)), Options{}); other == b {
		t.Error("two caches share a game: a cache is its owner's, not the process's")
	}
}

// States are values: equal states have equal keys, on both engines.
func TestStateKeys(t *testing.T) {
	for _, e := range []Engine{Compiled, Interpreted} {
		g := loadFile(t, "../testdata/games/tictactoe.kif", e)
		j1, _ := g.ParseJointMoves("((mark 1 1) noop) (noop (mark 2 2))")
		j2, _ := g.ParseJointMoves("((mark 2 2) noop) (noop (mark 1 1))")
		j3, _ := g.ParseJointMoves("((mark 1 1) noop) (noop (mark 2 3))")
		p1, _ := g.Replay(bg, j1)
		p2, _ := g.Replay(bg, j2)
		p3, _ := g.Replay(bg, j3)
		if p1.State().Key() == p2.State().Key() || p1.State().Key() == p3.State().Key() {
			t.Errorf("%s: different states share a key", e)
		}
		j4, _ := g.ParseJointMoves("((mark 1 1) noop) (noop (mark 2 2))")
		p4, _ := g.Replay(bg, j4)
		if !p1.State().Equal(p4.State()) {
			t.Errorf("%s: equal states differ", e)
		}
	}
}

// Simulate plays to the end from any state, on both engines.
func TestSimulate(t *testing.T) {
	for _, e := range []Engine{Compiled, Interpreted} {
		g := loadFile(t, "../testdata/games/tictactoe.kif", e)
		j, _ := g.ParseJointMoves("((mark 2 2) noop)")
		p, _ := g.Replay(bg, j)
		rng := rand.New(rand.NewPCG(1, 1))
		for i := 0; i < 50; i++ {
			sim, err := g.Simulate(bg, p.State(), rng, 100)
			if err != nil || !sim.Terminal || sim.Depth < 4 || sim.Goals[0]+sim.Goals[1] != 100 {
				t.Fatalf("%s: %+v %v", e, sim, err)
			}
		}
	}
}

// SimulateAll plays to the end from each of many states, on both engines (the compiled one 64 at
// a time, more than 64 states here), the same again with the same seed.
func TestSimulateAll(t *testing.T) {
	for _, e := range []Engine{Compiled, Interpreted} {
		g := loadFile(t, "../testdata/games/tictactoe.kif", e)
		var states []*State
		for _, moves := range []string{"", "((mark 2 2) noop)", "((mark 1 1) noop) (noop (mark 2 2))"} {
			j, _ := g.ParseJointMoves(moves)
			p, _ := g.Replay(bg, j)
			for range 30 {
				states = append(states, p.State())
			}
		}
		sims, err := g.SimulateAll(bg, states, 9, 100)
		if err != nil {
			t.Fatal(err)
		}
		again, _ := g.SimulateAll(bg, states, 9, 100)
		for i, sim := range sims {
			if !sim.Terminal || sim.Goals[0]+sim.Goals[1] != 100 || sim.Depth < 5-2*(i/30) {
				t.Fatalf("%s: playout %d: %+v", e, i, sim)
			}
			if sim.Depth != again[i].Depth || !slices.Equal(sim.Goals, again[i].Goals) {
				t.Fatalf("%s: playout %d: %+v, with the same seed %+v", e, i, sim, again[i])
			}
		}
	}
}

// A text that a build could not compile is remembered for that build only: another build (which
// may ground it) tries again.
func TestRememberedFailureIsPerBuild(t *testing.T) {
	t.Setenv(CacheEnv, t.TempDir())
	src, err := os.ReadFile("../testdata/games/tictactoe.kif")
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Engine: Auto, RememberFailures: true, Ground: eval.GroundLimits{MaxRules: 3}}
	why := func() string {
		g, _, err := Load(bg, string(src), opts)
		if err != nil {
			t.Fatal(err)
		}
		if g.Engine() != Interpreted {
			t.Fatalf("engine %s with at most 3 ground rules", g.Engine())
		}
		return g.Why()
	}
	if w := why(); strings.Contains(w, "remembered") {
		t.Fatalf("first run: %q", w)
	}
	if w := why(); !strings.Contains(w, "remembered") {
		t.Fatalf("second run of the same build: %q, want the remembered failure", w)
	}
	old := buildStamp
	defer func() { buildStamp = old }()
	buildStamp = func() string { return "another build" }
	if w := why(); strings.Contains(w, "remembered") {
		t.Fatalf("another build: %q, want a new grounding", w)
	}
}

// A state written by hand without a fluent that never changes in play (a wall) is answered by
// the interpreter: the network reads such fluents from init.
func TestHandWrittenStateWithoutConstantFluent(t *testing.T) {
	src := `(role p) (init (at 1)) (init (wall 2)) (init (step 0))
		(succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4)
		(legal p right)
		(<= (next (at ?y)) (true (at ?x)) (succ ?x ?y) (not (true (wall ?x))))
		(<= (next (at ?x)) (true (at ?x)) (true (wall ?x)))
		(<= (next (wall ?x)) (true (wall ?x)))
		(<= (next (step ?n)) (true (step ?m)) (succ ?m ?n))
		(<= terminal (true (step 3)))
		(<= (goal p 100) (true (at 3)))
		(<= (goal p 0) (not (true (at 3))))`
	var got [2][]string
	for i, e := range []Engine{Compiled, Interpreted} {
		g := load(t, src, e)
		if g.Engine() != e {
			t.Fatalf("engine %s, want %s", g.Engine(), e)
		}
		es, err := g.ev.ParseState("(at 2) (step 0)")
		if err != nil {
			t.Fatal(err)
		}
		s := g.StateOf(es.Fluents())
		legal, err := g.Legal(bg, s)
		if err != nil {
			t.Fatal(err)
		}
		next, err := g.Next(bg, s, []eval.Term{legal[0][0]})
		if err != nil {
			t.Fatal(err)
		}
		got[i] = g.Strings(next.Fluents())
	}
	if !slices.Equal(got[0], got[1]) {
		t.Errorf("after right from (at 2) without the wall: compiled %v, interpreted %v", got[0], got[1])
	}
}
