package analysis

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/gdl-lsp/gdl/syntax"
)

func init() {
	register(&Check{
		Code:     "unsafe-variable",
		Severity: Error,
		Category: CategorySemantics,
		Summary:  "A variable of the head, of a not or of a distinct that no positive atom of the body binds. The rule has no defined meaning.",
		Example:  "(<= (legal ?p noop) (not (true (control ?p))))",
		Fix: "Add a positive literal that binds the variable, e.g. (role ?p). For a variable that only " +
			"occurs in a negated atom, the quick fix moves the atom into a helper relation and negates that.",
		Run: func(m *Model, r *Reporter) {
			for _, c := range m.Clauses {
				if c.IsRule {
					checkSafety(m, c, r)
				}
			}
		},
	})
}

// boundVars returns the variables that the body binds: those of its positive atoms and those
// every branch of an `or` binds.
func boundVars(c *Clause) map[string]bool {
	b := map[string]bool{}
	for _, l := range c.Body {
		Binds(l, b)
	}
	return b
}

func checkSafety(m *Model, c *Clause, r *Reporter) {
	bound := boundVars(c)
	unsafe := func(cur syntax.Cursor, where string, fixes ...syntax.Fix) {
		forEachVar(cur, func(name string, span syntax.Span) {
			if !bound[syntax.Fold(name)] {
				r.Report(span, fmt.Sprintf("unsafe variable %s: it occurs in %s but in no positive atom of the body, so the rule has no defined meaning",
					name, where), nil, fixes...)
			}
		})
	}
	unsafe(c.Head.Cursor, "the head")
	walkLiterals(c, func(v literalVisit) {
		switch v.Lit.Kind() {
		case syntax.LitDistinct:
			unsafe(v.Lit.Cursor, "a distinct")
		case syntax.LitNot:
			ops := v.Lit.Operands()
			if len(ops) != 1 || ops[0].Kind() != syntax.LitAtom {
				return // reported by invalid-negation; inner atoms are visited on their own
			}
			var fixes []syntax.Fix
			if fix, ok := helperFix(m, c, ops[0].Atom(), bound); ok {
				fixes = append(fixes, fix)
			}
			unsafe(ops[0].Cursor, "a negated atom", fixes...)
		}
	})
}

// helperFix turns (not (rel ... ?unsafe ... ?safe ...)) into (not (helper ?safe ...)) with a new
// rule (<= (helper ?safe ...) (rel ... ?unsafe ... ?safe ...)): the unsafe variables are
// projected away, which is what the author meant ("no value of ?unsafe makes it true").
func helperFix(m *Model, c *Clause, a syntax.Atom, bound map[string]bool) (syntax.Fix, bool) {
	var safe []string
	seen := map[string]bool{}
	hasUnsafe, elsewhere := false, false
	forEachVar(a.Cursor, func(name string, _ syntax.Span) {
		k := syntax.Fold(name)
		if !bound[k] {
			hasUnsafe = true
			// Projecting the variable away only keeps the author's meaning when the negated
			// atom is its only occurrence (an unsafe head variable stays unsafe otherwise).
			for _, oi := range c.Vars[k] {
				if sp := m.Occurrences[oi].Span; sp.Start < a.Span().Start || sp.End > a.Span().End {
					elsewhere = true
				}
			}
		} else if !seen[k] {
			seen[k] = true
			safe = append(safe, name)
		}
	})
	if !hasUnsafe || elsewhere {
		return syntax.Fix{}, false
	}
	name := helperName(m, a)
	head := name
	if len(safe) > 0 {
		head = "(" + name + " " + strings.Join(safe, " ") + ")"
	}
	rule := "\n(<= " + head + "\n    " + a.Text() + ")"
	end := c.Form.Span().End
	return syntax.Fix{
		Title: "Move the negated atom into a helper relation " + name,
		Edits: []syntax.TextEdit{
			{Span: a.Span(), NewText: head},
			{Span: syntax.Span{Start: end, End: end}, NewText: rule},
		},
	}, true
}

// helperName derives a fresh relation name from the atom: (true (line ...)) gives hasLine.
func helperName(m *Model, a syntax.Atom) string {
	base := a.Name().Name()
	if k := a.Name().Key(); (k == "true" || k == "does") && len(a.Args()) > 0 {
		base = a.Args()[len(a.Args())-1].Name().Name()
		if k == "true" {
			base = a.Args()[0].Name().Name()
		}
	}
	rs := []rune(strings.TrimLeft(base, "?"))
	if len(rs) > 0 {
		rs[0] = unicode.ToUpper(rs[0])
	}
	name := "has" + string(rs)
	for i := 2; m.Defines(syntax.Fold(name)) || m.Relations[syntax.Fold(name)] != nil; i++ {
		name = fmt.Sprintf("has%s%d", string(rs), i)
	}
	return name
}
