package ide

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/syntax"
)

// TestRunMatch: a match between built-in players becomes the document's line, from the initial
// state; going to its end shows the terminal state and the record's goals.
func TestRunMatch(t *testing.T) {
	for _, c := range []struct {
		file    string
		players []string
		move    string // a move of the line, in the document's notation
	}{
		{"tictactoe.kif", []string{"mcts", "random"}, "(mark "},
		{"noughts.hrf", []string{"random", "mcts"}, "play("},
		{"montyhall.kif", []string{"random"}, "noop"},
	} {
		t.Run(c.file, func(t *testing.T) {
			src, err := os.ReadFile("../testdata/games/" + c.file)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			gs := NewGames(ctx, GamesOptions{})
			f, _ := syntax.ParseDialect(string(src), syntax.Detect(c.file, string(src)))
			snap := SnapshotOf(1, f)
			name := "file:///games/" + c.file
			gs.Update(name, snap)
			s := gs.Session(name, snap, limits, analysis.BoardConfig{})
			var steps []int
			res, err := s.RunMatch(ctx, MatchOptions{Players: c.players, Playouts: 100, PlayClock: time.Minute, StartClock: time.Minute, Seed: 3,
				Progress: func(step int, joint []string) { steps = append(steps, step) }})
			if err != nil {
				t.Fatal(err)
			}
			rec, st := res.Record, res.State
			if !rec.Completed || rec.Errors != 0 || rec.Game != c.file {
				t.Errorf("%s", res.Describe())
			}
			if st.Step != 0 || len(st.Line) != len(rec.Moves) || len(steps) != len(rec.Moves) {
				t.Fatalf("step %d, line of %d, %d progress calls, for %d joint moves", st.Step, len(st.Line), len(steps), len(rec.Moves))
			}
			if !strings.Contains(strings.Join(slices.Concat(st.Line...), " "), c.move) {
				t.Errorf("the line is not in the document's notation: %v", st.Line)
			}
			end, err := s.GotoStep(ctx, len(st.Line))
			if err != nil {
				t.Fatal(err)
			}
			if end.Error != "" || !end.Terminal {
				t.Fatalf("the end of the line: terminal %v, %s", end.Terminal, end.Error)
			}
			for r, vs := range end.Goals {
				want := []int{rec.Goals[r]}
				if rec.Goals[r] < 0 {
					want = []int{}
				}
				if !slices.Equal(vs, want) {
					t.Errorf("%s: goals %v at the end of the line, record %d", st.Roles[r], vs, rec.Goals[r])
				}
			}
		})
	}
}

// TestRunMatchCancelled: a cancelled match keeps the joint moves played as the line; players
// that do not fit the roles are an error.
func TestRunMatchCancelled(t *testing.T) {
	src, err := os.ReadFile("../testdata/games/tictactoe.kif")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	gs := NewGames(ctx, GamesOptions{})
	snap := NewSnapshot(1, string(src))
	gs.Update("doc", snap)
	s := gs.Session("doc", snap, limits, analysis.BoardConfig{})
	mctx, stop := context.WithCancel(ctx)
	res, err := s.RunMatch(mctx, MatchOptions{Players: []string{"random", "random"}, PlayClock: time.Minute,
		Progress: func(step int, _ []string) {
			if step == 2 {
				stop()
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Record.Completed || !strings.HasPrefix(res.Record.Aborted, "cancelled") || len(res.State.Line) != 2 {
		t.Errorf("%s; line %v", res.Describe(), res.State.Line)
	}
	if _, err := s.RunMatch(ctx, MatchOptions{Players: []string{"random"}}); err == nil || !strings.Contains(err.Error(), "1 players for 2 roles") {
		t.Errorf("one player for two roles: %v", err)
	}
	// Without the server's seats, only built-in players play.
	if _, err := s.RunMatch(ctx, MatchOptions{Players: []string{"random", "http://127.0.0.1:9147/"}}); err == nil || !strings.Contains(err.Error(), "not a built-in player: random or mcts") {
		t.Errorf("a player at a URL without the server's seats: %v", err)
	}
}
