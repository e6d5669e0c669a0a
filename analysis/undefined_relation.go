package analysis

import "fmt"

// inputs are relations a game may use without defining them: the state and the joint move are
// given by the game manager, and distinct is built in.
var inputs = map[string]bool{"true": true, "does": true, "distinct": true}

func init() {
	register(&Check{
		Code:     "undefined-relation",
		Severity: Warning,
		Category: CategorySemantics,
		Summary:  "A relation is used in a rule body but no fact or rule defines it, so it never holds. Usually a typo; ggp-base's own tests rely on it being allowed.",
		Example:  "(<= (legal white noop) (true (control black)) (ready white))   ; ready is defined nowhere",
		Fix:      "Define the relation, or correct the name (spelling and arity).",
		Run: func(m *Model, r *Reporter) {
			defined := map[string]bool{}
			for _, c := range m.Clauses {
				defined[c.Key()] = true
			}
			for k := range m.Broken {
				defined[k] = true
			}
			for _, o := range m.Occurrences {
				if o.Kind != OccRelation || o.Def || inputs[o.Key] || defined[o.Key] || o.Key == "and" {
					continue
				}
				msg := fmt.Sprintf("relation %s is used but never defined: no fact or rule has %s as its head", o.Name, o.Name)
				if o.Key == "role" || o.Key == "init" || o.Key == "legal" {
					msg += "; it never holds"
				}
				r.Report(o.Span, msg, nil)
			}
		},
	})
}
