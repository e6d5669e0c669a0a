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
			add := factAdder(m, "base")
			memoKey := add.nl + m.Notation().String() // what the texts depend on besides the clause
			for _, c := range m.clausesByIndex(KeywordRel("init"), KeywordRel("next")) {
				if gives, meets := m.clauseMeets(c, 0, base.sets[0]); !gives || meets {
					continue
				}
				// The message, and the fix's title and text, with the clause and the place.
				texts, at := c.memoFinding("fluent-not-in-base", memoKey, func() ([3]string, syntax.Span) {
					f := atomArg(c.Head, 0)
					msg := fmt.Sprintf("the game defines base, but no (base F) covers the fluent %s that this %s produces: players that size their tables by base break",
						f.Text(), c.Head.Name().Text())
					if !isGround(f) {
						return [3]string{msg}, f.Span()
					}
					fact := m.Notation().Atom("base", f.Text())
					return [3]string{msg, "Add " + fact + " to base", add.nl + fact}, f.Span()
				})
				var fixes []syntax.Fix
				if add.ok && texts[1] != "" {
					fixes = append(fixes, add.fixText(texts[1], texts[2]))
				}
				r.Report(at, texts[0], nil, fixes...)
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
	if s := m.Relations[key]; s == nil || s.ArityCount() != 1 || s.OccsOfArity(arity) == nil {
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

// factSite makes the fixes that add a fact of relation key on a line of its own after the
// relation's last clause (ok is false when it has none).
type factSite struct {
	ok bool
	at int    // where the fact goes
	nl string // what comes before it
}

// factAdder returns the fact adder of relation key: where its facts go is found once per check.
func factAdder(m *Model, key string) factSite {
	end := -1
	for _, c := range m.clausesByIndex(KeywordRel(key)) {
		end = c.Form.Span().End
	}
	if end < 0 {
		return factSite{}
	}
	at, nl := afterClause(m.File.Source(), end, m.Notation())
	return factSite{ok: true, at: at, nl: nl}
}

// fix is a fix that adds fact.
func (a factSite) fix(title, fact string) syntax.Fix { return a.fixText(title, a.nl+fact) }

// fixText is a fix that inserts text (a fact after a.nl) where the facts go.
func (a factSite) fixText(title, text string) syntax.Fix {
	return syntax.Fix{Title: title, Edits: []syntax.TextEdit{{Span: syntax.Span{Start: a.at, End: a.at}, NewText: text}}}
}

// atomArg returns argument i of atom a, which has more than i arguments (like a.Args()[i],
// without making the list).
func atomArg(a syntax.Atom, i int) syntax.Term {
	for j, t := range a.ArgSeq() {
		if j == i {
			return t
		}
	}
	panic("atomArg: the atom has no such argument")
}

// isGround reports whether a term has no variable.
func isGround(t syntax.Term) bool {
	ground := true
	forEachVar(t.Cursor, func(string, syntax.Span) { ground = false })
	return ground
}
