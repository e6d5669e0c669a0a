package eval

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/syntax"
)

// Game is a compiled game description. Compile it once; then ask for the initial state, legal
// moves, next states, goals and arbitrary queries. Facts that depend on neither `true` nor `does`
// are computed once per game, facts that depend on `true` once per state (shared between the
// Legal, Terminal, Goals and Next calls on one *State), facts that depend on `does` once per state
// and joint move, and each only when a question needs it.
//
// A Game is safe for concurrent use; calls are serialised. Terms and States belong to the Game
// that made them.
type Game struct {
	mu       sync.Mutex
	res      *analysis.Result
	st       *store
	lines    *syntax.LineIndex
	notation syntax.Dialect // the notation the game is written in (String writes terms in it)
	rels     []*relation
	relByFn  map[uint32]*relation
	comps    []*component

	trueRel, doesRel, roleRel, initRel, legalRel, nextRel, goalRel, terminalRel, seesRel *relation

	roles   []Term
	roleIdx map[Term]int

	// known maps each relation the game mentions (and every GDL keyword relation) to the arities
	// it is used with; functions does the same for function names and constants (arity 0).
	known, functions map[string]map[int]bool

	planGen    uint64                           // changes when indexes are dropped: plans made before must be made again
	auxDynamic map[uint32]bool                  // the relaxed program of a grounding: its auxiliary relations, and whether they depend on the state
	broken     map[string][]analysis.Diagnostic // relation key -> syntax errors of the forms defining it

	lim Limits
	bud budget
	// wholeCap is set while a relation that may be demanded (mayDemand) is being computed
	// whole, to its demandCap: a subgoal it asks with more answers switches it to demand.
	wholeCap     int
	stack        []frame            // the subgoals being evaluated (demand.go)
	estimates    map[string]float64 // the planner's estimates of scans of computed static relations
	replanDemand bool               // make the demanded relations' plans again at the next call (useState)
	conservative bool               // a plan asked a switched relation with nothing bound: see callNeeds
	learned      bool               // the calls of demanded relations gave answers to estimate them by: see callNeeds
	askGen       uint64             // counts queries: a relation is inlined at most once per query (AskFirst)
	askMax       int                // the answers the query asks for (AskFirst), 0 for all
	partial      *relation          // the relation whose whole evaluation stops at partialAt facts (inlineWhole)
	partialAt    int
	gen          uint64
	stamp        []uint64 // per term: the generation of the relation it is a fact of
	scratch      []Term

	empty      *State
	initial    *State
	cur        *State // the state whose facts are computed
	curMove    []Term // the joint move whose facts are computed (nil: none)
	stateEpoch uint64
	moveEpoch  uint64
}

// State is a game state: a set of ground base propositions (the arguments of `true`).
type State struct {
	fluents []Term // sorted by ID, no duplicates
}

// Fluents returns the state's propositions (sorted by term ID, not by text). Do not modify.
func (s *State) Fluents() []Term { return s.fluents }

// Equal reports whether two states hold the same propositions.
func (s *State) Equal(o *State) bool { return slices.Equal(s.fluents, o.fluents) }

// Compile compiles an analysed game. It does no evaluation yet. Rules without a defined meaning
// (unsafe, unstratified, or in a form with syntax errors, per res.Diagnostics) make the
// relations that need them refuse evaluation with a *RefusedError; everything else still works.
func Compile(res *analysis.Result) *Game {
	g := &Game{res: res, st: newStore(), relByFn: map[uint32]*relation{}, roleIdx: map[Term]int{}, lim: DefaultLimits}
	g.lines = res.Model.File.Lines()
	g.notation = res.Model.File.Dialect()
	c := &compiler{g: g, res: res}
	c.compile()
	for _, r := range res.Model.Roles {
		t := g.st.constant(r.Name)
		if _, dup := g.roleIdx[t]; !dup {
			g.roleIdx[t] = len(g.roles)
			g.roles = append(g.roles, t)
		}
	}
	g.known, g.functions = map[string]map[int]bool{}, map[string]map[int]bool{}
	note := func(m map[string]map[int]bool, key string, arity int) {
		if m[key] == nil {
			m[key] = map[int]bool{}
		}
		m[key][arity] = true
	}
	for key, a := range analysis.RelationKeywords {
		if key != "distinct" {
			note(g.known, key, a)
		}
	}
	for key, sym := range res.Model.Relations {
		for a := range sym.Arities {
			note(g.known, key, a)
		}
	}
	for key, sym := range res.Model.Functions {
		for a := range sym.Arities {
			note(g.functions, key, a)
		}
	}
	for key := range res.Model.Constants {
		note(g.functions, key, 0)
	}
	g.empty = &State{}
	g.stateEpoch, g.moveEpoch = g.newGen(), g.newGen()
	return g
}

// Load parses, analyses and compiles a game description.
func Load(src string) (*Game, *analysis.Result) {
	f, _ := syntax.Parse(src)
	res := analysis.Analyze(f, nil)
	return Compile(res), res
}

// SetLimits sets the limits of every later call (zero fields take DefaultLimits' values).
func (g *Game) SetLimits(l Limits) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.lim = l.withDefaults()
}

// Roles returns the roles in the order of the game's role facts.
func (g *Game) Roles() []Term { return g.roles }

// RoleIndex returns the position of role r, or -1.
func (g *Game) RoleIndex(r Term) int {
	if i, ok := g.roleIdx[r]; ok {
		return i
	}
	return -1
}

// String returns t in canonical KIF, or in infix for an infix game: each symbol spelled as at
// its first occurrence in the game, single spaces (infix: f(a,b)).
func (g *Game) String(t Term) string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.str(t)
}

func (g *Game) str(t Term) string {
	if t == 0 {
		return "<none>"
	}
	var b strings.Builder
	g.formatIn(&b, t, g.notation)
	return b.String()
}

// Strings formats terms, sorted byte-wise.
func (g *Game) Strings(ts []Term) []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = g.str(t)
	}
	slices.Sort(out)
	return out
}

// Int returns the value of an integer constant such as a goal value.
func (g *Game) Int(t Term) (int, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if t == 0 || g.st.terms[t].arity != 0 {
		return 0, false
	}
	n, err := strconv.Atoi(g.st.name(t))
	return n, err == nil
}

// useState makes s the current state (and no joint move), keeping the computed facts when it
// already is.
func (g *Game) useState(s *State) {
	if g.replanDemand {
		g.replanDemand = false
		for _, r := range g.rels {
			if r.demand != nil {
				clear(r.demand.plans)
			}
		}
	}
	if g.cur != s {
		g.cur = s
		g.stateEpoch = g.newGen()
		g.resetRel(g.trueRel)
		for _, f := range s.fluents {
			g.add(g.trueRel, g.wrap(g.trueRel, f, true))
		}
		g.curMove = []Term{0} // force the reset below
	}
	g.useMove(nil)
}

func (g *Game) useMove(joint []Term) {
	if slices.Equal(g.curMove, joint) && (g.curMove == nil) == (joint == nil) {
		return
	}
	g.moveEpoch = g.newGen()
	g.resetRel(g.doesRel)
	g.curMove = append(g.curMove[:0:0], joint...)
	if joint == nil {
		g.curMove = nil
	}
	for i, m := range joint {
		g.add(g.doesRel, g.st.intern(g.doesRel.fn, []Term{g.roles[i], m}))
	}
}

// fail forgets the current state after an error, so no half-computed facts are reused.
func (g *Game) fail(err error) error {
	if err != nil {
		g.cur = nil
		g.curMove = nil
	}
	return err
}

// Initial returns the initial state: the arguments of the `init` facts.
func (g *Game) Initial(ctx context.Context) (*State, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.initial != nil {
		return g.initial, nil
	}
	g.begin(ctx)
	g.useState(g.empty)
	if err := g.ensureTop(g.initRel); err != nil {
		return nil, g.fail(err)
	}
	g.initial = g.stateOf(g.initRel)
	return g.initial, nil
}

// stateOf makes a state of the arguments of r's facts.
func (g *Game) stateOf(r *relation) *State {
	fl := make([]Term, 0, len(r.facts))
	for _, t := range r.facts {
		fl = append(fl, g.st.argsOf(t)[0])
	}
	slices.Sort(fl)
	return &State{fluents: slices.Compact(fl)}
}

// NewState makes a state of the given propositions.
func (g *Game) NewState(fluents []Term) *State {
	fl := slices.Clone(fluents)
	slices.Sort(fl)
	return &State{fluents: slices.Compact(fl)}
}

// Legal returns the legal moves of every role in s, indexed like Roles, each in derivation
// order.
func (g *Game) Legal(ctx context.Context, s *State) ([][]Term, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.begin(ctx)
	g.useState(s)
	if err := g.ensureTop(g.legalRel); err != nil {
		return nil, g.fail(err)
	}
	return g.byRole(g.legalRel), nil
}

// byRole groups the facts (rel ROLE X) by role.
func (g *Game) byRole(r *relation) [][]Term {
	out := make([][]Term, len(g.roles))
	for _, t := range r.facts {
		a := g.st.argsOf(t)
		if i, ok := g.roleIdx[a[0]]; ok {
			out[i] = append(out[i], a[1])
		}
	}
	return out
}

// Terminal reports whether s is terminal.
func (g *Game) Terminal(ctx context.Context, s *State) (bool, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.begin(ctx)
	g.useState(s)
	if err := g.ensureTop(g.terminalRel); err != nil {
		return false, g.fail(err)
	}
	return len(g.terminalRel.facts) > 0, nil
}

// Goals returns the goal values of every role in s, indexed like Roles. A valid game gives each
// role exactly one integer value in a terminal state; other states and invalid games may give
// none or several.
func (g *Game) Goals(ctx context.Context, s *State) ([][]Term, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.begin(ctx)
	g.useState(s)
	if err := g.ensureTop(g.goalRel); err != nil {
		return nil, g.fail(err)
	}
	return g.byRole(g.goalRel), nil
}

// IllegalMoveError is returned by Next for a joint move with a move that is not legal.
type IllegalMoveError struct {
	Role, Move string
	Index      int // the role's position
}

func (e *IllegalMoveError) Error() string {
	return fmt.Sprintf("illegal move: %s is not a legal move of role %s", e.Move, e.Role)
}

// Next returns the state after the joint move (one move per role, in role order). It does not
// check legality; use NextLegal for that.
func (g *Game) Next(ctx context.Context, s *State, joint []Term) (*State, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(joint) != len(g.roles) {
		return nil, fmt.Errorf("a joint move has one move per role: %d roles, %d moves", len(g.roles), len(joint))
	}
	g.begin(ctx)
	g.useState(s)
	g.useMove(joint)
	if err := g.ensureTop(g.nextRel); err != nil {
		return nil, g.fail(err)
	}
	return g.stateOf(g.nextRel), nil
}

// NextLegal is Next after checking that every move is legal in s; an illegal move gives an
// *IllegalMoveError.
func (g *Game) NextLegal(ctx context.Context, s *State, joint []Term) (*State, error) {
	legal, err := g.Legal(ctx, s)
	if err != nil {
		return nil, err
	}
	if len(joint) != len(g.roles) {
		return nil, fmt.Errorf("a joint move has one move per role: %d roles, %d moves", len(g.roles), len(joint))
	}
	for i, m := range joint {
		if !slices.Contains(legal[i], m) {
			return nil, &IllegalMoveError{Role: g.String(g.roles[i]), Move: g.String(m), Index: i}
		}
	}
	return g.Next(ctx, s, joint)
}

// Sees returns the percepts of every role (the `sees` facts, GDL-II) when joint is played in s,
// indexed like Roles.
func (g *Game) Sees(ctx context.Context, s *State, joint []Term) ([][]Term, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(joint) != len(g.roles) {
		return nil, fmt.Errorf("a joint move has one move per role: %d roles, %d moves", len(g.roles), len(joint))
	}
	g.begin(ctx)
	g.useState(s)
	g.useMove(joint)
	if err := g.ensureTop(g.seesRel); err != nil {
		return nil, g.fail(err)
	}
	return g.byRole(g.seesRel), nil
}

// ParseTerm reads a ground term written in KIF, like `(mark 1 1)` or `noop`, or in infix,
// like `mark(1,1)`.
func (g *Game) ParseTerm(text string) (Term, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	ts, err := g.parseTerms(text)
	if err != nil {
		return 0, err
	}
	if len(ts) != 1 {
		return 0, fmt.Errorf("%q: expected one term, found %d", text, len(ts))
	}
	return ts[0], nil
}

// ParseState reads a state written as KIF terms separated by spaces, like
// `(cell 1 1 b) (control xplayer)`, or as infix terms, like `cell(1,1,b) control(xplayer)`.
func (g *Game) ParseState(text string) (*State, error) {
	g.mu.Lock()
	ts, err := g.parseTerms(text)
	g.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return g.NewState(ts), nil
}

// ParseJointMoves reads joint moves written as KIF lists of one move per role, like the GGP
// PLAY message: `((mark 1 1) noop) (noop (mark 2 2))`, or in infix, as moves separated by commas
// in parentheses: `(mark(1,1), noop) (noop, mark(2,2))`.
func (g *Game) ParseJointMoves(text string) ([][]Term, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	var groups [][]syntax.Term
	if jointInfix(text) {
		var err error
		if groups, err = infixTuples(text); err != nil {
			return nil, err
		}
	} else {
		f, err := parseText(text, syntax.Prefix)
		if err != nil {
			return nil, err
		}
		for _, form := range f.Forms() {
			if form.Kind() != syntax.List {
				return nil, fmt.Errorf("joint move %q: expected a list of one move per role", form.Text())
			}
			var moves []syntax.Term
			for _, el := range form.Elements() {
				moves = append(moves, syntax.Term{Cursor: el})
			}
			groups = append(groups, moves)
		}
	}
	var out [][]Term
	for _, moves := range groups {
		var joint []Term
		for _, m := range moves {
			t, err := g.groundTerm(m)
			if err != nil {
				return nil, err
			}
			joint = append(joint, t)
		}
		if len(joint) != len(g.roles) {
			return nil, fmt.Errorf("joint move %s has %d moves, but the game has %d roles", g.formatJoint(joint), len(joint), len(g.roles))
		}
		out = append(out, joint)
	}
	return out, nil
}

func (g *Game) parseTerms(text string) ([]Term, error) {
	f, err := parseText(text, g.textNotation(text))
	if err != nil {
		return nil, err
	}
	var out []Term
	for _, form := range f.Forms() {
		t, err := g.groundTerm(syntax.Term{Cursor: form.Cursor})
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

func (g *Game) groundTerm(t syntax.Term) (Term, error) {
	switch t.Kind() {
	case syntax.TermConstant:
		return g.st.constant(t.Name().Name()), nil
	case syntax.TermFunction:
		args := t.Args()
		if len(args) == 0 {
			return g.st.constant(t.Name().Name()), nil
		}
		ids := make([]Term, len(args))
		for i, a := range args {
			id, err := g.groundTerm(a)
			if err != nil {
				return 0, err
			}
			ids[i] = id
		}
		return g.st.intern(g.st.functor(g.st.sym(t.Name().Name()), len(args)), ids), nil
	case syntax.TermVariable:
		return 0, fmt.Errorf("%s: a move or proposition must be ground, without variables", t.Text())
	}
	return 0, fmt.Errorf("%q is not a term", t.Text())
}
