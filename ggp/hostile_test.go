package ggp

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gdl-lsp/gdl/player"
)

// Players that fail, each a real HTTP server on 127.0.0.1 playing left in matching pennies
// against a good player: the manager replaces every bad move by a random legal one, records
// why, and the match ends normally.

// scripted answers START, STOP and ABORT as a player should and PLAY with play.
func scripted(play func(w http.ResponseWriter, r *http.Request)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, MaxMessage))
		m, err := Parse(string(body))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		switch m.Kind {
		case Start:
			io.WriteString(w, "ready")
		case Play:
			play(w, r)
		default:
			io.WriteString(w, "done")
		}
	}
}

func TestHostilePlayers(t *testing.T) {
	cases := []struct {
		name    string
		handler http.Handler
		kind    player.ErrorKind // of every PLAY answer
		start   player.ErrorKind // of the START answer
	}{
		{"never answers", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			// Read the request, so that the server notices when the manager hangs up, and
			// wait for that.
			io.Copy(io.Discard, r.Body)
			<-r.Context().Done()
		}), player.Late, player.Late},
		{"answers garbage", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "((( not a move") }), player.Unreadable, player.Refused},
		{"answers two terms", scripted(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "(show heads) (show tails)") }), player.Unreadable, ""},
		{"answers a variable", scripted(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "(show ?side)") }), player.Unreadable, ""},
		{"answers an illegal move", scripted(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "(show edge)") }), player.Illegal, ""},
		{"answers a long text", scripted(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, strings.Repeat("x", MaxReply+10)) }), player.Unreadable, ""},
		{"answers 500", scripted(func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "it broke", http.StatusInternalServerError)
		}), player.Refused, ""},
		{"answers busy", scripted(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "busy") }), player.Illegal, ""},
		{"closes the connection", scripted(func(w http.ResponseWriter, r *http.Request) {
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				conn.Close()
			}
		}), player.Unreachable, ""},
	}
	src := readGame(t, "pennies.kif")
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			bad := httptest.NewServer(c.handler)
			defer bad.Close()
			seats := []player.Seat{&HTTPSeat{URL: bad.URL}, httpPlayer(t, RandomStrategy, 2)}
			rec, err := runMatch(context.Background(), "pennies.kif", src, seats, player.MatchOptions{StartClock: time.Second, PlayClock: time.Second, Seed: 3})
			if err != nil {
				t.Fatal(err)
			}
			if !rec.Completed || rec.Errors != len(rec.Moves) {
				t.Errorf("completed %v, %d moves replaced of %d", rec.Completed, rec.Errors, len(rec.Moves))
			}
			if rec.Start[0].Kind != c.start || rec.Start[1].Kind != "" {
				t.Errorf("START: %+v", rec.Start)
			}
			for _, s := range rec.Moves {
				if a := s.Answers[0]; a.Kind != c.kind || a.Move == "" || a.Error == "" {
					t.Errorf("step %d, left: %+v, want a move replaced for %s", s.Step, a, c.kind)
				}
				if a := s.Answers[1]; a.Kind != "" {
					t.Errorf("step %d, right: %+v", s.Step, a)
				}
			}
			var out strings.Builder
			rec.WriteText(&out)
			t.Log("\n" + out.String())
			checkRecord(t, src, rec)
		})
	}
}

// TestPlayerCrashes: a player that goes away in the middle of a match (its server closed after
// the first joint move) is unreachable for the rest of it.
func TestPlayerCrashes(t *testing.T) {
	src := readGame(t, "tictactoe.kif")
	p := NewPlayer(PlayerOptions{Log: testLogger(t, "crashing")})
	srv := httptest.NewServer(p)
	defer srv.Close()
	seats := []player.Seat{&HTTPSeat{URL: srv.URL}, httpPlayer(t, RandomStrategy, 2)}
	rec, err := runMatch(context.Background(), "tictactoe.kif", src, seats, player.MatchOptions{StartClock: 5 * time.Second, PlayClock: 5 * time.Second,
		Progress: func(s player.Step) {
			if s.Step == 1 {
				srv.CloseClientConnections()
				srv.Close()
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	if !rec.Completed {
		t.Fatalf("not completed: %s", rec.Aborted)
	}
	for _, s := range rec.Moves {
		want := player.Unreachable
		if s.Step == 1 {
			want = ""
		}
		if a := s.Answers[0]; a.Kind != want {
			t.Errorf("step %d: %+v, want %q", s.Step, a, want)
		}
	}
	if rec.End[0].Kind != player.Unreachable || rec.End[1].Kind != "" {
		t.Errorf("STOP: %+v", rec.End)
	}
	checkRecord(t, src, rec)
}

// TestMatchCancelled: cancelling the manager's context sends ABORT to every player, which
// becomes available again, and the record keeps the joint moves played.
func TestMatchCancelled(t *testing.T) {
	src := readGame(t, "tictactoe.kif")
	p := NewPlayer(PlayerOptions{Log: testLogger(t, "player")})
	srv := httptest.NewServer(p)
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	seats := []player.Seat{&HTTPSeat{URL: srv.URL}, httpPlayer(t, RandomStrategy, 2)}
	rec, err := runMatch(ctx, "tictactoe.kif", src, seats, player.MatchOptions{StartClock: 5 * time.Second, PlayClock: 5 * time.Second,
		Progress: func(s player.Step) {
			if s.Step == 3 {
				cancel()
			}
		}})
	if err == nil || rec == nil {
		t.Fatalf("err %v, record %v", err, rec)
	}
	if rec.Completed || len(rec.Moves) != 3 || !strings.HasPrefix(rec.Aborted, "cancelled") {
		t.Errorf("completed %v, %d joint moves, aborted %q", rec.Completed, len(rec.Moves), rec.Aborted)
	}
	for _, a := range rec.End {
		if a.Kind != "" || a.Reply != "done" {
			t.Errorf("ABORT: %+v", a)
		}
	}
	if status, body := post(t, srv.URL, "(INFO)"); status != http.StatusOK || body != "available" {
		t.Errorf("INFO after ABORT: %d %q", status, body)
	}
	checkRecord(t, src, rec)
}
