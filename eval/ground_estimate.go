package eval

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"
)

// Estimating a grounding before doing it. Grounding a game that does not ground (chess) costs
// its whole budget, seconds and hundreds of MB, before it fails. EstimateGround bounds the size
// of a grounding in a fraction of that, so that a caller can give up at once on a game far over
// the limits (GroundEstimate.FarOver) and keep the real attempt for the others.
//
// It bounds each of the two ways Ground tries, the relaxed program as written and restricted by
// magic sets, in two steps:
//
//   - a probe: the relaxed program is evaluated as grounding does, component by component
//     (dependencies first), up to estimateProbeFacts facts. The components it completes are
//     known exactly: a small game entirely;
//   - an abstract interpretation of the rest: each argument of each relation gets a set of the
//     terms it can hold (valueSet: the constants at a position, and per functor a set for each
//     of its arguments; nesting deeper than maxEstimateDepth is any term), the components known
//     exactly giving theirs. A rule's variable holds only what every positive literal of its
//     body has at its position; its head adds those values; run to the fixpoint. A relation then
//     has at most the product of its arguments' counts, and at most the solutions of its rules'
//     bodies, bounded literal by literal (estimator.instances). A rule marked for exclusion
//     counting makes more ground rules than its body has solutions: its bound is that of the
//     rules as written or of the counting, the larger (estimator.groundedBy).
//
// These are upper bounds: the correlations between arguments are dropped, so they exaggerate,
// by up to two orders of magnitude on games that ground (pancakes88: 17 times the atom limit,
// in both ways; merrills 305 times). FarOver therefore compares them with measured games
// (buildTime, ground_times.go) before giving up.

// estimateProbeFacts bounds the facts a probe computes: about 10 ms of CPU per 3,000, and
// enough to complete the components that do not depend on the state in chess-like games.
const estimateProbeFacts = 30_000

// estimateProbeTime bounds the wall time of a probe (chess's take about 0.1 s of CPU; 2 s of
// wall time at a load average of 25 on two cores). One stopped by it leaves its bounds looser
// than on an idle machine, and FarOver then says no: a load can make gdl try a grounding it
// would have given up, never give up one it would have tried.
const estimateProbeTime = 2 * time.Second

// estimateMaxClauses bounds the programs EstimateGround looks at: the estimate compiles the
// relaxed program twice, as the grounding itself does once, which on a program of megabytes costs
// seconds and gigabytes (a 15 MB generated game: 12 s and 1.2 GB). The games whose grounding
// explodes are small texts (chess: 1,500 clauses); a larger program goes to the grounding's own
// budget, as before the estimate existed.
const estimateMaxClauses = 20_000

// GroundEstimate is what EstimateGround found of a game's grounding.
type GroundEstimate struct {
	// Skipped says that the program has more than estimateMaxClauses clauses: nothing was
	// estimated, and FarOver says no.
	Skipped bool
	// Plain bounds the relaxed program as written, Restricted the one restricted by magic sets.
	Plain, Restricted PassEstimate
	// Timed says that a probe stopped on its time limit: the bounds are looser than on an idle
	// machine, and FarOver says no.
	Timed bool
}

// PassEstimate bounds one way of grounding.
type PassEstimate struct {
	// Facts bounds the atoms that can hold (GroundLimits.MaxFacts bounds their number), Rules
	// the ground rules (GroundLimits.MaxRules). +Inf: no bound (terms nested without bound).
	Facts, Rules float64
	// Largest is the relation with the most atoms.
	Largest string
}

// FarOver reports whether the game is so far over the limits that grounding it is not worth
// trying: its bound restricted by magic sets is over the limits (else the restricted pass
// fits them, if the bound bounds it), no probe stopped on time, and by the measured games
// (ExpectedTime) grounding it and building its network would take longer than lim's time. A
// caller that grants more time gets the attempt for more games. At the default 5 s, chess and
// its kin (87 times over; 6.8 to 10.8 s of CPU) are not tried, ITALY with them (2.2 s, but its
// bounds are those of GERMANY, 8.2 s), nor BenderNG's Chess, gt_two_thirds_6p and sudoku,
// which do not ground; merrills (305 times over, 2.4 s) is.
func (e *GroundEstimate) FarOver(lim GroundLimits) bool {
	lim = lim.withDefaults()
	return !e.Skipped && !e.Timed && e.Restricted.ratio(lim) > 1 && e.ExpectedTime(lim) > lim.Timeout
}

// ExpectedTime is the time grounding the game and building its network can be expected to
// take under lim, by FarOver's model (buildTime): that of the slowest measured game whose
// bound as written is alike, else the least time of those as far over the limits or more.
func (e *GroundEstimate) ExpectedTime(lim GroundLimits) time.Duration {
	return buildTime(e.Plain.ratio(lim.withDefaults()))
}

// ratio is how many times the limits the bounds are: the smaller of the ratios of atoms and
// ground rules; 0 for unbounded (terms nested without bound: nothing is known).
func (p PassEstimate) ratio(lim GroundLimits) float64 {
	if math.IsInf(p.Facts, 1) {
		return 0
	}
	return min(p.Facts/float64(lim.MaxFacts), p.Rules/float64(lim.MaxRules))
}

func (e *GroundEstimate) String() string {
	if e.Skipped {
		return fmt.Sprintf("not estimated: more than %d clauses", estimateMaxClauses)
	}
	return fmt.Sprintf("at most %s atoms as written (most in %s), %s restricted to what the rules ask; at most %s and %s ground rules",
		countText(e.Plain.Facts), e.Plain.Largest, countText(e.Restricted.Facts), countText(e.Plain.Rules), countText(e.Restricted.Rules))
}

// withDefaults fills in DefaultGroundLimits' value for each limit that is not set.
func (lim GroundLimits) withDefaults() GroundLimits {
	d := DefaultGroundLimits
	if lim.Timeout <= 0 {
		lim.Timeout = d.Timeout
	}
	if lim.MaxRules <= 0 {
		lim.MaxRules = d.MaxRules
	}
	if lim.MaxLits <= 0 {
		lim.MaxLits = d.MaxLits
	}
	if lim.MaxFacts <= 0 {
		lim.MaxFacts = d.MaxFacts
	}
	return lim
}

func countText(x float64) string {
	switch {
	case math.IsInf(x, 1):
		return "unboundedly many"
	case x >= 1e9:
		return fmt.Sprintf("%.1e", x)
	case x >= 1e6:
		return fmt.Sprintf("%.3g million", x/1e6)
	}
	return fmt.Sprintf("%.0f", x)
}

// estimator runs the abstract interpretation of a relaxed program.
type estimator struct {
	rg       *session
	sets     map[*relation][]*valueSet // per relation, the set of each argument
	exact    map[*relation][]Term      // the relations the probe computed: their facts
	size     map[*relation]float64     // bounds of the atoms of the relations estimated so far
	matched  map[*lit]*matches         // the matches of the literals of relations known exactly
	setsLeft int                       // the argument sets it may still make (maxEstimateSets)
	// termsLeft is how many more values the matches may hold (maxMatchedTerms); past it a
	// literal of a relation known exactly is bounded as the others are.
	termsLeft int
}

// maxMatchedTerms bounds the values the matches of all literals hold: a game of megabytes of
// facts read by many rules would otherwise copy its facts once per literal.
const maxMatchedTerms = 4_000_000

// eachPattern calls f on the head and every pattern of the body of ru.
func (ru *rule) eachPattern(f func(*pnode)) {
	f(ru.head)
	for _, ls := range [][]lit{ru.body, ru.dropped} {
		for i := range ls {
			for _, p := range []*pnode{ls[i].atom, ls[i].a, ls[i].b} {
				if p != nil {
					f(p)
				}
			}
		}
	}
}

// instances bounds the solutions of rule ru's body. The literals are taken greedily, the one
// that multiplies the solutions least first: a literal of a relation computed exactly (static,
// small) multiplies them by its largest number of facts that agree on the variables bound so
// far (1 for (succ ?x ?y) with ?x bound), another by the counts of the variables it binds, at
// most its relation's bound; a literal that binds nothing new multiplies them by 1 at most.
func (e *estimator) instances(ru *rule) float64 {
	vars, ok := e.bodyVars(ru)
	if !ok {
		return 0
	}
	used := make([]bool, ru.nvars) // a rule split in parts keeps the numbers of all its variables
	ru.eachPattern(func(p *pnode) { markVars(p, used, true) })
	bound := make([]bool, ru.nvars)
	var lits []*lit
	for i := range ru.body {
		if l := &ru.body[i]; l.kind == litPos && l.rel != nil && l.rel.arity > 0 {
			lits = append(lits, l)
		}
	}
	n := 1.0
	for len(lits) > 0 {
		best, factor := -1, math.Inf(1)
		for k, l := range lits {
			if f := e.factor(l, vars, bound); best < 0 || f < factor {
				best, factor = k, f
			}
		}
		n *= factor
		markVars(lits[best].atom, bound, true)
		lits = append(lits[:best], lits[best+1:]...)
	}
	for i, v := range vars {
		switch {
		case !used[i] || bound[i]:
		case v == nil:
			return math.Inf(1) // bound by no positive literal
		default:
			n *= v.count()
		}
	}
	return n
}

// factor bounds how many ways literal l extends a solution whose variables bound are bound.
func (e *estimator) factor(l *lit, vars []*valueSet, bound []bool) float64 {
	if _, ok := e.exact[l.rel]; ok {
		if m := e.matchesOf(l); m != nil {
			return float64(m.maxAgreeing(bound))
		}
	}
	isNew := make([]bool, len(bound))
	markVars(l.atom, isNew, true)
	f := 1.0
	for v, in := range isNew {
		if in && !bound[v] {
			f *= vars[v].count()
		}
	}
	if n, ok := e.size[l.rel]; ok && n < f {
		f = n
	}
	return f
}

// matches is what the facts of a relation computed exactly give a literal's variables: the
// variables (in the order of first occurrence) and, per matching fact, their values.
type matches struct {
	vars   []int
	tuples [][]Term
	most   map[uint64]int // bound variables (bit i: vars[i]) -> maxAgreeing
}

// matchesOf returns the matches of literal l, made on first use, or nil when they would pass
// maxMatchedTerms.
func (e *estimator) matchesOf(l *lit) *matches {
	if m, ok := e.matched[l]; ok {
		return m
	}
	m := &matches{most: map[uint64]int{}}
	seen := map[int]bool{}
	stack := []*pnode{l.atom}
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if (p.kind == pVar || p.kind == pBind || p.kind == pCheck) && !seen[p.v] {
			seen[p.v] = true
			m.vars = append(m.vars, p.v)
		}
		for k := len(p.args) - 1; k >= 0; k-- {
			stack = append(stack, p.args[k])
		}
	}
	need := len(e.exact[l.rel]) * max(len(m.vars), 1)
	if need > e.termsLeft {
		e.matched[l] = nil
		return nil
	}
	e.termsLeft -= need
	env := make([]Term, maxVar(l.atom)+1)
	for _, t := range e.exact[l.rel] {
		clear(env)
		if matchFact(e.rg.st, l.atom, t, env) {
			tuple := make([]Term, len(m.vars))
			for i, v := range m.vars {
				tuple[i] = env[v]
			}
			m.tuples = append(m.tuples, tuple)
		}
	}
	e.matched[l] = m
	return m
}

// maxAgreeing returns the largest number of the literal's matching facts that agree on the
// variables marked bound.
func (m *matches) maxAgreeing(bound []bool) int {
	var mask uint64
	for i, v := range m.vars {
		if bound[v] && i < 64 {
			mask |= 1 << i
		}
	}
	if n, ok := m.most[mask]; ok {
		return n
	}
	groups := map[uint64]int{}
	most := 0
	for _, tuple := range m.tuples {
		h := uint64(14695981039346656037)
		for i, x := range tuple {
			if mask&(1<<i) != 0 {
				h = (h ^ uint64(x)) * 1099511628211
			}
		}
		groups[h]++
		most = max(most, groups[h])
	}
	m.most[mask] = most
	return most
}

// matchFact matches a ground term against a pattern, binding its variables in env (0: not
// bound yet).
func matchFact(st *view, p *pnode, t Term, env []Term) bool {
	switch p.kind {
	case pVar, pBind, pCheck:
		if x := env[p.v]; x != 0 {
			return x == t
		}
		env[p.v] = t
		return true
	case pConst:
		return p.t == t
	}
	rec := st.rec(t)
	if rec.fn != p.fn || int(rec.arity) != len(p.args) {
		return false
	}
	for i, a := range st.argsOf(t) {
		if !matchFact(st, p.args[i], a, env) {
			return false
		}
	}
	return true
}

// maxVar returns the largest variable number in pattern p (-1 if none).
func maxVar(p *pnode) int {
	n := -1
	if p.kind == pVar || p.kind == pBind || p.kind == pCheck {
		n = p.v
	}
	for _, a := range p.args {
		n = max(n, maxVar(a))
	}
	return n
}

// EstimateGround bounds the size of the game's grounding under lim (see GroundEstimate) with a
// probe of at most estimateProbeFacts facts and estimateProbeTime per way of grounding, under
// ctx. A game whose outputs have no defined meaning gets Ground's error.
func (p *Program) EstimateGround(ctx context.Context, lim GroundLimits) (*GroundEstimate, error) {
	g := p.take()
	defer p.put(g)
	for _, r := range []*relation{g.roleRel, g.initRel, g.legalRel, g.nextRel, g.goalRel, g.terminalRel, g.seesRel} {
		if r.refused != nil {
			return nil, &GroundError{Reason: r.label() + " has no defined meaning", Err: &RefusedError{Relation: r.label(), Diagnostics: r.refused}}
		}
	}
	if g.res != nil && len(g.res.Model.Clauses) > estimateMaxClauses {
		return &GroundEstimate{Skipped: true}, nil
	}
	est := &GroundEstimate{}
	var err error
	if est.Plain, est.Timed, err = g.boundGround(ctx, false); err != nil {
		return nil, err
	}
	if !est.Timed {
		p.written.Store(&est.Plain)
	}
	if lim = lim.withDefaults(); buildTime(est.Plain.ratio(lim)) <= lim.Timeout {
		// Not far over as written: FarOver says no whatever the restricted bound, which is
		// left as the one as written (it bounds the restricted program too).
		est.Restricted = est.Plain
		return est, nil
	}
	timed := false
	if est.Restricted, timed, err = g.boundGround(ctx, true); err != nil {
		return nil, err
	}
	est.Timed = est.Timed || timed
	return est, nil
}

// writtenOverRatio is how many times the limit of atoms the bound of the relaxed program as
// written (PassEstimate.Facts) must be for Ground to skip that pass (writtenOver). The bound is
// no proof: it drops the correlations between arguments, and games ground as written with
// bounds far over the limit. On the corpus (2026-11-27, the default limits) the games whose
// pass as written grounds have bounds up to 68.3 times the limit (the checkers games; then
// ad_game_2x2 28.5, pancakes88 25.2, checkersSmall 21.8), and every game 80 times over or more
// stops at the limit of atoms or of time as written: chess and its kin (87.1 to 87.3), merrills
// (305), gt_two_thirds_6p (219, on time), sudoku (1,937). TestWrittenOver fails when a change of
// the estimate or of the grounder moves a game across.
const writtenOverRatio = 80

// writtenOver reports whether the relaxed program as written is predicted to stop at lim's
// limit of atoms (its bound is writtenOverRatio times the limit or more), with that bound. The
// bound is made once per Program (EstimateGround's, or g's probe here, about 0.1 s for chess);
// a probe stopped on its time (a heavy load) leaves the bound looser, and then the prediction
// is no, the pass tried as before.
func (p *Program) writtenOver(ctx context.Context, g *session, lim GroundLimits) (PassEstimate, bool) {
	if g.res != nil && len(g.res.Model.Clauses) > estimateMaxClauses {
		return PassEstimate{}, false
	}
	bound := p.written.Load()
	if bound == nil {
		pe, timed, err := g.boundGround(ctx, false)
		if err != nil || timed {
			return pe, false
		}
		p.written.Store(&pe)
		bound = &pe
	}
	over := !math.IsInf(bound.Facts, 1) && bound.Facts >= writtenOverRatio*float64(lim.withDefaults().MaxFacts)
	return *bound, over
}

// boundGround bounds one way of grounding: the relaxed program, with magicSets restricted by
// magic sets. timed says that its probe stopped on time.
func (g *session) boundGround(ctx context.Context, magicSets bool) (p PassEstimate, timed bool, err error) {
	var plan *magicPlan
	if magicSets {
		plan = &magicPlan{}
	}
	rg := g.relaxed(plan)
	e := &estimator{rg: rg, sets: map[*relation][]*valueSet{}, exact: map[*relation][]Term{}, size: map[*relation]float64{}, matched: map[*lit]*matches{}, setsLeft: maxEstimateSets, termsLeft: maxMatchedTerms}
	rg.lim = Limits{Timeout: estimateProbeTime, MaxFacts: estimateProbeFacts, MaxDepth: g.lim.MaxDepth}
	timed = e.probe(ctx)
	if err := ctx.Err(); err != nil {
		return p, false, err
	}
	e.propagate()
	return e.total(&grounder{g: g, rg: rg}), timed, nil
}

// probe evaluates the components grounding evaluates, in its order, while the facts last (the
// limits of rg.lim), and records their facts as exact; it reports whether it stopped on time.
func (e *estimator) probe(ctx context.Context) (timed bool) {
	rg := e.rg
	rg.begin(ctx)
	for _, c := range rg.comps {
		if err := rg.ensure(c.rels[0]); err != nil {
			var le *LimitError
			return errors.As(err, &le) && le.Limit == LimitTime
		}
		if !rg.isDone(c) || c.demanded {
			continue
		}
		for _, r := range c.rels {
			if r.demand != nil {
				continue
			}
			e.exact[r] = r.facts
			sets := e.args(r)
			for _, t := range r.facts {
				for j, a := range rg.st.argsOf(t) {
					sets[j].addTerm(rg.st, a, 1)
				}
			}
		}
	}
	return false
}

// propagate bounds the components the probe did not evaluate: one pass per component, to its
// fixpoint for the recursive ones (the depth bound ends the growth of nested terms).
func (e *estimator) propagate() {
	for _, c := range e.rg.comps {
		if _, ok := e.exact[c.rels[0]]; ok {
			continue
		}
		for grew := true; grew; {
			grew = false
			for _, ru := range c.rules {
				grew = e.apply(ru) || grew
			}
			if !c.recursive {
				break
			}
		}
	}
}

// total sums the bounds of the relations: their atoms, the largest, and the ground rules
// grounder b would make.
func (e *estimator) total(b *grounder) PassEstimate {
	var p PassEstimate
	rg := e.rg
	most := -1.0
	counted := map[*relation]bool{} // the relations E of exclusion counting: grounded with their rule
	for _, r := range rg.rels {
		for _, ru := range r.rules {
			if ru.excl != nil {
				counted[ru.excl.e] = true
			}
		}
	}
	allAtoms := map[*relation]float64{}
	for _, c := range rg.comps {
		for _, r := range c.rels {
			solutions, grounded := 0.0, 0.0 // of its rules' bodies; the ground rules they make
			for _, ru := range r.rules {
				n := e.instances(ru)
				solutions += n
				grounded += e.groundedBy(ru, n, allAtoms)
			}
			atoms := solutions
			if facts, ok := e.exact[r]; ok {
				atoms = float64(len(facts))
			} else {
				product := 1.0
				for _, s := range e.args(r) {
					product *= s.count()
				}
				atoms = min(product, solutions)
				if !c.recursive {
					e.size[r] = atoms
				}
			}
			allAtoms[r] = atoms
			p.Facts += atoms
			if atoms > most {
				most, p.Largest = atoms, r.label()
			}
			switch {
			case r == rg.trueRel || r == rg.doesRel || counted[r]:
			case b.dynamic(r):
				p.Rules += grounded
			case b.keywordOutput(r):
				p.Rules += atoms // each fact is a ground rule
			}
		}
	}
	return p
}

// groundedBy bounds the ground rules that rule ru, of n solutions, makes (excluder.rule). Each
// solution of a rule's body is one, except for a rule marked for exclusion counting, which
// makes those of its relation E too (not grounded on their own) and either the ground rules of
// the rules as written, when counting does not pay, or E's, at most one per solution of its
// body for the heads (a counted head has two rules and three solutions or more) and three per
// atom of E for the chains. atoms has the bounds of the atoms of the relations of the
// components before ru's.
func (e *estimator) groundedBy(ru *rule, n float64, atoms map[*relation]float64) float64 {
	ex := ru.excl
	if ex == nil {
		return n
	}
	written := 0.0
	for _, o := range ex.origs {
		written += e.instances(o)
	}
	if ex.e.scc == ru.rel.scc { // recursive: never counted
		return written
	}
	counting := n + 3*atoms[ex.e]
	for _, er := range ex.e.rules {
		counting += e.instances(er)
	}
	return max(written, counting)
}
