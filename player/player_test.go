package player

import (
	"context"
	"os"
	"slices"
	"testing"

	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/game"
	"github.com/gdl-lsp/gdl/internal/corpus"
)

func load(t testing.TB, path string) *game.Game {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	g, _, err := game.Load(context.Background(), string(src), game.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// playMatch runs a match between players in this process, one per role (nil: GDL-II's random
// role, played by the runner), each asked in turn without a clock.
func playMatch(t testing.TB, g *game.Game, players []Player, seed uint64) *Record {
	t.Helper()
	var seats []Seat
	for _, pl := range players {
		if pl != nil {
			seats = append(seats, &LocalSeat{Label: "test", Seed: seed, NewPlayer: func(*game.Game, int, uint64) Player { return pl }})
		}
	}
	rec, err := RunMatch(context.Background(), g, seats, MatchOptions{Seed: seed, InTurn: true})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Errors != 0 {
		t.Fatalf("%d moves replaced", rec.Errors)
	}
	return rec
}

// record counts a player's results over matches.
type record struct{ wins, draws, losses int }

func (r *record) add(goals []int, role int) {
	best := true
	tie := false
	for i, v := range goals {
		if i == role {
			continue
		}
		if v > goals[role] {
			best = false
		} else if v == goals[role] {
			tie = true
		}
	}
	switch {
	case !best:
		r.losses++
	case tie:
		r.draws++
	default:
		r.wins++
	}
}

// pit plays matches of an MCTS player with a playout budget against random players, the MCTS
// player taking each role in turn.
func pit(t *testing.T, g *game.Game, matches, playouts int) record {
	var rec record
	for i := range matches {
		role := i % len(g.Roles())
		players := make([]Player, len(g.Roles()))
		for r := range players {
			if r == role {
				players[r] = NewMCTS(g, r, Options{Playouts: playouts, Seed: uint64(i)})
			} else {
				players[r] = NewRandom(g, r, uint64(1000+i))
			}
		}
		m := playMatch(t, g, players, 0)
		if !m.Completed {
			t.Fatalf("match %d did not end", i)
		}
		rec.add(m.Goals, role)
	}
	return rec
}

// TestMCTSNeverLosesTicTacToe: with 2,000 playouts per move the search plays both sides of
// tic-tac-toe without ever losing to random play.
func TestMCTSNeverLosesTicTacToe(t *testing.T) {
	g := load(t, "../testdata/games/tictactoe.kif")
	rec := pit(t, g, 40, 2000)
	t.Logf("MCTS against random play in tic-tac-toe: %+v", rec)
	if rec.losses > 0 {
		t.Errorf("MCTS lost %d of 40 matches to random play", rec.losses)
	}
}

// TestMCTSBeatsRandomConnectFour: with 3,000 playouts per move the search wins connect four
// against random play.
func TestMCTSBeatsRandomConnectFour(t *testing.T) {
	corpus.Games(t)
	g := load(t, corpus.Dir()+"/ggp-org__ggp-base/games/games/connectFour/connectFour.kif")
	n := 10
	if testing.Short() {
		n = 4
	}
	rec := pit(t, g, n, 3000)
	t.Logf("MCTS against random play in connect four: %+v", rec)
	if rec.wins < n-1 {
		t.Errorf("MCTS won only %d of %d matches against random play", rec.wins, n)
	}
}

// TestMCTSReusesItsTree: the search after a joint move starts from the node the last tree has
// for the new state, with its visits.
func TestMCTSReusesItsTree(t *testing.T) {
	ctx := context.Background()
	g := load(t, "../testdata/games/tictactoe.kif")
	p := NewMCTS(g, 0, Options{Playouts: 3000, Seed: 1})
	s, _ := g.Initial(ctx)
	first, err := p.Search(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	if first.Reused != 0 || first.Playouts != 3000 || len(first.Moves) != 9 {
		t.Fatalf("first search: %+v", first)
	}
	legal, _ := g.Legal(ctx, s)
	s, err = g.Next(ctx, s, []eval.Term{first.Move, legal[1][0]})
	if err != nil {
		t.Fatal(err)
	}
	legal, _ = g.Legal(ctx, s)
	s, err = g.Next(ctx, s, []eval.Term{legal[0][0], legal[1][0]})
	if err != nil {
		t.Fatal(err)
	}
	second, err := p.Search(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	if second.Reused == 0 {
		t.Errorf("the second search, two joint moves on, did not start from the kept tree: %+v", second)
	}
	// A state the tree never reached starts a new tree.
	fresh := NewMCTS(g, 0, Options{Playouts: 10, Seed: 1})
	if sr, _ := fresh.Search(ctx, s); sr.Reused != 0 {
		t.Errorf("a new player reused %d visits", sr.Reused)
	}
}

// Issue 22, item 1: the tree is bounded by its memory as well as by its nodes, and a tree kept
// from one move to the next counts only what it keeps, so that it neither grows with every
// move nor stops growing for what it dropped.
func TestMCTSTreeBudget(t *testing.T) {
	ctx := context.Background()
	g := load(t, "../testdata/games/tictactoe.kif")
	s, _ := g.Initial(ctx)
	small := NewMCTS(g, 0, Options{Playouts: 500, Seed: 1, MaxBytes: 4000})
	sr, err := small.Search(ctx, s)
	if err != nil || sr.Playouts != 500 || sr.Nodes > 10 || small.bytes > 4000+nodeBytes(small.root) {
		t.Fatalf("a tree of 4,000 bytes: %d nodes, %d bytes, %v", sr.Nodes, small.bytes, err)
	}
	p := NewMCTS(g, 0, Options{Playouts: 3000, Seed: 1})
	first, _ := p.Search(ctx, s)
	legal, _ := g.Legal(ctx, s)
	s, _ = g.Next(ctx, s, []eval.Term{first.Move, legal[1][0]})
	second, err := p.Search(ctx, s)
	if err != nil || second.Reused == 0 {
		t.Fatalf("the tree was not reused: %+v, %v", second, err)
	}
	size, bytes := p.size, p.bytes
	p.measure(p.root)
	if p.size != size || p.bytes != bytes || size >= first.Nodes+second.Playouts {
		t.Errorf("after reuse: %d nodes and %d bytes counted, %d and %d in the tree (the first tree had %d)", size, bytes, p.size, p.bytes, first.Nodes)
	}
}

// TestMCTSStopsWithItsContext: a cancelled context ends the search with a legal move; a
// terminal state has no move.
func TestMCTSStopsWithItsContext(t *testing.T) {
	g := load(t, "../testdata/games/tictactoe.kif")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s, _ := g.Initial(context.Background())
	p := NewMCTS(g, 0, Options{})
	sr, err := p.Search(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	legal, _ := g.Legal(context.Background(), s)
	if sr.Playouts != 0 || !slices.Contains(legal[0], sr.Move) {
		t.Errorf("cancelled search: %d playouts, move %s", sr.Playouts, g.String(sr.Move))
	}
	moves, _ := g.ParseJointMoves("((mark 1 1) noop) (noop (mark 2 1)) ((mark 1 2) noop) (noop (mark 2 2)) ((mark 1 3) noop)")
	pos, _ := g.Replay(context.Background(), moves)
	if pos.Err != nil {
		t.Fatal(pos.Err)
	}
	if _, err := NewMCTS(g, 1, Options{Playouts: 10}).Move(context.Background(), Known(g, 1, pos.State())); err != ErrNoMove {
		t.Errorf("a terminal state: got %v, want ErrNoMove", err)
	}
	if _, err := NewRandom(g, 1, 1).Move(context.Background(), Known(g, 1, pos.State())); err != ErrNoMove {
		t.Errorf("random player in a terminal state: got %v, want ErrNoMove", err)
	}
}
