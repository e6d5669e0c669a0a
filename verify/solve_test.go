package verify

import (
	"strings"
	"testing"

	"github.com/gdl-lsp/gdl/game"
)

// minimax is the plain value of a turn-taking two-player game (the first role's goal under
// perfect play), memoised by state key: no windows, no bounds, to check the solver against.
func minimax(t *testing.T, g *game.Game, s *game.State, memo map[string]int) int {
	if v, ok := memo[s.Key()]; ok {
		return v
	}
	if term, _ := g.Terminal(bg, s); term {
		vals, _ := g.GoalValues(bg, s)
		memo[s.Key()] = vals[0]
		return vals[0]
	}
	legal, err := g.Legal(bg, s)
	if err != nil {
		t.Fatal(err)
	}
	joints, _, _ := g.JointMoves(bg, s, 1<<20)
	best := -1
	for _, j := range joints {
		n, err := g.Next(bg, s, j)
		if err != nil {
			t.Fatal(err)
		}
		v := minimax(t, g, n, memo)
		if best < 0 || len(legal[1]) > 1 && v < best || len(legal[1]) <= 1 && v > best {
			best = v
		}
	}
	memo[s.Key()] = best
	return best
}

// The solver's value of every first move equals plain minimax.
func TestSolveAgreesWithMinimax(t *testing.T) {
	for _, c := range []struct {
		path  string
		value int
		best  string
	}{
		{"../testdata/games/tictactoe.kif", 50, "(mark 1 1) (mark 1 2) (mark 1 3) (mark 2 1) (mark 2 2) (mark 2 3) (mark 3 1) (mark 3 2) (mark 3 3)"},
		{"../testdata/games/nim.kif", 100, "(take a 2)"},
		{"../testdata/games/lastcoin.kif", 100, "(take 2)"},
	} {
		for _, e := range engines {
			g := load(t, c.path, game.Auto)
			if e == game.Interpreted {
				g = load(t, c.path, e)
			}
			sol, err := Solve(bg, g, SolveOptions{})
			if err != nil || !sol.Solved {
				t.Fatalf("%s: %v %+v", c.path, err, sol)
			}
			var best []string
			for _, mv := range sol.Best {
				best = append(best, mv.Text)
			}
			if sol.Values[0] != c.value || sol.Values[1] != 100-c.value || strings.Join(best, " ") != c.best {
				t.Errorf("%s %s: values %v, best %v", c.path, e, sol.Values, best)
			}
			init, _ := g.Initial(bg)
			memo := map[string]int{}
			if v := minimax(t, g, init, memo); v != sol.Values[0] {
				t.Errorf("%s: minimax %d, solver %d", c.path, v, sol.Values[0])
			}
			joints, _, _ := g.JointMoves(bg, init, 100)
			for i, j := range joints {
				n, _ := g.Next(bg, init, j)
				if v := minimax(t, g, n, memo); v != sol.Moves[i].Value {
					t.Errorf("%s: first move %s: minimax %d, solver %d", c.path, sol.Moves[i].Text, v, sol.Moves[i].Value)
				}
			}
		}
	}
}

// passing lets the roles pass for ever: a cycle.
const passing = `(role a) (role b)
(init (control a))
(<= (legal ?r pass) (true (control ?r)))
(<= (legal ?r win) (true (control ?r)))
(<= (legal ?r noop) (role ?r) (not (true (control ?r))))
(<= (next (control b)) (true (control a)))
(<= (next (control a)) (true (control b)))
(<= (next (won ?r)) (does ?r win))
(<= terminal (true (won ?r)))
(<= (goal ?r 100) (true (won ?r)))
(<= (goal ?r 0) (role ?r) (not (true (won ?r))))
`

// Games outside the solver's class say why; a budget too small too.
func TestSolveRefuses(t *testing.T) {
	for _, c := range []struct {
		path, src string
		max       int
		why       string
	}{
		{path: "../testdata/games/race3.kif", why: "not a game of two players"},
		{path: "../testdata/verify/chance.kif", why: "not a game of two players"},
		{path: "../testdata/verify/clean.kif", why: "both roles choose a move at the same time"},
		{path: "../testdata/games/sim.kif", max: 100, why: "more than 100 positions"},
		{src: passing, why: "a cycle"},
		{src: strings.NewReplacer("(<= (goal ?r 0) (role ?r) (not (true (won ?r))))", "(<= (goal ?r 100) (role ?r))",
			"(<= (legal ?r pass) (true (control ?r)))", "").Replace(passing), why: "not zero-sum"},
	} {
		var g *game.Game
		if c.src != "" {
			var err error
			if g, _, err = game.Load(bg, c.src, game.Options{}); err != nil {
				t.Fatal(err)
			}
		} else {
			g = load(t, c.path, game.Auto)
		}
		sol, err := Solve(bg, g, SolveOptions{MaxStates: c.max})
		if err != nil || sol.Solved || !strings.Contains(sol.Why, c.why) {
			t.Errorf("%s: %v %+v, want %q", c.path, err, sol, c.why)
		}
	}
}

func TestStats(t *testing.T) {
	g := load(t, "../testdata/verify/trap.kif", game.Compiled)
	st, err := Stats(bg, g, StatsOptions{Playouts: 50})
	if err != nil {
		t.Fatal(err)
	}
	// A cycle: no longest match; the roles press at the same time: no solution.
	if !st.Complete || st.States != 66 || st.ShortestMatch != 10 || st.LongestMatch != -1 || st.TurnTaking ||
		st.JointMax != 16 || st.Roles[0].BranchMax != 4 || st.Solution == nil || st.Solution.Solved || st.Play.Playouts != 50 ||
		st.Solution.Why != "the roles move at the same time in some states, and the solver needs them to take turns" {
		t.Errorf("trap: %+v", st)
	}
	g = load(t, "../testdata/verify/chance.kif", game.Compiled)
	st, err = Stats(bg, g, StatsOptions{Playouts: 50})
	if err != nil {
		t.Fatal(err)
	}
	// random hides first, yet the player is the first role; it has no other player to beat.
	if st.FirstRole != "player" || st.FirstAdvantage != 0 || st.LongestMatch != 2 || st.Roles[0].TerminalGoals[100] != 2 || st.Roles[1].TerminalGoals[-1] != 4 {
		t.Errorf("chance: %+v", st)
	}
	g = load(t, "../testdata/games/tictactoe.kif", game.Compiled)
	st, err = Stats(bg, g, StatsOptions{Playouts: 50, SolveStates: -1})
	if err != nil || st.Solution != nil || st.LongestMatch != 9 || !st.TurnTaking {
		t.Errorf("tic-tac-toe without solving: %v %+v", err, st)
	}
}
