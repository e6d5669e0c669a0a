package prolog_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/prolog"
)

// plainGames terminate in SWI-Prolog without tabling: their recursive relations (sim's before,
// lastcoin's goal, speedChess's, chess's and othello's lines along the board) recurse over
// finite chains, never left-recursively nor through a cycle of facts. Corpus games are used when
// ../shared/games is there.
var plainGames = []string{
	"../testdata/games/tictactoe.kif",
	"../testdata/games/sim.kif",
	"../testdata/games/nim.kif",
	"../testdata/games/montyhall.kif",
	"../testdata/games/buttons.kif",
	"../testdata/games/race3.kif",
	"../testdata/games/lastcoin.kif",
	corpus + "/ggp-org__ggp-base/games/games/ticTacToe/ticTacToe.kif",
	corpus + "/ggp-org__ggp-base/games/games/connectFour/connectFour.kif",
	corpus + "/ggp-org__ggp-repository/war/root/games/breakthrough/breakthrough.kif",
	corpus + "/ggp-org__ggp-repository/war/root/games/speedChess/speedChess.kif",
	corpus + "/ggp-org__ggp-repository/war/root/games/chess/chess.kif",
	corpus + "/ggp-org__ggp-repository/war/root/games/othello-comp2007/othello-comp2007.kif",
}

// convertBoth returns the game and its tabled and plain translations.
func convertBoth(t *testing.T, path string) (*eval.Program, string, string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	g, res := eval.Load(string(data))
	tabled, blocking := prolog.ConvertWith(res, prolog.Options{Tabling: prolog.TableRecursive})
	if blocking != nil {
		t.Fatalf("refused: %s", blocking[0].Message)
	}
	plain, _ := prolog.ConvertWith(res, prolog.Options{Tabling: prolog.TableNone})
	if def, _ := prolog.Convert(res); def != tabled {
		t.Errorf("Convert differs from ConvertWith with recursive tabling")
	}
	return g, tabled, plain
}

// TestPlainTranslationSameWalk: the plain translation (--tabling none) tables nothing and gives
// the same random walks as the tabled one, step by step, and the evaluator agrees with them, on
// games whose recursion terminates without tabling.
func TestPlainTranslationSameWalk(t *testing.T) {
	swipl := needSWI(t)
	// Up to 30 joint moves per walk: enough to reach the end of the small games and the middle
	// game of the others; 10 for chess, which the evaluator replays at a few joint moves per
	// second.
	recursive := 0
	for _, path := range plainGames {
		if _, err := os.Stat(path); err != nil && strings.HasPrefix(path, corpus) {
			t.Logf("SKIPPED %s: ../shared/games is not there", filepath.Base(path))
			continue
		}
		walkSteps := 30
		if filepath.Base(path) == "chess.kif" {
			walkSteps = 10
		}
		t.Run(filepath.Base(path), func(t *testing.T) {
			g, tabled, plain := convertBoth(t, path)
			if strings.Contains(plain, ":- table") || strings.Contains(plain, "abolish_all_tables") {
				t.Fatalf("the plain translation tables:\n%s", plain)
			}
			if strings.Contains(tabled, ":- table") {
				recursive++
			}
			for seed := 1; seed <= 2; seed++ {
				wt, err := walkSWI(t, swipl, tabled, seed, walkSteps, 0, 60*time.Second)
				if err != nil {
					t.Fatalf("tabled, seed %d: %v", seed, err)
				}
				wp, err := walkSWI(t, swipl, plain, seed, walkSteps, 0, 60*time.Second)
				if err != nil {
					t.Fatalf("plain, seed %d: %v", seed, err)
				}
				if len(wp.steps) < 2 {
					t.Fatalf("seed %d: a walk of %d states", seed, len(wp.steps))
				}
				if !reflect.DeepEqual(wt, wp) {
					t.Fatalf("seed %d: the walks differ\ntabled: %+v\n plain: %+v", seed, wt, wp)
				}
				if n, err := replay(g, wp.steps, 0, 60*time.Second); err != nil || n != len(wp.steps) {
					t.Fatalf("seed %d: the evaluator on the plain walk: %d of %d states, %v", seed, n, len(wp.steps), err)
				}
			}
		})
	}
	if recursive < 2 { // sim and lastcoin at least
		t.Errorf("only %d of the games have a tabled relation: the test no longer compares tabling with none", recursive)
	}
}

// TestPlayoutDriver: playouts/4 plays N playouts, stops at the CPU budget after at least one,
// ends a playout at the depth cap (in a game without a terminal state) and when a role has no legal
// move (after one joint move in the game below), and playouts/2 is N playouts of up to 1000 joint
// moves; the mean length counts joint moves.
func TestPlayoutDriver(t *testing.T) {
	swipl := needSWI(t)
	_, ttt := loadTestGame(t, tttPath)
	_, endless := convertSource(t, `
		(role p)
		(init (s 0))
		(legal p a)
		(<= (next (s 1)) (does p a))
		(goal p 0)
	`)
	_, stuck := convertSource(t, `
		(role p)
		(init (s 0))
		(<= (legal p a) (true (s 0)))
		(<= (next (s 1)) (does p a))
		(<= terminal (true (s 2)))
		(goal p 0)
	`)
	cases := []struct {
		name, prog, goal string
		done             func(int) bool
		length           func(float64) bool // the mean length
	}{
		{"N playouts", ttt, "playouts(25, 3, 1000, 0)", func(n int) bool { return n == 25 }, func(l float64) bool { return l >= 5 && l <= 9 }},
		{"default depth and no budget", ttt, "playouts(7, 1)", func(n int) bool { return n == 7 }, func(l float64) bool { return l >= 5 && l <= 9 }},
		{"a CPU budget", ttt, "playouts(1000000000, 1, 1000, 0.05)", func(n int) bool { return n >= 1 && n < 1000000000 }, func(l float64) bool { return l >= 5 && l <= 9 }},
		{"the depth cap ends a playout", endless, "playouts(5, 1, 4, 0)", func(n int) bool { return n == 5 }, func(l float64) bool { return l == 4 }},
		{"no legal move ends a playout", stuck, "playouts(3, 1, 1000, 0)", func(n int) bool { return n == 3 }, func(l float64) bool { return l == 1 }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, err := runSWI(t, swipl, c.prog, prolog.PlayoutDriver, c.goal, 60*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			f := strings.Fields(out)
			if len(f) != 8 || f[0] != "playouts" || f[2] != "seconds" || f[4] != "per_second" || f[6] != "mean_length" {
				t.Fatalf("output %q", out)
			}
			n, err := strconv.Atoi(f[1])
			if err != nil || !c.done(n) {
				t.Errorf("%s: %d playouts (%q)", c.goal, n, out)
			}
			l, err := strconv.ParseFloat(f[7], 64)
			if err != nil || !c.length(l) {
				t.Errorf("%s: mean length %v (%q)", c.goal, l, out)
			}
		})
	}
}
