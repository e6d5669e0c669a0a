// Package game is the state machine of a game description: roles, initial state, legal moves,
// next state, terminal, goals and percepts, for every caller (the CLI, the editor's features,
// verification, players). Two engines answer: the compiled engine (package propnet), when the
// game grounds within a budget, and the interpreter (package eval) otherwise. Both give the same
// answers; queries about arbitrary relations always go to the interpreter.
//
// Moves and fluents are terms of the interpreter (eval.Term): both engines share its term store.
// A State is a value: Key gives a string that equal states share, for tables of states.
package game

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/propnet"
	"github.com/gdl-lsp/gdl/syntax"
)

// Engine names an engine, or the automatic choice.
type Engine string

const (
	Auto        Engine = "auto"        // compiled when the game grounds within the budget, else interpreted
	Compiled    Engine = "compiled"    // the propositional network; loading fails when the game does not ground
	Interpreted Engine = "interpreted" // the interpreter
)

// ParseEngine reads an --engine flag value.
func ParseEngine(s string) (Engine, error) {
	switch e := Engine(s); e {
	case Auto, Compiled, Interpreted:
		return e, nil
	}
	return "", fmt.Errorf("engine must be auto, compiled or interpreted, not %q", s)
}

// Options configure a Game.
type Options struct {
	Engine Engine            // "" is Auto
	Limits eval.Limits       // the interpreter's limits, per evaluation
	Ground eval.GroundLimits // the budget of grounding (compiled engine)
	// RememberFailures keeps, in gdl's cache folder (failcache.go), why a text does not ground
	// within the limits of size, so that the next run of the same text with Auto does not spend
	// the grounding budget again; a grounding that ran out of time is never kept, and one that
	// succeeds removes the text's entry (the command-line tools set it; Compiled always tries).
	RememberFailures bool
}

// Game is a game description ready to play. It is safe for concurrent use (the interpreter's
// calls run at once, each on a session of the eval.Program; the compiled engine's are
// serialised) and immutable: its engine and limits are fixed when it is made.
type Game struct {
	res   *analysis.Result
	ev    *eval.Program
	roles []eval.Term
	names []string
	isRnd []bool // GDL-II's random role, which needs no goal

	engine  Engine        // Compiled or Interpreted: the engine that runs
	why     string        // why the interpreter runs, when Auto chose it
	compile time.Duration // grounding and building the network

	mu      sync.Mutex
	net     *propnet.Net
	m       *propnet.Machine
	lanes   *propnet.Lanes // SimulateAll's, made on first use
	gr      *eval.Grounding
	fluent  map[eval.Term]int     // compiled: fluent -> base proposition
	moveIdx []map[eval.Term]int32 // compiled: per role, move -> input proposition
	goalVal [][]int               // compiled: per role and goal atom, its value (-1: not an integer)
	scratch []uint64
}

// New makes a game of an analysed description. Auto grounds the game and builds its network
// when that stays within opts.Ground; the interpreter runs otherwise, and Why says why: Auto
// does not try a game that eval.EstimateGround finds far over the limits, nor one remembered
// not to ground (RememberFailures). Compiled fails when the game does not ground. Grounding is
// cancelled with ctx.
func New(ctx context.Context, res *analysis.Result, opts Options) (*Game, error) {
	ev := eval.Compile(res)
	ev.SetLimits(opts.Limits)
	g := &Game{res: res, ev: ev, roles: ev.Roles(), engine: Interpreted}
	for _, r := range g.roles {
		name := ev.String(r)
		g.names = append(g.names, name)
		g.isRnd = append(g.isRnd, strings.EqualFold(name, "random"))
	}
	if opts.Engine == "" {
		opts.Engine = Auto
	}
	if opts.Engine == Interpreted {
		g.why = "the interpreter was asked for"
		return g, nil
	}
	if opts.Engine == Auto && opts.RememberFailures {
		if why, ok := recalledFailure(res, opts); ok {
			g.why = why + " (remembered from an earlier run)"
			return g, nil
		}
	}
	if opts.Engine == Auto {
		// A game far over the limits is not worth seconds of grounding to find out.
		if est, err := ev.EstimateGround(ctx, opts.Ground); err == nil && est.FarOver(opts.Ground) {
			g.why = farOverWhy(est, opts.Ground)
			return g, nil
		}
	}
	err := g.build(ctx, opts.Ground)
	if err == nil {
		if opts.RememberFailures {
			forgetFailure(res, opts)
		}
		return g, nil
	}
	if opts.RememberFailures && ctx.Err() == nil {
		rememberFailure(res, opts, err)
	}
	if opts.Engine == Compiled {
		return nil, fmt.Errorf("the compiled engine cannot run this game: %w", err)
	}
	if errors.Is(ctx.Err(), context.Canceled) {
		return nil, ctx.Err()
	}
	if ctx.Err() != nil {
		err = fmt.Errorf("grounding did not finish before the caller's deadline")
	}
	g.why = err.Error()
	return g, nil
}

// Load parses (in the notation its content shows: prefix KIF or infix), analyses and makes a game
// of src.
func Load(ctx context.Context, src string, opts Options) (*Game, *analysis.Result, error) {
	f, _ := syntax.ParseDialect(src, syntax.DetectContent(src))
	res := analysis.Analyze(f, nil)
	g, err := New(ctx, res, opts)
	return g, res, err
}

// farOverWhy says why Auto did not try to ground a game est finds far over lim (FarOver).
func farOverWhy(est *eval.GroundEstimate, lim eval.GroundLimits) string {
	if lim.MaxFacts <= 0 {
		lim.MaxFacts = eval.DefaultGroundLimits.MaxFacts
	}
	if lim.Timeout <= 0 {
		lim.Timeout = eval.DefaultGroundLimits.Timeout
	}
	took := "do not ground within the limits"
	if t := est.ExpectedTime(lim); t < math.MaxInt64 {
		took = fmt.Sprintf("say grounding it and building its network would take %v, and %v is granted", t.Round(100*time.Millisecond), lim.Timeout)
	}
	return fmt.Sprintf("grounding would go far over its limit of %d atoms: estimated %s; the games measured with such bounds %s", lim.MaxFacts, est, took)
}

// build grounds the game and builds its network.
func (g *Game) build(ctx context.Context, lim eval.GroundLimits) error {
	start := time.Now()
	if lim.Timeout <= 0 {
		lim.Timeout = eval.DefaultGroundLimits.Timeout
	}
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, lim.Timeout)
	defer cancel()
	gr, err := g.ev.Ground(ctx, lim)
	if err != nil {
		// The budget ends either way: the context's deadline, or the evaluation's own time
		// limit of the same length, whichever is noticed first.
		var le *eval.LimitError
		if ctx.Err() != nil && parent.Err() == nil || errors.As(err, &le) && le.Limit == eval.LimitTime && parent.Err() == nil {
			return fmt.Errorf("grounding did not finish within its budget of %v", lim.Timeout)
		}
		return err
	}
	net, err := propnet.New(ctx, g.ev, gr, propnet.Limits{})
	if err != nil {
		var ce *propnet.CycleError
		if errors.As(err, &ce) {
			return err
		}
		if ctx.Err() != nil && parent.Err() == nil {
			return fmt.Errorf("grounding and building the network did not finish within the budget of %v", lim.Timeout)
		}
		return err
	}
	g.net, g.gr, g.m = net, gr, net.NewMachine()
	g.fluent = make(map[eval.Term]int, len(gr.Fluents))
	for i, f := range gr.Fluents {
		g.fluent[f] = i
	}
	g.moveIdx = make([]map[eval.Term]int32, len(gr.Roles))
	g.goalVal = make([][]int, len(gr.Roles))
	for r := range gr.Roles {
		g.moveIdx[r] = make(map[eval.Term]int32, len(gr.Moves[r]))
		for i, m := range gr.Moves[r] {
			g.moveIdx[r][m] = int32(i)
		}
		for _, ga := range gr.Goals[r] {
			v, ok := g.ev.Int(ga.Value)
			if !ok {
				v = -1
			}
			g.goalVal[r] = append(g.goalVal[r], v)
		}
	}
	g.scratch = make([]uint64, net.Words())
	g.engine = Compiled
	g.compile = time.Since(start)
	return nil
}

// Engine returns the engine that runs: Compiled or Interpreted.
func (g *Game) Engine() Engine { return g.engine }

// Why says why the interpreter runs ("" when the compiled engine does).
func (g *Game) Why() string { return g.why }

// CompileTime is the time grounding and building the network took (0 for the interpreter).
func (g *Game) CompileTime() time.Duration { return g.compile }

// NetStats describes the compiled network ("" for the interpreter).
func (g *Game) NetStats() string {
	if g.net == nil {
		return ""
	}
	return g.net.Stats().String()
}

// Analysis returns the analysis the game was made from.
func (g *Game) Analysis() *analysis.Result { return g.res }

// Roles returns the roles, in the order of the role facts.
func (g *Game) Roles() []eval.Term { return g.roles }

// RoleNames returns the roles as text.
func (g *Game) RoleNames() []string { return g.names }

// IsRandom reports whether role i is GDL-II's random role (it plays at random and needs no
// goal).
func (g *Game) IsRandom(i int) bool { return g.isRnd[i] }

// String writes a term in canonical KIF.
func (g *Game) String(t eval.Term) string { return g.ev.String(t) }

// Strings writes terms in canonical KIF, sorted.
func (g *Game) Strings(ts []eval.Term) []string { return g.ev.Strings(ts) }

// FormatJoint writes a joint move as a KIF list, like the GGP PLAY message: `((mark 1 1) noop)`.
func (g *Game) FormatJoint(joint []eval.Term) string { return g.ev.FormatJoint(joint) }

// FormatJointKIF writes a joint move as a KIF list whatever the game's notation, for what
// promises KIF (the JSON of gdl verify, gdl query --moves in any game).
func (g *Game) FormatJointKIF(joint []eval.Term) string {
	return g.ev.FormatJointIn(joint, syntax.Prefix)
}

// sortTerms orders moves or fluents canonically (by term, which is fixed for a game).
func sortTerms(ts []eval.Term) []eval.Term {
	slices.Sort(ts)
	return ts
}
