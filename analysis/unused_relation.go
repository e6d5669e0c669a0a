package analysis

import "fmt"

// managerReads are relations the game manager reads although no rule of the game uses them.
var managerReads = map[string]bool{"role": true, "init": true, "next": true, "legal": true, "goal": true,
	"terminal": true, "base": true, "input": true, "sees": true}

func init() {
	register(&Check{
		Code:     "unused-relation",
		Severity: Warning,
		Category: CategoryStyle,
		Summary:  "A relation is defined but no rule uses it and the game manager does not read it.",
		Example:  "(adjacent a b)   ; no rule mentions adjacent",
		Fix:      "Remove the relation, or use it where it was meant to be used.",
		Run: func(m *Model, r *Reporter) {
			used := map[string]bool{}
			for _, o := range m.Occurrences {
				if o.Kind == OccRelation && !o.Def {
					used[o.Key] = true
				}
			}
			reported := map[string]bool{}
			for _, c := range m.Clauses {
				k := c.Key()
				if used[k] || managerReads[k] || reported[k] || IsKeyword(k) {
					continue
				}
				reported[k] = true
				name := c.Head.Name()
				r.Report(name.Span(), fmt.Sprintf("relation %s is defined but never used", name.Name()), nil)
			}
		},
	})
}
