// Package verify answers a game author's question "does my game play?" by exploring the
// reachable states of a game with a table of visited states: every match ends (termination),
// every role always has a move (playability), every terminal state gives each role one goal
// value (goal), each role can win (winnability), and the game's `input` and `base` relations,
// when it has them, cover the legal moves and the fluents of every reachable state. Every
// violation comes with a witness: the joint moves from the initial state to the state where it
// shows, which Game.Replay (and `gdl query --moves`) plays back.
//
// It also gives statistics of the state space and of random play, and solves small two-player
// zero-sum games (Stats, Solve).
//
// The results are plain Go values, for the command line and the editor alike; Options carries a
// progress callback, and the context cancels.
package verify

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/explain"
	"github.com/gdl-lsp/gdl/game"
	"github.com/gdl-lsp/gdl/syntax"
)

// Property is one of the properties of a well-formed game.
type Property string

const (
	Termination Property = "termination" // every sequence of legal joint moves reaches a terminal state
	Playability Property = "playability" // every role has a legal move in every reachable non-terminal state
	Goal        Property = "goal"        // every role has exactly one goal value, an integer from 0 to 100, in every reachable terminal state
	Winnability Property = "winnability" // every role (but GDL-II's random) reaches goal 100 in some reachable terminal state
	Input       Property = "input"       // every legal move of a reachable state is covered by input (games that define input)
	Base        Property = "base"        // every fluent of a reachable state is covered by base (games that define base)
)

// Properties lists the properties in the order they are reported.
var Properties = []Property{Termination, Playability, Goal, Winnability, Input, Base}

// Status is the verdict on a property.
type Status string

const (
	OK      Status = "ok"      // it holds in the whole reachable space (or, for winnability, a witness shows it)
	Failed  Status = "failed"  // a finding shows it is violated
	Unknown Status = "unknown" // the budget ran out before a violation or a proof was found
	Skipped Status = "skipped" // it does not apply (input and base in a game that does not define them, or whose rules for them have no defined meaning)
)

// Finding is one violation of a property, with its witness.
type Finding struct {
	Property Property
	// Kind says which violation: for termination "cycle" or "no-terminal"; for playability
	// "no-legal-move"; for goal "no-goal", "several-goals" or "bad-goal"; for winnability
	// "never-100"; for input "not-in-input"; for base "not-in-base".
	Kind string
	Role string // the role concerned ("" when the finding is not about one role)
	// Moves are the joint moves from the initial state to the state where the violation shows
	// (one move per role, in role order), the shortest the search found; Joints the same as KIF
	// lists, as `gdl query --moves` takes them, in a game of either notation; Infix the same in
	// infix for an infix game (nil for a KIF game), for its author's eyes.
	Moves  [][]eval.Term
	Joints []string
	Infix  []string
	// Loop, for a cycle: the last Loop joint moves of Moves lead from a state back to itself.
	Loop int
	// Subject is what the finding is about, as KIF: the move not covered by input, the fluent
	// not covered by base, the goal values of a role.
	Subject string
	// Count is how many instances the finding stands for: reachable states with the same
	// violation for the same role, moves or fluents not covered.
	Count   int
	Message string
	// Relations are the relations whose rules are involved, the one to look at first first:
	// terminal for termination, legal for playability, goal for goal and winnability, input
	// (then legal) for input, base (then init or next) for base.
	Relations []string
	// Explanation says why the violation shows in the witness's last state (Explain): why the
	// role has no legal move, no goal or several, why the state is not terminal. Nil for the
	// findings about input and base, and when the explanation reached an evaluation limit.
	Explanation *explain.Explanation
}

// RoleResult is the winnability of one role.
type RoleResult struct {
	Role   string
	Random bool   // GDL-II's random role: it need not win
	Weak   Status // some reachable terminal state gives the role 100
	// Strong: in a game with one player (besides GDL-II's random), the player can force goal
	// 100 whatever random does. With one role and no random it equals Weak. Skipped otherwise.
	// A chance game is seldom strongly winnable, so a failure is reported here but is not a
	// finding.
	Strong Status
	Best   int // the highest goal value of the role in a reachable terminal state found (-1: none)
}

// StateError is a reachable state whose evaluation stopped at a limit (the term depth of a
// state that grows without end, the facts one evaluation may derive, its time): the state is
// not explored, so the result is not complete.
type StateError struct {
	Moves   [][]eval.Term
	Joints  []string // KIF, as Finding's
	Infix   []string // infix, for an infix game, as Finding's
	Message string
	Err     error
}

// Result is the outcome of Verify.
type Result struct {
	Complete bool   // every reachable state was explored
	Stopped  string // why not: "max-states", "timeout" or "errors" ("" when complete)
	States   int    // states explored
	Terminal int    // terminal states among them
	Edges    int    // joint moves played
	// Depth is the largest depth (joint moves from the initial state, by the shortest way) of
	// an explored state; FullDepth the largest depth up to which every reachable state was
	// explored (Depth when complete).
	Depth, FullDepth int
	Elapsed          time.Duration
	Properties       map[Property]Status
	Roles            []RoleResult
	Findings         []Finding
	Errors           []StateError
	// Notes say what was not checked and why (input or base whose rules have no defined
	// meaning).
	Notes []string
}

// Found reports whether something was found: a finding or a state that could not be evaluated.
func (r *Result) Found() bool { return len(r.Findings) > 0 || len(r.Errors) > 0 }

// DefaultMaxStates is the budget of states when Options.MaxStates is 0.
const DefaultMaxStates = 1_000_000

// Options configure Verify.
type Options struct {
	MaxStates int           // explore at most this many states (0: DefaultMaxStates)
	Timeout   time.Duration // explore for at most this long (0: no bound but ctx)
	// Progress, when set, is called about every ProgressEvery (0: 250ms) while the search runs.
	Progress      func(Progress)
	ProgressEvery time.Duration
}

// Progress is how far a search has come.
type Progress struct {
	States   int // states in the table (explored or waiting)
	Explored int
	Depth    int // depth of the state being explored
	Elapsed  time.Duration
}

// Verify explores the reachable states of g within the budget of opts and checks every
// property. Running out of budget is not an error: the result says how far it came. The error
// is for a game that cannot be played at all (rules without a defined meaning, an initial state
// that cannot be evaluated) and for the end of ctx.
func Verify(ctx context.Context, g *game.Game, opts Options) (*Result, error) {
	start := time.Now()
	checks, err := verifyChecks(ctx, g)
	if err != nil {
		return nil, err
	}
	x, err := explore(ctx, g, opts, checks)
	if err != nil {
		return nil, err
	}
	r := &Result{
		Complete: x.complete(), Stopped: x.stopped(), States: x.explored, Terminal: x.terminal,
		Edges: len(x.edges), Depth: x.maxDepth, FullDepth: x.fullDepthValue(),
		Properties: map[Property]Status{},
	}
	for _, c := range x.checks {
		if err := c.finish(ctx, x, r); err != nil {
			return nil, err
		}
	}
	for _, se := range x.errs {
		moves, err := x.witness(ctx, se.id, nil)
		if err != nil {
			return nil, err
		}
		r.Errors = append(r.Errors, StateError{Moves: moves, Joints: kifJoints(g, moves), Infix: infixJoints(g, moves), Message: se.err.Error(), Err: se.err})
	}
	for i := range r.Findings {
		f := &r.Findings[i]
		if err := CheckWitness(ctx, g, f); err != nil {
			return nil, err
		}
		if x, err := Explain(ctx, g, f, explain.Options{}); err == nil {
			f.Explanation = x
		} else if ctx.Err() != nil {
			return nil, ctx.Err()
		}
	}
	r.Elapsed = time.Since(start)
	return r, nil
}

// errBudget is the cause of the context that ends with Options.Timeout.
var errBudget = errors.New("the time budget is spent")

// kifJoints writes joint moves as KIF lists, whatever the game's notation.
func kifJoints(g *game.Game, moves [][]eval.Term) []string {
	out := make([]string, len(moves))
	for i, j := range moves {
		out[i] = g.FormatJointKIF(j)
	}
	return out
}

// infixJoints writes the joint moves of an infix game in infix; nil for a KIF game.
func infixJoints(g *game.Game, moves [][]eval.Term) []string {
	if g.Notation() != syntax.Infix {
		return nil
	}
	out := make([]string, len(moves))
	for i, j := range moves {
		out[i] = g.FormatJoint(j)
	}
	return out
}

// Witness returns the joint moves of a witness in the game's notation: Infix for an infix game,
// else Joints.
func Witness(joints, infix []string) []string {
	if infix != nil {
		return infix
	}
	return joints
}

// plural writes n and a noun, with an s when n is not 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
