package game

import (
	"context"
	"errors"
	"fmt"

	"github.com/gdl-lsp/gdl/eval"
)

// MoveError is a joint move of a sequence that cannot be played: Step is its 1-based position,
// Err why (a *GameOverError, an *IllegalMoveError, a *JointError or an evaluation error).
type MoveError struct {
	Step  int
	Joint string // the joint move as KIF
	Err   error
}

func (e *MoveError) Error() string {
	var over *GameOverError
	if errors.As(e.Err, &over) {
		after := "the initial state is terminal"
		if e.Step > 1 {
			after = fmt.Sprintf("the state after joint move %d is terminal", e.Step-1)
		}
		return fmt.Sprintf("joint move %d %s: %s; the game is over, so no move can be played", e.Step, e.Joint, after)
	}
	return fmt.Sprintf("joint move %d %s: %v", e.Step, e.Joint, e.Err)
}

func (e *MoveError) Unwrap() error { return e.Err }

// Position is where a sequence of joint moves from the initial state leads.
type Position struct {
	States []*State      // States[0] is the initial state, States[i] the state after Moves[i-1]
	Moves  [][]eval.Term // the joint moves played
	Err    error         // why the replay stopped before the end of the sequence (a *MoveError), or nil
}

// State returns the last state reached.
func (p *Position) State() *State { return p.States[len(p.States)-1] }

// Replay plays joint moves from the initial state, checking each as Next does. It stops at the
// first joint move that cannot be played and says why in the position's Err (a *MoveError); the
// error returned is for the initial state, which has no position.
func (g *Game) Replay(ctx context.Context, joints [][]eval.Term) (*Position, error) {
	s, err := g.Initial(ctx)
	if err != nil {
		return nil, err
	}
	p := &Position{States: []*State{s}}
	for i, joint := range joints {
		next, err := g.Next(ctx, s, joint)
		if err != nil {
			p.Err = &MoveError{Step: i + 1, Joint: g.FormatJoint(joint), Err: err}
			return p, nil
		}
		p.Moves = append(p.Moves, joint)
		p.States = append(p.States, next)
		s = next
	}
	return p, nil
}

// ParseJointMoves reads joint moves written as KIF lists of one move per role, like the GGP PLAY
// message: `((mark 1 1) noop) (noop (mark 2 2))`.
func (g *Game) ParseJointMoves(text string) ([][]eval.Term, error) { return g.ev.ParseJointMoves(text) }

// ParseMoves reads a joint move given as one KIF text per role.
func (g *Game) ParseMoves(moves []string) ([]eval.Term, error) {
	if len(moves) != len(g.roles) {
		return nil, &JointError{Roles: len(g.roles), Moves: len(moves)}
	}
	joint := make([]eval.Term, len(moves))
	for i, m := range moves {
		t, err := g.ev.ParseTerm(m)
		if err != nil {
			return nil, err
		}
		joint[i] = t
	}
	return joint, nil
}

// JointMoves lists the legal joint moves of s (one legal move per role, roles in order, each
// role's moves in canonical order), the first max of them, and how many there are.
func (g *Game) JointMoves(ctx context.Context, s *State, max int) ([][]eval.Term, int, error) {
	legal, err := g.Legal(ctx, s)
	if err != nil {
		return nil, 0, err
	}
	total := 1
	for _, ms := range legal {
		total *= len(ms)
		if total > 1<<30 {
			total = 1 << 30
		}
	}
	if len(legal) == 0 {
		total = 0
	}
	var out [][]eval.Term
	idx := make([]int, len(legal))
	for len(out) < total && len(out) < max {
		joint := make([]eval.Term, len(legal))
		for i, ms := range legal {
			joint[i] = ms[idx[i]]
		}
		out = append(out, joint)
		for i := len(idx) - 1; i >= 0; i-- {
			if idx[i]++; idx[i] < len(legal[i]) {
				break
			}
			idx[i] = 0
		}
	}
	return out, total, nil
}
