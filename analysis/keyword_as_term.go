package analysis

func init() {
	register(&Check{
		Code:     "keyword-as-term",
		Severity: Error,
		Category: CategorySemantics,
		Summary:  "A GDL keyword used as a constant or function name, or a connective (distinct, not, or) defined by a fact or rule.",
		Example:  "(init (control not))",
		Fix:      "Rename the constant or function (for example not -> nought).",
		Clause: func(m *Model, c *Clause, r *Reporter) {
			for _, o := range c.Occurrences(m) {
				if (o.Kind == OccConstant || o.Kind == OccFunction) && isGDLKeyword(o.Key) && !lateKeywords[o.Key] && o.Relation != "and" && !isKeywordPercept(o) {
					what := "constant"
					if o.Kind == OccFunction {
						what = "function name"
					}
					r.Report(o.Span, o.Name+" is a GDL keyword and cannot be used as a "+what, nil)
				}
			}
			switch k := c.Key(); k {
			case "distinct", "not", "or", "<=":
				verb := "defined by a rule"
				if !c.IsRule {
					verb = "stated as a fact"
				}
				span := c.Head.Span()
				if !c.IsRule {
					span = c.Form.Span()
				}
				r.Report(span, k+" is a GDL connective and cannot be "+verb, nil)
			}
		},
	})
}

// isGDLKeyword reports whether key is a relation keyword or connective of GDL (not `and`, which
// is no GDL word at all).
func isGDLKeyword(key string) bool {
	_, rel := RelationKeywords[key]
	return rel || Connectives[key]
}
