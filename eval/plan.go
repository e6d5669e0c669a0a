package eval

import (
	"slices"
	"strconv"
	"strings"
)

// Step operations of a join plan.
const (
	opScan      uint8 = iota // enumerate the facts of an atom, binding its unbound variables
	opProbe                  // a ground positive atom: look it up
	opNot                    // a ground negated atom: it must be absent
	opDistinct               // two ground terms must differ
	opEqual                  // two ground terms must be equal
	opKnown                  // the head is bound: skip if it is already a fact; once derived, stop here
	opCall                   // a demanded relation: solve the subgoal of the bound arguments, match each answer
	opCallProbe              // a demanded relation, every argument bound: the subgoal must have an answer
	opCallNot                // a demanded relation under not: the subgoal must have no answer
)

type step struct {
	op    uint8
	rel   *relation
	pat   *pnode   // opScan: match pattern; opProbe/opNot: build pattern
	idx   *index   // opScan: nil scans every fact of rel
	keys  []int    // opScan with idx: the variables whose values form the key, in key order
	delta bool     // opScan: only the facts in the plan's delta range
	a, b  *pnode   // opDistinct/opEqual
	call  *subgoal // opCall*: the subgoal's shape
}

// subgoal is the shape of the subgoal a step asks of a demanded relation.
type subgoal struct {
	mask  uint64   // the argument positions bound
	bargs []*pnode // build patterns of the bound arguments, in position order
}

// plan is a rule's body in evaluation order. Every variable a step reads was bound by an
// earlier step: safety guarantees such an order exists.
type plan struct {
	rule  *rule
	steps []step
	head  *pnode
	env   []Term
	lo    int // delta range of the delta step
	hi    int
	known int // the opKnown step, or -1
	jump  int // during a join: unwind to this step (after the head was derived), -1 if not
	// size is the planner's estimate of the body's solutions: the product of its scans'
	// estimates (the delta literal of a recursive component counting as unknownSize)
	size float64
	// query plans and demanded subgoals collect answers instead of deriving a head; an error
	// (a limit) stops the join
	answers func(env []Term) error
	// plans of demanded relations: match patterns of the head arguments bound by the subgoal,
	// the table receiving the answers of a run, whether a run is in progress, and copies for
	// the runs that nest in it (a recursive relation's subgoal calling its relation again)
	headArgs []*pnode
	sink     *table
	busy     bool
	spares   []*plan
	// stream is set on the plans of a query asked for its first answers (AskFirst), and on the
	// rules of the relations they read whole (inlined): cont receives the heads those derive
	stream bool
	cont   func(a Term) error
}

// demanded reports whether a plan reads relation r per subgoal: r is demanded, and the plan is
// not one of r's own component evaluated whole (where r is scanned like any relation).
func demanded(r *relation, comp int) bool { return r.demand != nil && r.scc != comp }

// unknownSize is the size assumed for a relation of the component being planned, whose facts
// do not exist yet.
const unknownSize = 1000

// planRule orders r's body. deltaLit is the body literal that ranges over the newest facts of a
// recursive component (it goes first), or -1. comp is the component being planned (its
// relations are still empty), or -1.
func (g *session) planRule(r *rule, deltaLit, comp int) *plan {
	return g.planRuleBound(r, deltaLit, comp, make([]bool, r.nvars))
}

// planRuleBound is planRule with the variables in bound already bound when the body starts.
func (g *session) planRuleBound(r *rule, deltaLit, comp int, bound []bool) *plan {
	return g.planRuleOpts(r, deltaLit, comp, bound, true)
}

// planRuleOpts is planRuleBound; stopKnown lets the plan skip the rest of the body when the head
// is known (off when every solution of the body is wanted).
func (g *session) planRuleOpts(r *rule, deltaLit, comp int, bound []bool, stopKnown bool) *plan {
	pl := &planner{g: g, r: r, comp: comp, bound: bound, stopKnown: stopKnown, done: make([]bool, len(r.body)),
		p: &plan{rule: r, head: r.head, env: make([]Term, r.nvars), known: -1, jump: -1, size: 1}}
	if deltaLit >= 0 {
		pl.p.size = unknownSize
	}
	pl.needs = g.callNeeds(r, bound, comp)
	if deltaLit >= 0 {
		pl.place(deltaLit, true)
	}
	for {
		pl.headKnown()
		pl.placeTests()
		if !pl.placeNext() {
			break
		}
	}
	pl.p.head = g.captureHead(pl.p, r.head)
	return pl.p
}

// A planner is the state of planRuleOpts: the plan being made for rule r, the body literals
// placed (done) and the variables bound after them.
type planner struct {
	g         *session
	r         *rule
	comp      int
	bound     []bool
	stopKnown bool
	done      []bool
	needs     [][]int // callNeeds
	p         *plan
	estimates map[string]float64 // planner.estimate
}

// place appends the step of body literal i (delta: it reads the component's new facts).
func (pl *planner) place(i int, delta bool) {
	g, p, bound, comp := pl.g, pl.p, pl.bound, pl.comp
	pl.done[i] = true
	l := &pl.r.body[i]
	switch l.kind {
	case litPos:
		if demanded(l.rel, comp) {
			op := opCall
			if allBound(l.atom, bound) {
				op = opCallProbe
			}
			p.steps = append(p.steps, g.callStep(op, l, bound))
			return
		}
		if allBound(l.atom, bound) {
			p.steps = append(p.steps, step{op: opProbe, rel: l.rel, pat: l.atom})
			return
		}
		s := step{op: opScan, rel: l.rel, delta: delta}
		var keys []int
		f := filterOf(l.atom, bound, &keys)
		if !trivial(f) {
			s.idx = g.indexFor(l.rel, f, len(keys))
			s.keys = keys
		}
		s.pat = matchPattern(l.atom, bound)
		p.steps = append(p.steps, s)
	case litNeg:
		if demanded(l.rel, comp) {
			p.steps = append(p.steps, g.callStep(opCallNot, l, bound))
			return
		}
		p.steps = append(p.steps, step{op: opNot, rel: l.rel, pat: l.atom})
	case litCheck:
		if demanded(l.rel, comp) {
			p.steps = append(p.steps, g.callStep(opCallProbe, l, bound))
			return
		}
		p.steps = append(p.steps, step{op: opProbe, rel: l.rel, pat: l.atom})
	case litDistinct:
		p.steps = append(p.steps, step{op: opDistinct, a: l.a, b: l.b})
	case litEqual:
		p.steps = append(p.steps, step{op: opEqual, a: l.a, b: l.b})
	}
}

// headKnown adds, once the head is bound, a step that skips the rest of the body when the head
// is known (the rest only decides whether it holds); the plan also stops enumerating once it is
// derived.
func (pl *planner) headKnown() {
	r, p := pl.r, pl.p
	if !pl.stopKnown || p.known >= 0 || r.head == nil || !allBound(r.head, pl.bound) {
		return
	}
	// Worth it when the head is a constant (the check is one array read) or when a scan
	// remains, which could derive the head many times.
	worth := r.head.kind == pConst
	remains := false
	for i := range r.body {
		if !pl.done[i] {
			remains = true
			if l := &r.body[i]; l.kind == litPos && !allBound(l.atom, pl.bound) {
				worth = true
			}
		}
	}
	if remains && worth {
		p.known = len(p.steps)
		p.steps = append(p.steps, step{op: opKnown, rel: r.rel, pat: r.head})
	}
}

// placeTests places the tests whose variables are bound, until none is: they only remove work.
func (pl *planner) placeTests() {
	for progress := true; progress; {
		progress = false
		for i := range pl.r.body {
			l := &pl.r.body[i]
			if pl.done[i] {
				continue
			}
			ready := false
			switch l.kind {
			case litNeg, litCheck, litPos:
				ready = allBound(l.atom, pl.bound)
			case litDistinct, litEqual:
				ready = allBound(l.a, pl.bound) && allBound(l.b, pl.bound)
			}
			if ready {
				pl.place(i, false)
				progress = true
			}
		}
	}
}

// placeNext places the next generator: a demanded call as soon as it is as bound as in the
// written order, otherwise the cheapest ready positive literal. It reports false when none is
// left.
func (pl *planner) placeNext() bool {
	g, r, bound := pl.g, pl.r, pl.bound
	best, bestCost := -1, 0.0
	if pl.needs != nil {
		for i := range r.body {
			if !pl.done[i] && pl.needs[i] != nil && ready(pl.needs, i, bound) {
				pl.p.size *= g.estimate(&r.body[i], bound, pl.comp)
				pl.place(i, false)
				return true
			}
		}
	}
	bestEst := 0.0
	for i := range r.body {
		l := &r.body[i]
		if pl.done[i] || l.kind != litPos || !ready(pl.needs, i, bound) {
			continue
		}
		e := pl.estimate(i, bound)
		c := e
		if g.lookahead {
			c = pl.lookahead(i, e)
		}
		if best < 0 || c < bestCost {
			best, bestCost, bestEst = i, c, e
		}
	}
	if best < 0 {
		return false
	}
	pl.p.size *= bestEst
	pl.place(best, false)
	return true
}

// estimate is session.estimate of body literal i with the variables in bound bound, kept for
// the rest of the planning (lookahead asks the same ones again at each step).
func (pl *planner) estimate(i int, bound []bool) float64 {
	key := make([]byte, 0, 4+len(bound))
	key = append(key, byte(i), byte(i>>8), byte(i>>16), byte(i>>24))
	for _, b := range bound {
		if b {
			key = append(key, 1)
		} else {
			key = append(key, 0)
		}
	}
	if e, ok := pl.estimates[string(key)]; ok {
		return e
	}
	e := pl.g.estimate(&pl.r.body[i], bound, pl.comp)
	if pl.estimates == nil {
		pl.estimates = map[string]float64{}
	}
	pl.estimates[string(key)] = e
	return e
}

// lookahead is the cost of placing body literal i next, which yields e facts, counting the
// cheapest literal it would let come after it: the facts of i, and for each, the facts of
// that one. A plain greedy order takes the smallest relation first even when what it binds
// joins badly with the rest: chess's threatened_with_capture/7, restricted by its magic set
// (313,096 atoms asked), scanned the 4,032 pairs of different_cells, then for each the about
// 2,900 threats from its square, and probed the magic set with each (11.7 million probes);
// from the magic set first, the threats are keyed by every other argument (one or two each).
// It is used for the restricted relaxed programs of groundings (evaluated once, where a plan's
// cost is the join's alone); not as written, where it changed the order of the ground rules,
// and with it checker_on_barrel_no_kings's network (1,897 gates to 1,895).
func (pl *planner) lookahead(i int, e float64) float64 {
	r := pl.r
	after := slices.Clone(pl.bound)
	markVars(r.body[i].atom, after, true)
	next := -1.0
	for j := range r.body {
		l := &r.body[j]
		if j == i || pl.done[j] || l.kind != litPos || !ready(pl.needs, j, after) {
			continue
		}
		if c := pl.estimate(j, after); next < 0 || c < next {
			next = c
		}
	}
	if next < 0 {
		return e
	}
	return e * (1 + next)
}

// callNeeds returns, per body literal of r calling a demanded relation, the variables it would
// find bound if the body ran in the order written (the variables bound at the start and those of
// the positive literals before it; nil for the other literals): the plan calls it as soon as
// they are bound, and not before, so that it asks the subgoals it would ask in the written
// order, which is how GDL's authors test their games (with Prolog and other top-down provers).
// This holds until the calls made gave answers to estimate them by (g.learned: the first
// replanning of a component), and again for good once a plan asked a relation that proved too
// big whole with nothing bound (g.conservative, see becomeConservative). In between (nil),
// calls are placed by their estimates alone: othello's playwillflip/6 is best asked once per
// open cell, before the scan that would bind its last two arguments, and chess's
// pawn_advance/5 before the scan of the blank cells that would bind its last two, since it gave
// about one answer per call when placed as written.
func (g *session) callNeeds(r *rule, bound []bool, comp int) [][]int {
	if g.learned && !g.conservative {
		return nil
	}
	var needs [][]int
	avail := slices.Clone(bound)
	for i := range r.body {
		l := &r.body[i]
		if l.kind != litPos {
			continue
		}
		if demanded(l.rel, comp) {
			vs := []int{} // not nil: a demanded call
			forVars(l.atom, func(v int) {
				if avail[v] && !slices.Contains(vs, v) {
					vs = append(vs, v)
				}
			})
			if needs == nil {
				needs = make([][]int, len(r.body))
			}
			needs[i] = vs
		}
		markVars(l.atom, avail, true)
	}
	return needs
}

func ready(needs [][]int, i int, bound []bool) bool {
	if needs == nil {
		return true
	}
	for _, v := range needs[i] {
		if !bound[v] {
			return false
		}
	}
	return true
}

// forVars calls f for each variable occurrence of p.
func forVars(p *pnode, f func(v int)) {
	switch p.kind {
	case pVar, pBind, pCheck:
		f(p.v)
	case pFunc:
		for _, a := range p.args {
			forVars(a, f)
		}
	}
}

// captureHead lets the head reuse subterms the body matched whole, as in the frame rule
// (<= (next (cell ?x ?y ?p)) (true (cell ?x ?y ?p)) ...): the scan records the ID of the term
// it matched for (cell ?x ?y ?p), and the head takes it instead of building it again.
func (g *session) captureHead(p *plan, h *pnode) *pnode {
	if h == nil || h.kind != pFunc {
		return h
	}
	out := &pnode{kind: pFunc, fn: h.fn, flat: h.flat, args: make([]*pnode, len(h.args))}
	for i, a := range h.args {
		out.args[i] = a
		if a.kind != pFunc {
			continue
		}
		if m := findSame(p, a); m != nil {
			if m.cap == 0 {
				m.cap = len(p.env) + 1
				p.env = append(p.env, 0)
			}
			out.args[i] = &pnode{kind: pVar, v: m.cap - 1}
		} else {
			out.args[i] = g.captureHead(p, a)
		}
	}
	return out
}

// findSame returns a match pattern node of a scan of p with the same structure as a.
func findSame(p *plan, a *pnode) *pnode {
	var walk func(m *pnode) *pnode
	walk = func(m *pnode) *pnode {
		if m.kind != pFunc {
			return nil
		}
		if samePattern(m, a) {
			return m
		}
		for _, x := range m.args {
			if f := walk(x); f != nil {
				return f
			}
		}
		return nil
	}
	for _, s := range p.steps {
		if s.op == opScan {
			if f := walk(s.pat); f != nil {
				return f
			}
		}
	}
	return nil
}

// samePattern compares a match pattern with a build pattern.
func samePattern(m, a *pnode) bool {
	switch a.kind {
	case pConst:
		return m.kind == pConst && m.t == a.t
	case pVar:
		return (m.kind == pBind || m.kind == pCheck) && m.v == a.v
	case pFunc:
		if m.kind != pFunc || m.fn != a.fn || len(m.args) != len(a.args) {
			return false
		}
		for i := range a.args {
			if !samePattern(m.args[i], a.args[i]) {
				return false
			}
		}
		return true
	}
	return false
}

// estimate guesses how many facts a scan of l yields with the variables bound so far: the
// facts that fit the pattern's shape divided by the number of distinct key values among them,
// counted on the facts there are now.
func (g *session) estimate(l *lit, bound []bool, comp int) float64 {
	var keys []int
	f := filterOf(l.atom, bound, &keys)
	if demanded(l.rel, comp) {
		nb, mask := 0, uint64(0)
		if l.atom.kind == pFunc {
			for j, a := range l.atom.args {
				if allBound(a, bound) {
					nb++
					mask |= 1 << uint(j)
				}
			}
		}
		return demandEstimate(l.rel, mask, nb)
	}
	if l.rel.scc == comp {
		n := float64(unknownSize)
		for range keys {
			n /= 4
		}
		return n
	}
	// The facts of a computed static relation never change: its estimates are kept.
	var sig string
	static := l.rel.layer == layerStatic && l.rel.scc >= 0 && g.comps[l.rel.scc].done != 0
	if static {
		var b strings.Builder
		b.WriteString(strconv.Itoa(int(l.rel.fn)))
		f.signature(&b)
		sig = b.String()
		if e, ok := g.estimates[sig]; ok {
			return e
		}
	}
	ix := &index{filter: f, nkeys: len(keys), keybuf: make([]Term, len(keys))}
	n := 0
	distinct := map[uint32]struct{}{}
	for _, t := range l.rel.facts {
		if !ix.fits(g.st, f, t) {
			continue
		}
		n++
		if len(keys) > 0 {
			distinct[hashKeys(ix.keybuf)] = struct{}{}
		}
	}
	e := float64(n)
	if len(distinct) > 1 {
		e /= float64(len(distinct))
	}
	if static {
		if g.estimates == nil {
			g.estimates = map[string]float64{}
		}
		g.estimates[sig] = e
	}
	return e
}

func allBound(p *pnode, bound []bool) bool {
	switch p.kind {
	case pVar, pBind, pCheck:
		return bound[p.v]
	case pFunc:
		for _, a := range p.args {
			if !allBound(a, bound) {
				return false
			}
		}
	}
	return true
}

// filterOf returns the index filter of pattern p given the bound variables, appending the key
// variables in key order.
func filterOf(p *pnode, bound []bool, keys *[]int) *fnode {
	switch p.kind {
	case pConst:
		return &fnode{kind: fConst, t: p.t}
	case pVar:
		if bound[p.v] {
			*keys = append(*keys, p.v)
			return &fnode{kind: fKey, key: len(*keys) - 1}
		}
		return &fnode{kind: fAny}
	}
	f := &fnode{kind: fFunc, fn: p.fn, args: make([]*fnode, len(p.args))}
	for i, a := range p.args {
		f.args[i] = filterOf(a, bound, keys)
	}
	return f
}

// trivial reports whether every fact of the relation passes the filter: an atom whose
// arguments are all unbound variables.
func trivial(f *fnode) bool {
	if f.kind != fFunc {
		return f.kind == fAny
	}
	for _, a := range f.args {
		if a.kind != fAny {
			return false
		}
	}
	return true
}

// matchPattern turns p into a match pattern, marking the variables it binds.
func matchPattern(p *pnode, bound []bool) *pnode {
	switch p.kind {
	case pConst:
		return p
	case pVar:
		if bound[p.v] {
			return &pnode{kind: pCheck, v: p.v}
		}
		bound[p.v] = true
		return &pnode{kind: pBind, v: p.v}
	}
	n := &pnode{kind: pFunc, fn: p.fn, args: make([]*pnode, len(p.args)), flat: p.flat}
	for i, a := range p.args {
		n.args[i] = matchPattern(a, bound)
	}
	return n
}

// planComponent plans every rule of a component, with the relations it uses already computed.
func (g *session) planComponent(ci int) {
	c := g.comps[ci]
	for _, r := range c.rules {
		if ev := g.evalRules[r]; ev != nil {
			r = ev // the rule evaluated with its existential groups apart (ground_exists.go)
		}
		c.full = append(c.full, g.planRule(r, -1, ci))
		if !c.recursive {
			continue
		}
		for i, l := range r.body {
			if l.kind == litPos && l.rel.scc == ci {
				c.delta = append(c.delta, g.planRule(r, i, ci))
			}
		}
	}
	c.planned = true
}
