package player

import (
	"context"
	"fmt"
	"testing"

	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/game"
)

// Monty Hall: a contestant that plays from what it knows switches doors (the car is behind the
// other closed door two times in three) and so wins about two matches in three. One that sees
// the state knows where the car is and wins every match; one that never switches wins one in
// three. The test tells the three apart over 200 seeded matches.

const montyMatches = 200

// montyOutcome is how a contestant fared over matches of Monty Hall.
type montyOutcome struct{ matches, wins, switches int }

// check says whether the outcome is that of a contestant who plays from what it knows: it
// switches (in at least 90% of the matches) and wins 60% to 75% of them (2/3 lies 3.3 standard
// deviations of 200 matches from 75%, 1.0 from 60%: the target).
func (o montyOutcome) check() error {
	win := float64(o.wins) / float64(o.matches)
	sw := float64(o.switches) / float64(o.matches)
	if win < 0.60 || win > 0.75 || sw < 0.9 {
		return fmt.Errorf("won %d and switched in %d of %d matches (%.0f%%, %.0f%%)", o.wins, o.switches, o.matches, 100*win, 100*sw)
	}
	return nil
}

// add counts a match: the contestant's goal and its last move.
func (o *montyOutcome) add(goal int, last string) {
	o.matches++
	if goal == 100 {
		o.wins++
	}
	if last == "switch" {
		o.switches++
	}
}

// addRecord counts a match run by RunMatch.
func (o *montyOutcome) addRecord(m *Record) {
	o.add(m.Goals[0], m.Moves[len(m.Moves)-1].Joint[0])
}

// TestMontyHallFromBelief: the MCTS contestant plays from its belief and switches.
func TestMontyHallFromBelief(t *testing.T) {
	g := load(t, "../testdata/games/montyhall.kif")
	var honest, keeper montyOutcome
	for i := range montyMatches {
		seed := uint64(i)
		honest.addRecord(playMatch(t, g, []Player{NewMCTS(g, 0, Options{Playouts: 300, Seed: seed}), nil}, seed))
		keeper.addRecord(playMatch(t, g, []Player{keeps{NewRandom(g, 0, seed)}, nil}, seed))
	}
	t.Logf("MCTS from its belief: %+v; never switching: %+v", honest, keeper)
	if err := honest.check(); err != nil {
		t.Errorf("the MCTS contestant %v", err)
	}
	if keeper.check() == nil {
		t.Errorf("the test does not tell a contestant who never switches: %+v", keeper)
	}
	// A contestant searching the true state (as MCTS did before it played from its belief).
	peeker := peekingMonty(t, g)
	t.Logf("searching the true state: %+v", peeker)
	if peeker.check() == nil {
		t.Errorf("the test does not tell a contestant who sees the state: %+v", peeker)
	}
}

// keeps plays keep when it may, else as its random player.
type keeps struct{ *Random }

func (k keeps) Move(ctx context.Context, b *Belief) (eval.Term, error) {
	legal, err := b.Legal(ctx)
	if err != nil {
		return 0, err
	}
	for _, m := range legal {
		if b.Game().String(m) == "keep" {
			return m, nil
		}
	}
	return k.Random.Move(ctx, b)
}

// peekingMonty plays the matches with a contestant that searches the true state.
func peekingMonty(t *testing.T, g *game.Game) montyOutcome {
	ctx := context.Background()
	var o montyOutcome
	for i := range montyMatches {
		seed := uint64(i)
		contestant := NewMCTS(g, 0, Options{Playouts: 300, Seed: seed})
		host := NewRandom(g, 1, seed)
		s, _ := g.Initial(ctx)
		var last eval.Term
		for {
			if term, _ := g.Terminal(ctx, s); term {
				break
			}
			c, err := contestant.Search(ctx, s)
			if err != nil {
				t.Fatal(err)
			}
			r, err := host.Move(ctx, Known(g, 1, s))
			if err != nil {
				t.Fatal(err)
			}
			joint := []eval.Term{c.Move, r}
			if s, err = g.Next(ctx, s, joint); err != nil {
				t.Fatal(err)
			}
			last = c.Move
		}
		goals, _ := g.GoalValues(ctx, s)
		o.add(goals[0], g.String(last))
	}
	return o
}
