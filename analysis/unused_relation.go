package analysis

import (
	"github.com/gdl-lsp/gdl/syntax"
)

// managerReads are relations the game manager reads although no rule of the game uses them.
var managerReads = map[string]bool{"role": true, "init": true, "next": true, "legal": true, "goal": true,
	"terminal": true, "base": true, "input": true, "sees": true}

func init() {
	register(&Check{
		Code:     "unused-relation",
		Severity: Warning,
		Category: CategoryStyle,
		Summary: "A relation is defined but no rule uses it and the game manager does not read it. Uses in a " +
			"form with syntax errors count, so a rule being typed does not make its relations flicker.",
		Example: "(adjacent a b)   ; no rule mentions adjacent",
		Fix:     "Remove the relation, or use it where it was meant to be used.",
		Run: func(m *Model, r *Reporter) {
			var broken map[string]bool
			if m.Incomplete() {
				broken = brokenBodyRelations(m.File)
			}
			// In the order of their first occurrences, which they report: in source order.
			for s := range m.relationSymbols() {
				key := s.Key
				// The uses first: most relations have some, and the look-ups by key cost a
				// hash of it each (three per relation were 40 ms of a 3 MB file's check).
				if usedOutsideHeads(m, s, "") || broken[key] || managerReads[key] || IsKeyword(key) {
					continue
				}
				// Inside (and ...), reported by and-not-gdl, the literals parse as function
				// terms of a relation and; they are meant as uses.
				if f := m.Functions[key]; f != nil && usedOutsideHeads(m, f, "and") {
					continue
				}
				// Every occurrence is in a head (a relation's name is its only occurrence
				// there): the first is the head of the first clause that defines it.
				o := m.Occ(s.Occs[0])
				r.Report(o.Span, "relation "+o.Name+" is defined but never used", nil)
			}
		},
	})
}

// brokenBodyRelations returns the relations that the bodies of forms with syntax errors seem to
// use: a best-effort reading of whatever the parser made of the body literals (atoms, and the
// atoms inside not, or and and).
// usedOutsideHeads reports whether s occurs outside a clause head, within an atom of relation
// within when that is not "".
func usedOutsideHeads(m *Model, s *Symbol, within string) bool {
	if within == "" {
		return s.defs < len(s.Occs)
	}
	for _, i := range s.Occs {
		if o := m.rawOcc(i); !o.Def && (within == "" || o.Relation == within) {
			return true
		}
	}
	return false
}

func brokenBodyRelations(f *syntax.File) map[string]bool {
	used := map[string]bool{}
	var lit func(c syntax.Cursor)
	lit = func(c syntax.Cursor) {
		switch c.Kind() {
		case syntax.Word:
			used[c.Symbol().Key()] = true
		case syntax.List:
			el := c.Elements()
			if len(el) == 0 || el[0].Kind() != syntax.Word && el[0].Kind() != syntax.Operator {
				return
			}
			switch k := el[0].Symbol().Key(); k {
			case "not", "or", "and":
				for _, e := range el[1:] {
					lit(e)
				}
			default:
				used[k] = true
			}
		}
	}
	for form := range f.FormSeq() {
		if !form.HasErrors() || !form.IsRule() {
			continue
		}
		if el := form.Elements(); len(el) > 2 {
			for _, e := range el[2:] {
				lit(e)
			}
		}
	}
	return used
}
