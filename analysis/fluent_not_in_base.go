package analysis

import (
	"fmt"

	"github.com/gdl-lsp/gdl/syntax"
)

func init() {
	register(&Check{
		Code:     "fluent-not-in-base",
		Severity: Warning,
		Category: CategorySemantics,
		Summary: "The game defines base, but an init or next rule produces fluents that no (base F) covers. Players size " +
			"their tables by base; a fluent it does not list breaks them. Found by matching patterns, so a rule whose " +
			"fluents base may cover is not reported (gdl verify checks every reachable state).",
		Example: "(base (cell 1 b))\n(base (cell 1 x))\n(init (cell 1 b))\n(<= (next (cell 1 o)) (does o (mark 1)))",
		Fix: "Add the fluents to base (the quick fix adds a base fact for a ground fluent), or correct the fluent " +
			"the rule produces.",
		Run: func(m *Model, r *Reporter) {
			base, ok := coveringSet(m, "base")
			if !ok {
				return
			}
			at := lastClauseEnd(m, "base")
			for _, c := range m.Clauses {
				if c.Rel() != KeywordRel("init") && c.Rel() != KeywordRel("next") {
					continue
				}
				if gives, meets := m.clauseMeets(c, 0, base.sets[0]); !gives || meets {
					continue
				}
				f := c.Head.Args()[0]
				var fixes []syntax.Fix
				if isGround(f) && at >= 0 {
					fixes = append(fixes, addFact(m, at, "Add "+m.Notation().Atom("base", f.Text())+" to base", m.Notation().Atom("base", f.Text())))
				}
				r.Report(f.Span(), fmt.Sprintf("the game defines base, but no (base F) covers the fluent %s that this %s produces: players that size their tables by base break",
					f.Text(), c.Head.Name().Text()), nil, fixes...)
			}
		},
	})
}

// covering is the sets of the arguments of base or input.
type covering struct{ sets []*termSet }

// coveringSet returns what base (one argument) or input (two) may hold, when the game defines
// it with its GDL arity only and its sets say something.
func coveringSet(m *Model, key string) (covering, bool) {
	arity := RelationKeywords[key]
	if m.Broken[key] || !m.Defines(key) {
		return covering{}, false
	}
	if s := m.Relations[key]; s == nil || len(s.Arities) != 1 || s.Arities[arity] == nil {
		return covering{}, false // the notation before 2010: late-keyword-as-term says so
	}
	var c covering
	for i := range arity {
		s := m.producersAt(Rel{key, arity}, i)
		if s.any {
			return covering{}, false
		}
		c.sets = append(c.sets, s)
	}
	return c, true
}

// lastClauseEnd returns the end of the last clause of relation key, or -1.
func lastClauseEnd(m *Model, key string) int {
	end := -1
	for _, c := range m.Clauses {
		if c.Key() == key {
			end = c.Form.Span().End
		}
	}
	return end
}

// addFact is a fix that adds a fact on a line of its own after the clause ending at end.
func addFact(m *Model, end int, title, fact string) syntax.Fix {
	at, nl := afterClause(m.File.Source(), end, m.Notation())
	return syntax.Fix{Title: title, Edits: []syntax.TextEdit{{Span: syntax.Span{Start: at, End: at}, NewText: nl + fact}}}
}

// isGround reports whether a term has no variable.
func isGround(t syntax.Term) bool {
	ground := true
	forEachVar(t.Cursor, func(string, syntax.Span) { ground = false })
	return ground
}
