package game

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"
	"strings"
	"sync"

	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/internal/sched"
)

// State is a game state: the fluents that hold. It is a value: never modified once made, and
// safe to share between goroutines.
type State struct {
	bits []uint64 // compiled engine: bit i is base proposition i (nil for the interpreter)
	key  string
	g    *Game

	once   sync.Once
	fl     []eval.Term // the fluents, sorted (made on demand)
	esOnce sync.Once
	es     *eval.State // the interpreter's state (made on demand for a compiled one)
}

func (g *Game) newState(b []uint64, es *eval.State) *State {
	s := &State{bits: b, es: es, g: g}
	s.key = s.makeKey()
	return s
}

// Key returns a string that equal states of the game share and different ones do not.
func (s *State) Key() string { return s.key }

func (s *State) makeKey() string {
	var b []byte
	if s.bits != nil {
		b = appendBitsKey(make([]byte, 0, 1+8*len(s.bits)), s.bits)
	} else {
		fl := s.es.Fluents()
		b = make([]byte, 1+4*len(fl))
		b[0] = 'i'
		for i, f := range fl {
			binary.LittleEndian.PutUint32(b[1+4*i:], uint32(f))
		}
	}
	return string(b)
}

// Equal reports whether two states hold the same fluents.
func (s *State) Equal(o *State) bool { return s.Key() == o.Key() }

// Fluents returns the fluents of the state, sorted canonically. Do not modify.
func (s *State) Fluents() []eval.Term {
	s.once.Do(s.fill)
	return s.fl
}

// interp returns the interpreter's state (made from the fluents for a compiled state, the
// first time it is needed: a search that only reads fluents never needs it).
func (s *State) interp() *eval.State {
	s.esOnce.Do(func() {
		if s.es == nil {
			s.es = s.g.ev.NewState(s.Fluents())
		}
	})
	return s.es
}

func (s *State) fill() {
	if s.bits == nil {
		s.fl = s.es.Fluents()
		return
	}
	fl := make([]eval.Term, 0, 16)
	for w, word := range s.bits {
		for word != 0 {
			b := bits.TrailingZeros64(word)
			word &= word - 1
			fl = append(fl, s.g.gr.Fluents[w*64+b])
		}
	}
	s.fl = sortTerms(fl)
}

// StateOf makes a state of the given fluents (for states written by hand; a state reached by
// playing is better made by Initial and Next).
func (g *Game) StateOf(fluents []eval.Term) *State {
	es := g.ev.NewState(fluents)
	return g.fromInterp(es)
}

// fromInterp makes a State of an interpreter's state, as a compiled one when every fluent is a
// base proposition and the fluents that never change (Grounding.Constant) are there.
func (g *Game) fromInterp(es *eval.State) *State {
	if g.net != nil {
		b := make([]uint64, g.net.Words())
		ok := true
		for _, f := range es.Fluents() {
			i, found := g.fluent[f]
			if !found {
				ok = false
				break
			}
			b[i>>6] |= 1 << uint(i&63)
		}
		// The network is built for states that hold the fluents that never change.
		for _, f := range g.gr.Constant {
			i := g.fluent[f]
			ok = ok && b[i>>6]&(1<<uint(i&63)) != 0
		}
		if ok {
			return g.newState(b, es)
		}
	}
	return g.newState(nil, es)
}

// compiled reports whether the compiled engine can answer for s.
func (g *Game) compiled(s *State) bool { return g.net != nil && s.bits != nil }

// Initial returns the initial state.
func (g *Game) Initial(ctx context.Context) (*State, error) {
	es, err := g.ev.Initial(ctx)
	if err != nil {
		return nil, err
	}
	return g.fromInterp(es), nil
}

// Terminal reports whether s is terminal.
func (g *Game) Terminal(ctx context.Context, s *State) (bool, error) {
	if g.compiled(s) {
		g.mu.Lock()
		defer g.mu.Unlock()
		g.m.SetState(s.bits)
		return g.m.Terminal(), nil
	}
	return g.ev.Terminal(ctx, s.interp())
}

// Legal returns the legal moves of every role in s, indexed like Roles, each sorted
// canonically.
func (g *Game) Legal(ctx context.Context, s *State) ([][]eval.Term, error) {
	sched.Yield()
	if g.compiled(s) {
		g.mu.Lock()
		defer g.mu.Unlock()
		g.m.SetState(s.bits)
		out := make([][]eval.Term, len(g.roles))
		for r := range g.roles {
			for _, mv := range g.m.Legal(r) {
				out[r] = append(out[r], g.gr.Moves[r][mv])
			}
			sortTerms(out[r])
		}
		return out, nil
	}
	legal, err := g.ev.Legal(ctx, s.interp())
	if err != nil {
		return nil, err
	}
	out := make([][]eval.Term, len(legal))
	for r, ms := range legal {
		out[r] = sortTerms(slices.Clone(ms))
	}
	return out, nil
}

// Goals returns the goal values of every role in s, indexed like Roles, each sorted
// canonically. A valid game gives each role exactly one integer in a terminal state; other
// states and invalid games may give none, several, or terms that are not integers.
func (g *Game) Goals(ctx context.Context, s *State) ([][]eval.Term, error) {
	if g.compiled(s) {
		g.mu.Lock()
		defer g.mu.Unlock()
		g.m.SetState(s.bits)
		out := make([][]eval.Term, len(g.roles))
		var idx []int
		for r := range g.roles {
			idx = g.m.Goals(r, idx[:0])
			for _, i := range idx {
				out[r] = append(out[r], g.gr.Goals[r][i].Value)
			}
			sortTerms(out[r])
		}
		return out, nil
	}
	goals, err := g.ev.Goals(ctx, s.interp())
	if err != nil {
		return nil, err
	}
	out := make([][]eval.Term, len(goals))
	for r, vs := range goals {
		out[r] = sortTerms(slices.Clone(vs))
	}
	return out, nil
}

// GoalValues returns, per role, its goal value in s when it has exactly one integer value, or
// -1.
func (g *Game) GoalValues(ctx context.Context, s *State) ([]int, error) {
	goals, err := g.Goals(ctx, s)
	if err != nil {
		return nil, err
	}
	out := make([]int, len(goals))
	for r, vs := range goals {
		out[r] = -1
		if len(vs) == 1 {
			if v, ok := g.ev.Int(vs[0]); ok {
				out[r] = v
			}
		}
	}
	return out, nil
}

// JointError is a joint move with the wrong number of moves.
type JointError struct {
	Roles, Moves int
}

func (e *JointError) Error() string {
	return fmt.Sprintf("a joint move has one move per role: %d roles, %d moves", e.Roles, e.Moves)
}

// IllegalMoveError is a joint move with a move that is not legal in the state it is played in.
type IllegalMoveError struct {
	Role, Move string
	Index      int // the role's position
}

func (e *IllegalMoveError) Error() string {
	return fmt.Sprintf("%s is not a legal move of role %s", e.Move, e.Role)
}

// GameOverError is a joint move played in a terminal state.
type GameOverError struct{}

func (e *GameOverError) Error() string {
	return "the state is terminal: the game is over, so no move can be played"
}

// Next returns the state after joint (one move per role, in role order) is played in s. It
// fails with a *GameOverError when s is terminal, an *IllegalMoveError when a move is not legal,
// and a *JointError when the joint move does not have one move per role.
func (g *Game) Next(ctx context.Context, s *State, joint []eval.Term) (*State, error) {
	if len(joint) != len(g.roles) {
		return nil, &JointError{Roles: len(g.roles), Moves: len(joint)}
	}
	sched.Yield()
	if g.compiled(s) {
		g.mu.Lock()
		defer g.mu.Unlock()
		g.m.SetState(s.bits)
		if g.m.Terminal() {
			return nil, &GameOverError{}
		}
		idx := make([]int32, len(joint))
		for r, m := range joint {
			i, ok := g.moveIdx[r][m]
			if !ok || !g.m.IsLegal(r, i) {
				return nil, &IllegalMoveError{Role: g.names[r], Move: g.ev.String(m), Index: r}
			}
			idx[r] = i
		}
		next := make([]uint64, g.net.Words())
		g.m.Next(idx, next)
		return g.newState(next, nil), nil
	}
	term, err := g.ev.Terminal(ctx, s.interp())
	if err != nil {
		return nil, err
	}
	if term {
		return nil, &GameOverError{}
	}
	legal, err := g.ev.Legal(ctx, s.interp())
	if err != nil {
		return nil, err
	}
	for r, m := range joint {
		if !slices.Contains(legal[r], m) {
			return nil, &IllegalMoveError{Role: g.names[r], Move: g.ev.String(m), Index: r}
		}
	}
	es, err := g.ev.Next(ctx, s.interp(), joint)
	if err != nil {
		return nil, err
	}
	return g.fromInterp(es), nil
}

// Sees returns the percepts of every role (GDL-II) when joint is played in s, indexed like
// Roles, each sorted canonically. The moves are not checked.
func (g *Game) Sees(ctx context.Context, s *State, joint []eval.Term) ([][]eval.Term, error) {
	if len(joint) != len(g.roles) {
		return nil, &JointError{Roles: len(g.roles), Moves: len(joint)}
	}
	if g.compiled(s) {
		idx := make([]int32, len(joint))
		ok := true
		for r, m := range joint {
			i, found := g.moveIdx[r][m]
			idx[r] = i
			ok = ok && found
		}
		if ok {
			g.mu.Lock()
			defer g.mu.Unlock()
			g.m.SetState(s.bits)
			out := make([][]eval.Term, len(g.roles))
			var ps []int
			for r := range g.roles {
				ps = g.m.Sees(idx, r, ps[:0])
				for _, i := range ps {
					out[r] = append(out[r], g.gr.Sees[r][i].Percept)
				}
				sortTerms(out[r])
			}
			return out, nil
		}
	}
	sees, err := g.ev.Sees(ctx, s.interp(), joint)
	if err != nil {
		return nil, err
	}
	out := make([][]eval.Term, len(sees))
	for r, ps := range sees {
		out[r] = sortTerms(slices.Clone(ps))
	}
	return out, nil
}

// Ask answers a query in state s, with joint as the joint move for the relations that depend on
// does (nil: none). The interpreter answers.
func (g *Game) Ask(ctx context.Context, s *State, joint []eval.Term, q *eval.Query) ([]eval.Answer, error) {
	return g.ev.Ask(ctx, s.interp(), joint, q)
}

// String writes the state's fluents, sorted by text, separated by spaces.
func (s *State) String() string {
	return strings.Join(s.g.ev.Strings(s.Fluents()), " ")
}
