package lsp

import (
	"context"
	"time"

	"github.com/gdl-lsp/gdl/board"
	"github.com/gdl-lsp/gdl/game"
	"github.com/gdl-lsp/gdl/ide"
)

// The game view's commands (ide/game_view.go): gdl.gotoStep, gdl.computerMove and gdl.playouts,
// and the fields the state commands' results have for the view.

// viewFields are what the state commands' results carry for the game view.
type viewFields struct {
	Line  [][]string  `json:"line"`  // the history and the joint moves after it
	Board string      `json:"board"` // the state drawn as ASCII text
	View  *board.View `json:"view,omitempty"`
	// Squares gives, per role and legal move (as legal), the squares the move mentions.
	Squares  map[string][][]square `json:"squares,omitempty"`
	Random   []string              `json:"random"`             // GDL-II's random role, if any
	Percepts []map[string][]string `json:"percepts,omitempty"` // GDL-II: per joint move played, per role
	Notes    []string              `json:"notes,omitempty"`
	Computer []computerSearch      `json:"computer,omitempty"`
	// ViewAs is the state as the role the command's viewAs names knows it (GDL-II).
	ViewAs *roleView `json:"viewAs,omitempty"`
}

// roleView is ide.RoleView: the state as a role knows it.
type roleView struct {
	Role          string      `json:"role"`
	View          *board.View `json:"view,omitempty"` // the squares it does not know show "?"
	Unknown       []square    `json:"unknown"`        // those squares
	UnknownOthers []string    `json:"unknownOthers"`  // relations off the boards it does not know
	Known         []string    `json:"known"`          // the fluents true in every state it may be in
	States        int         `json:"states"`         // the states it may be in
	Complete      bool        `json:"complete"`       // all of them were found: a square shown is surely known
	Error         string      `json:"error,omitempty"`
}

func toRoleView(rv *ide.RoleView) *roleView {
	out := &roleView{Role: rv.Role, View: rv.View, Unknown: []square{}, UnknownOthers: rv.UnknownOthers, Known: rv.Known,
		States: rv.States, Complete: rv.Complete, Error: rv.Error}
	for _, q := range rv.Unknown {
		out.Unknown = append(out.Unknown, square{q.Board, q.Row, q.Column})
	}
	if out.UnknownOthers == nil {
		out.UnknownOthers = []string{}
	}
	if out.Known == nil {
		out.Known = []string{}
	}
	return out
}

type square struct {
	Board  int `json:"board"`
	Row    int `json:"row"`
	Column int `json:"column"`
}

type computerSearch struct {
	Role      string  `json:"role"`
	Move      string  `json:"move"`
	Playouts  int     `json:"playouts"`
	States    int     `json:"states"` // the states searched from: 1 when the role knows the state
	Value     float64 `json:"value"`
	ElapsedMs float64 `json:"elapsedMs"`
	Engine    string  `json:"engine"`
}

func toViewFields(st *ide.GameState) viewFields {
	out := viewFields{Line: st.Line, Board: st.Board, View: st.View, Notes: st.Notes, Random: []string{}}
	if out.Line == nil {
		out.Line = [][]string{}
	}
	for i, r := range st.Random {
		if r && i < len(st.Roles) {
			out.Random = append(out.Random, st.Roles[i])
		}
	}
	if st.Squares != nil {
		out.Squares = map[string][][]square{}
		for r, moves := range st.Squares {
			per := make([][]square, len(moves))
			for i, sqs := range moves {
				per[i] = []square{}
				for _, q := range sqs {
					per[i] = append(per[i], square{q.Board, q.Row, q.Column})
				}
			}
			out.Squares[st.Roles[r]] = per
		}
	}
	if st.Percepts != nil {
		out.Percepts = []map[string][]string{}
		for _, step := range st.Percepts {
			m := map[string][]string{}
			for r, ps := range step {
				m[st.Roles[r]] = ps
			}
			out.Percepts = append(out.Percepts, m)
		}
	}
	for _, c := range st.Computer {
		out.Computer = append(out.Computer, computerSearch{Role: c.Role, Move: c.Move, Playouts: c.Playouts, States: c.States, Value: c.Value,
			ElapsedMs: float64(c.Elapsed.Microseconds()) / 1000, Engine: string(c.Engine)})
	}
	return out
}

// computerOptions reads gdl.computerMove's arguments: moveTimeMs (default 1000, or a minute
// with a playout budget; at most a minute) and a playout budget.
func computerOptions(args commandArgs) ide.ComputerOptions {
	mt := max(time.Duration(args.MoveTimeMs)*time.Millisecond, 0) // 0: ide.ComputerMove's default
	return ide.ComputerOptions{MoveTime: min(mt, time.Minute), Playouts: max(args.Playouts, 0), Seed: args.Seed}
}

// playoutsResult is gdl.playouts' result: the report of `gdl play --format json`
// (game.PlayReport), or why the game could not be played.
type playoutsResult struct {
	game.PlayReport
	Error string `json:"error,omitempty"`
}

// handlePlayouts runs gdl.playouts {uri, playouts, seed, timeMs}: random playouts from the
// initial state (default 1,000, at most 100,000; at most timeMs, default 10 s).
func handlePlayouts(ctx context.Context, session *ide.Session, args commandArgs) playoutsResult {
	n := min(max(args.Playouts, 0), 100_000)
	limit := time.Duration(args.TimeMs) * time.Millisecond
	st := session.Playouts(ctx, n, args.Seed, min(limit, time.Minute))
	return playoutsResult{PlayReport: st.Report, Error: st.Error}
}
