package analysis

import (
	"cmp"
	"math/rand"

	"github.com/gdl-lsp/gdl/syntax"
	"slices"
	"sort"
	"testing"
)

// bruteNear is nameIndex.near by scanning every key.
func bruteNear(keys []string, key string, accept func(int) bool) ([]int, int) {
	var best []int
	bestD := 0
	for i, k := range keys {
		if accept != nil && !accept(i) {
			continue
		}
		if d, ok := closeSpelling(key, k); ok {
			switch {
			case len(best) == 0 || d < bestD:
				best, bestD = []int{i}, d
			case d == bestD:
				best = append(best, i)
			}
		}
	}
	return best, bestD
}

// TestNameIndex checks the index against a scan of every name: the same answer for short lists,
// and for long ones the same names whenever the scan finds some at distance 1 (dense lists of
// short names, where a scan would cost the most), and never a name the scan would not give.
func TestNameIndex(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	word := func() string {
		const letters = "abcdeéxy12"
		n := 1 + rng.Intn(9)
		r := []rune(letters)
		out := make([]rune, n)
		for i := range out {
			out[i] = r[rng.Intn(len(r))]
		}
		return string(out)
	}
	for _, size := range []int{10, bruteForce, 300, 5000} {
		seen := map[string]bool{}
		var keys []string
		for len(keys) < size {
			if w := word(); !seen[w] {
				seen[w] = true
				keys = append(keys, w)
			}
		}
		sort.Strings(keys)
		x := newNameIndex(keys)
		for q := 0; q < 2000; q++ {
			key := word()
			if q%2 == 0 { // a misspelling of a key
				r := []rune(keys[rng.Intn(len(keys))])
				r[rng.Intn(len(r))] = []rune("abz")[rng.Intn(3)]
				key = string(r)
			}
			odd := func(i int) bool { return i%2 == 1 }
			for _, accept := range []func(int) bool{nil, odd} {
				got, gd := x.near(key, accept)
				want, wd := bruteNear(keys, key, accept)
				_, _, said := x.search(key, accept)
				exact := size <= bruteForce || len(want) > 0 && wd == 1 || said
				if exact && (!slices.Equal(got, want) || len(got) > 0 && gd != wd) {
					t.Fatalf("%d names, near(%q) = %v at %d; a scan gives %v at %d", size, key, got, gd, want, wd)
				}
				for _, i := range got {
					if d, ok := closeSpelling(key, keys[i]); !ok || d != gd || accept != nil && !accept(i) {
						t.Fatalf("%d names, near(%q) gives %q, at distance %d (%v), said %d", size, key, keys[i], d, ok, gd)
					}
				}
				if len(want) > 0 && len(got) > 0 && gd < wd {
					t.Fatalf("near(%q) found distance %d below the scan's %d", key, gd, wd)
				}
			}
		}
		t.Logf("%d names: checked", size)
	}
}

// TestProducersWideNesting: a function of ten arguments nested in itself, (p (f ?x ... ?x)) from
// (p ?x), would make a million sets six levels down; past the width bound they are anything.
func TestProducersWideNesting(t *testing.T) {
	src := "(role p) (init (s a)) (p a)\n(<= (p (f ?x ?x ?x ?x ?x ?x ?x ?x ?x ?x)) (p ?x))\n" +
		"(<= (legal p (m ?x)) (true (s ?x)) (p ?x)) (<= (next (s ?x)) (does p (m ?x)))\n" +
		"(<= terminal (true (s b))) (goal p 0)\n"
	f, _ := syntax.Parse(src)
	set := Analyze(f, nil).Model.producersAt(Rel{"p", 1}, 0)
	var count func(s *termSet) int
	count = func(s *termSet) int {
		n := 1
		for _, f := range s.funcs {
			for _, a := range f.args {
				n += count(a)
			}
		}
		return n
	}
	if n := count(set); n > 20_000 {
		t.Fatalf("the set of p's argument has %d parts; want at most 20,000", n)
	}
}

// TestSortHashed checks the radix sort of the deletion variants against a comparison sort by
// hash then id, on lists short and long, with repeated hashes and hashes alike in some bytes.
func TestSortHashed(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for _, n := range []int{0, 1, 255, 256, 3000} {
		s := make([]hashed, n)
		for i := range s {
			h := rng.Uint64() & 0x00ff_00ff_ffff_0f0f // some bytes alike in every hash
			if i > 0 && rng.Intn(4) == 0 {
				h = s[rng.Intn(i)].h // repeated
			}
			s[i] = hashed{h, int32(i)}
		}
		want := slices.Clone(s)
		slices.SortFunc(want, func(a, b hashed) int {
			if a.h != b.h {
				return cmp.Compare(a.h, b.h)
			}
			return int(a.id - b.id)
		})
		if got := sortHashed(s); !slices.Equal(got, want) {
			t.Fatalf("%d variants: the radix sort differs from a comparison sort", n)
		}
	}
}
