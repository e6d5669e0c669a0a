package eval

import (
	"slices"
	"testing"
)

// TestSegmentedStore interns terms past several segments, with argument lists that reach a
// segment's end (they start the next one), and checks that every term is found under its ID
// with its arguments, through a view loaded before the growth and through a scratch store,
// truncated and grown again, and adopted.
func TestSegmentedStore(t *testing.T) {
	s := newStore()
	a := s.constant("a")
	f := s.functor(s.sym("f"), 1)
	var long []uint32 // functors of arities up to 300, to fall across segments' ends
	for k := 1; k <= 300; k++ {
		long = append(long, s.functor(s.sym("w"), k))
	}
	early := newView(s)
	early.rec(a) // loaded now: it reads the later terms by loading again
	want := []Term{a}
	args := [][]Term{nil}
	x := a
	for i := 0; s.terms.n < 2<<termBits+1<<termBits/2 || s.args.n < 2<<argBits+1<<argBits/2; i++ {
		if i%50 == 49 {
			n := 1 + i/50%300
			as := make([]Term, n)
			for j := range as {
				as[j] = want[(i*7+j*13)%len(want)]
			}
			x = s.intern(long[n-1], as)
			args = append(args, as)
		} else {
			x = s.intern(f, []Term{x})
			args = append(args, []Term{want[len(want)-1]})
		}
		want = append(want, x)
	}
	check := func(name string, v *view) {
		t.Helper()
		for i, w := range want {
			got := v.argsOf(w)
			if !slices.Equal(got, args[i]) {
				t.Fatalf("%s: term %d has arguments %v, want %v", name, w, got, args[i])
			}
			if i > 0 && v.find(v.rec(w).fn, args[i]) != w {
				t.Fatalf("%s: term %d not found", name, w)
			}
		}
	}
	check("the store", newView(s))
	check("a view loaded before", early)
	if d := s.terms.dir(); len(d) < 3 || len(d[0]) != 1<<termBits || len(d[2]) != 1<<termBits {
		t.Fatalf("the terms are in %d segments, the first %d long", len(d), len(d[0]))
	}
	// A scratch store shares the full segments and copies the last: both add after it.
	c := s.scratch()
	sb := s.constant("parent's")
	cb := c.constant("scratch's")
	if sb != cb || termText(s, sb) != "parent's" || termText(c, cb) != "scratch's" {
		t.Fatal("a scratch store and its parent write into the same segment")
	}
	check("the scratch store", newView(c))
	c2 := s.scratch()
	y := want[len(want)-1]
	for i := 0; i < 1<<termBits+10; i++ {
		y = c2.intern(f, []Term{y})
	}
	c2.truncate()
	check("a scratch store truncated", newView(c2))
	if newView(c2).find(f, []Term{want[len(want)-1]}) != 0 {
		t.Fatal("a truncated scratch store finds its own term")
	}
	z := c2.intern(f, []Term{sb})
	if !s.adopt(c2) || termText(s, z) != "(f parent's)" {
		t.Fatal("a truncated scratch store grown again is not adopted with its terms")
	}
	check("the store after adopt", newView(s))
}

// BenchmarkStoreLookup looks terms up at random in a store of two million terms of arity 6 (as
// big as chess's last restricted pass): one op is one lookup, a hit (find of an interned
// term) or a miss, in turn.
func BenchmarkStoreLookup(b *testing.B) {
	s := newStore()
	var consts []Term
	for i := 0; i < 64; i++ {
		consts = append(consts, s.constant("c"+string(rune('0'+i))))
	}
	f := s.functor(s.sym("f"), 6)
	rng := uint64(1)
	next := func() Term {
		rng ^= rng << 13
		rng ^= rng >> 7
		rng ^= rng << 17
		return consts[rng%64]
	}
	const n = 2_000_000
	keys := make([][6]Term, n)
	for i := range keys {
		for j := range keys[i] {
			keys[i][j] = next()
		}
		s.intern(f, keys[i][:])
	}
	v := newView(s)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := keys[(uint64(i)*0x9E3779B97F4A7C15>>40)%n]
		if i&1 == 1 {
			k[5] = 1 // a constant no key holds there: a miss
		}
		v.find(f, k[:])
	}
}
