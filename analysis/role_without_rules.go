package analysis

import (
	"fmt"

	"github.com/gdl-lsp/gdl/syntax"
)

// A role that no legal rule, or no goal rule, is for: the role can never move (the game is
// stuck in its first state), or never has a goal value. Usually a typo of the role's name in
// the heads of those rules.
func init() {
	for _, k := range []struct {
		key, what, example, fix string
	}{
		{"legal", "it can never move", "(role white)\n(role black)\n(<= (legal white (mark ?x)) (true (free ?x)))\n(<= (legal blak noop) (true (free ?x)))",
			"Correct the role in the legal rules' heads (the quick fix renames the misspelt role there), or add legal rules for the role."},
		{"goal", "it never has a goal value", "(role white)\n(role black)\n(<= (goal white 100) (true (won white)))\n(<= (goal blak 100) (true (won black)))",
			"Correct the role in the goal rules' heads (the quick fix renames the misspelt role there), or add goal rules for the role."},
	} {
		k := k
		register(&Check{
			Code:     "role-without-" + k.key,
			Severity: Warning,
			Category: CategorySemantics,
			Summary: "A role for which no " + k.key + " rule can hold: " + k.what + ". Found by matching the patterns of the " +
				k.key + " heads (following variables to the atoms that bind them, such as (role ?r)), so a role the rules " +
				"cover is never reported.",
			Example: k.example,
			Fix:     k.fix,
			Run: func(m *Model, r *Reporter) {
				if !m.Defines(k.key) {
					return // missing-legal or missing-goal says it
				}
				set := m.producersAt(KeywordRel(k.key), 0)
				if set.any {
					return
				}
				roles := roleTerms(m)
				for _, role := range roles {
					if k.key == "goal" && role.Name().Key() == "random" {
						continue // GDL-II's random role plays at random and scores nothing
					}
					if set.matches(role) {
						continue
					}
					msg := fmt.Sprintf("no %s rule is for role %s: %s", k.key, role.Text(), k.what)
					// Constants the heads name in the role's place that are no role, and are
					// close in spelling: the quick fix renames them in every head.
					var best []suggestion
					for _, name := range set.constNames() {
						if isRole(roles, syntax.Fold(name)) {
							continue
						}
						if d, ok := closeSpelling(syntax.Fold(name), role.Name().Key()); ok {
							best = append(best, suggestion{from: name, to: role.Name().Text(), dist: d})
						}
					}
					best = bestSuggestions(best)
					var fixes []syntax.Fix
					for _, s := range best {
						msg += fmt.Sprintf("; the %s rules are written for %s, which is no role: did you mean %s?", k.key, s.from, s.to)
						fix := syntax.Fix{Title: fmt.Sprintf("Change %s to %s in the heads of the %s rules", s.from, s.to, k.key)}
						for _, c := range m.Clauses {
							if c.Key() == k.key && c.Head.Arity() == 2 {
								if a := c.Head.Args()[0]; termShape(a) == syntax.TermConstant && a.Name().Key() == syntax.Fold(s.from) {
									fix.Edits = append(fix.Edits, syntax.TextEdit{Span: a.Name().Span(), NewText: s.to})
								}
							}
						}
						fixes = append(fixes, fix)
					}
					r.Report(role.Span(), msg, nil, fixes...)
				}
			},
		})
	}
}

// roleTerms returns the roles the (role r) facts declare, as terms.
func roleTerms(m *Model) []syntax.Term {
	var out []syntax.Term
	for _, c := range m.clausesOf(KeywordRel("role")) {
		if !c.IsRule {
			if a := c.Head.Args()[0]; termShape(a) == syntax.TermConstant {
				out = append(out, a)
			}
		}
	}
	return out
}

func isRole(roles []syntax.Term, key string) bool {
	for _, r := range roles {
		if r.Name().Key() == key {
			return true
		}
	}
	return false
}
