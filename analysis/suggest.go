package analysis

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/gdl-lsp/gdl/syntax"
)

// "Did you mean ...?": the names a misspelt one may stand for, by spelling (and, where the
// caller filters them, by arity), for the checks of things that never hold.

// spellingDistance is the optimal string alignment distance of two names (case-folded keys):
// insertions, deletions, substitutions and transpositions of adjacent characters count one.
func spellingDistance(a, b string) int {
	var bufA, bufB [32]rune
	var rows [3][33]int
	ra, rb := appendRunes(bufA[:0], a), appendRunes(bufB[:0], b)
	var prev2, prev, cur []int
	if len(rb) < len(rows[0]) {
		prev2, prev, cur = rows[0][:len(rb)+1], rows[1][:len(rb)+1], rows[2][:len(rb)+1]
	} else {
		prev2, prev, cur = make([]int, len(rb)+1), make([]int, len(rb)+1), make([]int, len(rb)+1)
	}
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

func appendRunes(buf []rune, s string) []rune {
	for _, r := range s {
		buf = append(buf, r)
	}
	return buf
}

// closeSpelling reports whether name b may be what a misspelt a meant, and how far apart they
// are: at most a third of the longer name's characters differ (cel and cell, wite and white,
// mrak and mark), and two different numbers are never a typo of each other.
func closeSpelling(a, b string) (int, bool) {
	if a == b || isNumber(a) && isNumber(b) {
		return 0, false
	}
	n := max(utf8.RuneCountInString(a), utf8.RuneCountInString(b))
	if gap := utf8.RuneCountInString(a) - utf8.RuneCountInString(b); 3*max(gap, -gap) > n {
		return 0, false // the lengths alone differ by more than a third
	}
	d := spellingDistance(a, b)
	return d, d > 0 && 3*d <= n
}

func isNumber(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// suggestion is one "did you mean": the name at span, and what to write instead.
type suggestion struct {
	span     syntax.Span
	from, to string // as written
	dist     int
}

// bestSuggestions keeps the suggestions at the smallest distance, one per replacement, sorted.
func bestSuggestions(ss []suggestion) []suggestion {
	if len(ss) == 0 {
		return nil
	}
	best := ss[0].dist
	for _, s := range ss {
		best = min(best, s.dist)
	}
	seen := map[string]bool{}
	var out []suggestion
	for _, s := range ss {
		k := fmt.Sprint(s.span, syntax.Fold(s.from), syntax.Fold(s.to))
		if s.dist == best && !seen[k] {
			seen[k] = true
			out = append(out, s)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].span != out[j].span {
			return out[i].span.Start < out[j].span.Start
		}
		return out[i].to < out[j].to
	})
	if len(out) > 3 {
		out = out[:3]
	}
	return out
}

// didYouMean writes the suggestions as the end of a message, "; did you mean cell?", and
// returns one fix per suggestion, best first.
func didYouMean(ss []suggestion) (string, []syntax.Fix) {
	if len(ss) == 0 {
		return "", nil
	}
	var names []string
	var fixes []syntax.Fix
	for _, s := range ss {
		names = append(names, s.to)
		fixes = append(fixes, replace(fmt.Sprintf("Did you mean %s? Replace %s with %s", s.to, s.from, s.to), s.span, s.to))
	}
	return "; did you mean " + strings.Join(names, " or ") + "?", fixes
}

// setSuggestions returns the single changes of a name in x (the function name, or a
// constant, at any depth) to a name of close spelling that make x match a term of set s, the
// closest ones. x matches no term of s.
func setSuggestions(x syntax.Term, s *termSet) []suggestion {
	_, out := nameChanges(x, s)
	return bestSuggestions(out)
}

// nameChanges reports whether x matches a term of s, and else the changes of one name of x
// that make it match.
func nameChanges(x syntax.Term, s *termSet) (bool, []suggestion) {
	if s.matches(x) {
		return true, nil
	}
	var out []suggestion
	change := func(to string) {
		if d, ok := closeSpelling(x.Name().Key(), syntax.Fold(to)); ok {
			out = append(out, suggestion{span: x.Name().Span(), from: x.Name().Text(), to: to, dist: d})
		}
	}
	names := s.names()
	switch termShape(x) {
	case syntax.TermConstant:
		ids, _ := names.consts.near(x.Name().Key(), nil)
		for _, i := range ids {
			change(s.consts[names.consts.keys[i]])
		}
	case syntax.TermFunction:
		// Another function name whose arguments x's match.
		if ix := names.funcs[x.Arity()]; ix != nil {
			fn := func(i int) *funcTerm { return s.funcs[funcKey{ix.keys[i], x.Arity()}] }
			ids, _ := ix.near(x.Name().Key(), func(i int) bool {
				f := fn(i)
				for j, a := range x.ArgSeq() {
					if !f.args[j].matches(a) {
						return false
					}
				}
				return true
			})
			for _, i := range ids {
				change(fn(i).name)
			}
		}
		// The same function name, with one argument changed.
		if f := s.funcs[funcKey{x.Name().Key(), x.Arity()}]; f != nil {
			bad := -1
			for i, a := range x.ArgSeq() {
				if !f.args[i].matches(a) {
					if bad >= 0 {
						bad = -2
						break
					}
					bad = i
				}
			}
			if bad >= 0 {
				_, inner := nameChanges(x.Args()[bad], f.args[bad])
				out = append(out, inner...)
			}
		}
	}
	return false, out
}

// setNames indexes the names of a set's constants, and of its function terms per arity, for
// "did you mean".
type setNames struct {
	consts        *nameIndex
	funcs         map[int]*nameIndex
	nconst, nfunc int // the sizes of the set it was made for
}

// names returns s's index of names, made on first use. A set asked for suggestions is at its
// fixpoint, and several checks may ask at once: the index is made once and published
// atomically (one made for other sizes is made again).
func (s *termSet) names() *setNames {
	if n := s.index.Load(); n != nil && n.nconst == len(s.consts) && n.nfunc == len(s.funcs) {
		return n
	}
	keys := make([]string, 0, len(s.consts))
	for k := range s.consts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	n := &setNames{consts: newNameIndex(keys), funcs: map[int]*nameIndex{}, nconst: len(s.consts), nfunc: len(s.funcs)}
	byArity := map[int][]string{}
	for k := range s.funcs {
		byArity[k.arity] = append(byArity[k.arity], k.key)
	}
	for a, ks := range byArity {
		sort.Strings(ks)
		n.funcs[a] = newNameIndex(ks)
	}
	s.index.Store(n)
	return n
}

// arityHint says, for a function term x that matches no term of set s, with how many
// arguments s has terms of its name: " (cell has 3 arguments)"; "" when none.
func arityHint(x syntax.Term, s *termSet) string {
	if termShape(x) != syntax.TermFunction {
		return ""
	}
	var ns []int
	for k := range s.funcs {
		if k.key == x.Name().Key() && k.arity != x.Arity() {
			ns = append(ns, k.arity)
		}
	}
	if len(ns) == 0 {
		return ""
	}
	sort.Ints(ns)
	if len(ns) == 1 {
		return fmt.Sprintf(" (%s has %s)", x.Name().Text(), counted(ns[0], "argument", "arguments"))
	}
	var ws []string
	for _, n := range ns {
		ws = append(ws, fmt.Sprint(n))
	}
	return fmt.Sprintf(" (%s has %s arguments)", x.Name().Text(), strings.Join(ws, " or "))
}

// Closest returns the candidates whose spelling is close to name's (as the checks' "did you
// mean" judges it, case folded), those at the smallest distance only, in the candidates'
// order: for the CLI's misspelt commands and flags.
func Closest(name string, candidates []string) []string {
	var out []string
	best := 0
	for _, c := range candidates {
		d, ok := closeSpelling(strings.ToLower(name), strings.ToLower(c))
		switch {
		case !ok:
		case out == nil || d < best:
			out, best = []string{c}, d
		case d == best:
			out = append(out, c)
		}
	}
	return out
}
