package player

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

// TestBelief follows what a GDL-II role knows, turn by turn: the states it may be in, given its
// own moves and percepts, their probabilities, and the moves legal in all of them.
func TestBelief(t *testing.T) {
	type turn struct {
		move     string
		percepts []string
		states   int    // the states it may be in after the turn
		holds    string // a fluent true in all of them
		legal    string // its legal moves then
		weights  string // the probability of the states where a fluent holds: "fluent=p; ..."
	}
	cases := []struct {
		game, role string
		turns      []turn
	}{
		{"../ggp/testdata/hide.kif", "seeker", []turn{
			{"noop", nil, 3, "(phase seek)", "(lift 1) (lift 2) (lift 3)", "(token 1)=0.333; (token 2)=0.333"}, // the token is under one of three cups
			{"(lift 2)", []string{"(result yes)"}, 1, "(found 1)", "noop", ""},                                 // found: one state again
			{"noop", nil, 3, "(found 1)", "(lift 1) (lift 2) (lift 3)", ""},                                    // hidden again
			{"(lift 1)", []string{"(RESULT NO)"}, 1, "(round 3)", "", ""},                                      // any case; the end
		}},
		{"../ggp/testdata/hide.kif", "hider", []turn{
			{"(hide 3)", nil, 1, "(token 3)", "noop", ""},
			{"noop", []string{"(lifted 1)"}, 1, "(found 0)", "(hide 1) (hide 2) (hide 3)", ""},
		}},
		{"../testdata/games/montyhall.kif", "contestant", []turn{
			{"noop", nil, 3, "(phase 2)", "(pick 1) (pick 2) (pick 3)", "(prize 1)=0.333"}, // the car is anywhere
			{"(pick 2)", nil, 3, "(picked 2)", "noop", "(prize 2)=0.333"},                  // the contestant sees nothing of its pick
			// Not behind 3; behind 1 twice as likely as behind the door picked, since the host
			// had to open 3 then, and opens 3 half the time when the car is behind 2.
			{"noop", []string{"(shown 3)"}, 2, "(shown 3)", "keep switch", "(prize 1)=0.667; (prize 2)=0.333"},
		}},
	}
	for _, c := range cases {
		t.Run(c.game+" "+c.role, func(t *testing.T) {
			ctx := context.Background()
			g := load(t, c.game)
			role := slices.Index(g.RoleNames(), c.role)
			b, err := NewBelief(ctx, g, role, 1)
			if err != nil {
				t.Fatal(err)
			}
			for i, tu := range c.turns {
				move, err := g.ParseTerm(tu.move)
				if err != nil {
					t.Fatal(err)
				}
				if note := b.Observe(ctx, move, PerceptsText(tu.percepts)); note != "" {
					t.Errorf("turn %d: %s", i+1, note)
				}
				if len(b.States()) != tu.states || !b.Complete() {
					t.Errorf("turn %d: %d states (complete %v), want %d", i+1, len(b.States()), b.Complete(), tu.states)
				}
				sum := 0.0
				for j, s := range b.States() {
					sum += b.Weights()[j]
					if !slices.Contains(g.Strings(s.Fluents()), tu.holds) {
						t.Errorf("turn %d: %s does not hold in %s", i+1, tu.holds, s)
					}
				}
				if math.Abs(sum-1) > 1e-9 {
					t.Errorf("turn %d: the probabilities add up to %v", i+1, sum)
				}
				for _, fw := range strings.Split(tu.weights, "; ") {
					if fw == "" {
						continue
					}
					fluent, want, _ := strings.Cut(fw, "=")
					p := 0.0
					for j, s := range b.States() {
						if slices.Contains(g.Strings(s.Fluents()), fluent) {
							p += b.Weights()[j]
						}
					}
					if got := fmt.Sprintf("%.3f", p); got != want {
						t.Errorf("turn %d: P(%s) = %s, want %s", i+1, fluent, got, want)
					}
				}
				legal, err := b.Legal(ctx)
				got := strings.Join(g.Strings(legal), " ")
				if tu.legal == "" {
					if err == nil {
						t.Errorf("turn %d: legal moves %s in a terminal state", i+1, got)
					}
				} else if err != nil || got != tu.legal {
					t.Errorf("turn %d: legal %q (%v), want %q", i+1, got, err, tu.legal)
				}
			}
		})
	}
}

// TestBeliefAfter: the belief made from a whole history gives the role its own moves and
// percepts only, and in a GDL game the state.
func TestBeliefAfter(t *testing.T) {
	ctx := context.Background()
	g := load(t, "../testdata/games/montyhall.kif")
	if !GDLII(g) {
		t.Fatal("Monty Hall is not GDL-II")
	}
	joints, err := g.ParseJointMoves("(noop (hide 1)) ((pick 2) noop) (noop (reveal 3))")
	if err != nil {
		t.Fatal(err)
	}
	b, err := BeliefAfter(ctx, g, 0, 1, joints)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.States()) != 2 {
		t.Errorf("the contestant may be in %d states, want 2", len(b.States()))
	}
	if _, known := b.State(); known {
		t.Error("the contestant knows where the car is")
	}
	host, err := BeliefAfter(ctx, g, 1, 1, joints)
	if err != nil {
		t.Fatal(err)
	}
	if _, known := host.State(); !known {
		t.Errorf("the host, who hid the car and saw the pick, does not know the state: %d states", len(host.States()))
	}
	ttt := load(t, "../testdata/games/tictactoe.kif")
	if GDLII(ttt) {
		t.Fatal("tic-tac-toe is GDL-II")
	}
	joints, _ = ttt.ParseJointMoves("((mark 1 1) noop) (noop (mark 2 2))")
	kb, err := BeliefAfter(ctx, ttt, 1, 1, joints)
	if err != nil {
		t.Fatal(err)
	}
	if s, known := kb.State(); !known || !slices.Contains(ttt.Strings(s.Fluents()), "(cell 2 2 o)") {
		t.Errorf("a GDL role does not know the state: %v", kb.States())
	}
}
