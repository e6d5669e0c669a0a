package analysis

import (
	"fmt"
	"sort"
)

func init() {
	register(&Check{
		Code:     "arity-mismatch",
		Severity: Warning,
		Category: CategorySemantics,
		Summary: "A relation or function used with different numbers of arguments. GDL treats them as different " +
			"symbols, which is almost never what the author meant; players accept it, so it is a warning, as in " +
			"ggp-base's validator.",
		Example: "(init (cell 1 1 b))\n(<= (next (cell ?x ?y)) (true (cell ?x ?y)))",
		Fix:     "Use one number of arguments for each name everywhere.",
		Run: func(m *Model, r *Reporter) {
			for _, kind := range []SymbolKind{RelationSymbol, FunctionSymbol} {
				table, _ := m.table(occKindOf(kind))
				var keys []string             // the names used with several arities, sorted
				for _, s := range m.symbols { // in order: ranging over the table visits it at random
					if s.Kind == kind && s.ArityCount() >= 2 {
						keys = append(keys, s.Key)
					}
				}
				sort.Strings(keys)
				for _, key := range keys {
					s := table[key]
					if _, kw := RelationKeywords[key]; kw && s.Kind == RelationSymbol {
						continue // keyword-arity reports these against the fixed arity
					}
					by := withoutAnd(m, s.Key, withoutOldDeclarations(m, s))
					if len(by) < 2 {
						continue
					}
					major := majorityArity(by)
					first := m.Occ(by[major][0])
					what := "relation"
					if s.Kind == FunctionSymbol {
						what = "function"
					}
					for a, occs := range by {
						if a == major {
							continue
						}
						for _, i := range occs {
							o := m.Occ(i)
							r.Report(o.Span, fmt.Sprintf("%s %s has %s here but %d elsewhere", what, o.Name, counted(a, "argument", "arguments"), major),
								[]Related{{Span: first.Span, Message: fmt.Sprintf("%s with %s", first.Name, counted(major, "argument", "arguments"))}})
						}
					}
				}
			}
		},
	})
}

// withoutOldDeclarations returns the occurrences of s by arity but for those inside base or
// input facts of the pre-2010 forms, like (base step (val 1 2 3)): their argument lists are
// domains, not terms, and late-keyword-as-term already reports those facts.
func withoutOldDeclarations(m *Model, s *Symbol) map[int][]int {
	out := map[int][]int{}
	for a, occs := range s.Arities() {
		for _, i := range occs {
			o := m.Occ(i)
			if h := m.Clauses[o.Clause].Head; o.Def && o.Arg >= 0 && lateKeywords[o.Relation] &&
				h.Arity() != RelationKeywords[o.Relation] {
				continue
			}
			out[a] = append(out[a], i)
		}
	}
	return out
}

// majorityArity returns the arity used most often (ties: the one seen first) of occurrences by
// arity.
func majorityArity(by map[int][]int) int {
	best, n, first := -1, -1, 0
	for a, occs := range by {
		if len(occs) > n || (len(occs) == n && occs[0] < first) {
			best, n, first = a, len(occs), occs[0]
		}
	}
	return best
}

// withoutAnd returns occurrences by arity of the symbol of key without the ands of rule bodies
// and the ands nested in them, which and-not-gdl reports: an and takes any number of literals.
func withoutAnd(m *Model, key string, by map[int][]int) map[int][]int {
	if key != "and" {
		return by
	}
	out := map[int][]int{}
	for a, occs := range by {
		for _, i := range occs {
			if m.rawOcc(i).Relation != "and" {
				out[a] = append(out[a], i)
			}
		}
	}
	return out
}
