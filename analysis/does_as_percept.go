package analysis

func init() {
	register(&Check{
		Code:     "does-as-percept",
		Severity: Warning,
		Category: CategoryStyle,
		Summary: "A GDL-II percept written as a does term, (sees ?r (does ?r ?m)). GDL-II game servers accept it " +
			"and send the percept as written, but does is a keyword: GDL players and validators that read " +
			"terms and atoms alike take it for a move.",
		Example: "(<= (sees candidate (does candidate ?m))\n    (does candidate ?m))",
		Fix:     "Name the percept with an ordinary function, e.g. (sees candidate (played ?m)).",
		Clause: func(m *Model, c *Clause, r *Reporter) {
			for _, o := range c.Occurrences(m) {
				if isDoesPercept(o) {
					r.Report(o.Span, o.Name+" names a percept here; does is a GDL keyword, an ordinary function name is clearer", nil)
				}
			}
		},
	})
}

// isDoesPercept reports whether o is the function name does within the percept argument of a
// sees atom: the GDL-II idiom that lets a role see a move, which game servers accept.
func isDoesPercept(o Occurrence) bool {
	return o.Kind == OccFunction && o.Key == "does" && o.Relation == "sees" && o.Arg == 1
}
