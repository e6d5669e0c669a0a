package analysis

import (
	"sync/atomic"

	"github.com/gdl-lsp/gdl/syntax"
)

// A place's set holds, among others, the ground terms that its clauses' heads write there (a
// head argument without a variable adds its term whatever the body gives). When an edit adds or
// removes such a term, the set may not change: legal's roles in a file of 16,000 roles are
// anything (more than maxSetConsts constants) with or without one legal rule, and its moves
// (move anything). A groundTree counts a place's ground terms, per constant and per function
// name, spelling and arity, at every position below the top, so that an edit tells in time
// proportional to the term it adds or removes whether the set can change, instead of computing
// the part the term lies in again from every clause of the relation.
//
// The counts are made for a place when an edit first adds or removes a ground term there and
// the previous version's set is anything near its top (anyNearTop: only then can a term be
// absorbed), from the new version's clauses of the relation, and then kept from version to
// version: each version's producers take over the previous version's trees and apply the
// edit's ground terms to them. A tree belongs to one version's producers (owner); a version
// that starts from a version whose trees were taken over (two edits analysed from one
// version) counts again.

// groundTree is the counts of the ground terms of one place; owner is the producers whose
// clauses they count. Only a holder of the owner's model's lock changes the owner or the counts;
// a version made from an earlier owner reads the owner, under another lock, to find that the
// counts are no longer its own.
type groundTree struct {
	owner atomic.Pointer[producers]
	root  groundNode
}

// groundNode counts the ground terms at one position: how many (n), and their constants and
// function terms.
type groundNode struct {
	n      int
	consts map[string]int // folded name -> terms
	funcs  map[funcKey]*groundFunc
}

// groundFunc counts the function terms of one name and arity: per spelling, and their
// arguments.
type groundFunc struct {
	names map[string]int // as written -> terms
	args  []*groundNode
}

// patGround reports whether head pattern h has no variable and no part compiled as anything.
// Its depth is bounded by compilePat, so the recursion is too.
func patGround(h *pat) bool {
	switch h.kind {
	case syntax.TermConstant:
		return true
	case syntax.TermFunction:
		for _, a := range h.args {
			if !patGround(a) {
				return false
			}
		}
		return true
	}
	return false
}

// add counts ground pattern h at pos delta times (a negative delta uncounts it). Positions that
// are far hold anything whatever stands there: only their count matters.
func (g *groundNode) add(h *pat, pos setPos, delta int) {
	g.n += delta
	if pos.far() {
		return
	}
	switch h.kind {
	case syntax.TermConstant:
		if g.consts == nil {
			g.consts = map[string]int{}
		}
		if g.consts[h.key] += delta; g.consts[h.key] == 0 {
			delete(g.consts, h.key)
		}
	case syntax.TermFunction:
		k := funcKey{h.key, len(h.args)}
		f := g.funcs[k]
		if f == nil {
			if g.funcs == nil {
				g.funcs = map[funcKey]*groundFunc{}
			}
			f = &groundFunc{names: map[string]int{}, args: make([]*groundNode, len(h.args))}
			for i := range f.args {
				f.args[i] = &groundNode{}
			}
			g.funcs[k] = f
		}
		if f.names[h.name] += delta; f.names[h.name] == 0 {
			delete(f.names, h.name)
		}
		if len(f.names) == 0 {
			delete(g.funcs, k) // no term left: its arguments' counts are all zero
			return
		}
		for i, a := range h.args {
			f.args[i].add(a, pos.down(len(h.args)), delta)
		}
	}
}

// anything reports whether the ground terms counted at pos alone make the set there anything.
func (g *groundNode) anything(pos setPos) bool {
	return g.n > 0 && pos.far() || len(g.consts) > maxSetConsts
}

// absorbs reports whether the set at pos of a new version, whose ground terms g counts, is the
// previous version's set s there, as far as ground term h (added or removed by an edit)
// contributes to it: where h's parts go, both sets are anything (the counts alone make the new
// one so, and a set holds at least its ground terms), or, for a function term, both hold the
// function of h's name and arity, written the same way, and every argument absorbs. The other
// terms of the place are the previous version's, or contribute dirty parts of their own. A
// constant not under anything is not absorbed (its spelling or its presence may change).
// The depth is bounded by compilePat's.
func (g *groundNode) absorbs(pos setPos, s *termSet, h *pat) bool {
	if s == nil {
		return false
	}
	if g.anything(pos) || s.any {
		return g.anything(pos) && s.any
	}
	if h.kind != syntax.TermFunction {
		return false
	}
	k := funcKey{h.key, len(h.args)}
	f, sf := g.funcs[k], s.funcs[k]
	if f == nil || sf == nil || f.least() != sf.name {
		return false
	}
	for i, a := range h.args {
		if !f.args[i].absorbs(pos.down(len(h.args)), sf.args[i], a) {
			return false
		}
	}
	return true
}

// least returns the least spelling of f's terms: the one a set writes (termSet.fn).
func (f *groundFunc) least() string {
	first, out := true, ""
	for n := range f.names {
		if first || n < out {
			first, out = false, n
		}
	}
	return out
}

// anyNearTop reports whether s is anything, or an argument of one of its function terms is:
// where a ground term may be absorbed by the counts (groundNode.absorbs needs an anything on its
// way). Deeper anythings are not looked for, so that the test costs the set's top, not the set.
func anyNearTop(s *termSet) bool {
	if s.any {
		return true
	}
	for _, f := range s.funcs {
		for _, a := range f.args {
			if a.any {
				return true
			}
		}
	}
	return false
}

// countGround takes over pp's counts of ground terms into p, makes the counts of the places
// where one of the clauses that an edit added or removed writes a ground term into a set that
// is anything near its top, and applies the edit's ground terms to the counts taken over. It
// returns p's counts.
func (p *producers) countGround(pp *producers, added, removed []*Clause) map[place]*groundTree {
	for pl, g := range pp.ground {
		if g.owner.Load() != pp {
			continue // taken over by another version made from pp
		}
		if p.ground == nil {
			p.ground = map[place]*groundTree{}
		}
		g.owner.Store(p)
		p.ground[pl] = g
	}
	built := map[place]bool{}
	for _, cs := range [2][]*Clause{added, removed} {
		for _, c := range cs {
			for i, h := range compiledOf(c).head {
				pl := place{c.Rel(), i}
				if p.ground[pl] != nil || !patGround(h) {
					continue
				}
				if s, ok := pp.sets[pl]; !ok || !anyNearTop(s) {
					continue
				}
				if p.ground == nil {
					p.ground = map[place]*groundTree{}
				}
				p.ground[pl] = p.countPlace(pl)
				built[pl] = true
			}
		}
	}
	for j, cs := range [2][]*Clause{added, removed} {
		delta := 1 - 2*j
		for _, c := range cs {
			for i, h := range compiledOf(c).head {
				pl := place{c.Rel(), i}
				if g := p.ground[pl]; g != nil && !built[pl] && patGround(h) {
					g.root.add(h, top, delta)
				}
			}
		}
	}
	return p.ground
}

// countPlace counts the ground terms that the clauses of p's model write at place pl.
func (p *producers) countPlace(pl place) *groundTree {
	g := &groundTree{}
	g.owner.Store(p)
	for _, c := range p.m.clausesOf(pl.rel) {
		if h := compiledOf(c).head; pl.arg < len(h) && patGround(h[pl.arg]) {
			g.root.add(h[pl.arg], top, 1)
		}
	}
	return g
}
