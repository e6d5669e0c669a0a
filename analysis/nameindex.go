package analysis

import (
	"cmp"
	"slices"
	"sort"
	"sync"
	"unicode/utf8"
)

// nameIndex finds, among a fixed list of names (case-folded keys), those of close spelling to a
// given name (closeSpelling), so that "did you mean" costs a bounded amount of work per name
// whatever the number of names: a file with 60,000 misspelt names is checked in about the time
// of one with none.
//
// A short list (at most bruteForce names) is simply scanned. A longer one is searched in two
// steps. Every name at distance 1 shares a deletion variant with the name asked (the name itself
// or the name without one character: a substitution deletes the same place from both, a
// transposition one of the two characters from each), so the names at distance 1 are found
// exactly by looking up the variants' hashes in a sorted table. Only when there is none and the
// name is long enough (four characters) for a name at distance 2 to be close to it (or more
// than maxVariant names share one of its variants), the names sharing most character pairs
// (bigrams) are ranked, at most maxPostings entries of the bigram lists read, rarest pairs
// first, and the best maxVerified of them measured: a farther suggestion in a very long list may
// be missed, never a wrong one given. Both tables are made on first need: a new version of a
// file asks again only the names an edit may have changed the answer for (see related), often
// none.
type nameIndex struct {
	keys      []string
	delsOnce  sync.Once
	dels      []hashed // the deletion variants of every key, by hash
	gramsOnce sync.Once
	grams     map[bigram][]int32 // made on first need (most names have a suggestion at distance 1)
}

// bigram is a pair of adjacent characters of a name, '^' and '$' marking its ends.
type bigram struct{ a, b rune }

type hashed struct {
	h  uint64
	id int32
}

const (
	bruteForce  = 64  // lists up to this long are scanned whole
	maxPostings = 512 // bigram list entries read per name asked
	maxVerified = 16  // names measured per name asked, from the bigram ranking
	maxVariant  = 64  // names sharing one deletion variant that are measured
)

// newNameIndex indexes keys (the list is kept, not copied; indexes returned refer to it).
func newNameIndex(keys []string) *nameIndex { return &nameIndex{keys: keys} }

// variants returns the deletion variants of every key, sorted by hash then key, made on first
// use.
func (x *nameIndex) variants() []hashed {
	x.delsOnce.Do(func() {
		n := 0
		for _, k := range x.keys {
			n += utf8.RuneCountInString(k) + 1
		}
		dels := make([]hashed, 0, n)
		for i, k := range x.keys {
			forEachVariant(k, func(h uint64) { dels = append(dels, hashed{h, int32(i)}) })
		}
		x.dels = sortHashed(dels)
	})
	return x.dels
}

// sortHashed sorts s by hash, then by id, given s in the order of its ids: a stable radix sort on
// the hash, a byte at a time (a comparison sort of a file's 300,000 variants costs several times
// more). It returns the sorted slice, s or a slice of the same length.
func sortHashed(s []hashed) []hashed {
	if len(s) < 256 {
		slices.SortStableFunc(s, func(a, b hashed) int { return cmp.Compare(a.h, b.h) })
		return s
	}
	tmp := make([]hashed, len(s))
	for shift := uint(0); shift < 64; shift += 8 {
		var count [257]int
		for _, e := range s {
			count[(e.h>>shift)&0xff+1]++
		}
		if count[(s[0].h>>shift)&0xff+1] == len(s) {
			continue // every hash has this byte alike
		}
		for b := 1; b < len(count); b++ {
			count[b] += count[b-1]
		}
		for _, e := range s {
			d := (e.h >> shift) & 0xff
			tmp[count[d]] = e
			count[d]++
		}
		s, tmp = tmp, s
	}
	return s
}

// bigrams returns the keys of each bigram, made on first use.
func (x *nameIndex) bigrams() map[bigram][]int32 {
	x.gramsOnce.Do(func() {
		x.grams = map[bigram][]int32{}
		for i, k := range x.keys {
			forEachGram(k, func(g bigram) {
				l := x.grams[g]
				if len(l) == 0 || l[len(l)-1] != int32(i) {
					x.grams[g] = append(l, int32(i))
				}
			})
		}
	})
	return x.grams
}

// forEachVariant calls f with the hash of key and of key without each of its characters.
func forEachVariant(key string, f func(h uint64)) {
	f(hashString(key, -1, 0))
	for i, r := range key {
		f(hashString(key, i, utf8.RuneLen(r)))
	}
}

// hashString hashes key without its n bytes at skip (FNV-1a).
func hashString(key string, skip, n int) uint64 {
	const offset, prime = 14695981039346656037, 1099511628211
	h := uint64(offset)
	for i := 0; i < len(key); i++ {
		if i == skip {
			i += n - 1
			continue
		}
		h = (h ^ uint64(key[i])) * prime
	}
	return h
}

// forEachGram calls f with each pair of adjacent characters of key, the ends marked.
func forEachGram(key string, f func(g bigram)) {
	prev := '^'
	for _, r := range key {
		f(bigram{prev, r})
		prev = r
	}
	f(bigram{prev, '$'})
}

// related reports whether names a and b share a deletion variant or a bigram: a list's answer
// for a name (near, search) reads only the keys related to it, so adding or removing a key not
// related to a name leaves its answer as it was (the ids after it move, in the same order).
func related(a, b string) bool {
	var hs []uint64
	forEachVariant(a, func(h uint64) { hs = append(hs, h) })
	shared := false
	forEachVariant(b, func(h uint64) { shared = shared || slices.Contains(hs, h) })
	if shared {
		return true
	}
	var gs []bigram
	forEachGram(a, func(g bigram) { gs = append(gs, g) })
	forEachGram(b, func(g bigram) { shared = shared || slices.Contains(gs, g) })
	return shared
}

// near returns the keys of close spelling to key among those accept takes (nil: all), at the
// smallest distance found, in the list's order, and that distance.
func (x *nameIndex) near(key string, accept func(i int) bool) ([]int, int) {
	ids, d, _ := x.search(key, accept)
	return ids, d
}

// search is near, and says whether the answer is exact: every key at the smallest distance,
// which depends on no other key (a scan, or names at distance 1); the bigram ranking may find
// farther names in one list that it misses in another.
func (x *nameIndex) search(key string, accept func(i int) bool) ([]int, int, bool) {
	var best []int
	bestD := 0
	consider := func(i int) {
		if accept != nil && !accept(i) {
			return
		}
		d, ok := closeSpelling(key, x.keys[i])
		switch {
		case !ok:
		case len(best) == 0 || d < bestD:
			best, bestD = append(best[:0], i), d
		case d == bestD:
			best = append(best, i)
		}
	}
	if x.scans() {
		for i := range x.keys {
			consider(i)
		}
		return best, bestD, true
	}
	var seen []int32 // few: a linear search is the fastest
	isNew := func(id int32) bool {
		for _, s := range seen {
			if s == id {
				return false
			}
		}
		seen = append(seen, id)
		return true
	}
	dels := x.variants()
	cut := false // some variant is shared by more keys than were measured
	forEachVariant(key, func(h uint64) {
		lo, _ := slices.BinarySearchFunc(dels, h, func(e hashed, h uint64) int { return cmp.Compare(e.h, h) })
		k := lo
		for ; k < len(dels) && k < lo+maxVariant && dels[k].h == h; k++ {
			if id := dels[k].id; isNew(id) {
				consider(int(id))
			}
		}
		cut = cut || k < len(dels) && dels[k].h == h
	})
	if len(best) > 0 && bestD <= 1 || !cut && maxCloseDistance(key) <= 1 {
		// Every key at distance 1 is among those measured, and no farther one is close.
		return sortedInts(best), bestD, true
	}
	for _, id := range x.ranked(key) {
		if isNew(id) {
			consider(int(id))
		}
	}
	return sortedInts(best), bestD, len(best) > 0 && bestD <= 1
}

// maxCloseDistance is the largest distance at which a name may be of close spelling to key
// (closeSpelling): a third of the longer name, which is at most half as long again as key.
func maxCloseDistance(key string) int { return utf8.RuneCountInString(key) / 2 }

// scans says whether the index scans its list whole (a short list).
func (x *nameIndex) scans() bool { return len(x.keys) <= bruteForce }

// ranked returns the keys that share most bigrams with key, best first, reading at most
// maxPostings entries of the bigram lists, rarest bigrams first.
func (x *nameIndex) ranked(key string) []int32 {
	var lists [][]int32
	grams := x.bigrams()
	forEachGram(key, func(g bigram) {
		if l := grams[g]; len(l) > 0 {
			lists = append(lists, l)
		}
	})
	sort.SliceStable(lists, func(i, j int) bool { return len(lists[i]) < len(lists[j]) })
	count := map[int32]int{}
	budget := maxPostings
	for _, l := range lists {
		for _, id := range l[:min(len(l), budget)] {
			count[id]++
		}
		if budget -= min(len(l), budget); budget == 0 {
			break
		}
	}
	ids := make([]int32, 0, len(count))
	for id := range count {
		ids = append(ids, id)
	}
	n := utf8.RuneCountInString(key)
	lenGap := func(id int32) int {
		d := utf8.RuneCountInString(x.keys[id]) - n
		return max(d, -d)
	}
	sort.Slice(ids, func(i, j int) bool {
		a, b := ids[i], ids[j]
		if count[a] != count[b] {
			return count[a] > count[b]
		}
		if ga, gb := lenGap(a), lenGap(b); ga != gb {
			return ga < gb
		}
		return a < b
	})
	return ids[:min(len(ids), maxVerified)]
}

func sortedInts(s []int) []int {
	sort.Ints(s)
	return s
}
