package verify

import (
	"math/rand"
	"testing"

	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/game"
	"github.com/gdl-lsp/gdl/internal/gengame"
)

// forceDepth is the plain answer of CanForce: does role force a goal of at least value within
// depth joint moves? Every joint move tried, no table: to check the bounded search against.
func forceDepth(t *testing.T, g *game.Game, s *game.State, role, value, depth int) bool {
	if term, _ := g.Terminal(bg, s); term {
		vals, _ := g.GoalValues(bg, s)
		return vals[role] >= value
	}
	if depth == 0 {
		return false
	}
	joints, _, _ := g.JointMoves(bg, s, 1<<20)
	byMove := map[eval.Term][][]eval.Term{}
	var order []eval.Term
	for _, j := range joints {
		if _, ok := byMove[j[role]]; !ok {
			order = append(order, j[role])
		}
		byMove[j[role]] = append(byMove[j[role]], j)
	}
	for _, m := range order {
		all := true
		for _, j := range byMove[m] {
			n, err := g.Next(bg, s, j)
			if err != nil {
				t.Fatal(err)
			}
			if !forceDepth(t, g, n, role, value, depth-1) {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

// height is the length of the longest sequence of joint moves from s to a terminal state (-1
// when some sequence reaches a state without moves that is not terminal).
func height(t *testing.T, g *game.Game, s *game.State) int {
	if term, _ := g.Terminal(bg, s); term {
		return 0
	}
	joints, _, _ := g.JointMoves(bg, s, 1<<20)
	if len(joints) == 0 {
		return -1
	}
	best := 0
	for _, j := range joints {
		n, err := g.Next(bg, s, j)
		if err != nil {
			t.Fatal(err)
		}
		h := height(t, g, n)
		if h < 0 {
			return -1
		}
		best = max(best, h+1)
	}
	return best
}

// replay plays a line from s.
func replay(t *testing.T, g *game.Game, s *game.State, line [][]eval.Term) *game.State {
	for _, j := range line {
		n, err := g.Next(bg, s, j)
		if err != nil {
			t.Fatalf("the line does not replay: %v", err)
		}
		s = n
	}
	return s
}

// TestBoundedAgreesWithPlainSearch: on states of tic-tac-toe and nim reached by random walks,
// CanForce and EndsWithin agree with plain search at every depth and value, and their lines
// replay to what they claim: a terminal state with the value for a can-force that holds, a
// state that is not terminal after depth moves for an ends-within that does not.
func TestBoundedAgreesWithPlainSearch(t *testing.T) {
	rng := rand.New(rand.NewSource(28))
	for _, path := range []string{"../testdata/games/tictactoe.kif", "../testdata/games/nim.kif"} {
		for _, e := range engines {
			g := load(t, path, e)
			for walk := 0; walk < 6; walk++ {
				s, err := g.Initial(bg)
				if err != nil {
					t.Fatal(err)
				}
				for steps := rng.Intn(5) + 2; steps > 0; steps-- {
					joints, _, _ := g.JointMoves(bg, s, 1<<20)
					if term, _ := g.Terminal(bg, s); term || len(joints) == 0 {
						break
					}
					if s, err = g.Next(bg, s, joints[rng.Intn(len(joints))]); err != nil {
						t.Fatal(err)
					}
				}
				h := height(t, g, s)
				for depth := 0; depth <= 5; depth++ {
					b, err := EndsWithin(bg, g, s, depth, BoundedOptions{})
					if err != nil || !b.Known {
						t.Fatalf("%s: %v %+v", path, err, b)
					}
					if want := h >= 0 && h <= depth; b.Holds != want {
						t.Fatalf("%s %s: ends within %d: %v, height %d", path, s, depth, b.Holds, h)
					}
					if !b.Holds {
						end := replay(t, g, s, b.Line)
						if term, _ := g.Terminal(bg, end); term || b.End == EndDepth && len(b.Line) != depth {
							t.Fatalf("%s: the line %v does not show it (end %s)", path, b.Joints, b.End)
						}
					}
					for role := range g.Roles() {
						for _, value := range []int{1, 50, 100} {
							b, err := CanForce(bg, g, s, role, value, depth, BoundedOptions{})
							if err != nil || !b.Known {
								t.Fatalf("%s: %v %+v", path, err, b)
							}
							if want := forceDepth(t, g, s, role, value, depth); b.Holds != want {
								t.Fatalf("%s %s: role %d forces %d within %d: %v, plain search %v", path, s, role, value, depth, b.Holds, want)
							}
							end := replay(t, g, s, b.Line)
							if b.Holds {
								vals, _ := g.GoalValues(bg, end)
								if term, _ := g.Terminal(bg, end); !term || vals[role] < value || (b.Move == nil) != (len(b.Line) == 0) {
									t.Fatalf("%s: the line %v does not reach the value", path, b.Joints)
								}
								if b.Move != nil && b.Line[0][role] != b.Move.Move {
									t.Fatalf("%s: the line does not start with the move %s", path, b.Move.Text)
								}
							} else if len(b.Line) > 0 && len(b.Replies) == 0 {
								t.Fatalf("%s: a line without the replies to each move", path)
							}
						}
					}
				}
			}
		}
	}
}

// TestBoundedBudget: a budget too small leaves the answer unknown, saying why; a depth out of
// range is an error.
func TestBoundedBudget(t *testing.T) {
	g := load(t, "../testdata/games/tictactoe.kif", game.Auto)
	s, _ := g.Initial(bg)
	b, err := CanForce(bg, g, s, 0, 100, 9, BoundedOptions{MaxStates: 10})
	if err != nil || b.Known || b.Why != "more than 10 states (the budget)" {
		t.Errorf("%v %+v", err, b)
	}
	b, err = EndsWithin(bg, g, s, 9, BoundedOptions{MaxStates: 10})
	if err != nil || b.Known {
		t.Errorf("%v %+v", err, b)
	}
	if _, err := EndsWithin(bg, g, s, MaxBoundedDepth+1, BoundedOptions{}); err == nil {
		t.Error("a depth beyond the bound was accepted")
	}
	if _, err := CanForce(bg, g, s, 2, 100, 1, BoundedOptions{}); err == nil {
		t.Error("a role out of range was accepted")
	}
}

// TestBoundedWideStates: a state with 10^8 joint moves stops the search at its budget of joint
// moves, undecided, at once and in little memory.
func TestBoundedWideStates(t *testing.T) {
	g, _, err := game.Load(bg, gengame.Wide(8, 10), game.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, _ := g.Initial(bg)
	for _, run := range []func() (*Bounded, error){
		func() (*Bounded, error) { return CanForce(bg, g, s, 0, 100, 2, BoundedOptions{MaxStates: 1000}) },
		func() (*Bounded, error) { return EndsWithin(bg, g, s, 2, BoundedOptions{MaxStates: 1000}) },
	} {
		res, err := run()
		if err != nil || res.Known || res.Why != "more than 1048576 joint moves played (the budget)" {
			t.Errorf("%v %+v", err, res)
		}
	}
}
