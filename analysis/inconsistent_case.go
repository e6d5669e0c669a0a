package analysis

import (
	"fmt"

	"github.com/gdl-lsp/gdl/syntax"
)

func init() {
	register(&Check{
		Code:     "inconsistent-case",
		Severity: Warning,
		Category: CategoryStyle,
		Summary:  "One symbol spelled with different capitalisation. GDL ignores case, but readers and some tools do not.",
		Example:  "(init (Cell 1 1 b))\n(<= (next (cell ?x ?y ?c)) (true (cell ?x ?y ?c)))",
		Fix:      "Spell the symbol one way everywhere (the quick fix uses the most common spelling).",
		Run: func(m *Model, r *Reporter) {
			// Constants, functions and relations share one name space for spelling purposes.
			byKey := map[string][]int{}
			var keys []string
			for i, o := range m.Occurrences {
				if o.Kind == OccVariable || o.Kind == OccKeyword {
					continue
				}
				if byKey[o.Key] == nil {
					keys = append(keys, o.Key)
				}
				byKey[o.Key] = append(byKey[o.Key], i)
			}
			for _, k := range keys {
				occs := byKey[k]
				count := map[string]int{}
				for _, i := range occs {
					count[m.Occurrences[i].Name]++
				}
				if len(count) < 2 {
					continue
				}
				major, n := "", -1
				for _, i := range occs { // ties: the spelling written first
					if sp := m.Occurrences[i].Name; count[sp] > n {
						major, n = sp, count[sp]
					}
				}
				fix := syntax.Fix{Title: fmt.Sprintf("Spell every %s as %s", k, major)}
				for _, i := range occs {
					if o := m.Occurrences[i]; o.Name != major {
						fix.Edits = append(fix.Edits, syntax.TextEdit{Span: o.Span, NewText: major})
					}
				}
				for _, i := range occs {
					if o := m.Occurrences[i]; o.Name != major {
						r.Report(o.Span, fmt.Sprintf("%s is spelled %s elsewhere (%s)", o.Name, major, counted(n, "time", "times")), nil, fix)
					}
				}
			}
		},
	})
}
