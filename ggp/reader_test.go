package ggp

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/player"
	"github.com/gdl-lsp/gdl/syntax"
)

// quotedRoles is a valid game whose role names hold double quotes: the GDL parser reads them as
// names, and so must the messages that carry the game.
const quotedRoles = `(role x") (role "o)
(init (turn x"))
(<= (legal x" go) (true (turn x")))
(<= (legal x" wait) (true (turn "o)))
(<= (legal "o go) (true (turn "o)))
(<= (legal "o wait) (true (turn x")))
(<= (next (turn "o)) (true (turn x")))
(<= (next done) (true (turn "o)))
(<= terminal (true done))
(goal x" 50) (goal "o 50)`

// TestQuotedNames: a game `gdl check` accepts has the same roles in a match, played through
// the messages of the protocol (one reader of names for both).
func TestQuotedNames(t *testing.T) {
	f, _ := syntax.Parse(quotedRoles)
	res := analysis.Analyze(f, nil)
	for _, d := range res.Diagnostics {
		if d.Severity == analysis.Error {
			t.Fatalf("the analyzer rejects the game: %s", d.Message)
		}
	}
	if n := len(res.Model.Roles); n != 2 {
		t.Fatalf("the analyzer finds %d roles", n)
	}
	rules := mustRules(t, quotedRoles)
	if !strings.Contains(rules, `(role x") (role "o)`) {
		t.Errorf("the rules sent: %s", rules)
	}
	seats := []player.Seat{httpPlayer(t, RandomStrategy, 1), httpPlayer(t, MCTSStrategy, 2)}
	rec, err := runMatch(context.Background(), "quoted", rules, seats, player.MatchOptions{ID: "q1", StartClock: 10e9, PlayClock: 10e9})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(rec.Roles, " ") != `x" "o` || !rec.Completed || rec.Errors != 0 {
		t.Errorf("roles %q, completed %v, %d errors; start answers %+v", rec.Roles, rec.Completed, rec.Errors, rec.Start)
	}
	checkRecord(t, quotedRoles, rec)
	// A message reads a quote as part of a name, as the game does.
	m, err := Parse(`(PLAY m1 ("o" x"))`)
	if err != nil || strings.Join(m.Joint, " ") != `"o" x"` {
		t.Errorf("PLAY with quoted names: %v %q", err, m.Joint)
	}
	// A comment ends at a lone carriage return, as in a game file.
	if m, err := Parse("(PLAY m1 ; a comment\r(a b))"); err != nil || strings.Join(m.Joint, " ") != "a b" {
		t.Errorf("a comment ended by CR: %v %+v", err, m)
	}
}

// TestSeatsBeforeGrounding: the number of players is checked before the game is grounded, so a
// wrong count is reported at once (here the context is cancelled: grounding would fail first).
func TestSeatsBeforeGrounding(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := runMatch(ctx, "tictactoe", readGame(t, "tictactoe.kif"), []player.Seat{httpPlayer(t, RandomStrategy, 1)}, player.MatchOptions{})
	var ge *player.GameError
	if err == nil || errors.As(err, &ge) || !strings.Contains(err.Error(), "1 players for 2 roles") {
		t.Errorf("one player for two roles: %v", err)
	}
}

// TestBuiltInPlayersUnbounded: a game with more atoms than a message received over HTTP may
// hold is played by built-in players (told the match in this process, without messages).
func TestBuiltInPlayersUnbounded(t *testing.T) {
	if raceDetector {
		// It tests sizes, not concurrency; under the race detector loading the game alone takes
		// minutes on two cores. It runs in the plain `go test` of the package.
		t.Skip("skipped under the race detector: a game of a million atoms loads too slowly there")
	}
	var b strings.Builder
	b.WriteString(readGame(t, "tictactoe.kif"))
	// A thousand facts of a thousand arguments: more atoms than a message may hold, in few
	// rules (cheap to load).
	for i := range maxExprs / 1000 {
		fmt.Fprintf(&b, "(filler%d", i%2)
		for j := range 1001 {
			fmt.Fprintf(&b, " a%d", j)
		}
		b.WriteString(")\n")
	}
	rules := mustRules(t, b.String())
	if _, err := Parse("(START m1 xplayer (" + rules + ") 10 10)"); err == nil {
		t.Fatal("the game fits in the limits of a message: make it bigger")
	}
	var seats []player.Seat
	for i := range 2 {
		s, err := NewSeat("random", player.SeatOptions{Seed: uint64(i)})
		if err != nil {
			t.Fatal(err)
		}
		seats = append(seats, s)
	}
	rec, err := runMatch(context.Background(), "big", rules, seats, player.MatchOptions{ID: "big1", StartClock: 60e9, PlayClock: 60e9})
	if err != nil {
		t.Fatal(err)
	}
	if !rec.Completed || rec.Errors != 0 {
		t.Errorf("completed %v, %d errors: start %+v", rec.Completed, rec.Errors, rec.Start)
	}
}
