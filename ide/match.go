package ide

import (
	"context"
	"fmt"
	"path"
	"time"

	"github.com/gdl-lsp/gdl/ggp"
)

// "Run a match" from the editor: a GGP match (package ggp) of the document's game between
// built-in players and players at URLs, whose joint moves become the document's line, so that
// the game view steps through the match move by move.

// MatchOptions configure a match run from the editor.
type MatchOptions struct {
	// Players are the players, one per role in role order (GDL-II's random role may be left
	// out): random, mcts, or a GGP player's URL.
	Players    []string
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
	Record *ggp.Record
	State  *GameState
}

// RunMatch runs a match of the document's game. The match's joint moves replace the document's
// line, which the state then starts: the game view steps through the match from there. A
// cancelled match keeps the joint moves played (the players get ABORT) and says why in the
// record. The error is for a match that could not start (a game with errors, players that do
// not fit the roles) or a state that could not be evaluated.
func (s *Session) RunMatch(ctx context.Context, opts MatchOptions) (*MatchResult, error) {
	var seats []ggp.Seat
	for i, p := range opts.Players {
		seat, err := ggp.NewSeat(p, ggp.PlayerOptions{Playouts: opts.Playouts, Seed: opts.Seed*1_000_003 + uint64(i), Limits: s.limits})
		if err != nil {
			return nil, err
		}
		seats = append(seats, seat)
	}
	mo := ggp.MatchOptions{StartClock: opts.StartClock, PlayClock: opts.PlayClock, Seed: opts.Seed, MaxSteps: opts.MaxSteps, Limits: s.limits}
	if opts.Progress != nil {
		mo.Progress = func(st ggp.Step) { opts.Progress(st.Step, st.Joint) }
	}
	rules, err := ggp.PrepareFile(s.snap.File())
	if err != nil {
		return nil, err
	}
	rec, err := ggp.RunMatch(ctx, path.Base(s.name), rules, seats, mo)
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
