package analysis

import (
	"fmt"
	"strings"
)

// forbiddenDeps lists, for each keyword relation, the relations it must not depend on.
var forbiddenDeps = []struct {
	rel     string
	targets []string
	why     string
}{
	{"init", []string{"true", "does", "next", "legal", "goal", "terminal"}, "the initial state cannot depend on a state or a move"},
	{"role", []string{"true", "does", "next", "legal", "goal", "terminal"}, "the roles cannot depend on a state or a move"},
	{"base", []string{"true", "does", "next", "legal", "goal", "terminal"}, "the base propositions cannot depend on a state or a move"},
	{"input", []string{"true", "does", "next", "legal", "goal", "terminal"}, "the possible moves cannot depend on a state or a move"},
	{"legal", []string{"does"}, "legal moves cannot depend on the moves being made"},
	{"goal", []string{"does"}, "goals cannot depend on the moves being made"},
	{"terminal", []string{"does"}, "termination cannot depend on the moves being made"},
}

func init() {
	register(&Check{
		Code:     "state-dependent",
		Severity: Error,
		Category: CategorySemantics,
		Summary: "init, role, base or input depends on true, does, next, legal, goal or terminal; or legal, goal or terminal " +
			"depends on does.",
		Example: "(<= (legal ?p (mark ?x)) (does ?p (mark ?x)))",
		Fix:     "Compute the relation from facts and the state only: what depends on does belongs in next (or sees).",
		Run: func(m *Model, r *Reporter) {
			for _, fd := range forbiddenDeps {
				defs := m.clausesOfKey(fd.rel)
				targets := make([]Rel, len(fd.targets))
				for i, tk := range fd.targets {
					targets[i] = KeywordRel(tk)
				}
				for _, c := range defs {
					for ti, tk := range fd.targets {
						target := targets[ti]
						for ei := c.edgeLo; ei < c.edgeHi; ei++ { // the clause's own edges
							e := m.Edges[ei]
							if e.To != target && !m.edgeDependsOn(ei, target) {
								continue
							}
							var related []Related
							chain := []string{fd.rel}
							if e.To != target {
								for _, pe := range m.PathTo(e.To, target) {
									related = append(related, Related{Span: pe.Span,
										Message: fmt.Sprintf("%s depends on %s here", m.RelName(pe.From), m.RelName(pe.To))})
									chain = append(chain, m.RelName(pe.From))
								}
							}
							chain = append(chain, tk)
							msg := fmt.Sprintf("%s depends on %s: %s", fd.rel, tk, fd.why)
							if len(chain) > 2 {
								msg = fmt.Sprintf("%s depends on %s through %s: %s", fd.rel, tk, strings.Join(chain, " -> "), fd.why)
							}
							r.Report(e.Span, msg, related)
							break
						}
					}
				}
			}
		},
	})
}
