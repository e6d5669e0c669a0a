package eval

import "errors"

// Demand-driven evaluation. Bottom-up evaluation computes whole relations; a relation that its
// callers always ask with some arguments bound (chess's threatened_with_capture/7 is only ever
// tested under `not` with all seven bound, and has 2.9 million facts per state) is better asked
// per call: such a relation is marked demanded, and a step that reads it solves the subgoal (the
// relation with the caller's bound arguments) by running the relation's rules with those
// arguments bound, memoising the answers for as long as the relation's layer stays valid (per
// game, state or joint move). Only relations of non-recursive components are demanded, so
// subgoals never wait on themselves; their callers and what they use are evaluated as before.

// minDemandArity is the fewest arguments of a demanded relation. Relations of few arguments
// are small bottom-up, and computing them whole with indexes is faster than per subgoal (for
// ticTacToe's line/1 and connectFour's cellOpen/2 by about 2x); the relations that make whole
// evaluation explode are products of several coordinates.
const minDemandArity = 4

// demand is the state of a demanded relation.
type demand struct {
	plans map[uint64][]*plan // per mask of bound argument positions: one plan per rule
	memo  map[string][]Term  // subgoal (mask and bound values) -> answers (atoms of the relation)
	epoch uint64             // the layer's epoch the memo belongs to
}

// keywordRel reports the relations the game API reads whole, which are never demanded.
func keywordRel(name string) bool {
	switch name {
	case "role", "init", "true", "does", "next", "legal", "goal", "terminal", "sees", "base", "input":
		return true
	}
	return false
}

// chooseDemanded marks the relations to evaluate on demand: relations of a non-recursive
// component with at most 64 arguments, every use of which is negated, or has an argument that is
// ground or bound by the rest of the body (or by the head, when the using rule's relation is
// itself a candidate). Those depending on the state need at least minDemandArity arguments and
// are demanded at once; static ones are demanded only if they prove big (staticDemandCap). The
// choice affects speed only, never the answers.
func (g *Game) chooseDemanded() {
	cand := map[*relation]bool{}
	for _, c := range g.comps {
		if c.recursive || len(c.rels) != 1 {
			continue
		}
		r := c.rels[0]
		if len(r.rules) == 0 || r.arity == 0 || (c.layer != layerStatic && r.arity < minDemandArity) || r.arity > 64 || r.refused != nil || keywordRel(foldName(r.name)) {
			continue
		}
		cand[r] = true
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
						delete(cand, l.rel)
						changed = true
					}
				}
			}
		}
	}
	for r := range cand {
		if r.layer == layerStatic {
			r.mayDemand = true // demanded only if it proves big (switchToDemand)
			continue
		}
		r.demand = newDemand()
		g.comps[r.scc].demanded = true
	}
}

func newDemand() *demand {
	return &demand{plans: map[uint64][]*plan{}, memo: map[string][]Term{}}
}

// staticDemandCap is the number of facts past which the whole evaluation of a static relation
// that could be demanded is abandoned for demand-driven evaluation. Static relations are
// computed once per game, so most are best computed whole (breakthrough's distinctCell/4 has
// 4,096 facts and is read by index faster than per subgoal); some are huge or infinite
// bottom-up (laikLee_hex's isList/1, mummymaze1p's direction-from/5) but small per subgoal.
const staticDemandCap = 100_000

// errSwitchDemand stops the whole evaluation of a relation that proved too big (see
// staticDemandCap).
var errSwitchDemand = errors.New("relation switched to demand-driven evaluation")

// switchToDemand makes the relation of component c demanded after its whole evaluation was
// abandoned. No plan reads it yet: its callers are planned after it is evaluated.
func (g *Game) switchToDemand(c *component) {
	r := c.rels[0]
	g.resetRel(r)
	r.idxs, r.bySig = nil, map[string]*index{}
	r.mayDemand = false
	r.demand = newDemand()
	c.demanded = true
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

// demandEstimate is the size assumed for a scan of a demanded relation with nb of its
// arguments bound: large when nothing is bound, so that the planner binds arguments first.
func demandEstimate(nb int) float64 {
	n := 1e6
	for range nb {
		n /= 16
	}
	return n
}

// callStep makes the step that reads demanded relation l.rel: the caller's bound arguments form
// the subgoal, and the answers are matched against the literal's pattern.
func (g *Game) callStep(op uint8, l *lit, bound []bool) step {
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
func (g *Game) demandEpoch(r *relation) uint64 {
	switch r.layer {
	case layerStatic:
		return 1
	case layerState:
		return g.stateEpoch
	}
	return g.moveEpoch
}

// solve returns the atoms of demanded relation r whose arguments at the positions of mask equal
// vals. With every argument bound it stops at the first proof.
func (g *Game) solve(r *relation, mask uint64, vals []Term) ([]Term, error) {
	d := r.demand
	if e := g.demandEpoch(r); d.epoch != e {
		clear(d.memo)
		d.epoch = e
	}
	key := make([]byte, 0, 8+4*len(vals))
	for k := 0; k < 8; k++ {
		key = append(key, byte(mask>>(8*k)))
	}
	for _, v := range vals {
		key = append(key, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
	}
	if ans, ok := d.memo[string(key)]; ok {
		return ans, nil
	}
	plans, ok := d.plans[mask]
	if !ok {
		if err := g.ensureBody(r); err != nil {
			return nil, err
		}
		for _, ru := range r.rules {
			plans = append(plans, g.planDemand(ru, mask))
		}
		d.plans[mask] = plans
	} else if err := g.ensureBody(r); err != nil {
		return nil, err
	}
	gen := g.newGen()
	var ans []Term
	whole := g.wholeCandidate
	for _, p := range plans {
		env := p.env
		clear(env)
		ok := true
		k := 0
		for j := 0; j < r.arity; j++ {
			if mask&(1<<uint(j)) == 0 {
				continue
			}
			if !g.match(p.headArgs[j], vals[k], env) {
				ok = false
				break
			}
			k++
		}
		if !ok {
			continue
		}
		p.answers = func(env []Term) error {
			t := g.atomOf(r, p.head, env, true)
			if dd := int(g.st.terms[t].depth) - 1; dd > g.lim.MaxDepth {
				return g.limitErr(LimitDepth, p, nil).withFact(g, t)
			}
			g.growStamp(t)
			if g.stamp[t] == gen {
				return nil
			}
			g.stamp[t] = gen
			ans = append(ans, t)
			if whole && len(ans) > staticDemandCap {
				// The caller is a static relation being computed whole, and asks a subgoal
				// that is too big: demand the caller too, so it binds this subgoal's arguments.
				return errSwitchDemand
			}
			g.bud.facts++
			if g.bud.facts > g.lim.MaxFacts {
				return g.limitErr(LimitFacts, p, nil)
			}
			return nil
		}
		err := g.join(p, 0)
		p.answers = nil
		p.jump = -1
		if err != nil {
			return nil, err
		}
		if mask == full(r.arity) && len(ans) > 0 {
			break
		}
	}
	d.memo[string(key)] = ans
	return ans, nil
}

func full(arity int) uint64 {
	if arity >= 64 {
		return ^uint64(0)
	}
	return 1<<uint(arity) - 1
}

// ensureBody computes the relations r's rules read bottom-up.
func (g *Game) ensureBody(r *relation) error {
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
func (g *Game) planDemand(ru *rule, mask uint64) *plan {
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

// growStamp makes room for term t in the stamp array.
func (g *Game) growStamp(t Term) {
	if int(t) >= len(g.stamp) {
		n := max(1024, len(g.st.terms)*2)
		stamp := make([]uint64, n)
		copy(stamp, g.stamp)
		g.stamp = stamp
	}
}

// runCall executes an opCall, opCallProbe or opCallNot step.
func (g *Game) runCall(p *plan, i int, s *step) error {
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
