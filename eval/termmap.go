package eval

import "math/bits"

// A termMap maps terms to terms (both not 0) by open addressing with linear probing, in one
// array of key<<32|value words. It is the cache of a unary relation's atoms (relation.wraps):
// the array it replaces was indexed by term, one entry per term of the store, which made every
// unary relation of chess's relaxed programs (a store of 6 million terms, some thirty relations
// per pass) cost 50 MB. A termMap costs 16 bytes per entry at most.
type termMap struct {
	slots []uint64 // key<<32 | value, 0 when empty; a power of two long, at most half full
	n     int      // the entries
	shift uint8    // 64 - log2(len(slots))
}

// termMapMinSlots is the length of a termMap's first array.
const termMapMinSlots = 8

// slot returns where the probe for k starts (Fibonacci hashing: the high bits of a product).
func (m *termMap) slot(k Term) int {
	return int((uint64(k) * 0x9E3779B97F4A7C15) >> m.shift)
}

// get returns the value of k, 0 when it has none.
func (m *termMap) get(k Term) Term {
	if m.n == 0 || k == 0 {
		return 0
	}
	mask := len(m.slots) - 1
	for i := m.slot(k); ; i = (i + 1) & mask {
		e := m.slots[i]
		if e == 0 {
			return 0
		}
		if Term(e>>32) == k {
			return Term(e)
		}
	}
}

// put sets the value of k to v. A key or value 0 is not stored.
func (m *termMap) put(k, v Term) {
	if k == 0 || v == 0 {
		return
	}
	if 2*(m.n+1) > len(m.slots) {
		m.grow()
	}
	mask := len(m.slots) - 1
	for i := m.slot(k); ; i = (i + 1) & mask {
		e := m.slots[i]
		if e == 0 {
			m.slots[i] = uint64(k)<<32 | uint64(v)
			m.n++
			return
		}
		if Term(e>>32) == k {
			m.slots[i] = uint64(k)<<32 | uint64(v)
			return
		}
	}
}

// grow doubles the array (or makes the first) and places the entries again.
func (m *termMap) grow() {
	old := m.slots
	n := max(termMapMinSlots, 2*len(old))
	m.slots = make([]uint64, n)
	m.shift = uint8(64 - bits.TrailingZeros(uint(n)))
	mask := n - 1
	for _, e := range old {
		if e == 0 {
			continue
		}
		i := m.slot(Term(e >> 32))
		for m.slots[i] != 0 {
			i = (i + 1) & mask
		}
		m.slots[i] = e
	}
}
