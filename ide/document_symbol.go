package ide

import (
	"fmt"
	"strings"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/syntax"
)

// SymbolKind says what a symbol of an outline or of the workspace is.
type SymbolKind int

const (
	SymbolRelation        SymbolKind = iota // a relation of the game
	SymbolKeywordRelation                   // a relation GDL defines: init, legal, next, goal, ...
	SymbolRoleRelation                      // the role relation
	SymbolRule                              // a rule of a relation
	SymbolFact                              // a fact of a relation
	SymbolMore                              // "… N more clauses" that an outline leaves out
	SymbolRole                              // a role
)

// relationKind is the kind of a relation's symbol.
func relationKind(key string) SymbolKind {
	if key == "role" {
		return SymbolRoleRelation
	}
	if analysis.IsKeyword(key) {
		return SymbolKeywordRelation
	}
	return SymbolRelation
}

// DocumentSymbol is an entry of a document's outline.
type DocumentSymbol struct {
	Name, Detail string
	Kind         SymbolKind
	Span         syntax.Span // what the entry covers
	Selection    syntax.Span // its name
	Children     []DocumentSymbol
}

// DocumentSymbols is the outline: one entry per relation, in the order of its first clause,
// spanning its clauses, with its rules and facts as children. Forms that are not clauses
// (broken ones) do not appear.
//
// limit > 0 bounds the entries (one per relation and one per clause gave a 10 MB file an outline of
// 61 MB): every relation is listed (up to the bound); the clauses share what is left, each
// relation listing up to the same number (as many as fit) and, when it has more, one last entry
// that counts the others.
func DocumentSymbols(snap *Snapshot, limit int) []DocumentSymbol {
	var cs []outlineClause
	name := func(key string, first outlineClause) string { return first.head.Name().Name() }
	if st := snap.syntaxStage(); st != nil {
		// The syntax stage: its heads; a relation is named as its first clause spells it.
		for i, h := range st.allHeads() {
			if h.key != "" {
				cs = append(cs, outlineClause{key: h.key, form: st.spans[i], head: h.atom, rule: h.rule, body: -1, ruleOf: st.form(i)})
			}
		}
	} else {
		m := snap.Model()
		cs = make([]outlineClause, len(m.Clauses))
		for i, c := range m.Clauses {
			cs[i] = outlineClause{key: c.Key(), form: c.Form.Span(), head: c.Head, rule: c.IsRule, body: len(c.Body)}
		}
		name = func(key string, _ outlineClause) string { return m.Relations[key].Name(m) }
	}
	return outline(cs, name, limit)
}

// outlineClause is what the outline shows of a clause.
type outlineClause struct {
	key    string
	form   syntax.Span
	head   syntax.Atom
	rule   bool
	body   int // the number of body literals; -1: those of ruleOf, counted when shown
	ruleOf syntax.Form
}

// outline is DocumentSymbols of the clauses m, a relation named name(key, its first clause).
func outline(m []outlineClause, name func(key string, first outlineClause) string, limit int) []DocumentSymbol {
	out := []DocumentSymbol{}
	index := map[string]int{}
	var clauses [][]int // per relation in out, its clauses (indexes in m)
	for ci, c := range m {
		i, ok := index[c.key]
		if !ok {
			if limit > 0 && len(out) == limit {
				continue
			}
			i = len(out)
			index[c.key] = i
			out = append(out, DocumentSymbol{
				Name:      name(c.key, c),
				Detail:    fmt.Sprintf("/%d", c.head.Arity()),
				Kind:      relationKind(c.key),
				Span:      c.form,
				Selection: c.head.Name().Span(),
			})
			clauses = append(clauses, nil)
		}
		out[i].Span.End = c.form.End
		clauses[i] = append(clauses[i], ci)
	}
	budget := -1
	if limit > 0 {
		budget = limit - len(out)
	}
	per := childrenPerRelation(clauses, budget)
	for i := range out {
		cs := clauses[i]
		shown := cs
		if len(cs) > per {
			shown = cs[:max(per-1, 0)]
		}
		for _, ci := range shown {
			c := m[ci]
			kind, detail := SymbolFact, "fact"
			if c.rule {
				if c.body < 0 {
					c.body = len(c.ruleOf.Rule().Body())
				}
				kind, detail = SymbolRule, plural(c.body, "literal")
			}
			out[i].Children = append(out[i].Children, DocumentSymbol{
				Name:      shorten(strings.Join(strings.Fields(shorten(c.head.Text(), 240)), " "), 60),
				Detail:    detail,
				Kind:      kind,
				Span:      c.form,
				Selection: c.head.Span(),
			})
		}
		if rest := cs[len(shown):]; len(rest) > 0 && per > 0 {
			first := m[rest[0]]
			out[i].Children = append(out[i].Children, DocumentSymbol{
				Name:      "… " + plural(len(rest), "more clause"),
				Detail:    "not listed",
				Kind:      SymbolMore,
				Span:      syntax.Span{Start: first.form.Start, End: out[i].Span.End},
				Selection: first.head.Span(),
			})
		}
		out[i].Detail = fmt.Sprintf("%s, %s", out[i].Detail, plural(len(cs), "clause"))
	}
	return out
}

// childrenPerRelation is the largest number of entries each relation may have so that all of
// them together stay within budget (every relation's entries up to that number); budget < 0:
// no bound.
func childrenPerRelation(clauses [][]int, budget int) int {
	total := func(per int) int {
		n := 0
		for _, cs := range clauses {
			n += min(len(cs), per)
		}
		return n
	}
	lo, hi := 0, 0
	for _, cs := range clauses {
		hi = max(hi, len(cs))
	}
	if budget < 0 {
		return hi
	}
	for lo < hi { // the largest per in [lo, hi] with total(per) <= budget
		mid := (lo + hi + 1) / 2
		if total(mid) <= budget {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}
