package ggp

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/gdl-lsp/gdl/game"
)

// TestBelief follows what a GDL-II player knows, turn by turn: the states it may be in, given
// its own moves and percepts, and the moves legal in all of them.
func TestBelief(t *testing.T) {
	type turn struct {
		move     string
		percepts []string
		states   int    // the states it may be in after the turn
		holds    string // a fluent true in all of them
		legal    string // its legal moves then
	}
	cases := []struct {
		game, role string
		turns      []turn
	}{
		{"hide.kif", "seeker", []turn{
			{"noop", nil, 3, "(phase seek)", "(lift 1) (lift 2) (lift 3)"}, // the token is under one of three cups
			{"(lift 2)", []string{"(result yes)"}, 1, "(found 1)", "noop"}, // found: one state again
			{"noop", nil, 3, "(found 1)", "(lift 1) (lift 2) (lift 3)"},    // hidden again
			{"(lift 1)", []string{"(RESULT NO)"}, 1, "(round 3)", ""},      // any case; the end
		}},
		{"hide.kif", "hider", []turn{
			{"(hide 3)", nil, 1, "(token 3)", "noop"},
			{"noop", []string{"(lifted 1)"}, 1, "(found 0)", "(hide 1) (hide 2) (hide 3)"},
		}},
		{"montyhall.kif", "contestant", []turn{
			{"noop", nil, 3, "(phase 2)", "(pick 1) (pick 2) (pick 3)"},    // the car is anywhere
			{"(pick 2)", nil, 3, "(picked 2)", "noop"},                     // the contestant sees nothing of its pick
			{"noop", []string{"(shown 3)"}, 2, "(shown 3)", "keep switch"}, // not behind 3
		}},
	}
	for _, c := range cases {
		t.Run(c.game+" "+c.role, func(t *testing.T) {
			ctx := context.Background()
			rules, err := Prepare(readGame(t, c.game))
			if err != nil {
				t.Fatal(err)
			}
			g, _, err := game.Load(ctx, rules, game.Options{})
			if err != nil {
				t.Fatal(err)
			}
			role := slices.Index(g.RoleNames(), c.role)
			b, err := newBelief(ctx, g, role, 1)
			if err != nil {
				t.Fatal(err)
			}
			for i, tu := range c.turns {
				move, err := g.Eval().ParseTerm(tu.move)
				if err != nil {
					t.Fatal(err)
				}
				if note := b.observe(ctx, move, canonicalText(tu.percepts)); note != "" {
					t.Errorf("turn %d: %s", i+1, note)
				}
				if len(b.states) != tu.states {
					t.Errorf("turn %d: %d states, want %d", i+1, len(b.states), tu.states)
				}
				for _, s := range b.states {
					if !slices.Contains(g.Strings(s.Fluents()), tu.holds) {
						t.Errorf("turn %d: %s does not hold in %s", i+1, tu.holds, s)
					}
				}
				legal, err := b.legal(ctx)
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
