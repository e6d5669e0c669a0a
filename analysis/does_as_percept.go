package analysis

func init() {
	register(&Check{
		Code:     "does-as-percept",
		Severity: Warning,
		Category: CategoryStyle,
		Summary: "A GDL-II percept written as a keyword term, most often (sees ?r (does ?r ?m)). GDL-II game servers " +
			"accept it and send the percept as written, but does (like true, next, not or or, which get the same " +
			"warning there) is a keyword: GDL players and validators that read terms and atoms alike take it for a " +
			"move. Outside a percept a keyword used as a function name is an error (keyword-as-term).",
		Example: "(<= (sees candidate (does candidate ?m))\n    (does candidate ?m))",
		Fix:     "Name the percept with an ordinary function, e.g. (sees candidate (played ?m)).",
		Clause: func(m *Model, c *Clause, r *Reporter) {
			for _, o := range c.Occurrences(m) {
				if isKeywordPercept(o) {
					r.Report(o.Span, o.Name+" names a percept here; "+o.Key+" is a GDL keyword, an ordinary function name is clearer", nil)
				}
			}
		},
	})
}

// isKeywordPercept reports whether o is a keyword used as a function name within the percept
// argument of a sees atom: (sees ?r (does ?r ?m)) is the GDL-II idiom that lets a role see a
// move, which game servers accept, and every keyword gets the same severity there.
func isKeywordPercept(o Occurrence) bool {
	return o.Kind == OccFunction && isGDLKeyword(o.Key) && !lateKeywords[o.Key] && o.Relation == "sees" && o.Arg == 1
}
