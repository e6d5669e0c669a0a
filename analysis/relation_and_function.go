package analysis

import (
	"fmt"
	"sort"
)

func init() {
	register(&Check{
		Code:     "relation-and-function",
		Severity: Warning,
		Category: CategoryStyle,
		Summary: "A name used both as a relation and as a function, such as a relation cell beside fluents " +
			"(true (cell ...)). It is legal, but players that index symbols by name can confuse the two, and " +
			"readers do; ggp-base's validator warns. Names shared by a relation and a constant are common " +
			"and not reported.",
		Example: "(<= (control ?p) (true (control ?p)))",
		Fix:     "Rename one of the two, for example the relation control -> inControl.",
		Run: func(m *Model, r *Reporter) {
			// The names of both tables, found from the smaller one.
			var both []string
			small, large := m.Functions, m.Relations
			if len(small) > len(large) {
				small, large = large, small
			}
			for key := range small {
				if large[key] != nil && !IsKeyword(key) {
					both = append(both, key)
				}
			}
			sort.Strings(both)
			for _, key := range both {
				f := m.Functions[key]
				// Inside (and ...), which and-not-gdl reports, the literals parse as function
				// terms of a relation and: they are not functions.
				fi := -1
				for _, i := range f.Occs {
					if m.rawOcc(i).Relation != "and" {
						fi = i
						break
					}
				}
				if fi < 0 {
					continue
				}
				rel := m.Relations[key]
				first := m.Occ(rel.Occs[0])
				fo := m.Occ(fi)
				r.Report(first.Span, fmt.Sprintf("%s is used as a relation here and as a function elsewhere", first.Name),
					[]Related{{Span: fo.Span, Message: fmt.Sprintf("%s as a function", fo.Name)}})
			}
		},
	})
}
