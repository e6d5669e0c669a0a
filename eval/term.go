package eval

import (
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/gdl-lsp/gdl/syntax"
)

// Term is a ground term interned in a Program's term store: equal terms have equal IDs, so
// comparing, hashing and storing terms costs one integer. The zero Term is not a term.
// A Term is meaningful only with the Program that made it (in any of its sessions).
type Term uint32

// functor is a name with an arity. Constants are functors of arity 0.
type functor struct {
	sym   uint32
	arity uint32
}

type termRec struct {
	fn    uint32 // functor index
	args  uint32 // offset into store.args
	arity uint16
	depth uint16 // 0 for constants, 1 + the deepest argument for function terms
	hash  uint32
}

// store hash-conses ground terms. Every term is a functor applied to already interned
// arguments, so a term's identity is its functor and argument IDs.
//
// One store is shared by all the sessions of a Program, which intern into it at once, so that
// terms and states pass between them. Reading a term (its record, arguments, functor, name) and
// finding one that exists take no lock: the arrays are published whole (their full capacity)
// with atomic stores, a term's record and arguments are written before the table slot that
// makes it findable, and an array that grows is copied into a new one, so an array a reader
// holds stays valid for every term it can know of; symbols and functors are looked up by name in
// sync.Maps. Adding a term takes mu; a symbol or a functor, names.mu.
//
// A grounding interns the terms of its relaxed programs into a scratch store (scratch): one
// with the terms of its parent when made and the parent's names, whose terms are dropped with
// it when the pass fails, and become the parent's when it succeeds (adopt, or commitGrounding).
type store struct {
	*names
	mu    sync.Mutex
	terms segmented[termRec] // terms[0] is unused: Term 0 is "no term"
	args  segmented[Term]
	table atomic.Pointer[[]uint64] // open addressing: hash<<32 | term, 0 = empty slot; read with atomic loads
	count int                      // the terms in table (mu)

	published atomic.Uint32 // the length of terms once the last term added is in it (see view)

	base, argsBase int // a scratch store: the lengths of its parent's terms and arguments when made
}

// names are the symbols and functors of a store, shared with its scratch stores: a functor
// means the same in a grounding's passes and in the Program.
type names struct {
	mu     sync.Mutex
	symIdx sync.Map       // folded name -> symbol (uint32); stored under mu
	fnIdx  sync.Map       // functor -> its index (uint32); stored under mu
	syms   grower[string] // display spelling per symbol
	fns    grower[functor]
}

// A grower is an append-only array that readers index without a lock: the whole backing
// array is published, and it is replaced by a bigger copy when full. n (the used length) is
// read and written under the store's mu.
type grower[T any] struct {
	pub atomic.Pointer[[]T]
	n   int
}

func (a *grower[T]) get() []T { return *a.pub.Load() }

// push appends vs (mu is held) and returns the index of the first.
func (a *grower[T]) push(vs ...T) int {
	cur := a.get()
	if a.n+len(vs) > len(cur) {
		// The arrays double when full, up to 4M entries (then they grow by half): append grows
		// a large slice by a quarter, and the copies, and the fresh memory they touch, were a
		// fifth of chess's first playout.
		next := make([]T, growCap(len(cur), len(vs)))
		adviseHuge(next)
		copy(next, cur[:a.n])
		cur = next
		a.pub.Store(&cur)
	}
	i := a.n
	copy(cur[i:], vs)
	a.n += len(vs)
	return i
}

// init gives a an array of n entries.
func (a *grower[T]) init(n int) {
	s := make([]T, n)
	a.pub.Store(&s)
}

// Segments: the terms and arguments of a store are arrays in segments (of 2^termBits records,
// 2^argBits arguments: 4 MB each), the first grown by copying until it is that long, the others
// made whole. A big store grows without copying what it holds: chess's grounding copied its
// arrays of arguments (tens of megabytes) at each growth and held both copies at its peak of
// memory, and the arrays, grown by half, were a third empty.
const (
	termBits = 18
	termMask = 1<<termBits - 1
	argBits  = 20
	argMask  = 1<<argBits - 1
)

// A segmented is an append-only array in segments that readers index without a lock: the
// directory of segments is published whole, and replaced by a longer copy (or one whose first
// segment is a longer copy) when full; a segment a reader holds keeps what it holds. n (the
// index of the next entry) is read and written under the store's mu.
type segmented[T any] struct {
	pub  atomic.Pointer[[][]T]
	n    int
	bits int // a segment holds 2^bits entries
}

func (a *segmented[T]) dir() [][]T { return *a.pub.Load() }

// init gives a a first segment of n entries, in segments of 2^bits.
func (a *segmented[T]) init(n, bits int) {
	d := [][]T{make([]T, n)}
	a.pub.Store(&d)
	a.bits = bits
}

// at returns entry i.
func (a *segmented[T]) at(i uint32) *T { return &a.dir()[i>>a.bits][i&(1<<a.bits-1)] }

// push appends vs (mu is held), in one segment, and returns the index of the first: when the
// rest of the last segment is too short for them (arguments), they start the next.
func (a *segmented[T]) push(vs ...T) int {
	i, size := a.n, 1<<a.bits
	if i&(size-1)+len(vs) > size {
		i = (i>>a.bits + 1) << a.bits
	}
	seg, off := i>>a.bits, i&(size-1)
	dir := a.dir()
	if seg == len(dir) || off+len(vs) > len(dir[seg]) {
		dir = a.extend(seg, off+len(vs))
	}
	copy(dir[seg][off:], vs)
	a.n = i + len(vs)
	return i
}

// extend publishes a directory in which segment seg holds n entries at least: a new segment
// 2^bits long, or the first grown (mu is held).
func (a *segmented[T]) extend(seg, n int) [][]T {
	old := a.dir()
	dir := make([][]T, max(len(old), seg+1))
	copy(dir, old)
	if seg < len(old) {
		next := make([]T, min(1<<a.bits, max(2*len(old[seg]), n)))
		adviseHuge(next)
		copy(next, old[seg][:a.n-seg<<a.bits])
		dir[seg] = next
	} else {
		dir[seg] = make([]T, 1<<a.bits)
		adviseHuge(dir[seg])
	}
	a.pub.Store(&dir)
	return dir
}

func newStore() *store {
	s := &store{names: &names{}}
	s.syms.init(64)
	s.fns.init(64)
	s.terms.init(1024, termBits)
	s.args.init(1024, argBits)
	s.terms.n = 1
	s.published.Store(1)
	table := make([]uint64, 1024)
	s.table.Store(&table)
	return s
}

// sym returns the symbol for name, creating it with this spelling when new.
func (s *store) sym(name string) uint32 {
	return addIndexed(s, &s.symIdx, syntax.Fold(name), &s.syms, name)
}

// lookupSym returns the symbol for name, if there is one.
func (s *store) lookupSym(name string) (uint32, bool) {
	id, ok := s.symIdx.Load(syntax.Fold(name))
	if !ok {
		return 0, false
	}
	return id.(uint32), true
}

func (s *store) functor(sym uint32, arity int) uint32 {
	f := functor{sym, uint32(arity)}
	return addIndexed(s, &s.fnIdx, f, &s.fns, f)
}

// addIndexed returns the index in a of the value idx holds for key, adding v when there is none
// (a symbol by its folded name, a functor).
func addIndexed[K comparable, V any](s *store, idx *sync.Map, key K, a *grower[V], v V) uint32 {
	if id, ok := idx.Load(key); ok {
		return id.(uint32)
	}
	s.names.mu.Lock()
	defer s.names.mu.Unlock()
	if id, ok := idx.Load(key); ok {
		return id.(uint32)
	}
	id := uint32(a.push(v))
	idx.Store(key, id)
	return id
}

// lookupFn returns the functor sym/arity, if there is one.
func (s *store) lookupFn(sym uint32, arity int) (uint32, bool) {
	id, ok := s.fnIdx.Load(functor{sym, uint32(arity)})
	if !ok {
		return 0, false
	}
	return id.(uint32), true
}

// rec returns t's record.
func (s *store) rec(t Term) *termRec { return s.terms.at(uint32(t)) }

// fn returns the functor f.
func (s *store) fn(f uint32) functor { return s.fns.get()[f] }

// symName returns the display spelling of symbol sym.
func (s *store) symName(sym uint32) string { return s.syms.get()[sym] }

// fnName returns the display spelling of functor f's name.
func (s *store) fnName(f uint32) string { return s.symName(s.fn(f).sym) }

// hugeArray is the size in bytes from which an array read at random asks for huge pages
// (adviseHuge): a store's segments once it holds 2^18 terms (2^20 arguments), its hash table
// from 128K terms, the fact stamps of a session from 500K. Chess's grounding (hash table 32 MB,
// records and arguments 65 MB) took 10% less CPU with them than at 64 MB, the threshold before,
// which none of them reached (BenchmarkStoreLookup: as fast to half the time).
const hugeArray = 4 << 20

func hashTerm(fn uint32, args []Term) uint32 {
	h := uint64(fn)*0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019
	for _, a := range args {
		h ^= uint64(a)
		h *= 0xBF58476D1CE4E5B9
		h ^= h >> 29
	}
	h ^= h >> 32
	return uint32(h)
}

// intern returns the term fn(args...), adding it when new. args is copied.
func (s *store) intern(fn uint32, args []Term) Term {
	v := view{store: s}
	return v.intern(fn, args)
}

// find returns the term fn(args...) if it was interned, else 0.
func (v *view) find(fn uint32, args []Term) Term { return v.get(fn, args, false) }

// intern returns the term fn(args...), adding it when new. args is copied.
func (v *view) intern(fn uint32, args []Term) Term { return v.get(fn, args, true) }

// get returns the term fn(args...), adding it when new if create is set, else 0. Without the
// lock, a term added since the table was loaded may not be found: add looks again under it.
func (v *view) get(fn uint32, args []Term, create bool) Term {
	h := hashTerm(fn, args)
	table := *v.store.table.Load()
	mask := uint32(len(table) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		e := atomic.LoadUint64(&table[i])
		if e == 0 {
			break
		}
		if uint32(e>>32) != h {
			continue
		}
		r := v.rec(Term(e))
		if r.fn == fn && int(r.arity) == len(args) && slices.Equal(v.argsAt(r), args) {
			return Term(e)
		}
	}
	if !create {
		return 0
	}
	return v.add(fn, args, h)
}

// add interns fn(args...), of hash h, which a probe found missing.
func (v *view) add(fn uint32, args []Term, h uint32) Term {
	s := v.store
	s.mu.Lock()
	defer s.mu.Unlock()
	if t := v.get(fn, args, false); t != 0 {
		return t // added meanwhile
	}
	table := *s.table.Load()
	mask := uint32(len(table) - 1)
	i := h & mask
	for table[i] != 0 { // the table changes only under mu
		i = (i + 1) & mask
	}
	depth := uint16(0)
	if len(args) > 0 {
		for _, a := range args {
			depth = max(depth, s.rec(a).depth)
		}
		if depth < 0xFFFF {
			depth++
		}
	}
	off := s.args.push(args...)
	t := Term(s.terms.push(termRec{fn: fn, args: uint32(off), arity: uint16(len(args)), depth: depth, hash: h}))
	s.published.Store(uint32(s.terms.n))
	atomic.StoreUint64(&table[i], uint64(h)<<32|uint64(t))
	s.count++
	if s.count*2 > len(table) {
		s.grow()
	}
	return t
}

// growCap is the new capacity of a full array of capacity c that needs room for n more.
func growCap(c, n int) int {
	if c < 1<<22 {
		return 2*c + n
	}
	return c + c/2 + n
}

// grow doubles the table (mu is held); readers of the old one still find every term it has.
func (s *store) grow() {
	old := *s.table.Load()
	table := make([]uint64, len(old)*2)
	adviseHuge(table)
	s.place(table, s.terms.n)
	s.table.Store(&table)
}

// place puts the terms below n in table, an empty table not yet published (mu is held).
func (s *store) place(table []uint64, n int) {
	mask := uint32(len(table) - 1)
	for k, seg := range s.terms.dir() {
		lo, hi := k<<termBits, min(n, k<<termBits+len(seg))
		for t := max(lo, 1); t < hi; t++ {
			h := seg[t-lo].hash
			i := h & mask
			for table[i] != 0 {
				i = (i + 1) & mask
			}
			table[i] = uint64(h)<<32 | uint64(t)
		}
	}
}

// constant interns the constant named name.
func (s *store) constant(name string) Term {
	return s.intern(s.functor(s.sym(name), 0), nil)
}

func (s *store) argsOf(t Term) []Term {
	r := s.rec(t)
	o := r.args & argMask
	return s.args.dir()[r.args>>argBits][o : o+uint32(r.arity)]
}

func (s *store) name(t Term) string { return s.fnName(s.rec(t).fn) }

func (s *store) format(b *strings.Builder, t Term) {
	r := s.rec(t)
	if r.arity == 0 {
		b.WriteString(s.fnName(r.fn))
		return
	}
	b.WriteByte('(')
	b.WriteString(s.fnName(r.fn))
	for _, a := range s.argsOf(t) {
		b.WriteByte(' ')
		s.format(b, a)
	}
	b.WriteByte(')')
}

// A view is a session's way into the shared store: the terms interned when it last loaded the
// arrays, and the arrays of records and arguments then current, loaded again only for a term
// beyond them. An array once published keeps what it holds (a bigger copy replaces it for what
// is added once it is full), and a term's arguments are added before the term is counted in
// published, so a view reads the terms it holds with no atomic load: the hot paths (matching,
// indexing) cost what they cost with a store of one's own.
type view struct {
	*store
	first []termRec   // the terms published when loaded that are in the first segment
	args0 []Term      // the first segment of arguments when loaded
	n     uint32      // the terms published when loaded
	terms [][]termRec // the segments of the terms and arguments when loaded
	args  [][]Term
}

func newView(s *store) *view { return &view{store: s} }

// rec returns t's record. The terms of the first segment (every term of a store of fewer than
// 2^18) are read as they were before the segments, with one index: a game's playouts spent 3%
// to 6% more in the directory's load.
func (v *view) rec(t Term) *termRec {
	if int(t) < len(v.first) {
		return &v.first[t]
	}
	return v.recSeg(t)
}

// recSeg is rec for a term outside first.
//
//go:noinline
func (v *view) recSeg(t Term) *termRec {
	if uint32(t) >= v.n {
		v.load()
		if int(t) < len(v.first) {
			return &v.first[t]
		}
	}
	return &v.terms[t>>termBits][t&termMask]
}

// argsOf returns t's arguments.
func (v *view) argsOf(t Term) []Term { return v.argsAt(v.rec(t)) }

// argsAt returns the arguments of r, a record rec returned.
func (v *view) argsAt(r *termRec) []Term {
	if r.args < uint32(len(v.args0)) {
		return v.args0[r.args : r.args+uint32(r.arity)]
	}
	o := r.args & argMask
	return v.args[r.args>>argBits][o : o+uint32(r.arity)]
}

// load loads the arrays again (outside rec, which is inlined).
func (v *view) load() {
	v.n = v.store.published.Load()
	v.terms = v.store.terms.dir()
	v.args = v.store.args.dir()
	v.first = v.terms[0][:min(int(v.n), len(v.terms[0]))]
	v.args0 = v.args[0]
}
