package eval

import (
	"strings"

	"github.com/gdl-lsp/gdl/syntax"
)

// Term is a ground term interned in a Game's term store: equal terms have equal IDs, so
// comparing, hashing and storing terms costs one integer. The zero Term is not a term.
// A Term is meaningful only with the Game that made it.
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
type store struct {
	syms   []string          // display spelling per symbol
	symIdx map[string]uint32 // folded name -> symbol
	fns    []functor
	fnIdx  map[functor]uint32
	terms  []termRec // terms[0] is unused: Term 0 is "no term"
	args   []Term
	table  []uint64 // open addressing: hash<<32 | term, 0 = empty slot
	count  int
}

func newStore() *store {
	s := &store{symIdx: map[string]uint32{}, fnIdx: map[functor]uint32{}}
	s.terms = make([]termRec, 1, 1024)
	s.table = make([]uint64, 1024)
	return s
}

// sym returns the symbol for name, creating it with this spelling when new.
func (s *store) sym(name string) uint32 {
	key := syntax.Fold(name)
	if id, ok := s.symIdx[key]; ok {
		return id
	}
	id := uint32(len(s.syms))
	s.syms = append(s.syms, name)
	s.symIdx[key] = id
	return id
}

func (s *store) functor(sym uint32, arity int) uint32 {
	f := functor{sym, uint32(arity)}
	if id, ok := s.fnIdx[f]; ok {
		return id
	}
	id := uint32(len(s.fns))
	s.fns = append(s.fns, f)
	s.fnIdx[f] = id
	return id
}

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

// find returns the term fn(args...) if it was interned, else 0.
func (s *store) find(fn uint32, args []Term) Term {
	h := hashTerm(fn, args)
	mask := uint32(len(s.table) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		e := s.table[i]
		if e == 0 {
			return 0
		}
		if uint32(e>>32) == h && s.same(Term(e), h, fn, args) {
			return Term(e)
		}
	}
}

func (s *store) same(t Term, h, fn uint32, args []Term) bool {
	r := &s.terms[t]
	if r.fn != fn || int(r.arity) != len(args) {
		return false
	}
	ta := s.args[r.args : r.args+uint32(r.arity)]
	for i, a := range args {
		if ta[i] != a {
			return false
		}
	}
	return true
}

// intern returns the term fn(args...), adding it when new. args is copied.
func (s *store) intern(fn uint32, args []Term) Term {
	h := hashTerm(fn, args)
	mask := uint32(len(s.table) - 1)
	i := h & mask
	for ; ; i = (i + 1) & mask {
		e := s.table[i]
		if e == 0 {
			break
		}
		if uint32(e>>32) == h && s.same(Term(e), h, fn, args) {
			return Term(e)
		}
	}
	depth := uint16(0)
	if len(args) > 0 {
		for _, a := range args {
			depth = max(depth, s.terms[a].depth)
		}
		if depth < 0xFFFF {
			depth++
		}
	}
	t := Term(len(s.terms))
	// The arrays double when full, up to 4M entries (then they grow by half): append grows a
	// large slice by a quarter, and the copies, and the fresh memory they touch, were a fifth
	// of chess's first playout.
	if len(s.terms) == cap(s.terms) {
		s.terms = append(make([]termRec, 0, growCap(cap(s.terms), 1)), s.terms...)
	}
	if len(s.args)+len(args) > cap(s.args) {
		s.args = append(make([]Term, 0, growCap(cap(s.args), len(args))), s.args...)
	}
	s.terms = append(s.terms, termRec{fn: fn, args: uint32(len(s.args)), arity: uint16(len(args)), depth: depth, hash: h})
	s.args = append(s.args, args...)
	s.table[i] = uint64(h)<<32 | uint64(t)
	s.count++
	if s.count*2 > len(s.table) {
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

func (s *store) grow() {
	table := make([]uint64, len(s.table)*2)
	mask := uint32(len(table) - 1)
	for t := 1; t < len(s.terms); t++ {
		h := s.terms[t].hash
		i := h & mask
		for table[i] != 0 {
			i = (i + 1) & mask
		}
		table[i] = uint64(h)<<32 | uint64(t)
	}
	s.table = table
}

// constant interns the constant named name.
func (s *store) constant(name string) Term {
	return s.intern(s.functor(s.sym(name), 0), nil)
}

func (s *store) argsOf(t Term) []Term {
	r := &s.terms[t]
	return s.args[r.args : r.args+uint32(r.arity)]
}

func (s *store) name(t Term) string { return s.syms[s.fns[s.terms[t].fn].sym] }

func (s *store) format(b *strings.Builder, t Term) {
	r := &s.terms[t]
	if r.arity == 0 {
		b.WriteString(s.syms[s.fns[r.fn].sym])
		return
	}
	b.WriteByte('(')
	b.WriteString(s.syms[s.fns[r.fn].sym])
	for _, a := range s.argsOf(t) {
		b.WriteByte(' ')
		s.format(b, a)
	}
	b.WriteByte(')')
}
