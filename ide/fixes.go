package ide

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/syntax"
)

// The editor's own quick fixes, for diagnostics that the analyzer reports without one: an
// arity mismatch gets the use changed to the arity used elsewhere (arguments added, named as
// the other uses name them, or removed); a relation used but never defined gets "did you mean"
// fixes that replace it with a defined relation of a similar spelling. An analyzer fix, when a
// check has one, comes first and the editor adds none.

// editorFixes returns the fixes the editor offers for d (which has none of its own).
func editorFixes(snap *Snapshot, d analysis.Diagnostic) []syntax.Fix {
	switch d.Code {
	case "arity-mismatch":
		return arityFixes(snap, d)
	case "undefined-relation":
		return didYouMean(snap, d)
	}
	return nil
}

// arityFixes changes the use at d to the arity the related location (the first use with the
// majority arity) has: the extra arguments are removed, or the missing ones added as variables
// named as the other uses name them. Adding variables is offered in rules only: a fact must stay
// ground.
func arityFixes(snap *Snapshot, d analysis.Diagnostic) []syntax.Fix {
	m := snap.Model()
	o := m.OccurrenceAt(d.Span.Start)
	if o == nil || o.Span != d.Span || len(d.Related) == 0 || (o.Kind != analysis.OccRelation && o.Kind != analysis.OccFunction) {
		return nil
	}
	major := m.OccurrenceAt(d.Related[0].Span.Start)
	if major == nil || major.Key != o.Key || major.Kind != o.Kind || major.Arity == o.Arity {
		return nil
	}
	want := major.Arity
	list := listNamed(snap.File(), o.Span)
	var args []syntax.Term
	if list.Valid() {
		args = (syntax.Term{Cursor: list}).Args()
	}
	if len(args) != o.Arity {
		return nil
	}
	what := "arguments"
	if want == 1 {
		what = "argument"
	}
	switch {
	case o.Arity > want:
		drop := args[want:]
		removed := make([]string, len(drop))
		for i, a := range drop {
			removed[i] = a.Text()
		}
		title := fmt.Sprintf("Remove %s: %s with %d %s, as elsewhere", shorten(strings.Join(removed, " "), 40), o.Name, want, what)
		if want == 0 {
			// A relation or function without arguments is written without parentheses.
			return []syntax.Fix{{Title: title, Edits: []syntax.TextEdit{{Span: list.Span(), NewText: o.Name}}}}
		}
		from := args[want-1].Span().End
		return []syntax.Fix{{Title: title, Edits: []syntax.TextEdit{{Span: syntax.Span{Start: from, End: drop[len(drop)-1].Span().End}}}}}
	default:
		c := m.Clauses[o.Clause]
		if !c.IsRule {
			return nil
		}
		info := argumentInfo(m, snap.File(), o.Key, want, o.Kind == analysis.OccFunction, o.Span)
		var names []string
		taken := map[string]bool{}
		for k := range c.Vars {
			taken[k] = true
		}
		for _, a := range info[o.Arity:] {
			name := a.Name
			// A name the rule already uses would join the two; a new one is a fresh variable.
			for n := 2; taken[syntax.VarKey(name)]; n++ {
				name = fmt.Sprintf("%s_%d", a.Name, n)
			}
			taken[syntax.VarKey(name)] = true
			names = append(names, name)
		}
		d := snap.Dialect()
		sep := " " // (p ?x ?y), p(X,Y)
		if d == syntax.Infix {
			sep = ","
		}
		added := strings.Join(names, sep)
		title := fmt.Sprintf("Add %s: %s with %d %s, as elsewhere", added, o.Name, want, what)
		if !list.Valid() || len(args) == 0 && d == syntax.Infix { // p, p(): the atom is written anew
			sp := o.Span
			if list.Valid() {
				sp = list.Span()
			}
			return []syntax.Fix{{Title: title, Edits: []syntax.TextEdit{{Span: sp, NewText: d.Atom(o.Name, names...)}}}}
		}
		at := o.Span.End
		if len(args) > 0 {
			at = args[len(args)-1].Span().End
		}
		return []syntax.Fix{{Title: title, Edits: []syntax.TextEdit{{Span: syntax.Span{Start: at, End: at}, NewText: sep + added}}}}
	}
}

// maxSuggestions bounds the did-you-mean fixes of one diagnostic.
const maxSuggestions = 3

// didYouMean replaces a relation that nothing defines with defined relations spelled alike
// (at most two edits apart, one for names of up to four characters), nearest first, those of
// the same arity before others.
func didYouMean(snap *Snapshot, d analysis.Diagnostic) []syntax.Fix {
	m := snap.Model()
	o := m.OccurrenceAt(d.Span.Start)
	if o == nil || o.Span != d.Span || o.Kind != analysis.OccRelation {
		return nil
	}
	type candidate struct {
		name      string
		dist      int
		sameArity bool
	}
	var cands []candidate
	seen := map[string]bool{o.Key: true}
	consider := func(key, name string, same bool) {
		if seen[key] {
			return
		}
		seen[key] = true
		if dist := spellingDistance(o.Key, key); dist <= suggestionLimit(o.Key) {
			cands = append(cands, candidate{name: name, dist: dist, sameArity: same})
		}
	}
	// The relations the game gives without rules: (tru (cell ...)) means true.
	for _, kw := range []string{"true", "does", "distinct"} {
		consider(kw, kw, analysis.RelationKeywords[kw] == o.Arity)
	}
	for _, c := range m.Clauses {
		if key := c.Key(); !seen[key] {
			sym := m.Relations[key]
			_, same := sym.Arities[o.Arity]
			consider(key, sym.Name(m), same)
		}
	}
	sort.Slice(cands, func(i, j int) bool {
		a, b := cands[i], cands[j]
		if a.sameArity != b.sameArity {
			return a.sameArity
		}
		if a.dist != b.dist {
			return a.dist < b.dist
		}
		return a.name < b.name
	})
	var fixes []syntax.Fix
	for i, c := range cands {
		if i == maxSuggestions {
			break
		}
		fixes = append(fixes, syntax.Fix{Title: fmt.Sprintf("Did you mean %s? Replace %s with %s", c.name, o.Name, c.name),
			Edits: []syntax.TextEdit{{Span: o.Span, NewText: c.name}}})
	}
	return fixes
}

// suggestionLimit is how many edits apart a suggestion may be spelled from a name.
func suggestionLimit(name string) int {
	if len([]rune(name)) <= 4 {
		return 1
	}
	return 2
}

// spellingDistance is the number of single-character insertions, deletions, substitutions and
// transpositions of neighbours that turn a into b (optimal string alignment).
func spellingDistance(a, b string) int {
	x, y := []rune(a), []rune(b)
	prev2 := make([]int, len(y)+1)
	prev := make([]int, len(y)+1)
	cur := make([]int, len(y)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(x); i++ {
		cur[0] = i
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(y)]
}
