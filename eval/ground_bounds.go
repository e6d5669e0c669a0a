package eval

import (
	"context"
	"errors"
	"time"
)

// Bounds of the relations of a relaxed program whole, for magicSets: a magic set that asks more
// atoms than its relation can have whole costs more than the relation.
//
// In the relaxed program every relation that reads the state is in one recursive component with
// true, does, legal and next, so none is known whole before the fixpoint. But some read the
// state only to filter: chess's clear_diagonal_ne/4 reads (true (cell ?u2 ?v2 b)) for squares
// that next_file/2 and next_rank/2 give, and blocks_bishop_threat/6 is a join of it with itself.
// Without those literals such a relation reads no state; its facts, a superset of those it has
// in the relaxed program, are computed as a static relation's.

// wholeBounds returns per relation's functor an upper bound of its facts in the relaxed
// program, for each relation of want and those they read that reads true and does only through
// literals whose variables the rule's other positive literals bind (and reads no relation that
// does otherwise), computed under lim: a component that passes the limit of facts is dropped
// (its facts no longer count, and the relations that read it get no bound), and the time stops
// the computation.
func (g *session) wholeBounds(ctx context.Context, lim GroundLimits, want []uint32) map[uint32]int {
	rg := g.relaxedWith(nil, true)
	defer g.recycle(rg)
	rg.lim = Limits{Timeout: lim.Timeout, MaxFacts: lim.MaxFacts, MaxDepth: g.lim.MaxDepth}
	rg.begin(ctx)
	free := rg.stateFreeRelations()
	needed := rg.componentsOf(want)
	out := map[uint32]int{}
	failed := make([]bool, len(rg.comps))
	for ci, c := range rg.comps { // dependencies first
		for _, r := range c.rels {
			failed[ci] = failed[ci] || !free[r]
		}
		for _, d := range c.deps {
			failed[ci] = failed[ci] || failed[d]
		}
		if failed[ci] || !needed[ci] || len(c.rules) == 0 {
			continue
		}
		before := rg.bud.facts
		if err := rg.evalComponent(ci); err != nil {
			var le *LimitError
			if !errors.As(err, &le) || le.Limit != LimitFacts {
				return out
			}
			failed[ci] = true
			for _, r := range c.rels {
				rg.resetRel(r)
			}
			rg.bud.facts = before
			continue
		}
		rg.markDone(c)
		for _, r := range c.rels {
			out[r.fn] = len(r.facts)
		}
	}
	return out
}

// componentsOf returns which components the relations of functors want are in or read.
func (rg *session) componentsOf(want []uint32) []bool {
	needed := make([]bool, len(rg.comps))
	wanted := map[uint32]bool{}
	for _, fn := range want {
		wanted[fn] = true
	}
	for ci, c := range rg.comps {
		for _, r := range c.rels {
			needed[ci] = needed[ci] || wanted[r.fn]
		}
	}
	for ci := len(rg.comps) - 1; ci >= 0; ci-- { // dependents after their dependencies
		if needed[ci] {
			for _, d := range rg.comps[ci].deps {
				needed[d] = true
			}
		}
	}
	return needed
}

// boundable returns the functors of the relations wholeBounds can bound.
func (g *session) boundable() map[uint32]bool {
	rg := g.relaxedWith(nil, true)
	defer g.recycle(rg)
	out := map[uint32]bool{}
	for r := range rg.stateFreeRelations() {
		if len(r.rules) > 0 {
			out[r.fn] = true
		}
	}
	return out
}

// lazyBounds computes, after a restricted pass stopped by the magic sets of the relations of
// functors fns, the bounds of those whose magic sets were capped only tentatively (at minCap:
// plan.free), within a quarter of the limit of facts (a relation bigger than that whole would
// take much of the relaxed program's facts, and its bound costs as many) and the time left. It
// says whether the pass stopped as it would have with every bound known: a tentative cap is
// the least one, so the pass is the same up to the first magic set past it. chess computes 3
// of the 44 bounds it can: the others' magic sets stay far under the least cap.
func (g *session) lazyBounds(ctx context.Context, lim GroundLimits, start time.Time, plan *magicPlan, fns []uint32) bool {
	var untried []uint32
	for _, fn := range fns {
		if _, ok := plan.sizes[fn]; !ok && plan.free[fn] && !plan.tried[fn] {
			untried = append(untried, fn)
		}
	}
	if len(untried) == 0 {
		return true
	}
	if rest := lim.Timeout - time.Since(start); rest > 0 {
		bl := lim
		bl.Timeout, bl.MaxFacts = rest, lim.MaxFacts/4
		for fn, n := range g.wholeBounds(ctx, bl, untried) {
			plan.sizes[fn] = n
		}
	}
	stands := true
	for _, fn := range untried {
		plan.tried[fn] = true
		size, ok := plan.sizes[fn]
		stands = stands && ok && size <= max(plan.minCap, 1)
	}
	return stands
}

// dropState leaves out of every rule but those of true and does the positive literals on true
// and does whose variables the rule's other positive literals bind (see wholeBounds).
func (rg *session) dropState() {
	for _, r := range rg.rels {
		if r == rg.trueRel || r == rg.doesRel {
			continue
		}
		for _, ru := range r.rules {
			ru.body = rg.stateFreeBody(ru)
		}
	}
}

// stateFreeBody returns ru's body without the literals on true and does that only filter.
func (rg *session) stateFreeBody(ru *rule) []lit {
	state := func(l *lit) bool { return l.kind == litPos && (l.rel == rg.trueRel || l.rel == rg.doesRel) }
	bound := make([]bool, ru.nvars)
	for i := range ru.body {
		if l := &ru.body[i]; l.kind == litPos && !state(l) {
			markVars(l.atom, bound, true)
		}
	}
	kept := ru.body[:0:0]
	for i := range ru.body {
		l := &ru.body[i]
		if state(l) && allBound(l.atom, bound) {
			continue
		}
		kept = append(kept, *l)
	}
	return kept
}

// stateFreeRelations returns the relations of a program made by dropState that read neither
// true nor does, through their rules or the relations these read (the negative literals the
// relaxed program left out are not read).
func (rg *session) stateFreeRelations() map[*relation]bool {
	reads := map[*relation][]*relation{}
	for _, r := range rg.rels {
		for _, ru := range r.rules {
			for _, l := range ru.body {
				if l.rel != nil {
					reads[r] = append(reads[r], l.rel)
				}
			}
		}
	}
	// A relation is not free when it reads one that is not: the state's relations first.
	notFree := map[*relation]bool{rg.trueRel: true, rg.doesRel: true}
	for changed := true; changed; {
		changed = false
		for _, r := range rg.rels {
			if notFree[r] {
				continue
			}
			for _, d := range reads[r] {
				if notFree[d] {
					notFree[r] = true
					changed = true
					break
				}
			}
		}
	}
	free := map[*relation]bool{}
	for _, r := range rg.rels {
		if !notFree[r] {
			free[r] = true
		}
	}
	return free
}
