package analysis

import "fmt"

// lateKeywords became keywords with GDL's 2010 revision; older games use them as ordinary names,
// which players of that time accept: a warning of its own.
var lateKeywords = map[string]bool{"base": true, "input": true}

func init() {
	register(&Check{
		Code:     "late-keyword-as-term",
		Severity: Warning,
		Category: CategoryStyle,
		Summary:  "base or input used as a constant or function name, or as a relation with another arity. They became GDL keywords in 2010; older games use them freely, newer players may misread them.",
		Example:  "(init (cell 1 base))",
		Fix:      "Rename the constant or function (for example base -> foundation).",
		Clause: func(m *Model, c *Clause, r *Reporter) {
			for _, o := range c.Occurrences(m) {
				if (o.Kind == OccConstant || o.Kind == OccFunction) && lateKeywords[o.Key] && o.Relation != "and" {
					r.Report(o.Span, o.Name+" has been a GDL keyword since 2010; as a constant or function name it confuses newer players", nil)
				}
				if o.Kind == OccRelation && lateKeywords[o.Key] && int(o.Arity) != RelationKeywords[o.Key] {
					r.Report(o.Span, fmt.Sprintf("%s has been a GDL keyword of %d arguments since 2010; used with %d it confuses newer players",
						o.Name, RelationKeywords[o.Key], o.Arity), nil)
				}
			}
		},
	})
}
