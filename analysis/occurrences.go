package analysis

import (
	"iter"
	"sort"
)

// A model keeps its occurrences in segments that it shares with the models it reused forms
// from: an edit copies the occurrences of no form it left alone (a 400 KB file has 50,000 of
// them, 80 bytes each, and every version copied them all), but refers to the run of them that
// an earlier version made, with how far they moved since. Model.Occ, Model.AllOccurrences and
// Clause.Occurrences give them as this version has them.

// occSeg is a run of a model's occurrences, in source order.
type occSeg struct {
	lo   int          // the index in the model of its first occurrence
	occs []Occurrence // as the model that walked their forms made them; never changed since
	d    int          // how far they moved since: add it to their spans
	dc   int32        // how far their clauses' indexes moved: add it to Clause
	// from is, while the model is built, where the run starts in its fresh occurrences when
	// occs is nil (the occurrences of forms walked anew, whose buffer may still grow).
	from int
}

// at returns occurrence k of the segment, as the model has it.
func (s *occSeg) at(k int) Occurrence {
	o := s.occs[k]
	o.Span.Start, o.Span.End, o.Clause = o.Span.Start+s.d, o.Span.End+s.d, o.Clause+s.dc
	return o
}

// maxOccSegs is how many segments a model keeps at most: past it, its occurrences are copied
// into one (each edit adds two or three, so one version in about twenty copies them all), which
// also lets go of the older versions' runs.
const maxOccSegs = 64

// NumOccurrences returns how many occurrences the model has.
func (m *Model) NumOccurrences() int { return m.occN }

// Occ returns occurrence i (0 <= i < NumOccurrences()); the occurrences are sorted by position.
func (m *Model) Occ(i int) Occurrence {
	s := m.segOf(i)
	return s.at(i - s.lo)
}

// AllOccurrences yields the index and the value of every occurrence, in source order.
func (m *Model) AllOccurrences() iter.Seq2[int, Occurrence] {
	return func(yield func(int, Occurrence) bool) {
		for si := range m.occSegs {
			s := &m.occSegs[si]
			for k := range s.occs {
				if !yield(s.lo+k, s.at(k)) {
					return
				}
			}
		}
	}
}

// rawOcc returns occurrence i as its segment stores it: every field but Span and Clause is the
// model's (the symbol tables read kinds, names and arities so, without copying).
func (m *Model) rawOcc(i int) *Occurrence {
	s := m.segOf(i)
	return &s.occs[i-s.lo]
}

// segOf returns the segment of occurrence i.
func (m *Model) segOf(i int) *occSeg {
	segs := m.occSegs
	if len(segs) == 1 {
		return &segs[0]
	}
	k := sort.Search(len(segs), func(k int) bool { return segs[k].lo > i }) - 1
	return &segs[k]
}

// Occurrences returns the clause's occurrences, in source order: the model's own when they did
// not move since they were made (the clauses walked for this version, which the per-clause
// checks read), else a moved copy.
func (c *Clause) Occurrences(m *Model) []Occurrence {
	if c.occLo == c.occHi {
		return nil
	}
	s := m.segOf(c.occLo)
	k := c.occLo - s.lo
	if s.d == 0 && s.dc == 0 {
		return s.occs[k : k+c.occHi-c.occLo : k+c.occHi-c.occLo]
	}
	out := make([]Occurrence, c.occHi-c.occLo)
	for j := range out {
		out[j] = s.at(k + j)
	}
	return out
}

// addOccRun adds to the model under construction the n occurrences of one form: fresh ones
// from index from of m.fresh when occs is nil, else occs (a run of an earlier model's, moved by
// d and dc). Runs that follow each other where they come from make one segment.
func (m *Model) addOccRun(occs []Occurrence, from, n, d int, dc int32) {
	if n == 0 {
		return
	}
	if k := len(m.occSegs) - 1; k >= 0 {
		last := &m.occSegs[k]
		if last.d == d && last.dc == dc && (occs == nil && last.occs == nil && last.from+(m.occN-last.lo) == from ||
			occs != nil && last.occs != nil && follows(last.occs, occs)) {
			if occs != nil {
				last.occs = last.occs[:len(last.occs)+n]
			}
			m.occN += n
			return
		}
	}
	m.occSegs = append(m.occSegs, occSeg{lo: m.occN, occs: occs, d: d, dc: dc, from: from})
	m.occN += n
}

// follows reports whether b starts where a ends, in the same array.
func follows(a, b []Occurrence) bool {
	return cap(a) > len(a) && len(b) > 0 && &a[:len(a)+1][len(a)] == &b[0]
}

// finishOccs ends the construction of the occurrences: the fresh runs refer to m.fresh, now
// complete, and a model of too many segments copies them into one.
func (m *Model) finishOccs() {
	for i := range m.occSegs {
		if s := &m.occSegs[i]; s.occs == nil {
			n := m.occN - s.lo
			if i+1 < len(m.occSegs) {
				n = m.occSegs[i+1].lo - s.lo
			}
			s.occs = m.fresh[s.from : s.from+n : s.from+n]
		}
	}
	m.fresh = nil
	if len(m.occSegs) <= maxOccSegs {
		return
	}
	all := make([]Occurrence, 0, m.occN)
	for _, o := range m.AllOccurrences() {
		all = append(all, o)
	}
	m.occSegs = []occSeg{{occs: all}}
}

// prevOccs returns prev's occurrences [lo, hi), those of one form, as stored, with the
// distances their segment moved them by.
func (m *Model) prevOccs(prev *Model, lo, hi int) ([]Occurrence, int, int32) {
	s := prev.segOf(lo)
	k := lo - s.lo
	return s.occs[k : k+hi-lo], s.d, s.dc
}
