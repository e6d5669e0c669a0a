package eval

import (
	"cmp"
	"slices"
)

// Scratch stores: the terms of a grounding's relaxed programs. Chess's first pass, which fails,
// interned 4 million facts, its magic sets and the passes made again as many more: kept in the
// Program's store, they made every later lookup in it slower and its memory never came back.

// scratch returns a store that holds s's terms as they are now and interns its own after them,
// with s's names (symbols and functors).
func (s *store) scratch() *store {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := &store{names: s.names, count: s.count, base: s.terms.n, argsBase: s.args.n}
	c.terms.cloneOf(&s.terms)
	c.args.cloneOf(&s.args)
	table := slices.Clone(*s.table.Load())
	c.table.Store(&table)
	c.published.Store(uint32(c.terms.n))
	return c
}

// truncate drops the terms c, a scratch store no longer read, interned after its parent's, and
// keeps its arrays and table for the next pass: the passes of chess's grounding each grew a
// store of millions of terms from its parent's thousands, copying the arrays at each growth
// and placing the table's terms again, and the grown memory came fresh from the system.
func (c *store) truncate() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.terms.n, c.args.n = c.base, c.argsBase
	c.count = c.base - 1
	c.published.Store(uint32(c.base))
	table := *c.table.Load()
	clear(table)
	c.place(table, c.base)
}

// cloneOf makes a an array holding b's entries (b's store's mu is held): it shares b's full
// segments, which neither adds to, and copies the one b adds to next.
func (a *segmented[T]) cloneOf(b *segmented[T]) {
	cur := b.dir()
	k := min(b.n>>b.bits, len(cur)-1)
	next := slices.Clone(cur[:k+1])
	next[k] = slices.Clone(cur[k])
	a.pub.Store(&next)
	a.n, a.bits = b.n, b.bits
}

// adopt makes the terms of c, a scratch store of s no longer used, s's own, with the same IDs,
// and reports true; or false, changing nothing, when s interned terms since c was made (then
// their IDs and c's differ: commitGrounding interns c's terms again). Readers of s that hold
// its arrays keep reading them: the new ones hold the same terms at the same places.
func (s *store) adopt(c *store) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.terms.n != c.base || c.names != s.names {
		return false
	}
	s.args.pub.Store(c.args.pub.Load())
	s.args.n = c.args.n
	s.terms.pub.Store(c.terms.pub.Load())
	s.terms.n = c.terms.n
	s.published.Store(uint32(s.terms.n))
	s.count = c.count
	s.table.Store(c.table.Load())
	return true
}

// copyTerm interns term t of store c (a scratch store of s) into s and returns it there; memo
// holds the terms copied before (c's term to s's), which copyTerm adds to. Terms are copied
// arguments first, with a stack of their own (a term is as deep as the evaluation's limit).
func (s *store) copyTerm(c *store, t Term, memo *termMap) Term {
	if int(t) < c.base {
		return t
	}
	if u := memo.get(t); u != 0 {
		return u
	}
	stack := []Term{t}
	var args []Term
	for len(stack) > 0 {
		top := stack[len(stack)-1]
		args = args[:0]
		missing := false
		for _, a := range c.argsOf(top) {
			u := a
			if int(a) >= c.base {
				u = memo.get(a)
			}
			if u == 0 {
				stack = append(stack, a)
				missing = true
			}
			args = append(args, u)
		}
		if missing {
			continue
		}
		memo.put(top, s.intern(c.rec(top).fn, args))
		stack = stack[:len(stack)-1]
	}
	return memo.get(t)
}

// commitGrounding makes gr's terms, made in c (a scratch store of s), terms of s: c's terms
// become s's when s interned none since c was made (adopt); otherwise each term gr mentions is
// interned into s and gr rewritten with s's IDs, its lists sorted again by ID as keywords
// sorted them.
func (s *store) commitGrounding(c *store, gr *Grounding) {
	if s.adopt(c) {
		return
	}
	memo := &termMap{}
	to := func(ts []Term) {
		for i, t := range ts {
			ts[i] = s.copyTerm(c, t, memo)
		}
	}
	for _, ts := range [][]Term{gr.Roles, gr.Init, gr.Fluents, gr.TrueAtoms, gr.NextAtoms, gr.Constant} {
		to(ts)
	}
	for _, tss := range [][][]Term{gr.Moves, gr.DoesAtoms, gr.Legal} {
		for _, ts := range tss {
			to(ts)
		}
	}
	for _, gs := range gr.Goals {
		for i := range gs {
			gs[i].Value, gs[i].Atom = s.copyTerm(c, gs[i].Value, memo), s.copyTerm(c, gs[i].Atom, memo)
		}
	}
	for _, ps := range gr.Sees {
		for i := range ps {
			ps[i].Percept, ps[i].Atom = s.copyTerm(c, ps[i].Percept, memo), s.copyTerm(c, ps[i].Atom, memo)
		}
	}
	gr.Terminal = s.copyTerm(c, gr.Terminal, memo)
	for i := range gr.Rules {
		r := &gr.Rules[i]
		r.Head = s.copyTerm(c, r.Head, memo)
		for j := range r.Body {
			r.Body[j].Atom = s.copyTerm(c, r.Body[j].Atom, memo)
		}
	}
	gr.sortByID()
}

// sortByID sorts a grounding's lists as keywords makes them: the fluents (with their true and
// next atoms) and the constant fluents by ID, each role's moves (with their does atoms) by
// legal atom, goals and percepts by atom.
func (gr *Grounding) sortByID() {
	order := func(n int, key func(i int) Term) []int {
		idx := make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(key(a), key(b)) })
		return idx
	}
	permute := func(ts []Term, idx []int) {
		old := slices.Clone(ts)
		for i, j := range idx {
			ts[i] = old[j]
		}
	}
	idx := order(len(gr.Fluents), func(i int) Term { return gr.Fluents[i] })
	for _, ts := range [][]Term{gr.Fluents, gr.TrueAtoms, gr.NextAtoms} {
		permute(ts, idx)
	}
	slices.Sort(gr.Constant)
	for r := range gr.Legal {
		idx := order(len(gr.Legal[r]), func(i int) Term { return gr.Legal[r][i] })
		for _, ts := range [][]Term{gr.Moves[r], gr.DoesAtoms[r], gr.Legal[r]} {
			permute(ts, idx)
		}
	}
	for _, gs := range gr.Goals {
		slices.SortStableFunc(gs, func(a, b GoalAtom) int { return cmp.Compare(a.Atom, b.Atom) })
	}
	for _, ps := range gr.Sees {
		slices.SortStableFunc(ps, func(a, b Percept) int { return cmp.Compare(a.Atom, b.Atom) })
	}
}

// scratchStore returns a scratch store of g's store for a relaxed program: the one a failed pass of
// this grounding left (spare), emptied, or a new one.
func (g *session) scratchStore() *store {
	if c := g.spare; c != nil {
		g.spare = nil
		c.truncate()
		return c
	}
	return g.shared.st.scratch()
}

// recycle keeps the scratch store of rg, a relaxed program of g no longer used, for g's next
// pass (scratchStore).
func (g *session) recycle(rg *session) {
	if c := rg.st.store; c != g.shared.st && c.names == g.shared.st.names {
		g.spare = c
	}
}
