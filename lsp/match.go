package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"strings"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/gdl-lsp/gdl/ide"
	"github.com/gdl-lsp/gdl/player"
)

// "Run a match" (gdl.runMatch): ide.RunMatch with progress and cancellation. The result is the
// document's state at the start of the match, whose line is the match (the game view steps
// through it), and the match record.

type matchArgs struct {
	Players      []string `json:"players"`
	StartclockMs int      `json:"startclockMs"`
	PlayclockMs  int      `json:"playclockMs"`
	Playouts     int      `json:"playouts"`
	Seed         uint64   `json:"seed"`
	MaxSteps     int      `json:"maxSteps"`
}

// matchResult is gdl.runMatch's result: a game state (the start of the line) and the record.
type matchResult struct {
	gameState
	Summary string         `json:"summary"`
	Match   *player.Record `json:"match"`
}

// clockOf turns a clock in milliseconds into the whole seconds the protocol sends (rounded up;
// def when not given), at most a day.
func clockOf(ms int, def time.Duration) time.Duration {
	if ms <= 0 {
		return def
	}
	d := (time.Duration(ms)*time.Millisecond + time.Second - 1).Truncate(time.Second)
	return min(d, player.MaxClock)
}

// runMatch runs gdl.runMatch {uri, players, startclockMs, playclockMs, playouts, seed,
// maxSteps}: the clocks default to 10 s and 2 s.
func (s *Server) runMatch(ctx context.Context, session *ide.Session, uri string, raw json.RawMessage, token json.RawMessage) (*matchResult, error) {
	var a matchArgs
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &a); err != nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "gdl.runMatch: %v", err)
		}
	}
	if len(a.Players) == 0 {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "gdl.runMatch: give the players, one per role in role order: {uri, players: [\"mcts\", \"random\", \"http://127.0.0.1:9147/\"]}")
	}
	opts := ide.MatchOptions{Players: a.Players, StartClock: clockOf(a.StartclockMs, 10*time.Second), PlayClock: clockOf(a.PlayclockMs, 2*time.Second),
		Playouts: max(a.Playouts, 0), Seed: a.Seed, MaxSteps: max(a.MaxSteps, 0), Seats: s.opts.Seats}
	ctx, p := s.beginProgress(ctx, token, fmt.Sprintf("Match of %s: %s", path.Base(uri), strings.Join(a.Players, " against ")))
	opts.Progress = func(step int, joint []string) {
		p.report(fmt.Sprintf("%d. (%s)", step, strings.Join(joint, " ")))
	}
	res, err := session.RunMatch(ctx, opts)
	if err != nil {
		if cause := context.Cause(ctx); errors.Is(cause, errProgressCancelled) {
			err = cause
		}
		p.end("the match did not run: " + err.Error())
		return nil, jsonrpc2.Errorf(codeRequestFailed, "gdl.runMatch: %v", err)
	}
	p.end(res.Record.Summary())
	return &matchResult{gameState: toGameState(res.State), Summary: res.Describe(), Match: res.Record}, nil
}
