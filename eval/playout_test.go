package eval

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// isRandom reports whether r is GDL-II's `random` role, which plays uniformly at random and
// needs no goal value.
func (g *Program) isRandom(r Term) bool { return strings.EqualFold(g.String(r), "random") }

// Kinds of violations a playout can find.
const (
	ViolationNoLegalMove = "no-legal-move" // a role has no legal move in a non-terminal state
	ViolationGoal        = "goal"          // a role (but GDL-II's random) has no goal value, or several, in a terminal state
	ViolationDepth       = "depth-limit"   // the playout reached the depth limit without a terminal state
	ViolationEval        = "eval-error"    // evaluating a reachable state stopped at a limit (term depth, facts, time)
)

// Violation is a breach of GDL's well-formedness found by a playout, with the joint moves that
// reach it from the initial state.
type Violation struct {
	Kind   string
	Role   string // the role concerned ("" for ViolationDepth and ViolationEval)
	Detail string // for people: "no goal value", "goal values 0 and 100", the evaluation error, ...
	Moves  [][]Term
	Err    error // for ViolationEval: the error (a *LimitError, ...)
}

// evalViolation turns an evaluation error into a violation, unless the error is about the
// whole game (a refusal: its rules have no defined meaning) or the caller's context: those
// stop the playouts and are returned as they are.
func (g *Program) evalViolation(ctx context.Context, err error, what string, moves [][]Term) (Violation, error) {
	var ref *RefusedError
	if errors.As(err, &ref) || ctx.Err() != nil {
		return Violation{}, err
	}
	v := Violation{Kind: ViolationEval, Detail: what + ": " + err.Error(), Moves: moves, Err: err}
	return v, nil
}

// PlayoutResult is one random playout.
type PlayoutResult struct {
	Moves      [][]Term // the joint moves played
	Terminal   bool     // it ended in a terminal state
	Goals      [][]Term // in the last state if terminal, indexed like Roles
	Violations []Violation
}

// Playout plays uniformly random legal moves for every role (the GDL-II role `random`
// included) from the initial state until a terminal state, a violation, or maxDepth joint moves.
// An evaluation that stops at a limit in a reachable state ends the playout with a ViolationEval
// carrying the joint moves that reach it; a refusal (the rules needed have no defined meaning)
// and the end of ctx are returned as errors.
func (g *Program) Playout(ctx context.Context, rng *rand.Rand, maxDepth int) (*PlayoutResult, error) {
	res := &PlayoutResult{}
	stop := func(err error, what string) (*PlayoutResult, error) {
		v, err := g.evalViolation(ctx, err, what, res.Moves)
		if err != nil {
			return nil, err
		}
		res.Violations = append(res.Violations, v)
		return res, nil
	}
	s, err := g.Initial(ctx)
	if err != nil {
		return stop(err, "initial state")
	}
	joint := make([]Term, len(g.roles))
	for depth := 0; ; depth++ {
		term, err := g.Terminal(ctx, s)
		if err != nil {
			return stop(err, "terminal")
		}
		if term {
			res.Terminal = true
			if res.Goals, err = g.Goals(ctx, s); err != nil {
				res.Goals = nil
				return stop(err, "goals")
			}
			for i, vs := range res.Goals {
				if len(vs) == 1 {
					if _, ok := g.Int(vs[0]); ok {
						continue
					}
				}
				detail := "no goal value"
				if len(vs) == 0 && g.isRandom(g.roles[i]) {
					continue // GDL-II's random role has no goals
				}
				if len(vs) == 1 {
					detail = "goal value " + g.String(vs[0]) + " is not an integer"
				} else if len(vs) > 1 {
					detail = "goal values " + strings.Join(g.Strings(vs), " and ")
				}
				res.Violations = append(res.Violations, Violation{Kind: ViolationGoal, Role: g.String(g.roles[i]), Detail: detail, Moves: res.Moves})
			}
			return res, nil
		}
		if depth >= maxDepth {
			res.Violations = append(res.Violations, Violation{Kind: ViolationDepth,
				Detail: "no terminal state after " + strconv.Itoa(maxDepth) + " joint moves", Moves: res.Moves})
			return res, nil
		}
		legal, err := g.Legal(ctx, s)
		if err != nil {
			return stop(err, "legal moves")
		}
		stuck := false
		for i, ms := range legal {
			if len(ms) == 0 {
				stuck = true
				res.Violations = append(res.Violations, Violation{Kind: ViolationNoLegalMove, Role: g.String(g.roles[i]),
					Detail: "no legal move in a non-terminal state", Moves: res.Moves})
				continue
			}
			joint[i] = ms[rng.IntN(len(ms))]
		}
		if stuck {
			return res, nil
		}
		res.Moves = append(res.Moves, append([]Term(nil), joint...))
		if s, err = g.Next(ctx, s, joint); err != nil {
			return stop(err, "next state")
		}
	}
}

// illegalMoveError is nextLegal's error for a joint move with a move that is not legal (the game
// API's legality checks live in package game; eval's tests check the same thing here).
type illegalMoveError struct {
	Role, Move string
	Index      int // the role's position
}

func (e *illegalMoveError) Error() string {
	return fmt.Sprintf("illegal move: %s is not a legal move of role %s", e.Move, e.Role)
}

// nextLegal is Next after checking that every move of joint is legal in s.
func nextLegal(ctx context.Context, g *Program, s *State, joint []Term) (*State, error) {
	legal, err := g.Legal(ctx, s)
	if err != nil {
		return nil, err
	}
	if len(joint) != len(g.roles) {
		return nil, fmt.Errorf("a joint move has one move per role: %d roles, %d moves", len(g.roles), len(joint))
	}
	for i, m := range joint {
		if !slices.Contains(legal[i], m) {
			return nil, &illegalMoveError{Role: g.String(g.roles[i]), Move: g.String(m), Index: i}
		}
	}
	return g.Next(ctx, s, joint)
}
