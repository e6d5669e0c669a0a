package eval

import (
	"strconv"
	"strings"
)

// Filter node kinds of an index: what a fact must look like to be in it, and which subterms
// are its key.
const (
	fAny   uint8 = iota // anything (a variable bound later)
	fConst              // exactly this term
	fFunc               // this functor, with argument filters
	fKey                // a key: the value of a variable bound before the lookup
)

type fnode struct {
	kind uint8
	t    Term
	fn   uint32
	key  int
	args []*fnode
}

// index holds the facts of a relation that fit one pattern shape (functors and constants),
// hashed on the subterms the pattern binds before the lookup. With no key it is simply the list
// of fitting facts. Entries are chained newest first, so a walk started before an insertion is
// not disturbed by it, and a walk over a range of fact positions can stop early.
type index struct {
	filter  *fnode
	nkeys   int
	heads   []int32   // per bucket: entry+1 of the newest entry, 0 when empty
	entries []ixEntry // in the order of insertion
	keybuf  []Term
}

// An ixEntry is a fact of an index, with what a walk of its bucket reads before matching it,
// in one record: a walk that read them from four arrays missed the cache on each (the hash
// indexes of chess's relaxed programs hold millions of facts).
type ixEntry struct {
	fact Term
	pos  int32  // position of the fact in its relation's list
	hash uint32 // of the fact's key values (an index with keys)
	next int32  // entry+1 of the next older entry in the bucket (an index with keys)
}

func (ix *index) reset() {
	ix.entries = ix.entries[:0]
	if ix.nkeys > 0 {
		clear(ix.heads)
	}
}

func hashKeys(keys []Term) uint32 {
	h := uint64(0x2545F4914F6CDD1D)
	for _, k := range keys {
		h ^= uint64(k)
		h *= 0xBF58476D1CE4E5B9
		h ^= h >> 31
	}
	return uint32(h ^ h>>32)
}

// fits reports whether fact t has the index's shape, collecting its key values.
func (ix *index) fits(st *view, f *fnode, t Term) bool {
	switch f.kind {
	case fAny:
		return true
	case fConst:
		return f.t == t
	case fKey:
		ix.keybuf[f.key] = t
		return true
	}
	r := st.rec(t)
	if r.fn != f.fn {
		return false
	}
	args := st.argsAt(r) // rec loaded them
	for i, a := range f.args {
		if !ix.fits(st, a, args[i]) {
			return false
		}
	}
	return true
}

func (ix *index) insert(st *view, t Term, pos int) {
	if !ix.fits(st, ix.filter, t) {
		return
	}
	e := int32(len(ix.entries))
	if ix.nkeys == 0 {
		ix.entries = append(ix.entries, ixEntry{fact: t, pos: int32(pos)})
		return
	}
	h := hashKeys(ix.keybuf)
	if len(ix.entries) >= len(ix.heads) {
		ix.entries = append(ix.entries, ixEntry{fact: t, pos: int32(pos), hash: h})
		ix.rehash()
		return
	}
	b := h & uint32(len(ix.heads)-1)
	ix.entries = append(ix.entries, ixEntry{fact: t, pos: int32(pos), hash: h, next: ix.heads[b]})
	ix.heads[b] = e + 1
}

func (ix *index) rehash() {
	n := max(16, len(ix.heads)*2)
	for n < len(ix.entries) {
		n *= 2
	}
	ix.heads = make([]int32, n)
	mask := uint32(n - 1)
	for e := range ix.entries {
		x := &ix.entries[e]
		b := x.hash & mask
		x.next = ix.heads[b]
		ix.heads[b] = int32(e) + 1
	}
}

// signature names an index by its filter, so plans that need the same index share it.
func (f *fnode) signature(b *strings.Builder) {
	switch f.kind {
	case fAny:
		b.WriteByte('_')
	case fConst:
		b.WriteByte('c')
		b.WriteString(strconv.Itoa(int(f.t)))
	case fKey:
		b.WriteByte('k')
	case fFunc:
		b.WriteByte('f')
		b.WriteString(strconv.Itoa(int(f.fn)))
		b.WriteByte('(')
		for _, a := range f.args {
			a.signature(b)
			b.WriteByte(' ')
		}
		b.WriteByte(')')
	}
}

// indexFor returns the relation's index with this filter, building it over the facts already
// there when it is new.
func (g *session) indexFor(r *relation, f *fnode, nkeys int) *index {
	var b strings.Builder
	f.signature(&b)
	sig := b.String()
	if ix, ok := r.bySig[sig]; ok {
		return ix
	}
	ix := &index{filter: f, nkeys: nkeys, keybuf: make([]Term, nkeys)}
	if nkeys > 0 {
		ix.heads = make([]int32, 16)
	}
	for i, t := range r.facts {
		ix.insert(g.st, t, i)
	}
	r.bySig[sig] = ix
	r.idxs = append(r.idxs, ix)
	return ix
}
