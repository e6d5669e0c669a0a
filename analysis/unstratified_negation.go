package analysis

import "fmt"

func init() {
	register(&Check{
		Code:     "unstratified-negation",
		Severity: Error,
		Category: CategorySemantics,
		Summary:  "A negated literal whose relation depends on the rule's own head, even when the relations' rules are told apart by the constants of their heads: negation inside a dependency cycle has no defined meaning.",
		Example:  "(<= (safe ?c) (cell ?c) (not (threatened ?c)))\n(<= (threatened ?c) (cell ?c) (not (safe ?c)))",
		Fix: "Break the cycle: define the negated condition through a relation that does not depend on the head, " +
			"e.g. (<= (threatened ?c) (cell ?c) (attacked ?c)) with attacked defined from the state alone.",
		Run: func(m *Model, r *Reporter) {
			// The negated atoms are the negative edges: only those inside a component are read.
			for ei := range m.Edges {
				e := &m.Edges[ei]
				if !e.Negative {
					continue
				}
				if from, to := m.edgeComps(ei); from != to || !m.StaysUnstratified(e.Span) {
					continue // stratified, or stratified once the relations are split by constants
				}
				c, p, q := m.Clauses[e.Clause], e.From, e.To
				v, ok := c.atomVisit(e.Span)
				if !ok {
					continue
				}
				if p == q {
					r.Report(v.Lit.Span(), fmt.Sprintf("%s is negated in its own definition: negation through recursion has no defined meaning", c.Head.Name().Text()), nil)
					continue
				}
				var related []Related
				for _, e := range m.PathTo(q, p) {
					related = append(related, Related{Span: e.Span, Message: fmt.Sprintf("%s depends on %s here", m.RelName(e.From), m.RelName(e.To))})
				}
				r.Report(v.Lit.Span(), fmt.Sprintf("%s is negated in the definition of %s, but %s depends on %s: negation through recursion has no defined meaning",
					v.Lit.Atom().Name().Text(), c.Head.Name().Text(), m.RelName(q), m.RelName(p)), related)
			}
		},
	})
}
