package eval

import (
	"context"
	"slices"
	"time"

	"github.com/gdl-lsp/gdl/internal/sched"
)

// newGen returns a fresh generation number: fact stamps and epochs are never reused.
func (g *session) newGen() uint64 {
	g.gen++
	return g.gen
}

// resetRel empties a relation in O(1) for its facts (their stamps go stale) and O(buckets) for
// its indexes.
func (g *session) resetRel(r *relation) {
	r.gen = g.newGen()
	r.facts = r.facts[:0]
	for _, ix := range r.idxs {
		ix.reset()
	}
}

// add inserts fact t into r; it reports whether t is new.
func (g *session) add(r *relation, t Term) bool {
	if int(t) >= len(g.stamp) {
		// A quarter more than t: the terms are numbered in order, and a stamp array twice the
		// store's was chess's largest array but for the store's (36 MB).
		n := max(1024, int(t)+int(t)/4)
		stamp := make([]uint64, n)
		adviseHuge(stamp)
		copy(stamp, g.stamp)
		g.stamp = stamp
	}
	if g.stamp[t] == r.gen {
		return false
	}
	g.stamp[t] = r.gen
	pos := len(r.facts)
	r.facts = append(r.facts, t)
	for _, ix := range r.idxs {
		ix.insert(g.st, t, pos)
	}
	return true
}

func (g *session) has(r *relation, t Term) bool {
	return t != 0 && int(t) < len(g.stamp) && g.stamp[t] == r.gen
}

// wrap returns the atom (r t) of a unary relation, interning it when create is set (else 0 when
// it was never made). A per-relation table saves the store's lookup for the most frequent
// atoms: those of true, next and init.
func (g *session) wrap(r *relation, t Term, create bool) Term {
	if t == 0 {
		return 0
	}
	if a := r.wraps.get(t); a != 0 {
		return a
	}
	var a Term
	args := [1]Term{t}
	if create {
		a = g.st.intern(r.fn, args[:])
	} else if a = g.st.find(r.fn, args[:]); a == 0 {
		return 0
	}
	r.wraps.put(t, a)
	return a
}

// atomOf instantiates the atom pattern p of relation r, without interning when create is unset.
func (g *session) atomOf(r *relation, p *pnode, env []Term, create bool) Term {
	if r.arity == 1 && p.kind == pFunc {
		var t Term
		if create {
			t = g.build(p.args[0], env)
		} else {
			t = g.lookup(p.args[0], env)
		}
		return g.wrap(r, t, create)
	}
	if create {
		return g.build(p, env)
	}
	return g.lookup(p, env)
}

// build instantiates p; it interns the terms it makes.
func (g *session) build(p *pnode, env []Term) Term {
	switch p.kind {
	case pConst:
		return p.t
	case pVar, pBind, pCheck:
		return env[p.v]
	}
	base := len(g.scratch)
	for _, a := range p.args {
		v := g.build(a, env)
		g.scratch = append(g.scratch, v)
	}
	t := g.st.intern(p.fn, g.scratch[base:])
	g.scratch = g.scratch[:base]
	return t
}

// lookup instantiates p without interning: 0 when the term was never made, so it is no fact.
func (g *session) lookup(p *pnode, env []Term) Term {
	switch p.kind {
	case pConst:
		return p.t
	case pVar, pBind, pCheck:
		return env[p.v]
	}
	if p.flat && len(p.args) <= 8 {
		// The common case, a function term of constants and variables, without recursion.
		var buf [8]Term
		for i, a := range p.args {
			if a.kind == pConst {
				buf[i] = a.t
			} else {
				buf[i] = env[a.v]
			}
		}
		return g.st.find(p.fn, buf[:len(p.args)])
	}
	base := len(g.scratch)
	for _, a := range p.args {
		v := g.lookup(a, env)
		if v == 0 {
			g.scratch = g.scratch[:base]
			return 0
		}
		g.scratch = append(g.scratch, v)
	}
	t := g.st.find(p.fn, g.scratch[base:])
	g.scratch = g.scratch[:base]
	return t
}

// match unifies the match pattern p with the ground term t, binding variables in env.
func (g *session) match(p *pnode, t Term, env []Term) bool {
	switch p.kind {
	case pConst:
		return p.t == t
	case pBind:
		env[p.v] = t
		return true
	case pCheck:
		return env[p.v] == t
	}
	r := g.st.rec(t)
	if r.fn != p.fn {
		return false
	}
	args := g.st.argsAt(r)
	for i, a := range p.args {
		if !g.match(a, args[i], env) {
			return false
		}
	}
	if p.cap > 0 {
		env[p.cap-1] = t
	}
	return true
}

// equal compares two instantiated patterns without building them.
func (g *session) equal(a, b *pnode, env []Term) bool {
	if a.kind == pFunc && b.kind == pFunc {
		if a.fn != b.fn {
			return false
		}
		for i := range a.args {
			if !g.equal(a.args[i], b.args[i], env) {
				return false
			}
		}
		return true
	}
	if a.kind == pFunc {
		a, b = b, a
	}
	var t Term
	if a.kind == pConst {
		t = a.t
	} else {
		t = env[a.v]
	}
	if b.kind != pFunc {
		if b.kind == pConst {
			return t == b.t
		}
		return t == env[b.v]
	}
	r := g.st.rec(t)
	if r.fn != b.fn {
		return false
	}
	args := g.st.argsAt(r)
	for i, x := range b.args {
		if !g.equal(&pnode{kind: pConst, t: args[i]}, x, env) {
			return false
		}
	}
	return true
}

// budget is the state of one evaluation call's limits.
type budget struct {
	ctx      context.Context
	deadline time.Time
	facts    int // derived facts so far
	work     uint32
}

func (g *session) begin(ctx context.Context) {
	g.bud = budget{ctx: ctx}
	if g.lim.Timeout > 0 {
		g.bud.deadline = time.Now().Add(g.lim.Timeout)
	}
}

// check stops the evaluation when the context is done or the time is up.
func (g *session) check(p *plan) error {
	sched.Yield() // on js/wasm, the context's timer fires only if the scheduler gets a turn
	if err := g.bud.ctx.Err(); err != nil {
		return g.limitErr(LimitCanceled, p, err)
	}
	if !g.bud.deadline.IsZero() && time.Now().After(g.bud.deadline) {
		return g.limitErr(LimitTime, p, nil)
	}
	return nil
}

// run evaluates one plan.
func (g *session) run(p *plan) error { return g.join(p, 0) }

// join runs the steps of p from step i on, for the bindings in p.env, each solution of the body
// deriving the head (emit). The recursion is as deep as the rule's body is long.
func (g *session) join(p *plan, i int) error {
	g.bud.work++
	if g.bud.work&0x3fff == 0 {
		if err := g.check(p); err != nil {
			return err
		}
	}
	if i == len(p.steps) {
		return g.emit(p)
	}
	s := &p.steps[i]
	env := p.env
	switch s.op {
	case opKnown:
		return g.joinKnown(p, i, s)
	case opScan:
		switch {
		case s.idx == nil:
			return g.scanFacts(p, i, s)
		case s.idx.nkeys == 0:
			return g.scanIndex(p, i, s)
		}
		return g.scanKeys(p, i, s)
	case opProbe:
		if g.has(s.rel, g.atomOf(s.rel, s.pat, env, false)) {
			return g.join(p, i+1)
		}
	case opNot:
		if !g.has(s.rel, g.atomOf(s.rel, s.pat, env, false)) {
			return g.join(p, i+1)
		}
	case opDistinct:
		if !g.equal(s.a, s.b, env) {
			return g.join(p, i+1)
		}
	case opEqual:
		if g.equal(s.a, s.b, env) {
			return g.join(p, i+1)
		}
	case opCall, opCallProbe, opCallNot:
		return g.runCall(p, i, s)
	}
	return nil
}

// joinKnown is step i of p, opKnown: it skips the rest of the body when the head is already
// known, and otherwise runs it, ending the jump (opKnown is where a derived head jumps to).
func (g *session) joinKnown(p *plan, i int, s *step) error {
	if t := p.sink; t != nil {
		if t.all && len(t.answers) > 0 || !t.all && t.has(g.atomOf(s.rel, s.pat, p.env, false)) {
			return nil
		}
	} else if p.cont == nil && g.has(s.rel, g.atomOf(s.rel, s.pat, p.env, false)) {
		return nil
	}
	err := g.join(p, i+1)
	p.jump = -1
	return err
}

// scanFacts is step i of p, an opScan with no index: it matches every fact of the relation (of
// the delta, [p.lo, p.hi), when s.delta).
func (g *session) scanFacts(p *plan, i int, s *step) error {
	facts := s.rel.facts
	lo, hi := 0, len(facts)
	if s.delta {
		lo, hi = p.lo, p.hi
	}
	for j := lo; j < hi; j++ {
		if g.match(s.pat, facts[j], p.env) {
			if err := g.join(p, i+1); err != nil || p.jump >= 0 {
				return err
			}
		}
	}
	return nil
}

// scanIndex is step i of p, an opScan on an index with no key: it matches every fact of the
// index (those at [p.lo, p.hi) of the relation when s.delta).
func (g *session) scanIndex(p *plan, i int, s *step) error {
	ix := s.idx
	n := len(ix.entries)
	for e := 0; e < n; e++ {
		x := &ix.entries[e]
		if s.delta {
			if pos := int(x.pos); pos < p.lo || pos >= p.hi {
				continue
			}
		}
		if g.match(s.pat, x.fact, p.env) {
			if err := g.join(p, i+1); err != nil || p.jump >= 0 {
				return err
			}
		}
	}
	return nil
}

// scanKeys is step i of p, an opScan on a hash index: it matches the facts in the chain of the
// hash of the bound key variables (newest first, so a delta scan stops below p.lo).
func (g *session) scanKeys(p *plan, i int, s *step) error {
	ix, env := s.idx, p.env
	h := uint64(0x2545F4914F6CDD1D)
	for _, v := range s.keys {
		h ^= uint64(env[v])
		h *= 0xBF58476D1CE4E5B9
		h ^= h >> 31
	}
	hh := uint32(h ^ h>>32)
	for e := ix.heads[hh&uint32(len(ix.heads)-1)]; e != 0; e = ix.entries[e-1].next {
		x := &ix.entries[e-1]
		if x.hash != hh {
			continue
		}
		if s.delta {
			pos := int(x.pos)
			if pos >= p.hi {
				continue
			}
			if pos < p.lo {
				break
			}
		}
		if g.match(s.pat, x.fact, env) {
			if err := g.join(p, i+1); err != nil || p.jump >= 0 {
				return err
			}
		}
	}
	return nil
}

// emit derives the head of p's rule for the current bindings.
func (g *session) emit(p *plan) error {
	if p.sink != nil {
		p.jump = p.known
		return g.answer(p)
	}
	if p.answers != nil {
		p.jump = p.known
		return p.answers(p.env)
	}
	if p.cont != nil {
		p.jump = p.known
		t := g.atomOf(p.rule.rel, p.head, p.env, true)
		if d := int(g.st.rec(t).depth) - 1; d > g.lim.MaxDepth {
			return g.limitErr(LimitDepth, p, nil).withFact(g, t)
		}
		return p.cont(t)
	}
	r := p.rule.rel
	t := g.atomOf(r, p.head, p.env, true)
	if d := int(g.st.rec(t).depth) - 1; d > g.lim.MaxDepth {
		return g.limitErr(LimitDepth, p, nil).withFact(g, t)
	}
	p.jump = p.known
	if g.add(r, t) {
		if r == g.partial && len(r.facts) >= g.partialAt {
			return errPartial
		}
		g.bud.facts++
		if r.mayDemand && len(r.facts) > demandCap(r) {
			return errSwitchDemand
		}
		if r.askCap > 0 && len(r.facts) > r.askCap {
			g.over = r.askFor
			return errMagicOver
		}
		if g.bud.facts > g.lim.MaxFacts {
			return g.limitErr(LimitFacts, p, nil)
		}
		if (r == g.nextRel || r == g.initRel) && g.lim.MaxState > 0 && len(r.facts) > g.lim.MaxState {
			return g.limitErr(LimitState, p, nil)
		}
	}
	return nil
}

// A dynamic component is planned on its first evaluation, with the facts of the initial state,
// and planned again on these evaluations, with the facts of states met later in the game.
const (
	replanAt1 = 16
	replanAt2 = 512
)

// evalComponent computes the facts of one component, its dependencies being computed.
func (g *session) evalComponent(ci int) error {
	c := g.comps[ci]
	if len(c.rules) == 0 {
		return nil
	}
	if err := g.check(nil); err != nil {
		return err
	}
	c.evals++
	if c.layer != layerStatic && (c.evals == replanAt1 || c.evals == replanAt2) {
		c.planned, c.full, c.delta = false, nil, nil
		g.learned = true
		g.planComponent(ci)
		g.dropUnusedIndexes()
		// The demanded relations' plans are made again too, with the answers their calls gave
		// so far (demandEstimate), once none is running: at the next call of the game API.
		g.replanDemand = true
	}
	if !c.planned {
		g.planComponent(ci)
	}
	for _, r := range c.rels {
		g.resetRel(r)
	}
	// The plans are held here: a relation switched to demand-driven evaluation while this runs
	// (see switchToDemand) drops every component's plans, but not for this evaluation.
	full, delta := c.full, c.delta
	for _, p := range full {
		if err := g.run(p); err != nil {
			return err
		}
	}
	if !c.recursive {
		return nil
	}
	lo := make([]int, len(c.rels))
	hi := make([]int, len(c.rels))
	slot := func(r *relation) int {
		for i, x := range c.rels {
			if x == r {
				return i
			}
		}
		return -1
	}
	for i, r := range c.rels {
		hi[i] = len(r.facts)
	}
	for {
		changed := false
		for i := range c.rels {
			if hi[i] > lo[i] {
				changed = true
			}
		}
		if !changed {
			return nil
		}
		for _, p := range delta {
			k := slot(p.steps[0].rel)
			if hi[k] == lo[k] {
				continue
			}
			p.lo, p.hi = lo[k], hi[k]
			if err := g.run(p); err != nil {
				return err
			}
		}
		for i, r := range c.rels {
			lo[i], hi[i] = hi[i], len(r.facts)
		}
	}
}

// dropUnusedIndexes stops maintaining the indexes that no plan reads any more (after a
// replanning). Query plans made before are planned again on their next use.
func (g *session) dropUnusedIndexes() {
	used := map[*index]bool{}
	for _, r := range g.rels {
		if r.demand == nil {
			continue
		}
		for _, ix := range r.demand.whole {
			used[ix] = true
		}
		for _, ps := range r.demand.plans {
			for _, p := range ps {
				for _, s := range p.steps {
					if s.idx != nil {
						used[s.idx] = true
					}
				}
			}
		}
	}
	for _, c := range g.comps {
		for _, set := range [][]*plan{c.full, c.delta} {
			for _, p := range set {
				for _, s := range p.steps {
					if s.idx != nil {
						used[s.idx] = true
					}
				}
			}
		}
	}
	for _, r := range g.rels {
		kept := r.idxs[:0]
		for _, ix := range r.idxs {
			if used[ix] {
				kept = append(kept, ix)
			}
		}
		clear(r.idxs[len(kept):])
		r.idxs = kept
		for sig, ix := range r.bySig {
			if !used[ix] {
				delete(r.bySig, sig)
			}
		}
	}
	g.planGen++
}

func (g *session) isDone(c *component) bool {
	switch c.layer {
	case layerStatic:
		return c.done != 0
	case layerState:
		return c.done == g.stateEpoch
	}
	return c.done == g.moveEpoch
}

// ensure computes relation r (and what it uses) in the current state and joint move.
func (g *session) ensure(r *relation) error {
	if r.refused != nil {
		return &RefusedError{Relation: r.label(), Diagnostics: r.refused}
	}
	if r.scc < 0 || r.demand != nil {
		return nil
	}
	for _, ci := range g.needs(r.scc) {
		c := g.comps[ci]
		if c.demanded || g.isDone(c) {
			continue
		}
		if g.adopt(c) {
			g.markDone(c)
			continue
		}
		before := g.bud.facts
		outer := g.wholeCap
		g.wholeCap = 0
		if c.rels[0].mayDemand {
			g.wholeCap = demandCap(c.rels[0])
			if g.tooBig(ci) {
				g.wholeCap = outer
				g.switchToDemand(c)
				continue
			}
		}
		err := g.evalComponent(ci)
		g.wholeCap = outer
		if err != nil {
			if err == errSwitchDemand {
				g.switchToDemand(c)
				g.bud.facts = before
				continue
			}
			return err
		}
		g.markDone(c)
		g.publish(c)
	}
	return nil
}

// staticFacts are the facts of a static component's relations, computed whole by a session and
// published to its Program for the others (Program.static).
type staticFacts [][]Term

// publish gives the facts of a static component just computed whole to the Program, unless
// another session did first: the sessions compute a game's static facts once between them
// (chess: 150,000 facts, 150 to 300 ms).
func (g *session) publish(c *component) {
	if g.prog == nil || c.layer != layerStatic || len(c.rules) == 0 {
		return
	}
	facts := make(staticFacts, len(c.rels))
	for i, r := range c.rels {
		if r.demand != nil || r.switched {
			return
		}
		facts[i] = slices.Clone(r.facts)
	}
	g.prog.static.LoadOrStore(c.rels[0].fn, facts)
}

// adopt takes the facts of static component c from the Program when a session published them
// and they fit in the budget; it reports whether it did.
func (g *session) adopt(c *component) bool {
	if g.prog == nil || c.layer != layerStatic || len(c.rules) == 0 {
		return false
	}
	v, ok := g.prog.static.Load(c.rels[0].fn)
	if !ok {
		return false
	}
	facts := v.(staticFacts)
	n := 0
	for _, fs := range facts {
		n += len(fs)
	}
	if len(facts) != len(c.rels) || g.bud.facts+n > g.lim.MaxFacts {
		return false
	}
	for i, r := range c.rels {
		g.resetRel(r)
		for _, t := range facts[i] {
			g.add(r, t)
		}
	}
	g.bud.facts += n
	return true
}

// markDone notes that component c's facts are computed for the current epoch of its layer.
func (g *session) markDone(c *component) {
	switch c.layer {
	case layerStatic:
		c.done = 1
	case layerState:
		c.done = g.stateEpoch
	default:
		c.done = g.moveEpoch
	}
}

// tooBig reports whether the planner estimates that component ci, whose relations may be
// demanded, has more facts than its demandCap: it is then demanded without being computed whole
// first (laikLee_hex's isList/1 holds for every list of up to 25 of 25 cells; sudoku's
// exactlyFirst/10 has 9^9 facts; chess's clear_row_ig/6 was computed whole in the first state,
// 44,000 facts, before being switched). The estimate is the sum over the component's rules of
// the product of their scans' estimates, a relation of the component counting as unknownSize
// facts.
func (g *session) tooBig(ci int) bool {
	c := g.comps[ci]
	if c.layer == layerStatic && c.recursive {
		// The estimates of static recursive relations are no guide: gt_attrition's sum/3 is
		// estimated at 625,000 facts and has 5,151, gt_two_thirds_6p's at 150,000 and has
		// 180,000. Computed once per game, they are computed whole up to staticDemandCap.
		return false
	}
	if !c.planned {
		g.planComponent(ci)
	}
	n := 0.0
	asksAll := false
	for _, p := range c.full {
		n += p.size
		for _, s := range p.steps {
			if s.op == opCall && s.call.mask == 0 && s.rel.switched {
				asksAll = true
			}
		}
	}
	if n <= float64(demandCap(c.rels[0])) {
		return false
	}
	if asksAll {
		// Computed whole, it would ask all of a relation that proved too big whole, which
		// makes the game plan conservatively (see runCall): so does demanding it instead.
		// sudoku's exactlyOne/10 reads exactlyFirst/10 so; planned by the answers of the calls
		// made, goodRow/1 then asked exactlyOne/10 with 7 of 10 arguments bound, 100 times
		// slower than in the written order.
		g.conservative = true
	}
	return true
}
