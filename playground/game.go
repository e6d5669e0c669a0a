package playground

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/gdl-lsp/gdl/board"
	"github.com/gdl-lsp/gdl/ide"
)

// The state commands (ide.Session): the current state, a joint move played, a random one, one
// chosen by Monte Carlo tree search (the computer's), back, reset, a jump along the line of
// joint moves, and the replay of a verification's witness. Each returns the state reached,
// drawn.

func init() {
	methods["state"] = stateCommand(func(ctx context.Context, s *ide.Session, _ json.RawMessage) (*ide.GameState, error) {
		return s.ShowState(ctx)
	})
	methods["play"] = stateCommand(func(ctx context.Context, s *ide.Session, params json.RawMessage) (*ide.GameState, error) {
		p, err := decode[struct {
			Moves []string `json:"moves"`
		}]("play", params)
		if err != nil {
			return nil, err
		}
		return s.Play(ctx, p.Moves)
	})
	methods["random"] = stateCommand(func(ctx context.Context, s *ide.Session, _ json.RawMessage) (*ide.GameState, error) {
		return s.PlayRandom(ctx)
	})
	methods["undo"] = stateCommand(func(ctx context.Context, s *ide.Session, _ json.RawMessage) (*ide.GameState, error) {
		return s.Undo(ctx)
	})
	methods["reset"] = stateCommand(func(ctx context.Context, s *ide.Session, _ json.RawMessage) (*ide.GameState, error) {
		return s.Reset(ctx)
	})
	methods["goto"] = stateCommand(func(ctx context.Context, s *ide.Session, params json.RawMessage) (*ide.GameState, error) {
		p, err := decode[struct {
			Step *int `json:"step"`
		}]("goto", params)
		if err != nil {
			return nil, err
		}
		if p.Step == nil {
			return nil, fmt.Errorf("goto: give the step to go to: {step: N}")
		}
		return s.GotoStep(ctx, *p.Step)
	})
	methods["replay"] = stateCommand(func(ctx context.Context, s *ide.Session, params json.RawMessage) (*ide.GameState, error) {
		p, err := decode[struct {
			History [][]string `json:"history"`
		}]("replay", params)
		if err != nil {
			return nil, err
		}
		return s.SetHistory(ctx, p.History)
	})
	methods["computer"] = stateCommand(func(ctx context.Context, s *ide.Session, params json.RawMessage) (*ide.GameState, error) {
		p, err := decode[struct {
			MoveTimeMs int    `json:"moveTimeMs"`
			Playouts   int    `json:"playouts"`
			Seed       uint64 `json:"seed"`
		}]("computer", params)
		if err != nil {
			return nil, err
		}
		mt := min(max(time.Duration(p.MoveTimeMs)*time.Millisecond, 0), time.Minute)
		return s.ComputerMove(ctx, ide.ComputerOptions{MoveTime: mt, Playouts: max(p.Playouts, 0), Seed: p.Seed})
	})
}

// stateCommand makes a method of a state command.
func stateCommand(run func(ctx context.Context, s *ide.Session, params json.RawMessage) (*ide.GameState, error)) handler {
	return func(ctx context.Context, b *Bridge, snap *ide.Snapshot, params json.RawMessage) (any, error) {
		st, err := run(ctx, b.session(snap), params)
		if err != nil {
			return nil, err
		}
		return toGameState(st, snap), nil
	}
}

// Square is a square of a board of the state drawn: indexes into the View's boards, rows and
// columns.
type Square struct {
	Board  int `json:"board"`
	Row    int `json:"row"`
	Column int `json:"column"`
}

// computerSearch is what the built-in player's search found for a role.
type computerSearch struct {
	Role      string  `json:"role"`
	Move      string  `json:"move"`
	Playouts  int     `json:"playouts"`
	States    int     `json:"states"`
	Value     float64 `json:"value"`
	ElapsedMs float64 `json:"elapsedMs"`
	Engine    string  `json:"engine"`
}

// gameState is a state as the page shows it. Legal, goals and squares are by role name.
type gameState struct {
	Roles    []string              `json:"roles"`
	State    []string              `json:"state"`
	Step     int                   `json:"step"`
	History  [][]string            `json:"history"`
	Line     [][]string            `json:"line"` // History and the joint moves after it
	Terminal bool                  `json:"terminal"`
	Legal    map[string][]string   `json:"legal"`
	Goals    map[string][]int      `json:"goals"`
	Error    string                `json:"error,omitempty"`
	Notation string                `json:"notation"`
	View     *board.View           `json:"view"`
	Board    string                `json:"board"` // the state as ASCII text
	SVG      string                `json:"svg"`   // the state drawn, as gdl render --format svg
	Squares  map[string][][]Square `json:"squares"`
	Random   []string              `json:"random"`
	Percepts []map[string][]string `json:"percepts,omitempty"`
	Notes    []string              `json:"notes"`
	Computer []computerSearch      `json:"computer"`
	Why      *explainResult        `json:"why,omitempty"` // why a refused move is not legal
}

// nonNil returns s, or an empty slice for nil (JSON [] rather than null).
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func toGameState(st *ide.GameState, snap *ide.Snapshot) *gameState {
	out := &gameState{Roles: nonNil(st.Roles), State: nonNil(st.State), Step: st.Step, History: nonNil(st.History), Line: nonNil(st.Line),
		Terminal: st.Terminal, Legal: map[string][]string{}, Goals: map[string][]int{}, Error: st.Error, Notation: snap.Dialect().String(),
		View: st.View, Board: st.Board, Squares: map[string][][]Square{}, Random: []string{}, Notes: nonNil(st.Notes), Computer: []computerSearch{}}
	if out.View == nil {
		out.View = &board.View{Boards: []*board.Board{}, Others: []board.Other{}}
	}
	out.SVG = out.View.SVG()
	for r, role := range st.Roles {
		if r < len(st.Legal) {
			out.Legal[role] = nonNil(st.Legal[r])
		}
		if r < len(st.Goals) {
			out.Goals[role] = nonNil(st.Goals[r])
		}
		if r < len(st.Squares) {
			per := make([][]Square, len(st.Squares[r]))
			for i, sqs := range st.Squares[r] {
				per[i] = []Square{}
				for _, q := range sqs {
					per[i] = append(per[i], Square(q))
				}
			}
			out.Squares[role] = per
		}
		if r < len(st.Random) && st.Random[r] {
			out.Random = append(out.Random, role)
		}
	}
	for _, step := range st.Percepts {
		m := map[string][]string{}
		for r, ps := range step {
			if r < len(st.Roles) {
				m[st.Roles[r]] = nonNil(ps)
			}
		}
		out.Percepts = append(out.Percepts, m)
	}
	for _, c := range st.Computer {
		out.Computer = append(out.Computer, computerSearch{c.Role, c.Move, c.Playouts, c.States, c.Value,
			float64(c.Elapsed.Microseconds()) / 1000, string(c.Engine)})
	}
	if st.Why != nil {
		out.Why = toExplainResult(st.Why)
	}
	return out
}
