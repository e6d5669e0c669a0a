package ide

import (
	"context"
	"os"
	"testing"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/syntax"
)

// gameSession opens a game of testdata/games as a document and returns its session.
func gameSession(t *testing.T, file string) *Session {
	t.Helper()
	src, err := os.ReadFile("../testdata/games/" + file)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	gs := NewGames(ctx, GamesOptions{})
	f, _ := syntax.ParseDialect(string(src), syntax.Detect(file, string(src)))
	snap := SnapshotOf(1, f)
	name := "file:///games/" + file
	gs.Update(name, snap)
	return gs.Session(name, snap, limits, analysis.BoardConfig{})
}

// TestComputerMoveFromBelief: the game view's computer move plays a GDL-II role from what it
// knows. Monty Hall's contestant, shown a goat behind door 3 after picking door 2, switches
// whether the car is behind door 1 or door 2: it does not know which (a player that saw the
// state would keep its door when the car is behind it).
func TestComputerMoveFromBelief(t *testing.T) {
	ctx := context.Background()
	s := gameSession(t, "montyhall.kif")
	for seed := range uint64(10) {
		for _, line := range [][][]string{
			{{"noop", "(hide 1)"}, {"(pick 2)", "noop"}, {"noop", "(reveal 3)"}},
			{{"noop", "(hide 2)"}, {"(pick 2)", "noop"}, {"noop", "(reveal 3)"}},
		} {
			if _, err := s.Reset(ctx); err != nil {
				t.Fatal(err)
			}
			for _, joint := range line {
				if st, err := s.Play(ctx, joint); err != nil || st.Error != "" {
					t.Fatalf("%v: %v %v", joint, err, st)
				}
			}
			st, err := s.ComputerMove(ctx, ComputerOptions{Playouts: 300, Seed: seed})
			if err != nil || st.Error != "" {
				t.Fatalf("computer move: %v %v", err, st)
			}
			if len(st.Computer) != 1 || st.Computer[0].Move != "switch" || st.Computer[0].States != 2 {
				t.Errorf("car behind door %s, seed %d: %+v", line[0][1], seed, st.Computer)
			}
		}
	}
}
