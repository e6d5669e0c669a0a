package analysis

import (
	"fmt"
	"sort"
	"strings"

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
			var cands *relCandidates // what a misspelt name may stand for, made on the first use
			for key, s := range m.Relations {
				// A relation some clause defines has an occurrence in that clause's head.
				if s.defs > 0 || m.Broken[key] || inputs[key] || key == "and" {
					continue
				}
				for _, i := range s.Occs {
					o := &m.Occurrences[i]
					msg := fmt.Sprintf("relation %s is used but never defined: no fact or rule has %s as its head", o.Name, o.Name)
					if o.Key == "role" || o.Key == "init" || o.Key == "legal" {
						msg += "; it never holds"
					}
					if cands == nil {
						cands = m.relationCandidates()
					}
					more, fixes := relationSuggestions(o, cands)
					r.Report(o.Span, msg+more, nil, fixes...)
				}
			}
		},
	})
}

// relCandidate is a relation a misspelt name may stand for.
type relCandidate struct {
	key, name string // folded, and as the file writes it
	arities   map[int]bool
}

// relCandidates are the relations a misspelt name may stand for, sorted by key, with an index of
// their names.
type relCandidates struct {
	list []relCandidate
	idx  *nameIndex
}

// relationCandidates lists the relations the file defines and the ones GDL gives (true, does,
// distinct), sorted by key, with an index of their names; made once per model, and taken over
// from the previous version's model when the list is the same (most edits define no new
// relation).
func (m *Model) relationCandidates() *relCandidates {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.relCands != nil {
		return m.relCands
	}
	byKey := map[string]*relCandidate{}
	add := func(key, name string, arity int) {
		c := byKey[key]
		if c == nil {
			c = &relCandidate{key: key, name: name, arities: map[int]bool{}}
			byKey[key] = c
		}
		c.arities[arity] = true
	}
	for _, c := range m.Clauses {
		if byKey[c.Key()] != nil {
			byKey[c.Key()].arities[c.Head.Arity()] = true
			continue
		}
		name := c.Key()
		if s := m.Relations[c.Key()]; s != nil {
			name = s.Name(m)
		}
		if w, ok := m.Notation().Name(name); ok {
			add(c.Key(), w, c.Head.Arity())
		}
	}
	for k := range inputs {
		add(k, k, RelationKeywords[k])
	}
	out := make([]relCandidate, 0, len(byKey))
	for _, c := range byKey {
		out = append(out, *c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].key < out[j].key })
	if p := m.prevModel; p != nil {
		p.mu.Lock()
		pc := p.relCands
		p.mu.Unlock()
		if pc != nil && sameCandidates(pc.list, out) {
			m.relCands = pc
			return pc
		}
	}
	keys := make([]string, len(out))
	for i, c := range out {
		keys[i] = c.key
	}
	m.relCands = &relCandidates{list: out, idx: newNameIndex(keys)}
	return m.relCands
}

func sameCandidates(a, b []relCandidate) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].key != b[i].key || a[i].name != b[i].name || len(a[i].arities) != len(b[i].arities) {
			return false
		}
		for k := range a[i].arities {
			if !b[i].arities[k] {
				return false
			}
		}
	}
	return true
}

// relationSuggestions returns "did you mean" for a use of an undefined relation: the relations
// of close spelling with as many arguments, or else those with another number of arguments
// (said with their arities: the fix replaces the name, and the arity mismatch it leaves has a fix
// of its own). Each comes with a fix.
func relationSuggestions(o *Occurrence, cands *relCandidates) (string, []syntax.Fix) {
	var same, other []suggestion
	sameArity := func(i int) bool { return cands.list[i].arities[o.Arity] }
	ids, d := cands.idx.near(o.Key, sameArity)
	for _, i := range ids {
		same = append(same, suggestion{span: o.Span, from: o.Name, to: cands.list[i].name, dist: d})
	}
	if len(same) == 0 {
		ids, d = cands.idx.near(o.Key, func(i int) bool { return !sameArity(i) })
		for _, i := range ids {
			other = append(other, suggestion{span: o.Span, from: o.Name, to: cands.list[i].name, dist: d})
		}
	}
	if len(same) > 0 {
		return didYouMean(bestSuggestions(same))
	}
	var said []string
	var fixes []syntax.Fix
	for _, s := range bestSuggestions(other) {
		for _, c := range cands.list {
			if c.name != s.to {
				continue
			}
			var as []int
			for a := range c.arities {
				as = append(as, a)
			}
			sort.Ints(as)
			with := fmt.Sprintf("%s (with %s)", s.to, counted(as[0], "argument", "arguments"))
			said = append(said, with)
			fixes = append(fixes, replace(fmt.Sprintf("Did you mean %s? Replace %s with %s", with, s.from, s.to), s.span, s.to))
		}
	}
	if len(said) == 0 {
		return "", nil
	}
	return "; did you mean " + strings.Join(said, " or ") + "?", fixes
}
