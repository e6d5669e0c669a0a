package ide

import (
	"fmt"
	"strings"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/syntax"
)

// The editor's own quick fixes, for diagnostics that the analyzer reports without one: an
// arity mismatch gets the use changed to the arity used elsewhere (arguments added, named as
// the other uses name them, or removed); that needs the argument names of the other uses. (The
// "did you mean" fixes of names that nothing defines are the analyzer's.) An analyzer fix, when
// a check has one, comes first and the editor adds none.

// editorFixes returns the fixes the editor offers for d (which has none of its own).
func editorFixes(snap *Snapshot, d analysis.Diagnostic) []syntax.Fix {
	switch d.Code {
	case "arity-mismatch":
		return arityFixes(snap, d)
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
	if len(args) != int(o.Arity) {
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
		info := argumentInfo(m, snap.File(), o.Key, int(want), o.Kind == analysis.OccFunction, o.Span)
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
