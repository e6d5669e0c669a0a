package analysis

import (
	"sort"
	"strings"

	"github.com/gdl-lsp/gdl/syntax"
)

// AppliedFix is a fix that ApplyFixes applied, with the diagnostic it repairs.
type AppliedFix struct {
	Diagnostic Diagnostic
	Fix        syntax.Fix
}

// ApplyFixes applies to src, at once, the first fix of each diagnostic that take accepts (nil
// takes every one), as an editor's "fix all" or `gdl check --fix` does (ChooseFixes says which
// fixes go together). It returns the new text and the fixes applied, in the diagnostics' order.
func ApplyFixes(src string, ds []Diagnostic, take func(Diagnostic, syntax.Fix) bool) (string, []AppliedFix) {
	edits, applied := ChooseFixes(len(src), ds, take)
	return ApplyEdits(src, edits), applied
}

// ChooseFixes chooses, in the diagnostics' order, the first fix of each diagnostic that take
// accepts (nil takes every one), for a text of size bytes: an edit that a fix already chosen
// makes (two fixes adding the same helper rule) is made once, and a fix with an edit that
// overlaps one already chosen, or that starts where one starts (two insertions there, or one
// before a replacement, would depend on the order they are applied in), is left out: the next
// analysis offers it again. It returns the edits, sorted by position, which do not overlap, and
// the fixes chosen. Time O(e log e) for e edits, so a file with a million fixes is fine.
func ChooseFixes(size int, ds []Diagnostic, take func(Diagnostic, syntax.Fix) bool) ([]syntax.TextEdit, []AppliedFix) {
	var cands []int // every candidate edit's start, for the index of the chosen ones
	for _, d := range ds {
		if len(d.Fixes) > 0 {
			for _, e := range d.Fixes[0].Edits {
				cands = append(cands, e.Span.Start)
			}
		}
	}
	set := newStartSet(cands)
	var chosen []syntax.TextEdit
	var applied []AppliedFix
	var fresh []syntax.TextEdit
	for _, d := range ds {
		if len(d.Fixes) == 0 || take != nil && !take(d, d.Fixes[0]) {
			continue
		}
		fix := d.Fixes[0]
		fresh = fresh[:0]
		ok := true
		for _, e := range fix.Edits {
			if e.Span.Start < 0 || e.Span.End > size || e.Span.Start > e.Span.End {
				ok = false
				break
			}
			switch set.conflict(e, chosen) {
			case conflictNone:
				fresh = append(fresh, e)
			case conflictOverlap:
				ok = false
			}
		}
		if !ok || !apart(fresh) {
			continue
		}
		for _, e := range fresh {
			set.add(e, len(chosen))
			chosen = append(chosen, e)
		}
		applied = append(applied, AppliedFix{d, fix})
	}
	sort.Slice(chosen, func(i, j int) bool { return chosen[i].Span.Start < chosen[j].Span.Start })
	return chosen, applied
}

// ApplyEdits returns src with the edits applied; they must be sorted by position and must not
// overlap (as ChooseFixes gives them). Linear in the size of src and of the edits.
func ApplyEdits(src string, edits []syntax.TextEdit) string {
	if len(edits) == 0 {
		return src
	}
	var b strings.Builder
	n := len(src)
	for _, e := range edits {
		n += len(e.NewText) - (e.Span.End - e.Span.Start)
	}
	b.Grow(n)
	at := 0
	for _, e := range edits {
		b.WriteString(src[at:e.Span.Start])
		b.WriteString(e.NewText)
		at = e.Span.End
	}
	b.WriteString(src[at:])
	return b.String()
}

// apart reports whether the edits of one fix leave each other alone: no two overlap or start at
// one offset. It sorts them.
func apart(edits []syntax.TextEdit) bool {
	sort.Slice(edits, func(i, j int) bool { return edits[i].Span.Start < edits[j].Span.Start })
	for i := 1; i < len(edits); i++ {
		if edits[i].Span.Start == edits[i-1].Span.Start || edits[i].Span.Start < edits[i-1].Span.End {
			return false
		}
	}
	return true
}

type conflict uint8

const (
	conflictNone    conflict = iota
	conflictSame             // the edit is one already chosen
	conflictOverlap          // the edit overlaps one already chosen, or starts where it starts
)

// startSet holds the chosen edits by their start, among the starts of the candidate edits: a
// Fenwick tree counts the chosen starts below a candidate, and finds the chosen edit before a
// position, in O(log n).
type startSet struct {
	pos  []int   // the candidates' starts, sorted, each once
	tree []int32 // Fenwick tree over pos: the number of chosen starts
	at   []int32 // per start, the chosen edit starting there (an index into chosen), or -1
}

func newStartSet(starts []int) *startSet {
	sort.Ints(starts)
	pos := starts[:0]
	for i, p := range starts {
		if i == 0 || p != starts[i-1] {
			pos = append(pos, p)
		}
	}
	at := make([]int32, len(pos))
	for i := range at {
		at[i] = -1
	}
	return &startSet{pos: pos, tree: make([]int32, len(pos)+1), at: at}
}

// index returns the number of candidate starts below p.
func (s *startSet) index(p int) int { return sort.SearchInts(s.pos, p) }

// below returns the number of chosen starts among the first i candidates.
func (s *startSet) below(i int) int {
	n := 0
	for ; i > 0; i -= i & -i {
		n += int(s.tree[i])
	}
	return n
}

// kth returns the index of the k-th chosen start (k >= 1), counting from the lowest.
func (s *startSet) kth(k int) int {
	i, step := 0, 1
	for step*2 <= len(s.pos) {
		step *= 2
	}
	for ; step > 0; step /= 2 {
		if j := i + step; j <= len(s.pos) && int(s.tree[j]) < k {
			i = j
			k -= int(s.tree[j])
		}
	}
	return i // the tree is 1-based: its i+1st entry is pos[i]
}

func (s *startSet) add(e syntax.TextEdit, edit int) {
	i := s.index(e.Span.Start)
	s.at[i] = int32(edit)
	for j := i + 1; j <= len(s.pos); j += j & -j {
		s.tree[j]++
	}
}

// conflict says how e stands to the chosen edits (its start is a candidate's).
func (s *startSet) conflict(e syntax.TextEdit, chosen []syntax.TextEdit) conflict {
	i := s.index(e.Span.Start)
	if k := s.at[i]; k >= 0 {
		if chosen[k] == e {
			return conflictSame
		}
		return conflictOverlap
	}
	if s.below(s.index(e.Span.End)) > s.below(i+1) { // a chosen edit starts inside e
		return conflictOverlap
	}
	if n := s.below(i); n > 0 && chosen[s.at[s.kth(n)]].Span.End > e.Span.Start { // the one before reaches into e
		return conflictOverlap
	}
	return conflictNone
}
