package analysis

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/gdl-lsp/gdl/syntax"
)

// inputs are relations a game may use without defining them: the state and the joint move are
// given by the game manager, and distinct is built in.
var inputs = map[string]bool{"true": true, "does": true, "distinct": true}

func init() {
	register(&Check{
		Code:     "undefined-relation",
		Severity: Warning,
		Category: CategorySemantics,
		Summary:  "A relation is used in a rule body but no fact or rule defines it, so it never holds. Usually a typo; ggp-base's own tests rely on it being allowed.",
		Example:  "(<= (legal white noop) (true (control black)) (ready white))   ; ready is defined nowhere",
		Fix: "Define the relation, or correct the name (spelling and arity): the quick fixes offer the defined " +
			"relations of close spelling with as many arguments, or else those with another number of arguments.",
		Run: func(m *Model, r *Reporter) {
			var uses []int
			for s := range m.relationSymbols() {
				key := s.Key
				// A relation some clause defines has an occurrence in that clause's head.
				if s.defs > 0 || m.Broken[key] || inputs[key] || key == "and" {
					continue
				}
				uses = append(uses, s.Occs...)
			}
			slices.Sort(uses)        // occurrences are numbered in source order
			var cands *relCandidates // what a misspelt name may stand for, made on the first use
			for k, i := range uses {
				o := m.Occ(i)
				msg := "relation " + o.Name + " is used but never defined: no fact or rule has " + o.Name + " as its head"
				if o.Key == "role" || o.Key == "init" || o.Key == "legal" {
					msg += "; it never holds"
				}
				if k >= maxSuggested {
					r.Report(o.Span, msg, nil)
					continue
				}
				if cands == nil {
					cands = m.relationCandidates()
				}
				more, fixes := relationSuggestions(&o, cands)
				r.Report(o.Span, msg+more, nil, fixes...)
			}
		},
	})
}

// maxSuggested bounds the uses of undefined names (per check) that get "did you mean": the
// first ones in the file. Editors and gdl check show the first 1,000 diagnostics of a file, so
// a file of 60,000 misspelt names does not pay for suggestions nobody sees.
const maxSuggested = 2000

// relCandidate is a relation a misspelt name may stand for.
type relCandidate struct {
	key, name string // folded, and as the file writes it
	arities   []int  // sorted
}

// relCandidates are the relations a misspelt name may stand for, sorted by key, with an index of
// their names and the answers given so far (by name and arity).
type relCandidates struct {
	list  []relCandidate
	byKey map[string]int
	idx   *nameIndex
	mu    sync.Mutex
	memo  map[relQuery]relAnswer
}

// relQuery is a use of an undefined relation, as far as its suggestions go.
type relQuery struct {
	key   string
	arity int
}

// relAnswer is the relations suggested for a relQuery: of its arity (same), or else of others.
type relAnswer struct {
	keys  []string
	dist  int
	same  bool
	exact bool // see nameIndex.search and keepAnswers
}

// relationCandidates lists the relations the file defines and the ones GDL gives (true, does,
// distinct), sorted by key, with an index of their names; made once per model. The previous
// version's list serves when it is the same (most edits define no new relation), and is patched
// where an edit changed a few relations (rel_candidates_reuse.go); then its answers serve for
// the names no changed relation is close to in spelling.
func (m *Model) relationCandidates() *relCandidates {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.relCands != nil {
		return m.relCands
	}
	prev := m.prevRelCands
	m.prevRelCands = nil
	var out []relCandidate
	var index map[string]int
	var changed []string
	if prev != nil {
		var ok bool
		out, index, changed, ok = m.patchCandidates(prev)
		if ok && len(changed) == 0 {
			m.relCands = prev
			return prev
		}
	}
	if out == nil {
		out, index = m.candidateList()
		changed = nil
		if prev != nil {
			changed = changedCandidates(prev, out, index)
		}
	}
	keys := make([]string, len(out))
	for i, c := range out {
		keys[i] = c.key
	}
	m.relCands = &relCandidates{list: out, byKey: index, idx: newNameIndex(keys), memo: map[relQuery]relAnswer{}}
	if prev != nil {
		m.relCands.keepAnswers(prev, changed)
	}
	return m.relCands
}

// candidateList returns the relations a misspelt name may stand for, sorted by key, and the
// index of each key in the list.
func (m *Model) candidateList() ([]relCandidate, map[string]int) {
	b := m.newCandidateBuilder(len(m.Relations) + len(inputs)) // no more than the relations
	for _, c := range m.Clauses {
		b.add(c.key, c.arity)
	}
	for k := range inputs {
		b.addInput(k)
	}
	return b.sorted()
}

// candidateBuilder makes candidates from clauses and inputs as candidateList reads them.
type candidateBuilder struct {
	m   *Model
	out []relCandidate
	at  map[string]int // key -> index in out, or -1: not writable
}

func (m *Model) newCandidateBuilder(n int) *candidateBuilder {
	return &candidateBuilder{m: m, out: make([]relCandidate, 0, n), at: make(map[string]int, n)}
}

// add adds a clause of relation key with arity arguments.
func (b *candidateBuilder) add(key string, arity int) {
	b.addNamed(key, func() (string, bool) { return b.m.candidateName(key) }, arity)
}

// addInput adds relation k that GDL gives.
func (b *candidateBuilder) addInput(k string) {
	b.addNamed(k, func() (string, bool) { return k, true }, RelationKeywords[k])
}

func (b *candidateBuilder) addNamed(key string, name func() (string, bool), arity int) {
	i, ok := b.at[key]
	if !ok || i < 0 {
		w, writable := name()
		if !writable {
			b.at[key] = -1
			return
		}
		i = len(b.out)
		b.at[key] = i
		b.out = append(b.out, relCandidate{key: key, name: w})
	}
	if !slices.Contains(b.out[i].arities, arity) {
		b.out[i].arities = append(b.out[i].arities, arity)
	}
}

// sorted returns the candidates sorted by key, each one's arities sorted, and the index of each
// key in the list.
func (b *candidateBuilder) sorted() ([]relCandidate, map[string]int) {
	out, at := b.out, b.at
	for k, i := range at {
		if i < 0 {
			delete(at, k)
		}
	}
	// Sorted as plain strings, then moved: several times faster than sorting the candidates.
	keys := make([]string, len(out))
	for i, c := range out {
		keys[i] = c.key
	}
	slices.Sort(keys)
	sorted := make([]relCandidate, len(out))
	for i, k := range keys {
		sorted[i] = out[at[k]]
		slices.Sort(sorted[i].arities)
		at[k] = i
	}
	return sorted, at
}

// candidateName returns the name of the relation key as a suggestion writes it, and whether it
// can be written in the file's notation.
func (m *Model) candidateName(key string) (string, bool) {
	name := key
	if s := m.Relations[key]; s != nil {
		name = s.Name(m)
	}
	return m.Notation().Name(name)
}

// maxChanged bounds the relations an edit may change for the previous version's answers to be
// checked one by one against them.
const maxChanged = 16

// changedCandidates returns the keys of the relations added, removed, or with other arities or
// spelling in list (indexed by byKey) since prev.
func changedCandidates(prev *relCandidates, list []relCandidate, byKey map[string]int) []string {
	var changed []string
	for _, rc := range list {
		if i, ok := prev.index(rc.key); !ok || !sameCandidate(prev.list[i], rc) {
			changed = append(changed, rc.key)
		}
	}
	for _, rc := range prev.list {
		if _, ok := (&relCandidates{list: list, byKey: byKey}).index(rc.key); !ok {
			changed = append(changed, rc.key)
		}
	}
	return changed
}

// keepAnswers takes over prev's answers that no relation changed since (changed: added,
// removed, or with other arities or spelling) can alter: none of their suggestions changed, no
// changed relation is close in spelling to the name asked, and, for an answer from the bigram
// ranking (not exact), none is related to it (shares a deletion variant or a bigram: the ranking
// reads only those).
func (c *relCandidates) keepAnswers(prev *relCandidates, changed []string) {
	if len(changed) > maxChanged || c.idx.scans() != prev.idx.scans() {
		return
	}
	prev.mu.Lock()
	defer prev.mu.Unlock()
next:
	for q, a := range prev.memo {
		for _, k := range changed {
			if _, close := closeSpelling(q.key, k); close || slices.Contains(a.keys, k) || !a.exact && related(q.key, k) {
				continue next
			}
		}
		c.memo[q] = a
	}
}

// at returns the position of key, a key of the list, in the list.
func (c *relCandidates) at(key string) int {
	i, _ := c.index(key)
	return i
}

func sameCandidate(a, b relCandidate) bool {
	return a.key == b.key && a.name == b.name && slices.Equal(a.arities, b.arities)
}

// answer returns the relations suggested for a use of key with arity arguments.
func (c *relCandidates) answer(key string, arity int) relAnswer {
	q := relQuery{key, arity}
	c.mu.Lock()
	a, ok := c.memo[q]
	c.mu.Unlock()
	if ok {
		return a
	}
	sameArity := func(i int) bool { return slices.Contains(c.list[i].arities, arity) }
	ids, d, exact := c.idx.search(key, sameArity)
	a = relAnswer{dist: d, same: len(ids) > 0, exact: exact}
	if !a.same {
		ids, d, exact = c.idx.search(key, func(i int) bool { return !sameArity(i) })
		a.dist, a.exact = d, a.exact && exact
	}
	for _, i := range ids {
		a.keys = append(a.keys, c.list[i].key)
	}
	c.mu.Lock()
	c.memo[q] = a
	c.mu.Unlock()
	return a
}

// relationSuggestions returns "did you mean" for a use of an undefined relation: the relations
// of close spelling with as many arguments, or else those with another number of arguments
// (said with their arities: the fix replaces the name, and the arity mismatch it leaves has a fix
// of its own). Each comes with a fix.
func relationSuggestions(o *Occurrence, cands *relCandidates) (string, []syntax.Fix) {
	a := cands.answer(o.Key, int(o.Arity))
	var ss []suggestion
	for _, k := range a.keys {
		ss = append(ss, suggestion{span: o.Span, from: o.Name, to: cands.list[cands.at(k)].name, dist: a.dist})
	}
	if a.same {
		return didYouMean(bestSuggestions(ss))
	}
	var said []string
	var fixes []syntax.Fix
	for _, s := range bestSuggestions(ss) {
		for _, k := range a.keys {
			c := cands.list[cands.at(k)]
			if c.name != s.to {
				continue
			}
			with := fmt.Sprintf("%s (with %s)", s.to, counted(c.arities[0], "argument", "arguments"))
			said = append(said, with)
			fixes = append(fixes, replace(fmt.Sprintf("Did you mean %s? Replace %s with %s", with, s.from, s.to), s.span, s.to))
		}
	}
	if len(said) == 0 {
		return "", nil
	}
	return "; did you mean " + strings.Join(said, " or ") + "?", fixes
}
