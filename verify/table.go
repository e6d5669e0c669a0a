package verify

import (
	"bytes"
	"hash/maphash"
)

// table numbers states by their keys: one byte arena holds the keys one after the other, and
// an open-addressing hash table of 8-byte slots points into it. It holds millions of states in
// a few dozen bytes each, with nothing for the garbage collector to scan; a Go map of strings
// takes several times the memory and a cache miss more per lookup.
//
// The keys of a search's states mostly have one length (a compiled state's bits): while they all
// do, key i is at i times that length in the arena, and no offsets are kept.
type table struct {
	seed  maphash.Seed
	arena []byte
	n     int   // the number of keys
	kl    int   // the length of the first key
	off   []int // nil while every key is kl bytes long; else key i is arena[off[i]:off[i+1]]
	// slots: 0, empty; else the high 32 bits of the key's hash, then 1 + the state's number. A
	// key's first slot is given by the high bits of its hash (shift), so that growing finds it
	// from the slot alone, without hashing the key again.
	slots []uint64
	shift uint
}

func newTable() *table {
	return &table{seed: maphash.MakeSeed(), slots: make([]uint64, 1024), shift: 64 - 10}
}

// len is the number of keys.
func (t *table) len() int { return t.n }

// key returns the key of state id.
func (t *table) key(id int32) []byte {
	if t.off == nil {
		return t.arena[int(id)*t.kl : int(id+1)*t.kl]
	}
	return t.arena[t.off[id]:t.off[id+1]]
}

// append gives key the next number.
func (t *table) append(key []byte) int32 {
	id := int32(t.n)
	if t.n == 0 {
		t.kl = len(key)
	}
	if t.off == nil && len(key) != t.kl {
		t.off = make([]int, t.n+1, 2*t.n+2)
		for i := range t.off {
			t.off[i] = i * t.kl
		}
	}
	t.arena = append(room(t.arena, len(key)), key...)
	if t.off != nil {
		t.off = append(room(t.off, 1), len(t.arena))
	}
	t.n++
	return id
}

// hash returns the hash of key, as lookup takes it.
func (t *table) hash(key []byte) uint64 { return maphash.Bytes(t.seed, key) }

// lookup returns the number of key, whose hash is h (hash), or adds it as the next number when
// add is set (-1 when it is not there and add is not set); found says whether it was there.
func (t *table) lookup(key []byte, h uint64, add bool) (id int32, found bool) {
	fp := h >> 32 << 32
	mask := uint64(len(t.slots) - 1)
	for i := h >> t.shift; ; i = (i + 1) & mask {
		s := t.slots[i]
		if s == 0 {
			if !add {
				return -1, false
			}
			id = t.append(key)
			t.slots[i] = fp | uint64(id+1)
			if 2*t.len() > len(t.slots) {
				t.grow()
			}
			return id, false
		}
		if s>>32<<32 == fp {
			if id := int32(uint32(s)) - 1; bytes.Equal(t.key(id), key) {
				return id, true
			}
		}
	}
}

// grow doubles the slots and puts every key back (a table has at most 2^31 keys, so the index
// of a first slot, at most 32 bits, is within the hash's high 32 bits the slot keeps).
func (t *table) grow() {
	old := t.slots
	t.slots = make([]uint64, 2*len(old))
	t.shift--
	mask := uint64(len(t.slots) - 1)
	for _, s := range old {
		if s == 0 {
			continue
		}
		i := s >> 32 << 32 >> t.shift
		for t.slots[i] != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = s
	}
}

// prefetch hashes the keys of buf (each kl bytes) into hs, reads the slots where lookup will
// look for them first and the keys those slots point to, and returns hs and something of what
// it read (for the caller to keep, so that the reads stay). A search that looks up a batch of
// keys in a big table calls it first: its cache misses overlap one another, where those of
// lookup, one key after the other, come one at a time.
func (t *table) prefetch(buf []byte, kl int, hs []uint64) ([]uint64, uint64) {
	hs = hs[:0]
	if kl <= 0 {
		return hs, 0
	}
	for j := 0; j+kl <= len(buf); j += kl {
		hs = append(hs, maphash.Bytes(t.seed, buf[j:j+kl]))
	}
	// The reads in loops of their own, so that many are under way at once.
	var sum uint64
	for _, h := range hs {
		sum += t.slots[h>>t.shift]
	}
	for _, h := range hs {
		if s := t.slots[h>>t.shift]; s != 0 && s>>32<<32 == h>>32<<32 {
			if id := int32(uint32(s)) - 1; int(id) < t.len() {
				k := t.key(id)
				sum += uint64(k[0]) + uint64(k[len(k)-1]) // both ends: a key may straddle two lines
			}
		}
	}
	return hs, sum
}

// room returns s with room for n more elements: when it has not, a copy twice as big (or as
// big as it needs). append grows a big slice by a quarter at a time; a search's tables, which
// grow to millions of elements, would then be copied over again about four times their size.
func room[T any](s []T, n int) []T {
	if len(s)+n <= cap(s) {
		return s
	}
	out := make([]T, len(s), max(2*cap(s), len(s)+n, 256))
	copy(out, s)
	return out
}
