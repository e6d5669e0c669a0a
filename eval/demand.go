package eval

import (
	"errors"
	"slices"
)

// Demand-driven evaluation. Bottom-up evaluation computes whole relations; a relation that its
// callers always ask with some arguments bound (chess's threatened_with_capture/7 is only ever
// tested under `not` with all seven bound, and has 2.9 million facts per state; its recursive
// clear_row_ig/6 has 44,000 facts per state, of which a move needs a handful) is better asked per
// call. Such a relation is marked demanded, and a step that reads it solves the subgoal (the
// relation with the caller's bound arguments) by running the relation's rules with those
// arguments bound. The answers are tabled: kept per subgoal for as long as the relation's layer
// stays valid (per game, state or joint move). The callers of demanded relations, and what
// demanded rules read of other relations, are evaluated bottom-up as before.
//
// A component of mutually recursive relations is demanded as a whole. Its subgoals may call
// one another, and in a cycle (a subgoal calling itself, directly or through others) a subgoal
// whose evaluation is in progress has only part of its answers yet. The evaluation keeps a
// stack of the subgoals in progress (frames). A subgoal that reads the answers of an incomplete
// subgoal depends on the frame that will complete it (the lowest such frame is the frame's
// low). A frame whose evaluation depended only on itself and on subgoals started above it is
// the leader of those subgoals (its scope): it evaluates them all again, pass after pass, until
// a pass adds no answer to any of them; then they are complete. A frame that depended on an
// older frame hands its subgoal and its scope to its caller, whose evaluation decides them. So
// every answer is derived from answers already found (it holds), and a complete subgoal's
// answers are closed under its rules (none is missing). Negation is stratified: a negated
// literal never reads a relation of its own component, so it only reads complete subgoals.
//
// Subgoals with nothing bound are the whole relation: for a recursive component, the whole
// component is then evaluated bottom-up (semi-naively), and every subgoal of it in the same
// layer epoch is answered from those facts by an index.

// minDemandArity is the fewest arguments of a demanded relation that depends on the state.
// Relations of few arguments are small bottom-up, and computing them whole with indexes is
// faster than per subgoal (for ticTacToe's line/1 and connectFour's cellOpen/2 by about 2x); the
// relations that make whole evaluation explode are products of several coordinates.
const minDemandArity = 4

// demand is the state of a demanded relation.
type demand struct {
	plans map[uint64][]*plan // per mask of bound argument positions: one plan per rule
	memo  map[uint64]*table  // hash of a subgoal (mask and bound values) -> its tables, chained
	epoch uint64             // the layer's epoch the memo belongs to
	whole map[uint64]*index  // per mask: the index answering subgoals from the whole relation
	live  []*table           // the tables of the memo
	free  []*table           // tables of past epochs, to reuse
	stats map[uint64]*callStats
}

// callStats counts the subgoals of a demanded relation with one mask that were evaluated and
// their answers: the planner estimates a call by the answers it gave on average.
type callStats struct {
	calls, answers int
}

// note records the answers of table t, evaluated.
func (d *demand) note(t *table) {
	st := d.stats[t.mask]
	if st == nil {
		if d.stats == nil {
			d.stats = map[uint64]*callStats{}
		}
		st = &callStats{}
		d.stats[t.mask] = st
	}
	st.calls++
	st.answers += len(t.answers)
}

// proved is the answer of a subgoal with every argument bound that holds, in place of the
// atom, which is never made: callers only ask whether it has an answer. No term has this ID.
const proved = Term(^uint32(0))

// table holds the answers of one subgoal.
type table struct {
	rel      *relation
	mask     uint64
	all      bool   // every argument is bound: its one answer is proved (answer)
	vals     []Term // the bound arguments, in position order
	hash     uint64
	next     *table // the next table with the same hash
	answers  []Term // atoms of rel, in derivation order
	set      map[Term]struct{}
	complete bool // every answer is there
	wholeCap int  // asked by a relation being computed whole that may be demanded: its demandCap
	shared   bool // answers is the relation's list of facts (fromWhole)
	// depth is the stack position of the frame that decides an incomplete table: its own frame
	// while it is evaluated, then the leader's.
	depth int
}

// frame is a subgoal being evaluated.
type frame struct {
	t      *table
	low    int      // the lowest depth of the frames deciding an incomplete table it read
	cyclic bool     // a table this frame decides was read while incomplete
	scope  []*table // the incomplete tables this frame decides, besides t
}

// keywordRel reports the relations the game API reads whole, which are never demanded.
func keywordRel(name string) bool {
	switch name {
	case "role", "init", "true", "does", "next", "legal", "goal", "terminal", "sees", "base", "input":
		return true
	}
	return false
}

// chooseDemanded marks the relations to evaluate on demand: those of components whose
// relations have at most 64 arguments, every use of which is negated or has an argument that is
// ground or bound by the rest of the body (or by the head, when the using rule's relation is
// itself a candidate). Non-recursive ones depending on the state need at least minDemandArity
// arguments and are demanded at once; static and recursive ones are computed whole until they
// prove big (demandCap, switchToDemand). The choice affects speed only, never the answers.
func (g *session) chooseDemanded() {
	cand := map[*relation]bool{}
	for _, c := range g.comps {
		ok := len(c.rels) > 0
		for _, r := range c.rels {
			if len(r.rules) == 0 || r.arity == 0 || (c.layer != layerStatic && !c.recursive && r.arity < minDemandArity) || r.arity > 64 || r.refused != nil || keywordRel(foldName(r.name)) {
				ok = false
			}
		}
		if ok {
			for _, r := range c.rels {
				cand[r] = true
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, caller := range g.rels {
			for _, ru := range caller.rules {
				for i := range ru.body {
					l := &ru.body[i]
					if l.rel == nil || !cand[l.rel] || l.kind != litPos {
						continue
					}
					if !boundSomewhere(ru, i, cand[caller]) {
						for _, r := range g.comps[l.rel.scc].rels {
							delete(cand, r)
						}
						changed = true
					}
				}
			}
		}
	}
	for r := range cand {
		if r.layer == layerStatic || g.comps[r.scc].recursive {
			r.mayDemand = true // demanded only if it proves big (switchToDemand)
			continue
		}
		r.demand = newDemand()
		g.comps[r.scc].demanded = true
	}
}

func newDemand() *demand {
	return &demand{plans: map[uint64][]*plan{}, memo: map[uint64]*table{}}
}

// staticDemandCap is the number of facts past which the whole evaluation of a static relation
// that could be demanded is abandoned for demand-driven evaluation (or, for a non-recursive one,
// not started when the planner estimates more: tooBig). Static relations are computed once per
// game, so the small ones are best computed whole (breakthrough's distinctCell/4 has 4,096 facts
// and is read by index faster than per subgoal; gt_attrition's sum/3 has 5,151, and its gt/2
// tries a hundred of them per call: its playouts are over 10 times slower per subgoal); some
// are huge or infinite bottom-up (laikLee_hex's isList/1 and append_el/3, mummymaze1p's
// direction-from/5) but small per subgoal, and the arithmetic of numbers to a few hundred (FARMERS_S's sums and differences,
// 45,000 to 70,000 facts each, 0.25 s to compute whole; gt_two_thirds_6p's, 180,000) is asked a
// few hundred subgoals in a game: the subgoals' tables are kept for the game.
const staticDemandCap = 10_000

// dynamicDemandCap is the number of facts past which the whole evaluation of a recursive
// relation depending on the state that could be demanded is abandoned for demand-driven
// evaluation, in this state and the rest of the game. Most are small whole and then faster whole
// (othello's openpiecestring/6 has a few hundred facts per state, and per subgoal would be asked
// for every pair of an open cell and a piece); chess's clear_row_ig/6 has 44,000 and its callers
// need a handful.
const dynamicDemandCap = 10_000

// demandCap is the number of facts past which r, a relation that may be demanded, is.
func demandCap(r *relation) int {
	if r.layer == layerStatic {
		return staticDemandCap
	}
	return dynamicDemandCap
}

// errSwitchDemand stops the whole evaluation of a relation that proved too big (see
// staticDemandCap).
var errSwitchDemand = errors.New("relation switched to demand-driven evaluation")

// switchToDemand makes the relations of component c demanded after its whole evaluation was
// abandoned. Every plan is made again on its next use, reading them per subgoal. No plan that
// is running reads them: a plan runs once what it reads is computed, and they were not.
func (g *session) switchToDemand(c *component) {
	for _, r := range c.rels {
		g.resetRel(r)
		r.idxs, r.bySig = nil, map[string]*index{}
		r.mayDemand = false
		r.demand = newDemand()
		r.switched = true
	}
	c.demanded = true
	g.replanAll()
}

// replanAll drops every plan: each is made again on its next use.
func (g *session) replanAll() {
	for _, c := range g.comps {
		c.planned, c.full, c.delta, c.needs = false, nil, nil, nil
	}
	for _, r := range g.rels {
		if r.demand != nil {
			clear(r.demand.plans)
		}
	}
	g.planGen++
}

func foldName(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// boundSomewhere reports whether some argument of body literal i of ru is ground or has all its
// variables in other positive literals of the body (or in the head when headBound).
func boundSomewhere(ru *rule, i int, headBound bool) bool {
	l := &ru.body[i]
	if l.atom.kind != pFunc {
		return true
	}
	avail := make([]bool, ru.nvars)
	for j := range ru.body {
		if j != i && ru.body[j].kind == litPos {
			markVars(ru.body[j].atom, avail, true)
		}
	}
	if headBound && ru.head != nil {
		markVars(ru.head, avail, true)
	}
	for _, a := range l.atom.args {
		if allBound(a, avail) {
			return true
		}
	}
	return false
}

// demandEstimate is the size assumed for a call of demanded relation r binding the arguments
// of mask (nb of them): the answers such calls gave on average, plus one for the call, once
// there were a few; before, large when few are bound, so that the planner binds arguments first.
func demandEstimate(r *relation, mask uint64, nb int) float64 {
	if st := r.demand.stats[mask]; st != nil && st.calls >= 4 {
		return float64(st.answers)/float64(st.calls) + 1
	}
	n := 1e6
	for range nb {
		n /= 16
	}
	return n
}

// callStep makes the step that reads demanded relation l.rel: the caller's bound arguments form
// the subgoal, and the answers are matched against the literal's pattern.
func (g *session) callStep(op uint8, l *lit, bound []bool) step {
	sg := &subgoal{}
	s := step{op: op, rel: l.rel, call: sg}
	if l.atom.kind == pConst {
		for _, a := range g.st.argsOf(l.atom.t) {
			sg.bargs = append(sg.bargs, &pnode{kind: pConst, t: a})
		}
		sg.mask = full(len(sg.bargs))
	} else if l.atom.kind == pFunc {
		for j, a := range l.atom.args {
			if allBound(a, bound) {
				sg.mask |= 1 << uint(j)
				sg.bargs = append(sg.bargs, a)
			}
		}
	}
	if op == opCall {
		s.pat = matchPattern(l.atom, bound)
	} else {
		s.pat = l.atom
	}
	return s
}

// demandEpoch is the epoch in which r's answers stay valid.
func (g *session) demandEpoch(r *relation) uint64 {
	switch r.layer {
	case layerStatic:
		return 1
	case layerState:
		return g.stateEpoch
	}
	return g.moveEpoch
}

// solve returns the atoms of demanded relation r whose arguments at the positions of mask equal
// vals: all of them when the subgoal is complete, those found so far when it is in progress
// (the evaluation that decides it then evaluates the caller again). With every argument bound
// it stops at the first proof.
func (g *session) solve(r *relation, mask uint64, vals []Term) ([]Term, error) {
	d := r.demand
	if e := g.demandEpoch(r); d.epoch != e {
		d.reset()
		d.epoch = e
	}
	h := mask*0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019
	for _, v := range vals {
		h ^= uint64(v)
		h *= 0xBF58476D1CE4E5B9
		h ^= h >> 29
	}
	first := d.memo[h]
	for t := first; t != nil; t = t.next {
		if t.mask == mask && slices.Equal(t.vals, vals) {
			if !t.complete {
				g.consume(t)
			}
			return t.answers, nil
		}
	}
	t := d.newTable()
	t.rel, t.mask, t.hash, t.next, t.wholeCap = r, mask, h, first, g.wholeCap
	t.all = mask == full(r.arity)
	t.vals = append(t.vals, vals...)
	d.memo[h] = t
	c := g.comps[r.scc]
	if c.recursive && (mask == 0 || g.isDone(c) || len(g.stack) >= maxFrames) {
		if err := g.fromWhole(c, t); err != nil {
			g.forget(t)
			return nil, err
		}
		return t.answers, nil
	}
	if err := g.evaluate(t); err != nil {
		return nil, err
	}
	return t.answers, nil
}

// newTable returns an empty table of the memo.
func (d *demand) newTable() *table {
	var t *table
	if n := len(d.free); n > 0 {
		t = d.free[n-1]
		d.free = d.free[:n-1]
	} else {
		t = &table{}
	}
	d.live = append(d.live, t)
	return t
}

// reset empties the memo for a new epoch, keeping its tables for reuse. No table of the old
// epoch is referenced any more: epochs change between calls of the game API.
func (d *demand) reset() {
	clear(d.memo)
	for _, t := range d.live {
		if t.shared {
			t.answers = nil
		}
		*t = table{vals: t.vals[:0], answers: t.answers[:0]}
	}
	d.free = append(d.free, d.live...)
	clear(d.live)
	d.live = d.live[:0]
}

// maxFrames bounds the nesting of subgoals in progress (each costs Go stack): a recursive
// component asked deeper is evaluated whole for the epoch instead.
const maxFrames = 4096

// consume notes that the frame on top of the stack read incomplete table t.
func (g *session) consume(t *table) {
	if len(g.stack) == 0 {
		return // no table is incomplete when no frame is
	}
	top := &g.stack[len(g.stack)-1]
	top.low = min(top.low, t.depth)
	g.stack[t.depth].cyclic = true
}

// evaluate computes the answers of a new table: it completes it, with the tables it decides,
// or hands it to the caller's frame when it read a table an older frame decides.
func (g *session) evaluate(t *table) error {
	depth := len(g.stack)
	t.depth = depth
	g.stack = append(g.stack, frame{t: t, low: depth})
	var err error
	g.bud.facts++ // a table is held in memory like a fact
	if g.bud.facts > g.lim.MaxFacts {
		le := g.limitErr(LimitFacts, nil, nil)
		le.Relation = t.rel.label()
		err = le
	} else {
		err = g.runRules(t)
	}
	for err == nil && g.stack[depth].low == depth && g.stack[depth].cyclic {
		// The leader of a cycle: evaluate its tables again until no answer is added.
		g.stack[depth].cyclic = false
		members := append([]*table{t}, g.stack[depth].scope...)
		before := 0
		for _, m := range members {
			before += len(m.answers)
		}
		for _, m := range members {
			if m.all && len(m.answers) > 0 {
				continue // one answer is all there can be
			}
			if err = g.runRules(m); err != nil {
				break
			}
		}
		if f := &g.stack[depth]; err != nil || f.low < depth || !f.cyclic {
			break
		}
		after := 0
		for _, m := range members {
			after += len(m.answers)
		}
		if after == before {
			break
		}
	}
	f := g.stack[depth]
	g.stack[depth] = frame{}
	g.stack = g.stack[:depth]
	if err != nil {
		g.forget(t)
		for _, s := range f.scope {
			g.forget(s)
		}
		return err
	}
	if f.low < depth {
		// Decided by an older frame: hand the tables to the caller's frame.
		parent := &g.stack[depth-1]
		parent.low = min(parent.low, f.low)
		t.depth = depth - 1
		parent.scope = append(parent.scope, t)
		for _, s := range f.scope {
			s.depth = depth - 1
			parent.scope = append(parent.scope, s)
		}
		return nil
	}
	t.complete = true
	t.rel.demand.note(t)
	for _, s := range f.scope {
		s.complete = true
		s.rel.demand.note(s)
	}
	return nil
}

// forget drops an incomplete table after an error, so that no later call reads it.
func (g *session) forget(t *table) {
	d := t.rel.demand
	if d.memo[t.hash] == t {
		if t.next == nil {
			delete(d.memo, t.hash)
		} else {
			d.memo[t.hash] = t.next
		}
		return
	}
	for p := d.memo[t.hash]; p != nil; p = p.next {
		if p.next == t {
			p.next = t.next
			return
		}
	}
}

// runRules evaluates the rules of t's relation once for t's subgoal, adding the answers found.
func (g *session) runRules(t *table) error {
	r := t.rel
	plans, err := g.demandPlans(r, t.mask)
	if err != nil {
		return err
	}
	whole := g.wholeCap
	g.wholeCap = t.wholeCap
	defer func() { g.wholeCap = whole }()
	for _, proto := range plans {
		p := proto.acquire()
		env := p.env
		clear(env)
		ok := true
		k := 0
		for j := 0; j < r.arity; j++ {
			if t.mask&(1<<uint(j)) == 0 {
				continue
			}
			if !g.match(p.headArgs[j], t.vals[k], env) {
				ok = false
				break
			}
			k++
		}
		if ok {
			p.sink = t
			err = g.join(p, 0)
			p.sink = nil
			p.jump = -1
		}
		p.busy = false
		if err != nil {
			return err
		}
		if t.all && len(t.answers) > 0 {
			break
		}
	}
	return nil
}

// demandPlans returns the plans of r's rules for subgoals binding mask, computing first the
// relations they read bottom-up.
func (g *session) demandPlans(r *relation, mask uint64) ([]*plan, error) {
	c := g.comps[r.scc]
	if c.ready != g.demandEpoch(r) {
		for _, x := range c.rels {
			if err := g.ensureBody(x); err != nil {
				return nil, err
			}
		}
		c.ready = g.demandEpoch(r)
	}
	d := r.demand
	plans, ok := d.plans[mask]
	if !ok {
		for _, ru := range r.rules {
			plans = append(plans, g.planDemand(ru, mask))
		}
		d.plans[mask] = plans
	}
	return plans, nil
}

// answer adds the head of plan p, a demand plan, to its table.
func (g *session) answer(p *plan) error {
	t := p.sink
	if t.all {
		// The answer is the subgoal itself; its callers only ask whether there is one.
		if len(t.answers) > 0 {
			return nil
		}
		depth := 0
		for _, v := range t.vals {
			depth = max(depth, int(g.st.rec(v).depth))
		}
		if depth > g.lim.MaxDepth {
			return g.limitErr(LimitDepth, p, nil).withFact(g, g.atomOf(t.rel, p.head, p.env, true))
		}
		t.answers = append(t.answers, proved)
		g.bud.facts++
		if g.bud.facts > g.lim.MaxFacts {
			return g.limitErr(LimitFacts, p, nil)
		}
		return nil
	}
	a := g.atomOf(t.rel, p.head, p.env, true)
	if dd := int(g.st.rec(a).depth) - 1; dd > g.lim.MaxDepth {
		return g.limitErr(LimitDepth, p, nil).withFact(g, a)
	}
	if t.set != nil {
		if _, dup := t.set[a]; dup {
			return nil
		}
		t.set[a] = struct{}{}
	} else {
		for _, b := range t.answers {
			if b == a {
				return nil
			}
		}
		if len(t.answers) >= 8 {
			t.set = make(map[Term]struct{}, 32)
			for _, b := range t.answers {
				t.set[b] = struct{}{}
			}
			t.set[a] = struct{}{}
		}
	}
	t.answers = append(t.answers, a)
	if t.wholeCap > 0 && len(t.answers) > t.wholeCap {
		// The caller is a relation being computed whole that may be demanded, and asks a
		// subgoal that is too big: demand the caller too, so it binds this subgoal's arguments.
		return errSwitchDemand
	}
	g.bud.facts++
	if g.bud.facts > g.lim.MaxFacts {
		return g.limitErr(LimitFacts, p, nil)
	}
	return nil
}

// fromWhole answers a subgoal of a recursive component from its facts computed whole in this
// epoch (computing them first).
func (g *session) fromWhole(c *component, t *table) error {
	r := t.rel
	if !g.isDone(c) {
		for _, x := range c.rels {
			if err := g.ensureBody(x); err != nil {
				return err
			}
		}
		if err := g.evalComponent(r.scc); err != nil {
			return err
		}
		g.markDone(c)
	}
	t.complete = true
	defer r.demand.note(t)
	if t.mask == 0 {
		t.answers, t.shared = r.facts, true
		return nil
	}
	d := r.demand
	ix := d.whole[t.mask]
	if ix == nil {
		f := &fnode{kind: fFunc, fn: r.fn, args: make([]*fnode, r.arity)}
		n := 0
		for j := range f.args {
			f.args[j] = &fnode{kind: fAny}
			if t.mask&(1<<uint(j)) != 0 {
				f.args[j] = &fnode{kind: fKey, key: n}
				n++
			}
		}
		ix = g.indexFor(r, f, n)
		if d.whole == nil {
			d.whole = map[uint64]*index{}
		}
		d.whole[t.mask] = ix
	}
	h := hashKeys(t.vals)
	for e := ix.heads[h&uint32(len(ix.heads)-1)]; e != 0; e = ix.entries[e-1].next {
		x := &ix.entries[e-1]
		if x.hash != h {
			continue
		}
		args := g.st.argsOf(x.fact)
		same, k := true, 0
		for j := range args {
			if t.mask&(1<<uint(j)) != 0 {
				if args[j] != t.vals[k] {
					same = false
					break
				}
				k++
			}
		}
		if same {
			t.answers = append(t.answers, x.fact)
		}
	}
	// The index lists the newest facts first.
	slices.Reverse(t.answers)
	return nil
}

func full(arity int) uint64 {
	if arity >= 64 {
		return ^uint64(0)
	}
	return 1<<uint(arity) - 1
}

// ensureBody computes the relations r's rules read bottom-up.
func (g *session) ensureBody(r *relation) error {
	for _, ru := range r.rules {
		for _, l := range ru.body {
			if l.rel != nil && l.rel.demand == nil {
				if err := g.ensure(l.rel); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// planDemand plans rule ru of a demanded relation for subgoals binding the arguments in mask.
func (g *session) planDemand(ru *rule, mask uint64) *plan {
	bound := make([]bool, ru.nvars)
	args := ru.head.args
	if ru.head.kind == pConst {
		args = nil
		for _, a := range g.st.argsOf(ru.head.t) {
			args = append(args, &pnode{kind: pConst, t: a})
		}
	}
	headArgs := make([]*pnode, len(args))
	for j, a := range args {
		if mask&(1<<uint(j)) != 0 {
			headArgs[j] = matchPattern(a, bound)
		}
	}
	p := g.planRuleBound(ru, -1, -1, bound)
	p.headArgs = headArgs
	return p
}

// acquire returns the plan, or a copy of it when it is running already (a subgoal of a
// recursive relation calls its relation again): each run needs its own variables.
func (p *plan) acquire() *plan {
	if !p.busy {
		p.busy = true
		return p
	}
	for _, s := range p.spares {
		if !s.busy {
			s.busy = true
			return s
		}
	}
	s := *p
	s.env = make([]Term, len(p.env))
	s.spares, s.sink, s.stream, s.cont, s.answers, s.jump = nil, nil, false, nil, nil, -1
	s.busy = true
	p.spares = append(p.spares, &s)
	return &s
}

// errConservative stops an evaluation whose plans asked a relation that proved too big whole
// with nothing bound (see becomeConservative).
var errConservative = errors.New("a plan asks a relation that proved too big with nothing bound")

// becomeConservative makes every plan call demanded relations no less bound than in the order
// its rule is written (see callNeeds), after a plan placed a call earlier than written and so
// asked a relation that proved too big whole with nothing bound: laikLee_hex's connection/6 asks
// connection2/6 once it has bound four of its six arguments, before append_el/3 binds the list
// argument, and connection2 then asks isList/1, which holds for every list, with the list free.
// The evaluation stopped is then done again (ensureTop).
func (g *session) becomeConservative() {
	g.conservative = true
	g.replanAll()
}

// ensureTop is ensure for the game API: an evaluation stopped because its plans were not
// conservative is done again with conservative ones.
func (g *session) ensureTop(r *relation) error {
	err := g.ensure(r)
	if err == errConservative {
		g.becomeConservative()
		err = g.ensure(r)
	}
	return err
}

// runCall executes an opCall, opCallProbe or opCallNot step.
func (g *session) runCall(p *plan, i int, s *step) error {
	if s.call.mask == 0 && s.rel.switched && g.wholeCap > 0 && !p.stream {
		// A relation that may be demanded, being computed whole, asks all of a relation that
		// proved too big whole: it would be at least as big. Demand it too, so that its callers'
		// bound arguments reach this call (gt_two_thirds_6p's lt/2 reads lte/2, 180,000 facts),
		// and plan conservatively, as a plan asking a switched relation with nothing bound
		// makes the game do (see becomeConservative).
		g.conservative = true
		return errSwitchDemand
	}
	if s.call.mask == 0 && s.rel.switched && !g.conservative && !p.stream && p.rule != nil && p.rule.head != nil {
		return errConservative
	}
	if p.stream && s.op == opCall && s.call.mask == 0 && s.rel.inlined != g.askGen {
		s.rel.inlined = g.askGen
		if g.comps[s.rel.scc].recursive {
			return g.inlineWhole(p, i, s)
		}
		return g.inline(p, i, s)
	}
	env := p.env
	var buf [8]Term
	vals := buf[:0]
	for _, a := range s.call.bargs {
		vals = append(vals, g.build(a, env))
	}
	ans, err := g.solve(s.rel, s.call.mask, vals)
	if err != nil {
		return err
	}
	switch s.op {
	case opCallProbe:
		if len(ans) > 0 {
			return g.join(p, i+1)
		}
		return nil
	case opCallNot:
		if len(ans) == 0 {
			return g.join(p, i+1)
		}
		return nil
	}
	for _, t := range ans {
		if g.match(s.pat, t, env) {
			if err := g.join(p, i+1); err != nil || p.jump >= 0 {
				return err
			}
		}
	}
	return nil
}

// unwindError stops the rules of an inlined relation when the plan reading them has derived
// its head (its jump is set). Each inlining has its own.
type unwindError struct{}

func (*unwindError) Error() string { return "unwind" }

// inline runs step i of p, a call of demanded relation s.rel with nothing bound, by running the
// relation's rules with their heads passed on to the rest of p as they are derived, without
// tabling them first: a query asked for its first answers (AskFirst) gets them at once. It is
// done once per query and relation; a second call of the same subgoal reads its table.
func (g *session) inline(p *plan, i int, s *step) error {
	r := s.rel
	plans, err := g.demandPlans(r, 0)
	if err != nil {
		return err
	}
	unwind := &unwindError{}
	cont := func(a Term) error {
		if !g.match(s.pat, a, p.env) {
			return nil
		}
		if err := g.join(p, i+1); err != nil {
			return err
		}
		if p.jump >= 0 {
			return unwind
		}
		return nil
	}
	for _, proto := range plans {
		q := proto.acquire()
		clear(q.env)
		q.stream, q.cont = true, cont
		err = g.join(q, 0)
		q.stream, q.cont, q.jump, q.busy = false, nil, -1, false
		if err == unwind {
			return nil
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// errPartial stops the whole evaluation of a recursive relation that has as many facts as a
// query asked for its first answers needs (see inlineWhole).
var errPartial = errors.New("enough facts")

// inlineWhole runs step i of p, a call of recursive demanded relation s.rel with nothing bound,
// for a query asked for its first answers: the relation's component is evaluated bottom-up only
// until the relation has as many facts as the query wants answers, and they are passed on to
// the rest of p; only if that is not enough is it evaluated to the end.
func (g *session) inlineWhole(p *plan, i int, s *step) error {
	r := s.rel
	c := g.comps[r.scc]
	pass := func(facts []Term) error {
		for _, t := range facts {
			if g.match(s.pat, t, p.env) {
				if err := g.join(p, i+1); err != nil || p.jump >= 0 {
					return err
				}
			}
		}
		return nil
	}
	if !g.isDone(c) {
		for _, x := range c.rels {
			if err := g.ensureBody(x); err != nil {
				return err
			}
		}
		g.partial, g.partialAt = r, g.askMax+1
		err := g.evalComponent(r.scc)
		g.partial = nil
		if err != nil && err != errPartial {
			return err
		}
		if err == nil {
			g.markDone(c)
		} else if err := pass(r.facts); err != nil || p.jump >= 0 {
			return err
		}
	}
	if !g.isDone(c) {
		if err := g.evalComponent(r.scc); err != nil {
			return err
		}
		g.markDone(c)
	}
	return pass(r.facts)
}

// has reports whether atom a is an answer of t.
func (t *table) has(a Term) bool {
	if a == 0 {
		return false
	}
	if t.set != nil {
		_, ok := t.set[a]
		return ok
	}
	for _, b := range t.answers {
		if b == a {
			return true
		}
	}
	return false
}
