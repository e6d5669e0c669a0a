package player

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gdl-lsp/gdl/game"
)

// scriptedSeat is a player that answers every PLAY with play (a built-in player otherwise): the
// runner's replacement of bad moves, without the network.
type scriptedSeat struct {
	LocalSeat
	play func(ctx context.Context) (Reply, error)
}

func (s *scriptedSeat) Play(ctx context.Context, t *Turn) (Reply, error) { return s.play(ctx) }

// TestRunMatchReplaces: a move that is late, illegal or refused is replaced by a random legal
// one, the record says why, and the match ends in a terminal state.
func TestRunMatchReplaces(t *testing.T) {
	g := load(t, "../testdata/games/tictactoe.kif")
	cases := []struct {
		name string
		play func(ctx context.Context) (Reply, error)
		kind ErrorKind
	}{
		{"late", func(ctx context.Context) (Reply, error) { <-ctx.Done(); return Reply{}, ctx.Err() }, Late},
		{"illegal", func(context.Context) (Reply, error) {
			mv, err := g.ParseTerm("(mark 9 9)")
			return Reply{Text: "(mark 9 9)", Move: mv}, err
		}, Illegal},
		{"refused", func(context.Context) (Reply, error) { return Reply{}, refused("no move") }, Refused},
		{"unreachable", func(context.Context) (Reply, error) { return Reply{}, errors.New("gone") }, Unreachable},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			bad := &scriptedSeat{LocalSeat{Label: "bad"}, c.play}
			seats := []Seat{bad, &LocalSeat{Label: "random", Seed: 2}}
			rec, err := RunMatch(context.Background(), g, seats, MatchOptions{PlayClock: 50 * time.Millisecond, Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			if !rec.Completed || rec.Errors == 0 || rec.Players[0] != "bad" {
				t.Fatalf("completed %v, %d errors, players %v", rec.Completed, rec.Errors, rec.Players)
			}
			for _, s := range rec.Moves {
				a := s.Answers[0]
				if a.Kind != c.kind || a.Move != s.Joint[0] {
					t.Errorf("step %d: %+v, want a move replaced for %s", s.Step, a, c.kind)
				}
			}
			var out strings.Builder
			rec.WriteText(&out)
			if !strings.Contains(out.String(), "instead") {
				t.Errorf("the transcript says nothing of the replaced moves:\n%s", out.String())
			}
		})
	}
}

// TestRunMatchStepLimit: a match stopped at MaxSteps returns the goals of the state it stopped
// in with a StepLimitError, and a record that is not completed.
func TestRunMatchStepLimit(t *testing.T) {
	g := load(t, "../testdata/games/tictactoe.kif")
	seats := []Seat{&LocalSeat{Label: "a"}, &LocalSeat{Label: "b", Seed: 1}}
	rec, err := RunMatch(context.Background(), g, seats, MatchOptions{MaxSteps: 2, InTurn: true, OmitStates: true})
	var sl *StepLimitError
	if !errors.As(err, &sl) || sl.Steps != 2 || len(sl.Goals) != 2 {
		t.Fatalf("err %v", err)
	}
	if rec.Completed || len(rec.Moves) != 2 || rec.Aborted != "no terminal state after 2 joint moves" || rec.StatesOmitted != 2 || rec.Moves[0].State != nil {
		t.Errorf("completed %v, %d moves, aborted %q, %d states omitted", rec.Completed, len(rec.Moves), rec.Aborted, rec.StatesOmitted)
	}
	for _, a := range rec.End {
		if a.Reply != "done" {
			t.Errorf("ABORT: %+v", a)
		}
	}
}

// TestRunMatchPercepts: in GDL-II each seat is told its own move and percepts, never the state,
// and the runner plays the random role.
func TestRunMatchPercepts(t *testing.T) {
	g := load(t, "../testdata/games/montyhall.kif")
	var turns []*Turn
	seat := &tellingSeat{LocalSeat: LocalSeat{Label: "mcts", NewPlayer: func(g *game.Game, role int, seed uint64) Player {
		return NewMCTS(g, role, Options{Playouts: 100, Seed: seed})
	}}, turns: &turns}
	rec, err := RunMatch(context.Background(), g, []Seat{seat}, MatchOptions{Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	if !rec.GDLII || rec.Players[1] != "random (the manager)" || len(turns) != len(rec.Moves) {
		t.Fatalf("GDL-II %v, players %v, %d turns for %d moves", rec.GDLII, rec.Players, len(turns), len(rec.Moves))
	}
	for i, tn := range turns {
		if tn.State != nil || tn.Joint != nil || tn.Step != i {
			t.Errorf("turn %d: %+v", i, tn)
		}
		if i > 0 && (g.String(tn.Move) != rec.Moves[i-1].Joint[0] || strings.Join(tn.Sees, " ") != strings.Join(rec.Moves[i-1].Percepts[0], " ")) {
			t.Errorf("turn %d: move %s, sees %v; the record: %v", i, g.String(tn.Move), tn.Sees, rec.Moves[i-1])
		}
	}
}

// tellingSeat keeps the turns it is told.
type tellingSeat struct {
	LocalSeat
	turns *[]*Turn
}

func (s *tellingSeat) Play(ctx context.Context, t *Turn) (Reply, error) {
	*s.turns = append(*s.turns, t)
	return s.LocalSeat.Play(ctx, t)
}
