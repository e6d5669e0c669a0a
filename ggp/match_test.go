package ggp

import (
	"context"
	"fmt"
	"log"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gdl-lsp/gdl/game"
	"github.com/gdl-lsp/gdl/player"
	"github.com/gdl-lsp/gdl/syntax"
)

// Matches between this project's players over real HTTP on 127.0.0.1: every match ends in a
// terminal state without a replaced move, and its record replays through the game API to the
// same states and goals.

// readGame reads a game of ggp/testdata or of the repository's testdata/games.
func readGame(t testing.TB, name string) string {
	t.Helper()
	for _, dir := range []string{"testdata", "../testdata/games"} {
		if data, err := os.ReadFile(filepath.Join(dir, name)); err == nil {
			return string(data)
		}
	}
	t.Fatalf("no game %s", name)
	return ""
}

// kifFile reads a game description as a match plays it (player.MatchFile).
func kifFile(t testing.TB, src string) *syntax.File {
	t.Helper()
	f, _ := syntax.ParseDialect(src, syntax.DetectContent(src))
	kif, err := player.MatchFile(f)
	if err != nil {
		t.Fatal(err)
	}
	return kif
}

// mustRules returns a game's rules as START sends them.
func mustRules(t testing.TB, src string) string {
	t.Helper()
	rules, err := Rules(kifFile(t, src).Source())
	if err != nil {
		t.Fatal(err)
	}
	return rules
}

// runMatch runs a match of a game description between seats, as gdl match does.
func runMatch(ctx context.Context, name, src string, seats []player.Seat, opts player.MatchOptions) (*player.Record, error) {
	f, _ := syntax.ParseDialect(src, syntax.DetectContent(src))
	g, err := player.LoadMatch(ctx, f, seats, game.Options{})
	if err != nil {
		return nil, err
	}
	opts.Name = name
	return player.RunMatch(ctx, g, seats, opts)
}

// testLogger writes a player's log into the test's output.
func testLogger(t testing.TB, name string) *log.Logger {
	return log.New(testWriter{t}, name+": ", 0)
}

type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// httpPlayer starts a player with the strategy on a real HTTP server on 127.0.0.1 and returns
// its seat. mcts searches a fixed number of playouts, so a move takes milliseconds.
func httpPlayer(t testing.TB, strategy Strategy, seed uint64) player.Seat {
	t.Helper()
	p := NewPlayer(PlayerOptions{Strategy: strategy, Playouts: 300, Seed: seed, Log: testLogger(t, string(strategy))})
	srv := httptest.NewServer(p)
	t.Cleanup(srv.Close)
	return &HTTPSeat{URL: srv.URL + "/"}
}

// checkRecord replays the record's joint moves through the game API: the same states, the
// same goals.
func checkRecord(t *testing.T, src string, rec *player.Record) {
	t.Helper()
	g, _, err := game.Load(context.Background(), kifFile(t, src).Source(), game.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	for _, s := range rec.Moves {
		fmt.Fprintf(&text, "(%s) ", strings.Join(s.Joint, " "))
	}
	joints, err := g.ParseJointMoves(text.String())
	if err != nil {
		t.Fatalf("the record's joint moves do not read: %v", err)
	}
	pos, err := g.Replay(context.Background(), joints)
	if err != nil || pos.Err != nil {
		t.Fatalf("the record does not replay: %v %v", err, pos.Err)
	}
	if !slices.Equal(g.Strings(pos.States[0].Fluents()), rec.Initial) {
		t.Errorf("initial state: replay %v, record %v", g.Strings(pos.States[0].Fluents()), rec.Initial)
	}
	for i, s := range rec.Moves {
		if got := g.Strings(pos.States[i+1].Fluents()); !slices.Equal(got, s.State) {
			t.Errorf("state after joint move %d: replay %v, record %v", i+1, got, s.State)
		}
	}
	if rec.Completed {
		if term, _ := g.Terminal(context.Background(), pos.State()); !term {
			t.Errorf("the record says completed, but the replayed state is not terminal")
		}
		goals, err := g.GoalValues(context.Background(), pos.State())
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(goals, rec.Goals) {
			t.Errorf("goals: replay %v, record %v", goals, rec.Goals)
		}
	}
}

// noErrors fails when a message of the match went wrong.
func noErrors(t *testing.T, rec *player.Record) {
	t.Helper()
	for _, a := range append(slices.Clone(rec.Start), rec.End...) {
		if a.Kind != "" {
			t.Errorf("%s: %s: %s", a.Role, a.Kind, a.Error)
		}
	}
	for _, s := range rec.Moves {
		for _, a := range s.Answers {
			if a.Kind != "" {
				t.Errorf("step %d: %s: %s: %s", s.Step, a.Role, a.Kind, a.Error)
			}
		}
	}
	if rec.Errors != 0 {
		t.Errorf("%d moves replaced", rec.Errors)
	}
}

func TestMatchesOverHTTP(t *testing.T) {
	cases := []struct {
		game    string
		players []string // random, mcts: over HTTP; local:random, local:mcts in-process; "-": none
		gdlII   bool
	}{
		{"pennies.kif", []string{"random", "mcts"}, false},
		{"tictactoe.kif", []string{"mcts", "random"}, false},
		{"race3.kif", []string{"random", "local:mcts", "mcts"}, false},
		{"nim.kif", []string{"local:random", "mcts"}, false},
		{"hide.kif", []string{"random", "mcts"}, true},
		{"montyhall.kif", []string{"mcts"}, true}, // the manager plays the random role
		{"noughts.hrf", []string{"mcts", "local:random"}, false},
	}
	for _, c := range cases {
		t.Run(c.game, func(t *testing.T) {
			src := readGame(t, c.game)
			var seats []player.Seat
			for i, p := range c.players {
				if local, ok := strings.CutPrefix(p, "local:"); ok {
					s, err := NewSeat(local, player.SeatOptions{Playouts: 300, Seed: uint64(i)})
					if err != nil {
						t.Fatal(err)
					}
					seats = append(seats, s)
					continue
				}
				seats = append(seats, httpPlayer(t, Strategy(p), uint64(i)))
			}
			var progress []int
			rec, err := runMatch(context.Background(), c.game, src, seats, player.MatchOptions{
				StartClock: 20 * time.Second, PlayClock: 20 * time.Second, Seed: 7,
				Progress: func(s player.Step) { progress = append(progress, s.Step) }})
			if err != nil {
				t.Fatal(err)
			}
			var out strings.Builder
			rec.WriteText(&out)
			t.Log("\n" + out.String())
			if !rec.Completed || rec.GDLII != c.gdlII {
				t.Errorf("completed %v, GDL-II %v", rec.Completed, rec.GDLII)
			}
			noErrors(t, rec)
			if len(progress) != len(rec.Moves) {
				t.Errorf("progress was called %d times for %d joint moves", len(progress), len(rec.Moves))
			}
			checkRecord(t, src, rec)
		})
	}
}

// TestMontyHallMatches: in gdl match, the built-in mcts contestant plays from what its messages
// tell it (its own moves and percepts), so it switches doors and wins about two matches in
// three (a contestant that saw the state would win all, one that kept its door one in three).
func TestMontyHallMatches(t *testing.T) {
	rules := readGame(t, "montyhall.kif")
	matches, wins, switches := 200, 0, 0
	for i := range matches {
		seat, err := NewSeat("mcts", player.SeatOptions{Playouts: 300, Seed: uint64(i)})
		if err != nil {
			t.Fatal(err)
		}
		rec, err := runMatch(context.Background(), "montyhall", rules, []player.Seat{seat}, player.MatchOptions{ID: fmt.Sprintf("mh%d", i), Seed: uint64(i), StartClock: 60e9, PlayClock: 60e9})
		if err != nil {
			t.Fatal(err)
		}
		if !rec.Completed || rec.Errors != 0 {
			t.Fatalf("match %d: completed %v, %d errors", i, rec.Completed, rec.Errors)
		}
		if rec.Goals[0] == 100 {
			wins++
		}
		if rec.Moves[len(rec.Moves)-1].Joint[0] == "switch" {
			switches++
		}
	}
	t.Logf("the mcts contestant won %d and switched in %d of %d matches", wins, switches, matches)
	if w := float64(wins) / float64(matches); w < 0.6 || w > 0.75 || switches < matches*9/10 {
		t.Errorf("the mcts contestant won %d and switched in %d of %d matches: it does not play from what it knows", wins, switches, matches)
	}
}
