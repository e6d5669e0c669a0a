package ide

import (
	"cmp"
	"context"
	"fmt"
	"path"
	"time"

	"github.com/gdl-lsp/gdl/game"
	"github.com/gdl-lsp/gdl/player"
)

// "Run a match" from the editor: a match (player.RunMatch) of the document's game between
// built-in players and, with the server's seats, players at URLs, whose joint moves become the
// document's line, so that the game view steps through the match move by move.

// Seats makes the seat of a player named in MatchOptions.Players (ggp.NewSeat: built-in players
// and players at URLs; player.NewSeat: built-in players only).
type Seats func(spec string, opts player.SeatOptions) (player.Seat, error)

// MatchOptions configure a match run from the editor.
type MatchOptions struct {
	// Players are the players, one per role in role order (GDL-II's random role may be left
	// out): random, mcts, or a GGP player's URL when Seats makes seats for URLs.
	Players []string
	// Seats makes the players' seats (nil: player.NewSeat, built-in players only).
	Seats      Seats
	StartClock time.Duration // 0: 10 s
	PlayClock  time.Duration // 0: 5 s
	// Playouts bounds the built-in mcts players' search per move (0: until the play clock less
	// the margin).
	Playouts int
	Seed     uint64
	MaxSteps int // 0: 1000
	// Progress, when set, is called after every joint move with its number and its moves.
	Progress func(step int, joint []string)
}

// MatchResult is a match run from the editor and the document's state after it: the initial
// state, with the match's joint moves as its line.
type MatchResult struct {
	Record *player.Record
	State  *GameState
}

// RunMatch runs a match of the document's game. The match's joint moves replace the document's
// line, which the state then starts: the game view steps through the match from there. A
// cancelled match keeps the joint moves played (the players get ABORT) and says why in the
// record. The error is for a match that could not start (a game with errors, players that do
// not fit the roles) or a state that could not be evaluated.
func (s *Session) RunMatch(ctx context.Context, opts MatchOptions) (*MatchResult, error) {
	seats, err := matchSeats(opts)
	if err != nil {
		return nil, err
	}
	g, err := player.LoadMatch(ctx, s.snap.File(), seats, game.Options{Limits: s.limits})
	if err != nil {
		return nil, err
	}
	mo := player.MatchOptions{Name: path.Base(s.name), StartClock: cmp.Or(opts.StartClock, 10*time.Second), PlayClock: cmp.Or(opts.PlayClock, 5*time.Second),
		Seed: opts.Seed, MaxSteps: opts.MaxSteps}
	if opts.Progress != nil {
		mo.Progress = func(st player.Step) { opts.Progress(st.Step, st.Joint) }
	}
	rec, err := player.RunMatch(ctx, g, seats, mo)
	if rec == nil {
		return nil, err
	}
	// The line is set even when the match was cancelled: what was played is shown.
	lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	defer cancel()
	if _, rerr := s.SetHistory(lctx, s.inNotation(rec.JointMoves())); rerr != nil {
		return nil, rerr
	}
	st, serr := s.GotoStep(lctx, 0)
	if serr != nil {
		return nil, serr
	}
	if err != nil && rec.Aborted == "" {
		rec.Aborted = err.Error()
	}
	return &MatchResult{Record: rec, State: st}, nil
}

// matchSeats makes the seats of the players.
func matchSeats(opts MatchOptions) ([]player.Seat, error) {
	newSeat := opts.Seats
	if newSeat == nil {
		newSeat = func(spec string, o player.SeatOptions) (player.Seat, error) { return player.NewSeat(spec, o) }
	}
	var seats []player.Seat
	for i, p := range opts.Players {
		seat, err := newSeat(p, player.SeatOptions{Playouts: opts.Playouts, Seed: opts.Seed*1_000_003 + uint64(i)})
		if err != nil {
			return nil, err
		}
		seats = append(seats, seat)
	}
	return seats, nil
}

// inNotation writes the manager's moves (KIF) in the document's notation, as the state
// commands write them; a move that does not read is kept as it is (the replay then says why).
func (s *Session) inNotation(history [][]string) [][]string {
	g := s.game().g
	if g == nil {
		return history
	}
	out := make([][]string, len(history))
	for i, joint := range history {
		out[i] = make([]string, len(joint))
		for r, m := range joint {
			out[i][r] = m
			if t, err := g.ParseTerm(m); err == nil {
				out[i][r] = g.String(t)
			}
		}
	}
	return out
}

// Describe is a line for a message: how the match ended and its goals.
func (r *MatchResult) Describe() string {
	return fmt.Sprintf("%s: %s", r.Record.MatchID, r.Record.Summary())
}
