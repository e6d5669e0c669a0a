package eval

import (
	"math/rand/v2"
	"testing"
)

// TestTermMap checks the map against a Go map: growth from empty through many doublings,
// keys that collide (multiples of the array's length start their probes at one slot, and
// the probes wrap around the array's end), values replaced, absent keys, and 0 never stored.
func TestTermMap(t *testing.T) {
	var m termMap
	want := map[Term]Term{}
	if m.get(1) != 0 || m.get(0) != 0 {
		t.Fatal("an empty map has a value")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	put := func(k, v Term) {
		m.put(k, v)
		if k != 0 && v != 0 {
			want[k] = v
		}
	}
	for i := 1; i <= 100_000; i++ {
		put(Term(rng.Uint32()), Term(i))
		put(Term(i)<<12, Term(i)) // the same low bits: equal Fibonacci hashes would cluster
	}
	for k := Term(1); k <= 64; k++ {
		put(k, k+1)   // replaced below
		put(k, k+100) // a value replaced
	}
	put(0, 5)                   // key 0 is not a term
	put(7, 0)                   // nor value 0: 7 keeps its value
	put(0xFFFFFFFF, 0xFFFFFFFF) // the largest term
	if m.n != len(want) {
		t.Fatalf("%d entries, want %d", m.n, len(want))
	}
	for k, v := range want {
		if got := m.get(k); got != v {
			t.Fatalf("get(%d) = %d, want %d", k, got, v)
		}
	}
	for i := 0; i < 100_000; i++ {
		k := Term(rng.Uint32())
		if _, ok := want[k]; !ok && m.get(k) != 0 {
			t.Fatalf("get(%d) of an absent key = %d", k, m.get(k))
		}
	}
	if m.get(0) != 0 {
		t.Fatal("key 0 has a value")
	}
	if 2*m.n > len(m.slots) || len(m.slots)&(len(m.slots)-1) != 0 {
		t.Fatalf("%d entries in %d slots: not a power of two at most half full", m.n, len(m.slots))
	}
}

// TestTermMapWrap fills a small map's last slots so that a probe wraps around the end.
func TestTermMapWrap(t *testing.T) {
	var m termMap
	m.grow() // termMapMinSlots slots
	last := len(m.slots) - 1
	var keys []Term
	for k := Term(1); len(keys) < len(m.slots)/2-1; k++ {
		if m.slot(k) == last {
			keys = append(keys, k)
		}
	}
	for i, k := range keys {
		m.put(k, Term(i+1))
	}
	if len(m.slots) != termMapMinSlots {
		t.Fatalf("grew to %d slots", len(m.slots))
	}
	for i, k := range keys {
		if m.get(k) != Term(i+1) {
			t.Fatalf("get(%d) = %d, want %d", k, m.get(k), i+1)
		}
	}
	if m.slots[0] == 0 {
		t.Fatal("no probe wrapped around the array's end")
	}
}
