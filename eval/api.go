package eval

// The public API of the evaluator, in one place. A Program is a compiled game: what its
// sessions share (the term store, the roles, the names the game knows), and a pool of sessions,
// each the relations, rules, components and plans compiled from the description together with
// the state of its evaluations (the facts derived per layer: once per session, per state, per
// state and joint move; the current state and joint move; the limits and budget of the call in
// progress). Every exported method that evaluates takes a session from the pool for the call,
// so calls run at once; everything else in the package runs on one session or on what the
// sessions share.
//
// Callers that play games use package game, which runs the compiled engine beside this
// interpreter; the methods here are its interpreter side, plus queries about any relation and the
// grounding for the compiled engine.

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/syntax"
)

// Compile compiles an analysed game. It does no evaluation yet. Rules without a defined meaning
// (unsafe, unstratified, or in a form with syntax errors, per res.Diagnostics) make the
// relations that need them refuse evaluation with a *RefusedError; everything else still works.
func Compile(res *analysis.Result) *Program {
	sh := &shared{res: res, st: newStore(), roleIdx: map[Term]int{}, empty: &State{}}
	sh.lines = res.Model.File.Lines()
	sh.notation = res.Model.File.Dialect()
	p := &Program{shared: sh}
	lim := DefaultLimits
	p.lim.Store(&lim)
	// The first session is compiled first, so that the game's symbols are spelled as written.
	p.last.Store(p.newSession())
	for _, r := range res.Model.Roles {
		t := sh.st.constant(r.Name)
		if _, dup := sh.roleIdx[t]; !dup {
			sh.roleIdx[t] = len(sh.roles)
			sh.roles = append(sh.roles, t)
		}
	}
	sh.known, sh.functions = map[string]map[int]bool{}, map[string]map[int]bool{}
	note := func(m map[string]map[int]bool, key string, arity int) {
		if m[key] == nil {
			m[key] = map[int]bool{}
		}
		m[key][arity] = true
	}
	for key, a := range analysis.RelationKeywords {
		if key != "distinct" {
			note(sh.known, key, a)
		}
	}
	for key, sym := range res.Model.Relations {
		for a := range sym.Arities() {
			note(sh.known, key, a)
		}
	}
	for key, sym := range res.Model.Functions {
		for a := range sym.Arities() {
			note(sh.functions, key, a)
		}
	}
	for key := range res.Model.Constants {
		note(sh.functions, key, 0)
	}
	return p
}

// newSession compiles a session of p.
func (p *Program) newSession() *session {
	g := &session{shared: p.shared, st: newView(p.st), prog: p, relByFn: map[uint32]*relation{}, lim: DefaultLimits}
	c := &compiler{g: g, res: p.res}
	c.compile()
	g.stateEpoch, g.moveEpoch = g.newGen(), g.newGen()
	return g
}

// maxIdle bounds the sessions a Program keeps idle: more calls than this at once compile
// sessions that are dropped when they end.
const maxIdle = 16

// take takes a session for a call: the one given back last, or a new one. A goroutine that makes
// one call after another takes and gives back the same session in last, with no lock.
func (p *Program) take() *session {
	g := p.last.Swap(nil)
	if g == nil {
		p.mu.Lock()
		if n := len(p.free); n > 0 {
			g = p.free[n-1]
			p.free[n-1] = nil
			p.free = p.free[:n-1]
		}
		p.mu.Unlock()
	}
	if g == nil {
		g = p.newSession()
	}
	g.lim = *p.lim.Load()
	return g
}

// put gives a session back.
func (p *Program) put(g *session) {
	if old := p.last.Swap(g); old != nil {
		p.mu.Lock()
		if len(p.free) < maxIdle {
			p.free = append(p.free, old)
		}
		p.mu.Unlock()
	}
}

// Load parses, analyses and compiles a game description.
func Load(src string) (*Program, *analysis.Result) {
	f, _ := syntax.Parse(src)
	res := analysis.Analyze(f, nil)
	return Compile(res), res
}

// SetLimits sets the limits of every later call (zero fields take DefaultLimits' values).
func (p *Program) SetLimits(l Limits) {
	l = l.withDefaults()
	p.lim.Store(&l)
}

// Roles returns the roles in the order of the game's role facts.
func (g *Program) Roles() []Term { return g.roles }

// String returns t in canonical KIF, or in infix for an infix game: each symbol spelled as at
// its first occurrence in the game, single spaces (infix: f(a,b)).
func (g *Program) String(t Term) string {
	return g.str(t)
}

// StringIn returns t as String does, in notation d whatever the game's.
func (g *Program) StringIn(t Term, d syntax.Dialect) string {
	var b strings.Builder
	g.formatIn(&b, t, d)
	return b.String()
}

// Strings formats terms, sorted byte-wise.
func (g *Program) Strings(ts []Term) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = g.str(t)
	}
	slices.Sort(out)
	return out
}

// Int returns the value of an integer constant such as a goal value.
func (g *Program) Int(t Term) (int, bool) {
	if t == 0 || g.st.rec(t).arity != 0 {
		return 0, false
	}
	n, err := strconv.Atoi(g.st.name(t))
	return n, err == nil
}

// Notation returns the notation the game is written in.
func (g *Program) Notation() syntax.Dialect { return g.notation }

// FormatJoint writes a joint move as a KIF list, like the GGP PLAY message: `((mark 1 1) noop)`;
// for an infix game as moves separated by commas in parentheses: `(mark(1,1), noop)`.
func (g *Program) FormatJoint(joint []Term) string {
	return g.formatJoint(joint, g.notation)
}

// FormatJointIn writes a joint move as FormatJoint does, in notation d whatever the game's:
// KIF for what promises KIF (the GGP protocol, the tools' JSON), also for an infix game.
func (g *Program) FormatJointIn(joint []Term, d syntax.Dialect) string {
	return g.formatJoint(joint, d)
}

// ParseTerm reads a ground term written in KIF, like `(mark 1 1)` or `noop`, or in infix,
// like `mark(1,1)`.
func (g *Program) ParseTerm(text string) (Term, error) {
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
func (g *Program) ParseState(text string) (*State, error) {
	ts, err := g.parseTerms(text)
	if err != nil {
		return nil, err
	}
	return g.NewState(ts), nil
}

// ParseJointMoves reads joint moves written as KIF lists of one move per role, like the GGP
// PLAY message: `((mark 1 1) noop) (noop (mark 2 2))`, or in infix, as moves separated by commas
// in parentheses: `(mark(1,1), noop) (noop, mark(2,2))`.
func (g *Program) ParseJointMoves(text string) ([][]Term, error) {
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
			return nil, fmt.Errorf("joint move %s has %d moves, but the game has %d roles", g.formatJoint(joint, g.notation), len(joint), len(g.roles))
		}
		out = append(out, joint)
	}
	return out, nil
}

// ParseQuery compiles a query, written in KIF (`(legal ?r ?m)`, literals side by side) or in
// infix (`legal(R,M)`, literals joined by '&'); text that could be either is read in the game's
// notation. Every variable of the query must occur in a positive atom (as in a safe rule), so
// that its answers are ground.
func (p *Program) ParseQuery(text string) (*Query, error) {
	g := p.take()
	defer p.put(g)
	q := &Query{text: text, p: p, notation: g.textNotation(text)}
	var shown []syntax.Literal
	if q.notation == syntax.Infix {
		lits, err := infixQuery(text)
		if err != nil {
			return nil, err
		}
		shown = lits
	} else {
		f, _ := syntax.Parse(text)
		for _, e := range f.Errors() {
			return nil, fmt.Errorf("query %q: %s at offset %d", text, e.Message, e.Span.Start)
		}
		for _, form := range f.Forms() {
			shown = append(shown, syntax.Literal{Cursor: form.Cursor})
		}
	}
	for _, l := range shown {
		if nesting(l.Cursor) > maxNesting+1 {
			return nil, fmt.Errorf("query %q: %v", text, errTooDeep)
		}
		q.shown = append(q.shown, l)
		q.lits = append(q.lits, conjuncts(l)...)
	}
	if len(q.lits) == 0 {
		return nil, fmt.Errorf("query %q: no literal", text)
	}
	for _, l := range q.lits {
		if err := g.checkLiteral(l, q.notation); err != nil {
			return nil, fmt.Errorf("query %q: %v", text, err)
		}
	}
	if _, err := q.compileIn(g, true); err != nil {
		return nil, err
	}
	return q, nil
}

// NewState makes a state of the given propositions.
func (g *Program) NewState(fluents []Term) *State {
	fl := slices.Clone(fluents)
	slices.Sort(fl)
	return &State{fluents: slices.Compact(fl)}
}

// Initial returns the initial state: the arguments of the `init` facts.
func (p *Program) Initial(ctx context.Context) (*State, error) {
	if s := p.initial.Load(); s != nil {
		return s, nil
	}
	g := p.take()
	defer p.put(g)
	g.begin(ctx)
	g.useState(g.empty)
	if err := g.ensureTop(g.initRel); err != nil {
		return nil, g.fail(err)
	}
	s := g.stateOf(g.initRel)
	p.initial.CompareAndSwap(nil, s)
	return p.initial.Load(), nil
}

// Legal returns the legal moves of every role in s, indexed like Roles, each in derivation
// order.
func (p *Program) Legal(ctx context.Context, s *State) ([][]Term, error) {
	g := p.take()
	defer p.put(g)
	g.begin(ctx)
	g.useState(s)
	if err := g.ensureTop(g.legalRel); err != nil {
		return nil, g.fail(err)
	}
	return g.byRole(g.legalRel), nil
}

// Terminal reports whether s is terminal.
func (p *Program) Terminal(ctx context.Context, s *State) (bool, error) {
	g := p.take()
	defer p.put(g)
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
func (p *Program) Goals(ctx context.Context, s *State) ([][]Term, error) {
	g := p.take()
	defer p.put(g)
	g.begin(ctx)
	g.useState(s)
	if err := g.ensureTop(g.goalRel); err != nil {
		return nil, g.fail(err)
	}
	return g.byRole(g.goalRel), nil
}

// Next returns the state after the joint move (one move per role, in role order). It does not
// check legality; package game checks it.
func (p *Program) Next(ctx context.Context, s *State, joint []Term) (*State, error) {
	g := p.take()
	defer p.put(g)
	if err := g.afterJoint(ctx, s, joint, g.nextRel); err != nil {
		return nil, err
	}
	return g.stateOf(g.nextRel), nil
}

// Sees returns the percepts of every role (the `sees` facts, GDL-II) when joint is played in s,
// indexed like Roles.
func (p *Program) Sees(ctx context.Context, s *State, joint []Term) ([][]Term, error) {
	g := p.take()
	defer p.put(g)
	if err := g.afterJoint(ctx, s, joint, g.seesRel); err != nil {
		return nil, err
	}
	return g.byRole(g.seesRel), nil
}

// afterJoint derives rel (next or sees) in state s with the joint move joint (g is this call's session).
func (g *session) afterJoint(ctx context.Context, s *State, joint []Term, rel *relation) error {
	if len(joint) != len(g.roles) {
		return fmt.Errorf("a joint move has one move per role: %d roles, %d moves", len(g.roles), len(joint))
	}
	g.begin(ctx)
	g.useState(s)
	g.useMove(joint)
	if err := g.ensureTop(rel); err != nil {
		return g.fail(err)
	}
	return nil
}

// Ask answers q in state s with the joint move joint (nil: no move, so `does` is empty).
// Answers are distinct and in derivation order.
func (p *Program) Ask(ctx context.Context, s *State, joint []Term, q *Query) ([]Answer, error) {
	out, _, err := p.ask(ctx, s, joint, q, 0)
	return out, err
}

// AskFirst is Ask for the first max answers (max > 0) in derivation order; more reports
// whether q has others. It stops as soon as it has found one answer past max: a relation that
// the game asks only with some arguments bound (evaluated on demand), asked with none bound, is
// evaluated rule by rule into the query's answers instead of being tabled whole first, so a
// relation with millions of facts gives its first thousand in milliseconds.
func (p *Program) AskFirst(ctx context.Context, s *State, joint []Term, q *Query, max int) (answers []Answer, more bool, err error) {
	if max <= 0 {
		return nil, false, fmt.Errorf("AskFirst: max must be positive, not %d", max)
	}
	return p.ask(ctx, s, joint, q, max)
}

// Refused returns a *RefusedError for the first of the game's relations (role, init, legal,
// next, goal, terminal, sees) whose rules have no defined meaning, or nil: a game that cannot be
// played, whether or not a match would ever ask the relation (a terminal initial state asks no
// legal move).
func (p *Program) Refused() error {
	g := p.take()
	defer p.put(g)
	return g.refused()
}

func (g *session) refused() error {
	for _, r := range []*relation{g.roleRel, g.initRel, g.legalRel, g.nextRel, g.goalRel, g.terminalRel, g.seesRel} {
		if r.refused != nil {
			return &RefusedError{Relation: r.label(), Diagnostics: r.refused}
		}
	}
	return nil
}

// Ground instantiates the game's rules. It fails with a *GroundError when the game has rules
// without a defined meaning, a relation needs a demand-driven evaluation (it would be too big
// whole), or a limit is reached.
func (p *Program) Ground(ctx context.Context, lim GroundLimits) (*Grounding, error) {
	return p.ground(ctx, lim, true)
}

// ground is Ground; without predict, the pass as written is tried whatever writtenOver says
// (TestWrittenOver compares the two ways).
func (p *Program) ground(ctx context.Context, lim GroundLimits, predict bool) (*Grounding, error) {
	lim = lim.withDefaults()
	g := p.take()
	defer p.put(g)
	defer func() { g.spare = nil }() // a pass's store is not kept with the session
	if err := g.refused(); err != nil {
		return nil, &GroundError{Err: err}
	}
	g.begin(ctx)
	g.useState(g.empty)
	if err := g.ensureTop(g.initRel); err != nil {
		g.fail(err)
		return nil, &GroundError{Reason: "the initial state cannot be computed", Err: err}
	}
	init := g.stateOf(g.initRel).fluents
	// The relaxed program as written first; when it proves too big, restricted to what its
	// rules can ask (magicSets), with the rest of the time. Most games ground the first way in
	// milliseconds; the restriction costs the magic relations' evaluation, and is needed where
	// relations are much bigger whole than what is asked of them (mummymaze1p: direction-from/5
	// has 6.5 million facts whole; restricted, the game has 28,207 ground rules). A first way
	// that runs out of time is not tried again: under a heavy load a game that grounds in 2
	// seconds (pancakes88) would lose its time to a second try. The first way measures the
	// relations it can compute whole; a restricted pass whose magic set of one of them asks
	// more atoms than it has whole is made again with that relation whole. A program whose
	// bound as written is far over the limit of atoms (writtenOver: chess) starts restricted.
	start := time.Now()
	var ge *GroundError
	var bound PassEstimate
	over := false
	if predict {
		bound, over = p.writtenOver(ctx, g, lim)
	}
	if over {
		// Predicted to stop at the limit of atoms (writtenOver): the seconds it would take to
		// get there (chess: 2.4 s of CPU at the default limits) go to the restricted pass.
		ge = &GroundError{Reason: fmt.Sprintf("more than %d atoms can hold: estimated %s as written", lim.MaxFacts, countText(bound.Facts)), tooBig: true}
	} else {
		gr, err := g.ground(ctx, lim, init, nil)
		if err == nil || ctx.Err() != nil || !errors.As(err, &ge) || !ge.tooBig {
			return gr, err
		}
		// The pass as written stopped at a limit of size: its store, grown to millions of
		// terms (chess: 6 million), is let go; the restricted passes are smaller (chess: 2.2
		// million), and reusing it kept 200 MB more resident.
		g.spare = nil
	}
	// The bounds of relations whole that cap magic sets (wholeBounds) are computed when a magic
	// set first passes the least cap (plan.free: lazyBounds).
	plan := &magicPlan{whole: map[uint32]bool{}, minCap: lim.MaxFacts / 100, existential: existentialGroups, inline: inlineNegations,
		sizes: map[uint32]int{}, free: g.boundable(), tried: map[uint32]bool{}}
	if !lazyMagicBounds {
		g.lazyBounds(ctx, lim, start, plan, slices.Collect(maps.Keys(plan.free)))
	}
	for {
		rest := lim
		rest.Timeout = lim.Timeout - time.Since(start)
		if rest.Timeout <= 0 {
			// Then the failure is one of time: restricted, it might have fitted.
			ge.tooBig = false
			ge.Reason += ", and no time was left to ground it restricted to what its rules ask"
			return nil, ge
		}
		gr, err := g.ground(ctx, rest, init, plan)
		var over *magicOver
		if !errors.As(err, &over) {
			return gr, err
		}
		if !g.lazyBounds(ctx, lim, start, plan, over.fns) {
			continue // a cap was only tentative: the pass again with the bound
		}
		for _, fn := range over.fns {
			plan.whole[fn] = true
		}
	}
}

// existentialGroups says that the restricted passes evaluate existential groups apart
// (splitExistentials); tests turn it off to compare the groundings.
var existentialGroups = true

// lazyMagicBounds says that the bounds of relations whole are computed when a magic set passes
// the least cap (lazyBounds), not all before the restricted passes; tests turn it off to
// compare the groundings.
var lazyMagicBounds = true

// inlineNegations says that the restricted passes read the relations read only negated
// through their rules (ground_inline.go); tests turn it off to compare the groundings.
var inlineNegations = true

// magicOver is the failure of a restricted pass whose magic sets of the relations of functors
// fns asked more atoms than the relations have whole (magicSets).
type magicOver struct{ fns []uint32 }

func (e *magicOver) Error() string { return errMagicOver.Error() }

// ground grounds the game over its relaxed program (with magic, restricted by magic sets).
func (g *session) ground(ctx context.Context, lim GroundLimits, init []Term, magic *magicPlan) (gr *Grounding, err error) {
	rg := g.relaxed(magic)
	defer func() {
		if err != nil {
			g.recycle(rg)
		}
	}()
	rg.lim = Limits{Timeout: lim.Timeout, MaxFacts: lim.MaxFacts, MaxDepth: g.lim.MaxDepth}
	rg.begin(ctx)
	// The outputs, and the relations of the negative literals left out of the relaxed rules:
	// the ground rules keep those literals.
	need := []*relation{rg.legalRel, rg.nextRel, rg.goalRel, rg.terminalRel, rg.seesRel}
	asked := map[*relation]bool{}
	b := &grounder{g: g, rg: rg, lim: lim, restricted: magic != nil}
	if magic != nil && magic.inline {
		b.inlined = rg.inlinable(b.dynamic)
	}
	for len(need) > 0 {
		r := need[len(need)-1]
		need = need[:len(need)-1]
		if asked[r] {
			continue
		}
		asked[r] = true
		if b.inlined[r] { // read through its rules (ground_inline.go): what they read instead
			for _, ru := range r.rules {
				for _, l := range ru.body {
					if l.rel != nil {
						need = append(need, l.rel)
					}
				}
			}
			continue
		}
		err := rg.ensure(r)
		if err == nil && r.scc >= 0 {
			for _, ci := range rg.needs(r.scc) {
				for _, ru := range rg.comps[ci].rules {
					for _, l := range ru.dropped {
						need = append(need, l.rel)
					}
				}
			}
			continue
		}
		if err == nil {
			continue
		}
		var le *LimitError
		if errors.As(err, &le) && le.Limit == LimitFacts {
			return nil, &GroundError{Reason: fmt.Sprintf("more than %d atoms can hold", lim.MaxFacts), Err: err, tooBig: true}
		}
		if errors.Is(err, errMagicOver) {
			return nil, &magicOver{fns: rg.overMagic()}
		}
		return nil, &GroundError{Reason: "the atoms that can hold cannot be computed", Err: err}
	}
	gr = &Grounding{Roles: slices.Clone(g.roles), Init: slices.Clone(init),
		StateOnly: g.legalRel.layer < layerMove && g.goalRel.layer < layerMove && g.terminalRel.layer < layerMove}
	b.gr = gr
	if err := b.instances(); err != nil {
		return nil, err
	}
	b.keywords()
	g.st.store.commitGrounding(rg.st.store, gr)
	return gr, nil
}
