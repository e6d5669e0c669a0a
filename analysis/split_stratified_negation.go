package analysis

import (
	"fmt"

	"github.com/gdl-lsp/gdl/syntax"
)

func init() {
	register(&Check{
		Code:     "split-stratified-negation",
		Severity: Warning,
		Category: CategorySemantics,
		Summary: "Negation inside a dependency cycle that is stratified once the relation's rules are told apart by the constants of their heads, " +
			"like (<= (goal robot 100) (not (goal robot 0))). gdl and most players evaluate it; GGP-Base's validator rejects it.",
		Example: "(role robot)\n(<= (goal robot 100) (not (goal robot 0)))\n(<= (goal robot 0) (true (step 10)))",
		Fix: "Give the negated case a relation of its own, e.g. (<= (lost robot) (true (step 10))), " +
			"(<= (goal robot 0) (lost robot)) and (<= (goal robot 100) (not (lost robot))).",
		Run: func(m *Model, r *Reporter) {
			split := m.split().relations
			for _, c := range m.clausesOfRels(split) {
				p := c.Rel()
				walkLiterals(c, func(v literalVisit) {
					if !v.Negated || v.Kind != syntax.LitAtom || !v.Lit.Atom().Valid() {
						return
					}
					if q := AtomRel(v.Lit.Atom()); m.sccIndex(q) == m.sccIndex(p) {
						r.Report(v.Lit.Span(), fmt.Sprintf("%s is negated inside a cycle through %s; it is stratified only because the rules of %s are told apart by their constant arguments (GGP-Base's validator rejects this)",
							v.Lit.Text(), c.Head.Name().Text(), v.Lit.Atom().Name().Text()), nil)
					}
				})
			}
		},
	})
}
