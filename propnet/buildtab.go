package propnet

import (
	"slices"

	"github.com/gdl-lsp/gdl/eval"
)

// The builder's tables: arrays indexed by dense ids in place of hashed maps (the grounding's
// atoms are terms of one range of the term store, the nodes are numbered from 0), and one hash
// table of the gates by kind and inputs.

// unresolved marks an atom whose node is not made yet.
const unresolved = ^ref(0)

// atomTable is per atom of the grounding, indexed by the atom's term minus lo: its node, its
// ground rules, and the numbers of Tarjan's algorithm while it is resolved.
type atomTable struct {
	lo      eval.Term
	node    []ref   // 1 + its node: 0 (make's zero, no pass to fill) is unresolved
	ruleOff []int32 // the indices of its ground rules: rules[ruleOff[i]:ruleOff[i+1]]
	rules   []int32
	index   []int32 // 1 + the order in which resolve visited it; 0 before
	low     []int32
	visits  int32 // the atoms visited so far
}

// newAtomTable makes the table of every atom of gr: those of true and does, the outputs, and the
// heads and literals of the ground rules, whose rules it indexes by head (each head's in order).
func newAtomTable(gr *eval.Grounding) *atomTable {
	lo, hi := ^eval.Term(0), eval.Term(0)
	see := func(a eval.Term) {
		if a != 0 {
			lo, hi = min(lo, a), max(hi, a)
		}
	}
	eachGroundingAtom(gr, see)
	for i := range gr.Rules {
		r := &gr.Rules[i]
		see(r.Head)
		for _, l := range r.Body {
			see(l.Atom)
		}
	}
	span := 0 // no atom at all: an empty table (hi - lo would wrap around to 2³² - 1)
	if lo <= hi {
		span = int(hi-lo) + 1
	}
	t := &atomTable{lo: lo, node: make([]ref, span), ruleOff: make([]int32, span+2),
		rules: make([]int32, len(gr.Rules)), index: make([]int32, span), low: make([]int32, span)}
	// Counting sort by head: counts at ruleOff[h+2], starts at ruleOff[h+1] after the sums,
	// ends at ruleOff[h+1] (the start of h+1) after the fill.
	for i := range gr.Rules {
		t.ruleOff[gr.Rules[i].Head-lo+2]++
	}
	for i := 2; i < len(t.ruleOff); i++ {
		t.ruleOff[i] += t.ruleOff[i-1]
	}
	for i := range gr.Rules {
		h := gr.Rules[i].Head - lo + 1
		t.rules[t.ruleOff[h]] = int32(i)
		t.ruleOff[h]++
	}
	t.ruleOff = t.ruleOff[:span+1]
	return t
}

// eachGroundingAtom calls see on the atoms of true and does and on the outputs of gr.
func eachGroundingAtom(gr *eval.Grounding, see func(eval.Term)) {
	for _, a := range gr.TrueAtoms {
		see(a)
	}
	for _, a := range gr.NextAtoms {
		see(a)
	}
	for _, as := range slices.Concat(gr.DoesAtoms, gr.Legal) {
		for _, a := range as {
			see(a)
		}
	}
	for _, gs := range gr.Goals {
		for _, g := range gs {
			see(g.Atom)
		}
	}
	for _, ps := range gr.Sees {
		for _, p := range ps {
			see(p.Atom)
		}
	}
	see(gr.Terminal)
}

// get returns the node of atom a, or unresolved.
func (t *atomTable) get(a eval.Term) ref { return t.node[a-t.lo] - 1 }

func (t *atomTable) set(a eval.Term, r ref) { t.node[a-t.lo] = r + 1 }

// rulesOf returns the indices of a's ground rules.
func (t *atomTable) rulesOf(a eval.Term) []int32 {
	i := a - t.lo
	return t.rules[t.ruleOff[i]:t.ruleOff[i+1]]
}

// gateTable finds a gate by its kind and inputs: open addressing over hash<<32 | node, 0 an
// empty slot (node 0 is a constant, never a gate).
type gateTable struct {
	slots []uint64
	count int
}

func hashGate(kind uint8, ins []ref) uint32 {
	h := uint64(kind) + 0x9e3779b97f4a7c15
	for _, r := range ins {
		h = (h ^ uint64(r)) * 0xbf58476d1ce4e5b9
		h ^= h >> 31
	}
	return uint32(h>>32) | 1
}

// find returns the gate of kind with inputs ins, or 0 and the slot where to add it.
func (b *builder) findGate(kind uint8, ins []ref, h uint32) (int32, int) {
	t := &b.gates
	if len(t.slots) == 0 {
		t.slots = make([]uint64, 1024)
	}
	mask := len(t.slots) - 1
	for i := int(h) & mask; ; i = (i + 1) & mask {
		s := t.slots[i]
		if s == 0 {
			return 0, i
		}
		if uint32(s>>32) != h {
			continue
		}
		id := int32(uint32(s))
		if b.nodes[id].kind == kind && slices.Equal(b.insOf(id), ins) {
			return id, i
		}
	}
}

// addGate records gate id at slot i (from findGate), growing the table past half full.
func (b *builder) addGate(id int32, h uint32, i int) {
	t := &b.gates
	t.slots[i] = uint64(h)<<32 | uint64(uint32(id))
	t.count++
	if 2*t.count <= len(t.slots) {
		return
	}
	old := t.slots
	t.slots = make([]uint64, 2*len(old))
	mask := len(t.slots) - 1
	for _, s := range old {
		if s == 0 {
			continue
		}
		j := int(s>>32) & mask
		for t.slots[j] != 0 {
			j = (j + 1) & mask
		}
		t.slots[j] = s
	}
}

// reserve extends *s by n zero elements and returns them as an empty slice of capacity n: a
// region of a stack of scratch memory, released by truncating *s. A region stays valid when a
// later reserve moves *s (it keeps the old array), so nested calls can each take their own.
func reserve[T any](s *[]T, n int) []T {
	*s = slices.Grow(*s, n)
	start := len(*s)
	*s = (*s)[:start+n]
	clear((*s)[start:])
	return (*s)[start : start : start+n]
}
