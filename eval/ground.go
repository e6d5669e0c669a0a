package eval

import (
	"errors"
	"fmt"
	"slices"
	"time"
)

// Grounding: the game's rules instantiated over the atoms that can hold in some reachable state,
// the input of the compiled engine (package propnet).
//
// Which atoms can hold is over-approximated by a relaxed program: `true` holds for every fluent
// of `init` or `next`, `does` for every legal move, and negative literals on relations that
// depend on the state are dropped (so the relaxed program is monotone and needs no strata).
// Relations that depend on neither `true` nor `does` keep their exact rules, and are evaluated
// exactly: a ground rule never mentions them. The relaxed program is evaluated bottom-up to its
// fixpoint, and every rule of a relation that depends on the state is then enumerated over the
// relaxed facts: each solution of its body is one ground rule, keeping its literals on relations
// that depend on the state (negative ones only when their atom can hold).
//
// Two refinements keep the relaxed program close to what can happen: fluents that only the frame
// rule carries over are read from init (constantFluents), and a relaxed program that proves too
// big is restricted to the atoms its rules can ask (magicSets; a relation whose magic set asks
// more than its bound whole, ground_bounds.go, is computed whole). Three keep the ground rules
// few: independent groups of literals become auxiliary relations (splitRule; in the restricted
// program also those bound only by the state, with a domain), and so do the roles'
// moves joined through one variable (eliminateVars); "some witness other than this one" is
// counted (excludeOthers, ground_exclusion.go). In the restricted program, a group split off
// from several rules is one auxiliary relation (ground_share.go), a move's static tests per
// square are read through the squares where they fail (splitByMove, ground_moves.go), and a
// parameter that a recursion passes on unchanged is lifted out of its family of relations
// (liftParams, ground_lift.go).

// GroundLit is a literal of a ground rule: an atom, negated or not.
type GroundLit struct {
	Atom Term
	Neg  bool
}

// GroundRule is one instance of a rule: Head holds when every literal of Body holds. An empty
// body always holds.
type GroundRule struct {
	Head Term
	Body []GroundLit
}

// Percept is a `sees` atom of a role: the percept term and the atom (sees role percept).
type Percept struct {
	Percept, Atom Term
}

// GoalAtom is a `goal` atom of a role: its value (an integer constant, or any term in an invalid
// game) and the atom (goal role value).
type GoalAtom struct {
	Value, Atom Term
}

// Grounding is a game's rules instantiated over the atoms that can hold in a reachable state.
// Atoms are terms of the Program that grounded it (the atom (cell 1 1 b) of relation true is the
// term (true (cell 1 1 b))).
type Grounding struct {
	Roles []Term
	Init  []Term // the fluents of the initial state

	Fluents   []Term // every fluent that can hold: the base propositions
	TrueAtoms []Term // (true f) per fluent
	NextAtoms []Term // (next f) per fluent, 0 when no rule can derive it

	Moves     [][]Term // per role, every move that can be legal: the input propositions
	DoesAtoms [][]Term // (does r m) per role and move
	Legal     [][]Term // (legal r m) per role and move

	Goals    [][]GoalAtom // per role
	Terminal Term         // the atom terminal, 0 when no rule can derive it
	Sees     [][]Percept  // per role (GDL-II)

	// Constant are the fluents that hold in every reachable state: those of init whose functor
	// no next rule changes (constantFluents). The rules are grounded for states that hold them
	// all; a state written by hand without one of them needs the interpreter.
	Constant []Term

	// StateOnly says that legal, goal and terminal do not depend on does (as GDL requires): the
	// atoms that depend on does are only read while a joint move, one move per role, is played.
	StateOnly bool

	// Rules derive every atom of a relation that depends on the state (and the facts of the
	// keyword relations that do not), over the atoms above and each other. An atom without rules
	// never holds; the atoms of true and does have none.
	Rules []GroundRule
}

// GroundLimits bound a grounding.
type GroundLimits struct {
	Timeout  time.Duration // wall time
	MaxRules int           // ground rules
	MaxLits  int           // literals of all ground rules together
	MaxFacts int           // facts of the relaxed program
}

// DefaultGroundLimits fit every game a propositional network helps: the largest corpus games
// that ground do so in well under a second.
var DefaultGroundLimits = GroundLimits{Timeout: 5 * time.Second, MaxRules: 1_500_000, MaxLits: 8_000_000, MaxFacts: 2_000_000}

// GroundError says why a game was not grounded.
type GroundError struct {
	Reason string // what failed; "" when Err says it all
	Err    error  // the evaluation error behind it, if any
	tooBig bool   // a limit of size was reached
}

func (e *GroundError) Error() string {
	switch {
	case e.Err != nil && e.Reason == "":
		return e.Err.Error()
	case e.Err != nil:
		return e.Reason + ": " + e.Err.Error()
	}
	return e.Reason
}

func (e *GroundError) Unwrap() error { return e.Err }

// SizeLimit reports whether the grounding stopped at a limit of size (ground rules, their
// literals, the atoms that can hold), which it reaches however long it runs: unlike a failure
// of time, it does not depend on the machine's load.
func (e *GroundError) SizeLimit() bool { return e.tooBig }

// relaxed compiles the relaxed program of g (see Grounding) into a session sharing g's term
// store; with magic non-nil, restricted to the atoms that the rules can ask (magicSets).
func (g *session) relaxed(magic *magicPlan) *session { return g.relaxedWith(magic, false) }

// relaxedWith is relaxed; with stateFree, the literals on true and does that only filter are
// left out too (wholeBounds).
func (g *session) relaxedWith(magic *magicPlan, stateFree bool) *session {
	sh := *g.shared
	sh.st = g.scratchStore() // dropped with the pass, or kept (commitGrounding)
	rg := &session{shared: &sh, st: newView(sh.st), relByFn: map[uint32]*relation{}, lim: g.lim, lookahead: magic != nil}
	c := &compiler{g: rg, res: g.res}
	c.compileRules()
	origLayer := func(r *relation) layer {
		if o, ok := g.relByFn[r.fn]; ok {
			return o.layer
		}
		return layerStatic
	}
	rg.auxDynamic = map[uint32]bool{}
	rg.constantFluents()
	// An auxiliary relation (factorOrs) is dynamic when it reads the state.
	dynamic := func(l *lit) bool {
		if d, ok := rg.auxDynamic[l.rel.fn]; ok {
			return d
		}
		return origLayer(l.rel) != layerStatic
	}
	static := func(r *relation) bool { return origLayer(r) == layerStatic && !rg.auxDynamic[r.fn] }
	if magic != nil {
		rg.liftParams(static)
	}
	rg.transformRules(magic != nil, static, dynamic)
	trueRel, doesRel := rg.trueRel, rg.doesRel
	rg.addCopyRules()
	if magic != nil {
		rg.magicSets(magic)
		if magic.existential {
			rg.splitExistentials()
		}
	}
	if stateFree {
		rg.dropState()
	}
	// true and does are derived relations here: no layer is above static.
	rg.trueRel, rg.doesRel = nil, nil
	rg.components()
	rg.trueRel, rg.doesRel = trueRel, doesRel
	return rg
}

// transformRules rewrites the rules of the relations that depend on the state: negations of
// such relations dropped (kept aside), and in the restricted pass the or-factoring, shared
// groups, split moves and projections; every pass splits rules and eliminates variables.
func (rg *session) transformRules(restricted bool, static func(*relation) bool, dynamic func(*lit) bool) {
	for _, r := range slices.Clone(rg.rels) {
		if static(r) {
			continue
		}
		if restricted {
			rg.factorOrs(r, dynamic)
		}
		for _, ru := range r.rules {
			kept := ru.body[:0:0]
			for _, l := range ru.body {
				if l.kind == litNeg && !static(l.rel) {
					ru.dropped = append(ru.dropped, l)
					continue
				}
				kept = append(kept, l)
			}
			ru.body = kept
		}
		if restricted {
			rg.shareGroups(r.rules, dynamic)
		}
		var split []*rule
		for _, ru := range r.rules {
			for _, sr := range rg.splitRule(ru, dynamic, restricted) {
				if restricted {
					sr = rg.splitByMove(rg.projectMoves(sr, dynamic), dynamic)
				}
				split = append(split, rg.excludeOthers(rg.eliminateVars(sr, dynamic), dynamic))
			}
		}
		r.rules = split
		rg.share = nil
		rg.mergeExclusions(r)
	}
}

// addCopyRules adds the rules that copy next into true, init into true and legal into does:
// in the relaxed program true and does are derived relations.
func (rg *session) addCopyRules() {
	trueRel, doesRel := rg.trueRel, rg.doesRel
	x := func(v int) *pnode { return &pnode{kind: pVar, v: v} }
	unary := func(r *relation) *pnode { return &pnode{kind: pFunc, fn: r.fn, args: []*pnode{x(0)}, flat: true} }
	binary := func(r *relation) *pnode {
		return &pnode{kind: pFunc, fn: r.fn, args: []*pnode{x(0), x(1)}, flat: true}
	}
	trueRel.rules = append(trueRel.rules,
		&rule{rel: trueRel, head: unary(trueRel), body: []lit{{kind: litPos, rel: rg.initRel, atom: unary(rg.initRel)}}, nvars: 1, varNames: []string{"?x"}, clause: -1},
		&rule{rel: trueRel, head: unary(trueRel), body: []lit{{kind: litPos, rel: rg.nextRel, atom: unary(rg.nextRel)}}, nvars: 1, varNames: []string{"?x"}, clause: -1})
	doesRel.rules = append(doesRel.rules,
		&rule{rel: doesRel, head: binary(doesRel), body: []lit{{kind: litPos, rel: rg.legalRel, atom: binary(rg.legalRel)}}, nvars: 2, varNames: []string{"?r", "?m"}, clause: -1})
}

// constantFluents reads the fluents that never change from init. A functor whose only next
// rule is (next (f ?x ...)) <= (true (f ?x ...)) names fluents that hold in a reachable state
// exactly when they hold initially: the walls of a maze. Literals of true on them become
// literals of init, so the relaxed program keeps their negations (a move into a wall is not
// taken to be possible, which in mummymaze1p took the explorer out of the maze's 9 columns to
// the 51 numbers of succ), and the ground rules do not read them.
func (rg *session) constantFluents() {
	functorOf := func(p *pnode) (uint32, bool) {
		switch p.kind {
		case pFunc:
			return p.fn, true
		case pConst:
			return rg.st.rec(p.t).fn, true
		}
		return 0, false
	}
	constant := map[uint32]bool{}
	changing := map[uint32]bool{}
	for _, ru := range rg.nextRel.rules {
		if ru.head.kind != pFunc {
			return // a ground head: (next (f a)) changes f
		}
		f := ru.head.args[0]
		fn, ok := functorOf(f)
		if !ok {
			return // (next ?x): any fluent may change
		}
		frame := f.kind == pFunc && len(ru.body) == 1 && ru.body[0].kind == litPos && ru.body[0].rel == rg.trueRel
		if frame {
			seen := make([]bool, ru.nvars)
			for _, a := range f.args {
				frame = frame && a.kind == pVar && !seen[a.v]
				if a.kind == pVar {
					seen[a.v] = true
				}
			}
			if b := ru.body[0].atom; frame && b.kind == pFunc {
				g := b.args[0]
				frame = g.kind == pFunc && g.fn == f.fn && len(g.args) == len(f.args)
				for i := 0; frame && i < len(f.args); i++ {
					frame = g.args[i].kind == pVar && g.args[i].v == f.args[i].v
				}
			} else {
				frame = false
			}
		}
		if frame {
			constant[fn] = true
		} else {
			changing[fn] = true
		}
	}
	for fn := range changing {
		delete(constant, fn)
	}
	if len(constant) == 0 {
		return
	}
	rg.constFns = constant
	for _, r := range rg.rels {
		for _, ru := range r.rules {
			for i := range ru.body {
				l := &ru.body[i]
				if l.rel != rg.trueRel || l.atom.kind != pFunc {
					continue
				}
				if fn, ok := functorOf(l.atom.args[0]); ok && constant[fn] {
					l.rel = rg.initRel
					l.atom = &pnode{kind: pFunc, fn: rg.initRel.fn, args: l.atom.args, flat: l.atom.flat}
				}
			}
		}
	}
}

// magicSets restricts the relaxed program to the atoms that can be asked (the magic-sets
// rewriting of deductive databases). A relation whose every use binds some of its arguments
// (by constants, by the positive literals written before it, or by the bound arguments of the
// head of a rule being restricted likewise; a negated use binds them all) gets a magic relation
// of those arguments: each use derives the magic atom of what it asks, from the literals that
// bind it, and each rule of the relation reads its magic atom first. mummymaze1p's
// movetoward/5 is asked for the squares of the maze, 0 to 8, but its direction-from/5 holds
// for any two of the 51 numbers of succ: 6.5 million facts whole. A magic literal only filters
// the relaxed program (it holds for every atom a rule of the game can read), so ground rules
// never mention it.
//
// A magic set can cost more than its relation whole: chess's legal asks blocks_bishop_threat/6
// for 262,144 atoms, joined from some 31 million rows (every checking piece, king square and
// move), of a relation of 6,688 atoms whole. So a relation whose size whole the pass as written
// measured (plan.sizes) has its magic relation capped at that size: past it, the pass stops
// (errMagicOver) and is made again with the relation whole (plan.whole). A magic set is capped
// at plan.minCap at least: a small one costs little, and a relation whole can make more ground
// rules than restricted (mummymaze1p, with no least cap: 29,992 instead of 28,335, and 8 gates
// more).
func (rg *session) magicSets(plan *magicPlan) {
	ms := &magicRewrite{rg: rg, bound: map[*relation][]bool{}, magic: map[*relation]*relation{}}
	out := rg.wholeRelations()
	for _, r := range rg.rels {
		if plan.whole[r.fn] {
			out[r] = true
		}
	}
	ms.candidates(out)
	ms.narrow()
	if len(ms.bound) == 0 {
		return
	}
	ms.makeRelations(plan)
	ms.rewrite()
	if plan.existential {
		ms.mergeCopies()
	}
}

// A magicPlan says how magicSets restricts a relaxed program: which relations it leaves whole,
// and the sizes whole of those the pass as written could compute.
type magicPlan struct {
	sizes map[uint32]int // per relation's functor: its facts whole (absent: not known)
	// free: the relations wholeBounds can bound, capped at minCap until tried says their bound
	// was computed (lazyBounds); nil: sizes is all there is
	free, tried map[uint32]bool
	whole       map[uint32]bool // per relation's functor: computed whole, its magic set cost more
	minCap      int             // the least cap of a magic set: smaller ones cost little either way
	// existential: the rules are evaluated with their existential groups apart
	// (splitExistentials); off for the estimate, whose bounds read the rules as grounded
	existential bool
	// inline: the relations read only negated are read through their rules (inlinable)
	inline bool
}

// overMagic returns the functors of the relations whose magic relations hold more atoms than
// their cap: the one that stopped the pass (session.over), and those that passed it before.
func (rg *session) overMagic() []uint32 {
	out := []uint32{rg.over}
	for _, r := range rg.rels {
		if r.askCap > 0 && len(r.facts) > r.askCap && r.askFor != rg.over {
			out = append(out, r.askFor)
		}
	}
	return out
}

// errMagicOver stops a restricted pass whose magic relation (session.over) asked more atoms
// than its relation has whole (magicSets).
var errMagicOver = errors.New("a magic set asked more atoms than its relation has whole")

// A magicRewrite is the state of magicSets: the relations it restricts, with the arguments
// every use of each binds, and their magic relations.
type magicRewrite struct {
	rg    *session
	bound map[*relation][]bool // bound[r][i]: every use of r binds its argument i
	magic map[*relation]*relation
}

// wholeRelations returns the relations that magicSets leaves whole: the keyword relations, and a
// relation read under negation and what it reads (magic rules would make the negated relation
// depend on its readers, which could depend on its negation).
func (rg *session) wholeRelations() map[*relation]bool {
	out := map[*relation]bool{}
	for _, r := range []*relation{rg.roleRel, rg.initRel, rg.trueRel, rg.doesRel, rg.legalRel, rg.nextRel, rg.goalRel, rg.terminalRel, rg.seesRel} {
		out[r] = true
	}
	var stack []*relation
	for _, r := range rg.rels {
		for _, ru := range r.rules {
			for _, l := range ru.body {
				if l.kind != litPos && l.rel != nil && !out[l.rel] {
					out[l.rel] = true
					stack = append(stack, l.rel)
				}
			}
		}
	}
	for len(stack) > 0 {
		r := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, ru := range r.rules {
			for _, l := range ru.body {
				if l.rel != nil && !out[l.rel] {
					out[l.rel] = true
					stack = append(stack, l.rel)
				}
			}
		}
	}
	return out
}

// candidates starts bound with every argument of every derived relation not in out.
func (ms *magicRewrite) candidates(out map[*relation]bool) {
	for _, r := range ms.rg.rels {
		if out[r] || r.arity == 0 || keywordRel(foldName(r.name)) || r.refused != nil {
			continue
		}
		derived := false
		for _, ru := range r.rules {
			derived = derived || len(ru.body) > 0
		}
		if !derived {
			continue
		}
		bs := make([]bool, r.arity)
		for i := range bs {
			bs[i] = true
		}
		ms.bound[r] = bs
	}
}

// argPatterns returns the argument patterns of an atom (a ground atom is a constant pattern).
func (rg *session) argPatterns(p *pnode) []*pnode {
	if p.kind == pFunc {
		return p.args
	}
	var out []*pnode
	for _, a := range rg.st.argsOf(p.t) {
		out = append(out, &pnode{kind: pConst, t: a})
	}
	return out
}

// uses calls each(rule, literal, the variables bound at it) for every use of a restricted
// relation.
func (ms *magicRewrite) uses(each func(ru *rule, l *lit, avail []bool)) {
	for _, c := range ms.rg.rels {
		for _, ru := range c.rules {
			head := make([]bool, ru.nvars)
			if bs := ms.bound[c]; bs != nil {
				for i, a := range ms.rg.argPatterns(ru.head) {
					if bs[i] {
						markVars(a, head, true)
					}
				}
			}
			all := slices.Clone(head)
			for i := range ru.body {
				if l := &ru.body[i]; l.kind == litPos {
					markVars(l.atom, all, true)
				}
			}
			avail := slices.Clone(head)
			for i := range ru.body {
				l := &ru.body[i]
				if l.rel != nil && ms.bound[l.rel] != nil {
					if l.kind == litPos {
						each(ru, l, avail)
					} else {
						each(ru, l, all)
					}
				}
				if l.kind == litPos {
					markVars(l.atom, avail, true)
				}
			}
			for i := range ru.dropped {
				if l := &ru.dropped[i]; ms.bound[l.rel] != nil {
					each(ru, l, all)
				}
			}
		}
	}
}

// narrow clears the arguments some use does not bind, and drops the relations left with none,
// until nothing changes (a head's bound arguments bind only while its relation keeps them).
func (ms *magicRewrite) narrow() {
	for changed := true; changed; {
		changed = false
		ms.uses(func(ru *rule, l *lit, avail []bool) {
			bs := ms.bound[l.rel]
			for i := range bs {
				if bs[i] && !allBound(ms.rg.argPatterns(l.atom)[i], avail) {
					bs[i] = false
					changed = true
				}
			}
		})
		for r, bs := range ms.bound {
			if !slices.Contains(bs, true) {
				delete(ms.bound, r)
				changed = true
			}
		}
	}
}

// makeRelations makes the magic relation of each restricted relation, of its bound arguments,
// capped at the relation's size whole when sizes has it.
func (ms *magicRewrite) makeRelations(plan *magicPlan) {
	rg := ms.rg
	for _, r := range rg.rels {
		if bs := ms.bound[r]; bs != nil {
			n := 0
			for _, b := range bs {
				if b {
					n++
				}
			}
			m := rg.relation(fmt.Sprintf("magic %d", len(ms.magic)), n)
			if size, ok := plan.sizes[r.fn]; ok {
				m.askCap, m.askFor = max(size, plan.minCap, 1), r.fn
			} else if plan.free[r.fn] && !plan.tried[r.fn] { // its bound not computed yet
				m.askCap, m.askFor = max(plan.minCap, 1), r.fn
			}
			ms.magic[r] = m
			rg.auxDynamic[m.fn] = false
		}
	}
}

// project returns the magic atom of atom, an atom of restricted relation r: its bound arguments.
func (ms *magicRewrite) project(r *relation, atom *pnode) *pnode {
	m := ms.magic[r]
	var args []*pnode
	all := ms.rg.argPatterns(atom)
	for i, b := range ms.bound[r] {
		if b {
			args = append(args, all[i])
		}
	}
	flat := true
	for _, a := range args {
		flat = flat && a.kind != pFunc
	}
	return &pnode{kind: pFunc, fn: m.fn, args: args, flat: flat}
}

// rewrite adds the magic rules, from the bodies as written, then the magic literals.
func (ms *magicRewrite) rewrite() {
	var rules []*rule
	ms.uses(func(ru *rule, l *lit, avail []bool) {
		rules = append(rules, ms.magicRule(ru, l))
	})
	for _, mr := range rules {
		mr.rel.rules = append(mr.rel.rules, mr)
	}
	for r := range ms.bound {
		for _, ru := range r.rules {
			ru.body = append([]lit{{kind: litPos, rel: ms.magic[r], atom: ms.project(r, ru.head)}}, ru.body...)
		}
	}
}

// magicRule returns the rule that derives the magic atom of use l in rule ru: from ru's magic
// atom, and the positive literals before l (all of them when l is negated).
func (ms *magicRewrite) magicRule(ru *rule, l *lit) *rule {
	mr := &rule{rel: ms.magic[l.rel], head: ms.project(l.rel, l.atom), nvars: ru.nvars, varNames: ru.varNames, span: ru.span, clause: ru.clause}
	if ms.bound[ru.rel] != nil {
		mr.body = append(mr.body, lit{kind: litPos, rel: ms.magic[ru.rel], atom: ms.project(ru.rel, ru.head)})
	}
	if l.kind == litPos {
		for i := range ru.body {
			if &ru.body[i] == l {
				break
			}
			if ru.body[i].kind == litPos {
				mr.body = append(mr.body, ru.body[i])
			}
		}
	} else {
		for _, b := range ru.body {
			if b.kind == litPos {
				mr.body = append(mr.body, b)
			}
		}
	}
	return mr
}

// splitRule splits a rule whose body has independent parts: groups of literals that share
// variables not in the head with each other but not with the rest. Each group becomes an
// auxiliary relation of the head variables it mentions, and the rule reads those instead. The
// ground rules of (next (cell ?x ?y ?m)) <= (true (cell ?x ?y ?m)) (does a ?ma) (does b ?mb)
// (clear ?x ?y ?ma) (clear ?x ?y ?mb) are then one per cell and mark, plus one per cell and move
// of each role, instead of one per cell, mark and pair of moves. dynamic says which literals
// depend on the state. It returns the rules that replace ru (ru itself when nothing splits).
func (rg *session) splitRule(ru *rule, dynamic func(*lit) bool, domains bool) []*rule {
	s := newRuleSplit(ru, dynamic)
	s.groupLocals()
	if len(s.order) == 0 || len(s.order) == 1 && !s.worthSplitting() {
		return []*rule{ru}
	}
	// A domain only where the rule splits in groups: one group split off with a domain grew the
	// networks of crisscross (546 gates to 566), crissrace (1,336 to 1,476), merrills (13,032
	// to 13,681) and chineseCheckers6 (2,040 to 2,077), and chess's legal splits in two or three.
	binders, ok := s.findBinders(domains && len(s.order) > 1)
	if !ok {
		return []*rule{ru}
	}
	return s.build(rg, binders)
}

// A bodyRef is a literal of a rule's body, or of its dropped literals.
type bodyRef struct {
	l       *lit
	dropped bool
}

// A ruleSplit is the state of splitRule: a rule's literals, which hold variables not in the
// head (local), and their groups (literals that share local variables).
type ruleSplit struct {
	ru      *rule
	dynamic func(*lit) bool
	all     []bodyRef // the body, then the dropped literals
	head    []bool    // per variable: in the head
	local   []bool    // per literal of all: holds a local variable
	groups  map[int][]int
	order   []int // the groups' roots, in the order of their first literal
}

// newRuleSplit lists ru's literals and its head variables.
func newRuleSplit(ru *rule, dynamic func(*lit) bool) *ruleSplit {
	s := &ruleSplit{ru: ru, dynamic: dynamic, head: make([]bool, ru.nvars), groups: map[int][]int{}}
	for i := range ru.body {
		s.all = append(s.all, bodyRef{&ru.body[i], false})
	}
	for i := range ru.dropped {
		s.all = append(s.all, bodyRef{&ru.dropped[i], true})
	}
	markVars(ru.head, s.head, true)
	return s
}

// litVars marks in vs the variables literal i mentions.
func (s *ruleSplit) litVars(i int, vs []bool) {
	l := s.all[i].l
	for _, p := range []*pnode{l.atom, l.a, l.b} {
		if p != nil {
			markVars(p, vs, true)
		}
	}
}

// groupLocals groups the literals that hold local variables by the variables they share (a
// union-find on the literals).
func (s *ruleSplit) groupLocals() {
	u := newUnionFind(len(s.all))
	owner := make([]int, s.ru.nvars)
	s.local = make([]bool, len(s.all))
	for i := range s.all {
		vs := make([]bool, s.ru.nvars)
		s.litVars(i, vs)
		s.local[i] = u.linkVars(i, vs, owner, func(v int) bool { return !s.head[v] })
	}
	for i := range s.all {
		if !s.local[i] {
			continue
		}
		root := u.find(i)
		if _, ok := s.groups[root]; !ok {
			s.order = append(s.order, root)
		}
		s.groups[root] = append(s.groups[root], i)
	}
}

// worthSplitting reports, for a rule of one group, whether other literals bind head variables
// that the group does not mention (its ground rules would be repeated for each of their values).
func (s *ruleSplit) worthSplitting() bool {
	in := make([]bool, s.ru.nvars)
	for _, i := range s.groups[s.order[0]] {
		s.litVars(i, in)
	}
	for v := range s.head {
		if s.head[v] && !in[v] {
			return true
		}
	}
	return false
}

// A binder is a literal of a rule copied into a group of it split off (splitRule) to bind head
// variables the group does not: literal i of the body, or with domain set, an atom of an
// auxiliary relation of the variables set in domain, defined by literal i (a domain).
type binder struct {
	i      int
	domain []bool
}

// findBinders returns per group the literals to copy into it, or false when the rule must not
// be split. Each group must bind the head variables it mentions, by itself or with a copy of a
// static positive literal of the rule, else, with domains, with a domain: a copy of a literal
// that depends on the state would add work to every ground rule of the group, but the domain
// of the variables it binds, an auxiliary relation of the relaxed program that ground rules do
// not mention, only says which ground rules to make. Chess's "a move does not leave the king
// in check", (true (cell ?kx ?ky ?king)) (not (threatened ?player ?kx ?ky ?u ?v)), binds ?u and
// ?v only by the move's (true (cell ?u ?v ?piece)): split off with the domain of ?u and ?v, it
// is ground once per square moved from and king square, not once per move and king square.
// Domains are for the restricted pass (relaxed with magic sets), made when the grounding as
// written proved too big: they make fewer ground rules but more gates, and on the corpus
// games that ground as written they grew networks (ticTacToe 108 gates to 117, max_knights
// 233 to 313) as often as they shrank them.
func (s *ruleSplit) findBinders(domains bool) ([][]binder, bool) {
	binders := make([][]binder, len(s.order))
	for gi, root := range s.order {
		bound := make([]bool, s.ru.nvars)
		mentioned := make([]bool, s.ru.nvars)
		for _, i := range s.groups[root] {
			if !s.all[i].dropped && s.all[i].l.kind == litPos {
				markVars(s.all[i].l.atom, bound, true)
			}
			s.litVars(i, mentioned)
		}
		for v := range mentioned {
			if !mentioned[v] || !s.head[v] || bound[v] {
				continue
			}
			if found := s.binder(v, false); found >= 0 {
				binders[gi] = append(binders[gi], binder{i: found})
				markVars(s.all[found].l.atom, bound, true)
				continue
			}
			found := -1
			if domains {
				found = s.binder(v, true)
			}
			if found < 0 {
				return nil, false
			}
			vs := make([]bool, s.ru.nvars)
			markVars(s.all[found].l.atom, vs, true)
			domain := make([]bool, s.ru.nvars)
			for w := range vs {
				domain[w] = vs[w] && mentioned[w] && s.head[w] && !bound[w]
				bound[w] = bound[w] || domain[w]
			}
			binders[gi] = append(binders[gi], binder{i: found, domain: domain})
		}
	}
	return binders, true
}

// binder returns the first positive literal of the body that binds variable v, static or (with
// dynamic) one that depends on the state, or -1.
func (s *ruleSplit) binder(v int, dynamic bool) int {
	for i, r := range s.all {
		if r.dropped || r.l.kind != litPos || r.l.rel == nil || s.dynamic(r.l) != dynamic {
			continue
		}
		vs := make([]bool, s.ru.nvars)
		markVars(r.l.atom, vs, true)
		if vs[v] {
			return i
		}
	}
	return -1
}

// build returns the rule that replaces the split rule: of its literals that hold no local
// variable, and an atom of each group's auxiliary relation (auxRule).
func (s *ruleSplit) build(rg *session, binders [][]binder) []*rule {
	ru := s.ru
	main := &rule{rel: ru.rel, head: ru.head, nvars: ru.nvars, varNames: ru.varNames, span: ru.span, clause: ru.clause}
	for i, r := range s.all {
		if s.local[i] {
			continue
		}
		if r.dropped {
			main.dropped = append(main.dropped, *r.l)
		} else {
			main.body = append(main.body, *r.l)
		}
	}
	for gi, root := range s.order {
		if l, ok := s.sharedAux(rg, root, binders[gi]); ok {
			main.body = append(main.body, l)
			continue
		}
		main.body = append(main.body, s.auxRule(rg, s.groups[root], binders[gi]))
	}
	return []*rule{main}
}

// auxRule makes the auxiliary relation of a group of literals (of the head variables they
// mention) with its one rule, of the group and its binders, and returns the atom the main rule
// reads.
func (s *ruleSplit) auxRule(rg *session, group []int, binders []binder) lit {
	ru := s.ru
	vs := make([]bool, ru.nvars)
	for _, i := range group {
		s.litVars(i, vs)
	}
	for v := range vs {
		vs[v] = vs[v] && s.head[v]
	}
	aux, atom := rg.auxRelation(vs)
	ar := &rule{rel: aux, head: atom, nvars: ru.nvars, varNames: ru.varNames, span: ru.span, clause: ru.clause}
	dyn := false
	for _, i := range group {
		if s.all[i].dropped {
			ar.dropped = append(ar.dropped, *s.all[i].l)
		} else {
			ar.body = append(ar.body, *s.all[i].l)
		}
		dyn = dyn || (s.all[i].l.rel != nil && s.dynamic(s.all[i].l))
	}
	rg.auxDynamic[aux.fn] = dyn
	for _, b := range binders {
		if b.domain == nil {
			ar.body = append(ar.body, *s.all[b.i].l)
			continue
		}
		dom, datom := rg.auxRelation(b.domain)
		rg.auxDynamic[dom.fn] = false // decided by the join: no ground rule mentions it
		dom.rules = append(dom.rules, &rule{rel: dom, head: datom, body: []lit{*s.all[b.i].l}, nvars: ru.nvars, varNames: ru.varNames, span: ru.span, clause: ru.clause})
		ar.body = append(ar.body, lit{kind: litPos, rel: dom, atom: datom})
	}
	if rg.share != nil { // the restricted pass
		ar = rg.splitByMove(ar, s.dynamic)
	}
	aux.rules = append(aux.rules, rg.eliminateVars(ar, s.dynamic))
	return lit{kind: litPos, rel: aux, atom: atom}
}

// auxRelation makes a new auxiliary relation of the variables set in vars (in their order), and
// the atom of it that a rule writes.
func (rg *session) auxRelation(vars []bool) (*relation, *pnode) {
	var args []*pnode
	for v, in := range vars {
		if in {
			args = append(args, &pnode{kind: pVar, v: v})
		}
	}
	aux := rg.relation(fmt.Sprintf("aux %d", len(rg.auxDynamic)), len(args))
	if len(args) == 0 {
		return aux, &pnode{kind: pConst, t: rg.st.intern(aux.fn, nil)}
	}
	return aux, &pnode{kind: pFunc, fn: aux.fn, args: args, flat: true}
}

// eliminateVars takes local variables of a rule out one at a time (variable elimination): the
// literals that mention a variable v that is not in the head become an auxiliary relation of
// their other variables, "there is a v such that ...", and the rule reads that instead. In a
// game of five roles where a role scores when every other role's move is worse than its own,
// (next (score p1 ?s)) <= ... (does p1 (select ?n)) (does p2 (select ?m2)) (worse ?m2 ?n) ...
// (does p5 (select ?m5)) (worse ?m5 ?n) then grounds into rules per ?n and per ?n and ?mi,
// instead of one per combination of the five moves. A variable is taken out only when a role's
// move binds it, its literals are two or more but not the whole body, they share at most one
// other variable (the move compared with), they bind all their variables by positive atoms (not
// only by a negation or a distinct), and the rest of the body joins another role's move on
// variables they lack; the roles' moves are what multiply. It returns the rule that replaces
// ru; the auxiliary rules are added to their relations.
func (rg *session) eliminateVars(ru *rule, dynamic func(*lit) bool) *rule {
	for {
		next, ok := rg.eliminateOne(ru, dynamic)
		if !ok {
			return ru
		}
		ru = next
	}
}

// eliminateOne takes one local variable out of ru (see eliminateVars), or reports false.
func (rg *session) eliminateOne(ru *rule, dynamic func(*lit) bool) (*rule, bool) {
	all := ruleVarLits(ru)
	head := make([]bool, ru.nvars)
	markVars(ru.head, head, true)
	best, bestIface := -1, 0
	for v := 0; v < ru.nvars; v++ {
		if head[v] {
			continue
		}
		if iface, ok := rg.eliminable(all, head, v); ok && (best < 0 || iface < bestIface) {
			best, bestIface = v, iface
		}
	}
	if best < 0 {
		return nil, false
	}
	return rg.projectOut(ru, all, best, dynamic), true
}

// A varLit is a literal of a rule's body or dropped literals, with the variables it mentions.
type varLit struct {
	l       lit
	dropped bool
	vars    []bool
}

// ruleVarLits returns ru's body then its dropped literals, with their variables.
func ruleVarLits(ru *rule) []varLit {
	var all []varLit
	add := func(l lit, dropped bool) {
		vs := make([]bool, ru.nvars)
		for _, p := range []*pnode{l.atom, l.a, l.b} {
			if p != nil {
				markVars(p, vs, true)
			}
		}
		all = append(all, varLit{l, dropped, vs})
	}
	for _, l := range ru.body {
		add(l, false)
	}
	for _, l := range ru.dropped {
		add(l, true)
	}
	return all
}

// eliminable reports whether local variable v of a rule (literals all, head variables head) is
// worth taking out, and the size of the interface of its literals with the rest (the variables
// they mention but v).
func (rg *session) eliminable(all []varLit, head []bool, v int) (int, bool) {
	members, move := 0, false
	mentioned, bound := make([]bool, len(head)), make([]bool, len(head))
	for _, r := range all {
		if !r.vars[v] {
			continue
		}
		members++
		move = move || r.l.kind == litPos && r.l.rel == rg.doesRel
		for w, in := range r.vars {
			mentioned[w] = mentioned[w] || in
		}
		if !r.dropped && r.l.kind == litPos {
			markVars(r.l.atom, bound, true)
		}
	}
	// A variable of one literal only: projecting it out adds a gate and joins nothing less.
	// A variable that no move binds is left alone: the roles' moves are what multiply (each
	// role's independent of the others'), where the variables of the state's fluents are
	// mostly tied to each other (a line of cells along succ), and taking those out added
	// gates to connectFour and gomoku without making them faster.
	if members < 2 || members == len(all) || !move {
		return 0, false
	}
	iface, safe, outside := 0, true, false
	for w := range mentioned {
		if mentioned[w] && !bound[w] {
			safe = false
		}
		if mentioned[w] && w != v {
			iface++
		}
	}
	// Worth it only when the rest of the body joins another role's move on variables these
	// literals lack: moves that multiply.
	for _, r := range all {
		if r.vars[v] || r.l.kind != litPos || r.l.rel != rg.doesRel {
			continue
		}
		for w, in := range r.vars {
			outside = outside || in && !mentioned[w] && !head[w]
		}
	}
	// An interface of one variable (the move compared with) at most: with two or more the
	// auxiliary relation is about as big as the join it replaces (measured on
	// smallest_4player: more gates, 30% slower).
	return iface, safe && outside && iface <= 1
}

// projectOut returns ru with the literals that mention variable v replaced by an atom of a new
// auxiliary relation of their other variables, whose rule they make.
func (rg *session) projectOut(ru *rule, all []varLit, v int, dynamic func(*lit) bool) *rule {
	iface := make([]bool, ru.nvars)
	for _, r := range all {
		if r.vars[v] {
			for w, in := range r.vars {
				iface[w] = iface[w] || in && w != v
			}
		}
	}
	aux, atom := rg.auxRelation(iface)
	ar := &rule{rel: aux, head: atom, nvars: ru.nvars, varNames: ru.varNames, span: ru.span, clause: ru.clause}
	main := &rule{rel: ru.rel, head: ru.head, nvars: ru.nvars, varNames: ru.varNames, span: ru.span, clause: ru.clause}
	dyn := false
	for _, r := range all {
		into := main
		if r.vars[v] {
			into = ar
			// An auxiliary relation made by an earlier step is dynamic as its own literals are.
			dyn = dyn || r.l.rel != nil && (rg.auxDynamic[r.l.rel.fn] || dynamic(&r.l))
		}
		if r.dropped {
			into.dropped = append(into.dropped, r.l)
		} else {
			into.body = append(into.body, r.l)
		}
	}
	rg.auxDynamic[aux.fn] = dyn
	aux.rules = append(aux.rules, ar)
	main.body = append(main.body, lit{kind: litPos, rel: aux, atom: atom})
	return main
}

// grounder enumerates the ground rules of a relaxed program.
type grounder struct {
	g, rg *session
	// inlined are the relations read through their rules (ground_inline.go); vals and tenv
	// the scratch of readThrough
	inlined    map[*relation]bool
	vals, tenv []Term
	gr         *Grounding
	lim        GroundLimits
	lits       int
	excl       *excluder   // the rules marked for exclusion counting
	arena      []GroundLit // the chunk that keepBody fills
	// resolved is resolve's scratch body
	resolved []GroundLit
	alias    *aliases // the ground rules of copy rules kept aside (ground_alias.go)
	// restricted: the relaxed program is restricted by magic sets (made when the grounding as
	// written proved too big)
	restricted bool
}

// dynamic reports whether relation r of the relaxed program depends on the state in the game.
func (b *grounder) dynamic(r *relation) bool {
	if d, ok := b.rg.auxDynamic[r.fn]; ok {
		return d
	}
	o, ok := b.g.relByFn[r.fn]
	return ok && o.layer != layerStatic
}

// keywordOutput reports the relations the game API reads, whose facts are ground rules even
// when they do not depend on the state.
func (b *grounder) keywordOutput(r *relation) bool {
	rg := b.rg
	return r == rg.legalRel || r == rg.nextRel || r == rg.goalRel || r == rg.terminalRel || r == rg.seesRel
}

func (b *grounder) instances() error {
	rg := b.rg
	// The relations E of the rules marked for exclusion counting are grounded with their rule,
	// when the count is made (excluder.rule).
	counts := map[*relation]bool{}
	for _, r := range rg.rels {
		for _, ru := range r.rules {
			if ru.excl != nil {
				counts[ru.excl.e] = true
			}
		}
	}
	b.markCopyRules(counts)
	// The relations with copy rules first, each after those it reads: a rule can read one
	// through a negative literal the relaxed program left out (legal reads chess's
	// threatened_with_capture so), or in a component with it (ground_alias.go).
	for _, r := range b.alias.first {
		if err := b.relation(r); err != nil {
			return err
		}
	}
	b.alias.complete = true
	for _, c := range rg.comps {
		for _, r := range c.rels {
			if r == rg.trueRel || r == rg.doesRel || c.done == 0 {
				continue // the state and the joint move; relations no output needs
			}
			if counts[r] || b.alias.aliasable[r.fn] {
				continue
			}
			if err := b.relation(r); err != nil {
				return err
			}
		}
	}
	return b.copyRules()
}

// relation makes the ground rules of relation r.
func (b *grounder) relation(r *relation) error {
	if !b.dynamic(r) {
		if b.keywordOutput(r) {
			for _, t := range r.facts {
				if err := b.add(GroundRule{Head: t}); err != nil {
					return err
				}
			}
		}
		return nil
	}
	for _, ru := range r.rules {
		if err := b.rule(ru); err != nil {
			return err
		}
	}
	return nil
}

// add appends a ground rule. Its body is copied (into the grounder's arena): the caller may
// reuse it.
func (b *grounder) add(gr GroundRule) error {
	gr.Body = b.keepBody(b.resolve(gr.Body, len(b.gr.Rules)))
	if al := b.alias; al != nil && al.aliasable[b.rg.st.rec(gr.Head).fn] {
		al.real[gr.Head] = true
	}
	b.gr.Rules = append(b.gr.Rules, gr)
	b.lits += len(gr.Body)
	if len(b.gr.Rules) > b.lim.MaxRules {
		return &GroundError{Reason: fmt.Sprintf("more than %d ground rules", b.lim.MaxRules), tooBig: true}
	}
	if b.lits > b.lim.MaxLits {
		return &GroundError{Reason: fmt.Sprintf("more than %d literals in ground rules", b.lim.MaxLits), tooBig: true}
	}
	return nil
}

// bodyChunk is how many literals of ground rules' bodies one allocation holds (keepBody).
const bodyChunk = 1 << 14

// keepBody returns a copy of body in the arena of ground rules' bodies: a chunk of literals
// allocated at once, each body a slice of it capped at its length (so appending to one copies
// it). Chess's 4.9 million ground rules took as many allocations, one per body.
func (b *grounder) keepBody(body []GroundLit) []GroundLit {
	if len(body) == 0 {
		return nil
	}
	if len(b.arena)+len(body) > cap(b.arena) {
		b.arena = make([]GroundLit, 0, max(bodyChunk, len(body)))
	}
	n := len(b.arena)
	b.arena = append(b.arena, body...)
	return b.arena[n:len(b.arena):len(b.arena)]
}

// rule enumerates the instances of one rule of the relaxed program.
func (b *grounder) rule(ru *rule) error {
	if ru.excl != nil {
		if b.excl == nil {
			b.excl = &excluder{b: b}
		}
		return b.excl.rule(ru)
	}
	return b.enumerate(ru, false)
}

// enumerate makes a ground rule of each solution of ru's body; with known, only of those whose
// head is an atom that can hold (a rule outside the relaxed program: its heads are not
// restricted by magic sets).
func (b *grounder) enumerate(ru *rule, known bool) error {
	rg := b.rg
	written := ru
	if w := rg.groundRules[ru]; w != nil {
		written = w // without the atoms of its existential groups (splitExistentials)
	}
	p := rg.planAll(written)
	var body []GroundLit
	var failed error
	made := 0
	// The literals a ground rule keeps: those on relations that depend on the state (the others
	// are exact, and decided by the join).
	dyn := make([]bool, len(ru.body))
	for i := range ru.body {
		dyn[i] = ru.body[i].rel != nil && b.dynamic(ru.body[i].rel)
	}
	copyRule := b.alias != nil && b.alias.copyRule[ru]
	p.answers = func(env []Term) error {
		body = body[:0]
		for i := range ru.body {
			l := &ru.body[i]
			if !dyn[i] {
				continue
			}
			a := rg.atomOf(l.rel, l.atom, env, false)
			switch l.kind {
			case litPos, litCheck:
				body = append(body, GroundLit{Atom: a})
			case litNeg:
				if a != 0 && rg.has(l.rel, a) {
					body = append(body, GroundLit{Atom: a, Neg: true})
				}
			}
		}
		for i := range ru.dropped {
			l := &ru.dropped[i]
			if b.inlined[l.rel] {
				body = b.readThrough(body, l, env)
				continue
			}
			if a := rg.atomOf(l.rel, l.atom, env, false); a != 0 && rg.has(l.rel, a) {
				body = append(body, GroundLit{Atom: a, Neg: true})
			}
		}
		head := rg.atomOf(ru.rel, ru.head, env, true)
		if known && !rg.has(ru.rel, head) {
			return nil
		}
		made++
		if copyRule {
			b.alias.keep(head, b.resolve(body, -1))
		} else if err := b.add(GroundRule{Head: head, Body: body}); err != nil {
			failed = err
			return err
		}
		if made&0xfff == 0 {
			return rg.check(p)
		}
		return nil
	}
	err := rg.run(p)
	p.answers = nil
	if failed != nil {
		return failed
	}
	if err != nil {
		return &GroundError{Reason: "the ground rules cannot be enumerated", Err: err}
	}
	return nil
}

// planAll plans a rule to enumerate every solution of its body (no stop once the head is
// known).
func (g *session) planAll(ru *rule) *plan {
	return g.planRuleOpts(ru, -1, -1, make([]bool, ru.nvars), false)
}

// keywords fills in the propositions of the keyword relations from the relaxed facts.
func (b *grounder) keywords() {
	rg, gr := b.rg, b.gr
	st := rg.st
	atomsOf := func(r *relation) map[Term]bool {
		m := map[Term]bool{}
		for _, t := range r.facts {
			m[t] = true
		}
		return m
	}
	nexts := atomsOf(rg.nextRel)
	for _, t := range rg.trueRel.facts {
		f := st.argsOf(t)[0]
		gr.Fluents = append(gr.Fluents, f)
	}
	slices.Sort(gr.Fluents)
	for _, f := range gr.Fluents {
		if rg.constFns[st.rec(f).fn] {
			gr.Constant = append(gr.Constant, f)
		}
	}
	for _, f := range gr.Fluents {
		gr.TrueAtoms = append(gr.TrueAtoms, rg.wrap(rg.trueRel, f, true))
		n := rg.wrap(rg.nextRel, f, true)
		if !nexts[n] {
			n = 0
		}
		gr.NextAtoms = append(gr.NextAtoms, n)
	}
	nr := len(gr.Roles)
	gr.Moves = make([][]Term, nr)
	gr.DoesAtoms = make([][]Term, nr)
	gr.Legal = make([][]Term, nr)
	gr.Goals = make([][]GoalAtom, nr)
	gr.Sees = make([][]Percept, nr)
	byRole := func(r *relation, each func(i int, arg, atom Term)) {
		facts := slices.Clone(r.facts)
		slices.Sort(facts)
		for _, t := range facts {
			a := st.argsOf(t)
			if i, ok := rg.roleIdx[a[0]]; ok {
				each(i, a[1], t)
			}
		}
	}
	byRole(rg.legalRel, func(i int, m, atom Term) {
		gr.Moves[i] = append(gr.Moves[i], m)
		gr.Legal[i] = append(gr.Legal[i], atom)
		gr.DoesAtoms[i] = append(gr.DoesAtoms[i], st.intern(rg.doesRel.fn, []Term{gr.Roles[i], m}))
	})
	byRole(rg.goalRel, func(i int, v, atom Term) { gr.Goals[i] = append(gr.Goals[i], GoalAtom{Value: v, Atom: atom}) })
	byRole(rg.seesRel, func(i int, p, atom Term) { gr.Sees[i] = append(gr.Sees[i], Percept{Percept: p, Atom: atom}) })
	if len(rg.terminalRel.facts) > 0 {
		gr.Terminal = rg.terminalRel.facts[0]
	}
}
