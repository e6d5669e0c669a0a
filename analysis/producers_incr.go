package analysis

import "github.com/gdl-lsp/gdl/syntax"

// The producers of a new version of a file start from the previous version's sets. An edit
// changes some clauses (and which relations forms being typed seem to define); what they
// contribute to a place's set is one part of it (its constants, or its function terms of one name
// and arity), unless the head's argument is a variable, which may contribute to every part. A
// part is dirty when a changed clause contributes to it, or a unit contributes to it from a dirty
// part it reads (the copies of true and does carry a part to the same part); the closure is
// found on the new version's dependency edges. Places with no dirty part keep the previous
// version's set itself (sets are never changed once at their fixpoint); a place with dirty parts
// gets a copy without them, and only its units that contribute to a dirty part are evaluated,
// only into the dirty parts. Since the fixpoint does not depend on the order of evaluation (see
// varValues), this gives the sets a computation from scratch gives; a place that becomes
// anything while some of its parts are kept would break that, and then the sets are computed
// from scratch.

// dirtyPlace is what of a place's set is dirty: all of it, or the parts in keys.
type dirtyPlace struct {
	all  bool
	keys map[funcKey]bool
	// pending is what is dirty but not yet carried to the place's readers.
	pendingAll  bool
	pendingKeys []funcKey
	queued      bool
}

type dirt struct {
	prev   *producers
	ground map[place]*groundTree // the new version's counts, where kept (see groundTree)
	places map[place]*dirtyPlace
	work   []place
}

// forgetPrev drops the model's reference to the previous version's model, so that models do not
// keep each other alive.
func (m *Model) forgetPrev() {
	m.mu.Lock()
	m.prevModel, m.prevUsed, m.prevRelCands = nil, nil, nil
	m.mu.Unlock()
}

// inherit starts p from the sets of prev's producers where no changed clause reaches; used
// tells which of prev's clauses the new model reused. p.m.mu is held.
func (p *producers) inherit(prev *Model, used []bool) {
	prev.mu.Lock()
	defer prev.mu.Unlock()
	pp := prev.prodMemo
	if pp == nil || len(pp.fresh) > 0 || len(pp.queue) > 0 || pp.invalid {
		return
	}
	d := &dirt{prev: pp, places: map[place]*dirtyPlace{}}
	// A clause walked anew whose text is that of a clause of prev the model did not reuse (the
	// incremental parser parses a form beside the edited one again) contributes what that clause
	// did: the sets depend on the clauses' texts, not on where they stand, so the two cancel out
	// and neither makes a part dirty. Without this, a form parsed again beside the edit made
	// every set it reaches be computed again, and then every clause's failingUses memo (keyed by
	// the sets) be found again: work in proportion to the file on every edit.
	gone := map[string]int{}
	for i, c := range prev.Clauses {
		if !used[i] {
			gone[c.Form.Text()]++
		}
	}
	var added, removed []*Clause
	for _, i := range p.m.walked {
		c := p.m.Clauses[i]
		if t := c.Form.Text(); gone[t] > 0 {
			gone[t]--
			continue
		}
		added = append(added, c)
	}
	for i, c := range prev.Clauses {
		if t := c.Form.Text(); !used[i] && gone[t] > 0 {
			gone[t]--
			removed = append(removed, c)
		}
	}
	d.ground = p.countGround(pp, added, removed)
	for _, c := range added {
		d.seedClause(c, true)
	}
	for _, c := range removed {
		d.seedClause(c, false)
	}
	for k := range p.m.Broken {
		if !prev.Broken[k] {
			d.seedKey(k)
		}
	}
	for k := range prev.Broken {
		if !p.m.Broken[k] {
			d.seedKey(k)
		}
	}
	for len(d.work) > 0 {
		q := d.work[len(d.work)-1]
		d.work = d.work[:len(d.work)-1]
		d.carry(p.m, q)
	}
	for pl, s := range pp.sets {
		dp := d.places[pl]
		switch {
		case dp == nil:
			p.sets[pl] = s
		case dp.all:
			p.sets[pl] = &termSet{}
			p.fresh = append(p.fresh, pl)
		default:
			p.sets[pl] = s.without(dp.keys)
			p.partial[pl] = dp.keys
			p.fresh = append(p.fresh, pl)
		}
	}
}

// seedClause marks what clause c (of either version) contributes to as dirty; added says that c
// is a clause of the new version. A clause added to a place whose set was anything leaves it
// so (the sets only grow with the clauses: no negation takes part), and marks nothing there:
// an edit that puts back one of 16,000 legal rules does not make legal's roles be computed again.
// A ground head argument whose term the counts of the place's ground terms absorb (see
// groundTree.absorbs) marks nothing either, added or removed: an edit that removes one of
// 16,000 legal rules leaves legal's roles anything, and its moves (move anything).
func (d *dirt) seedClause(c *Clause, added bool) {
	cc := compiledOf(c)
	for i, h := range cc.head {
		pl := place{c.Rel(), i}
		s, ok := d.prev.sets[pl]
		if added && ok && s.any {
			continue
		}
		if g := d.ground[pl]; ok && g != nil && patGround(h) && g.root.absorbs(top, s, h) {
			continue
		}
		k, all := partOf(h)
		d.mark(pl, k, all)
	}
}

// seedKey marks every place of the relations named key as dirty.
func (d *dirt) seedKey(key string) {
	for pl := range d.prev.sets {
		if pl.rel.Key == key {
			d.mark(pl, funcKey{}, true)
		}
	}
}

// partOf returns the part of a set that head argument h contributes to: one part, or all of
// them (a variable).
func partOf(h *pat) (funcKey, bool) {
	switch h.kind {
	case syntax.TermConstant:
		return constKey, false
	case syntax.TermFunction:
		return funcKey{h.key, len(h.args)}, false
	}
	return funcKey{}, true
}

// mark records that part k (all of them with all) of place pl is dirty, if pl had a set in the
// previous version.
func (d *dirt) mark(pl place, k funcKey, all bool) {
	s, ok := d.prev.sets[pl]
	if !ok {
		return
	}
	all = all || s.any // every reader of anything may read the part
	dp := d.places[pl]
	if dp == nil {
		dp = &dirtyPlace{}
		d.places[pl] = dp
	}
	switch {
	case dp.all:
		return
	case all:
		dp.all, dp.pendingAll, dp.keys, dp.pendingKeys = true, true, nil, nil
	case dp.keys[k]:
		return
	default:
		if dp.keys == nil {
			dp.keys = map[funcKey]bool{}
		}
		dp.keys[k] = true
		dp.pendingKeys = append(dp.pendingKeys, k)
	}
	if !dp.queued {
		dp.queued = true
		d.work = append(d.work, pl)
	}
}

// carry marks what the readers of place q contribute to from q's pending dirty parts. The
// readers are found on m's dependency edges into q's relation.
func (d *dirt) carry(m *Model, q place) {
	dp := d.places[q]
	all, keys := dp.pendingAll, dp.pendingKeys
	dp.pendingAll, dp.pendingKeys, dp.queued = false, nil, false
	reads := func(b binder) (read, whole bool) {
		if b.at != q {
			return false, false
		}
		if all || len(b.path) == 0 {
			return true, len(b.path) == 0
		}
		k := funcKey{b.arg.key, len(b.arg.args)}
		for _, x := range keys {
			if x == k {
				return true, false
			}
		}
		return false, false
	}
	switch {
	case q.rel == KeywordRel("init") || q.rel == KeywordRel("next"):
		d.markParts(place{KeywordRel("true"), 0}, all, keys)
	case q.rel == KeywordRel("legal"):
		d.markParts(place{KeywordRel("does"), q.arg}, all, keys)
	}
	last := -1
	for _, ei := range m.edgesInto(q.rel) {
		e := &m.Edges[ei]
		if e.Negative || e.Clause == last {
			continue
		}
		last = e.Clause
		c := m.Clauses[e.Clause]
		cc := compiledOf(c)
		for i, h := range cc.head {
			to := place{c.Rel(), i}
			if _, ok := d.prev.sets[to]; !ok {
				continue
			}
			forEachPatVar(h, func(v int) {
				if v >= len(cc.binders) {
					return
				}
				for _, b := range cc.binders[v] {
					read, whole := reads(b)
					switch {
					case !read:
					case h.kind == syntax.TermVariable && whole && !all:
						d.markParts(to, false, keys) // the same parts, carried whole
					case h.kind == syntax.TermVariable:
						d.mark(to, funcKey{}, true)
					default:
						k, a := partOf(h)
						d.mark(to, k, a)
					}
				}
			})
		}
	}
}

func (d *dirt) markParts(pl place, all bool, keys []funcKey) {
	if all {
		d.mark(pl, funcKey{}, true)
		return
	}
	for _, k := range keys {
		d.mark(pl, k, false)
	}
}

// forEachPatVar calls f with each variable of pattern h.
func forEachPatVar(h *pat, f func(v int)) {
	stack := []*pat{h}
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch p.kind {
		case syntax.TermVariable:
			f(p.v)
		case syntax.TermFunction:
			stack = append(stack, p.args...)
		}
	}
}

// compiledOf returns clause c compiled for the fixpoint, compiling it on first need.
func compiledOf(c *Clause) *compiled {
	if cc := c.prod.Load(); cc != nil {
		return cc
	}
	cc := compileClause(c)
	c.prod.Store(cc)
	return cc
}

// without returns a copy of s without the parts in keys; the other parts are shared.
func (s *termSet) without(keys map[funcKey]bool) *termSet {
	out := &termSet{}
	if !keys[constKey] && len(s.consts) > 0 {
		out.consts = make(map[string]string, len(s.consts))
		for k, n := range s.consts {
			out.consts[k] = n
		}
	}
	if len(s.funcs) > 0 {
		out.funcs = make(map[funcKey]*funcTerm, len(s.funcs))
		for k, f := range s.funcs {
			if !keys[k] {
				out.funcs[k] = f
			}
		}
	}
	return out
}
