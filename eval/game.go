package eval

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/syntax"
)

// Program is a compiled game description. Compile it once; then ask for the initial state,
// legal moves, next states, goals and arbitrary queries. Facts that depend on neither `true` nor
// `does` are computed once per session, facts that depend on `true` once per state (shared
// between the Legal, Terminal, Goals and Next calls on one *State), facts that depend on `does`
// once per state and joint move, and each only when a question needs it.
//
// A Program is safe for concurrent use, and its calls run at once: each takes a session (the
// relations with their facts, plans and budget: everything an evaluation changes) from the
// Program's pool, or compiles a new one, and gives it back when done. The pool is a stack whose
// top (last) is taken and given back with an atomic swap, so a goroutine that makes call after
// call keeps getting the session that holds its last state's facts, with no lock. Terms and States belong to the Program that made them, and pass freely between its
// calls: the sessions intern into one term store.
type Program struct {
	*shared

	lim     atomic.Pointer[Limits]
	last    atomic.Pointer[session] // the session given back last, if idle
	mu      sync.Mutex              // guards free
	free    []*session              // other idle sessions, the last given back last
	initial atomic.Pointer[State]
	static  sync.Map // the first relation's functor of a static component -> its staticFacts
	// written is the bound of the relaxed program as written (EstimateGround's Plain), made
	// once by EstimateGround or Ground: Ground skips that pass when it is far over (writtenOver).
	written atomic.Pointer[PassEstimate]
}

// shared is what the sessions of a Program share: immutable after Compile, but for the term
// store, which is safe for concurrent use.
type shared struct {
	res      *analysis.Result
	st       *store
	lines    *syntax.LineIndex
	notation syntax.Dialect // the notation the game is written in (String writes terms in it)

	roles   []Term
	roleIdx map[Term]int

	// known maps each relation the game mentions (and every GDL keyword relation) to the arities
	// it is used with; functions does the same for function names and constants (arity 0).
	known, functions map[string]map[int]bool

	empty *State
}

// session is one evaluation at a time of a Program: the relations, rules, components and plans
// compiled from the description, and the state of its evaluations (the facts derived per layer:
// once per session, per state, per state and joint move; the current state and joint move; the
// limits and budget of the call in progress). A session is used by one goroutine at a time.
type session struct {
	*shared
	st      *view    // the shared store, read through this session's view of it
	prog    *Program // nil for the relaxed program of a grounding
	rels    []*relation
	relByFn map[uint32]*relation
	comps   []*component

	trueRel, doesRel, roleRel, initRel, legalRel, nextRel, goalRel, terminalRel, seesRel *relation

	planGen     uint64                           // changes when indexes are dropped: plans made before must be made again
	auxDynamic  map[uint32]bool                  // the relaxed program of a grounding: its auxiliary relations, and whether they depend on the state
	evalRules   map[*rule]*rule                  // the restricted relaxed program of a grounding: per rule, the rule evaluated in its place (ground_exists.go)
	groundRules map[*rule]*rule                  // and the rule as written, grounded in its place
	lookahead   bool                             // plans look one literal ahead (planner.lookahead): the restricted relaxed program of a grounding
	constFns    map[uint32]bool                  // the relaxed program of a grounding: the functors of the fluents that never change
	share       *groupShare                      // the restricted relaxed program of a grounding, while a relation's rules are split: the groups several split off (ground_share.go)
	over        uint32                           // the restricted relaxed program of a grounding: the relation whose magic set passed its size whole (errMagicOver)
	broken      map[string][]analysis.Diagnostic // relation key -> syntax errors of the forms defining it

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
	spare        *store   // during Ground: the scratch store of a pass that failed, for the next (scratchStore)
	scratch      []Term

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

func (g *shared) str(t Term) string {
	if t == 0 {
		return "<none>"
	}
	var b strings.Builder
	g.formatIn(&b, t, g.notation)
	return b.String()
}

// useState makes s the current state (and no joint move), keeping the computed facts when it
// already is.
func (g *session) useState(s *State) {
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

func (g *session) useMove(joint []Term) {
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
func (g *session) fail(err error) error {
	if err != nil {
		g.cur = nil
		g.curMove = nil
	}
	return err
}

// stateOf makes a state of the arguments of r's facts.
func (g *session) stateOf(r *relation) *State {
	fl := make([]Term, 0, len(r.facts))
	for _, t := range r.facts {
		fl = append(fl, g.st.argsOf(t)[0])
	}
	slices.Sort(fl)
	return &State{fluents: slices.Compact(fl)}
}

// byRole groups the facts (rel ROLE X) by role.
func (g *session) byRole(r *relation) [][]Term {
	out := make([][]Term, len(g.roles))
	for _, t := range r.facts {
		a := g.st.argsOf(t)
		if i, ok := g.roleIdx[a[0]]; ok {
			out[i] = append(out[i], a[1])
		}
	}
	return out
}

func (g *shared) parseTerms(text string) ([]Term, error) {
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

func (g *shared) groundTerm(t syntax.Term) (Term, error) {
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
