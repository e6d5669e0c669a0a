package analysis

import (
	"fmt"
	"sort"

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
			// Constants, functions and relations share one name space for spelling purposes. Only
			// the keys written in two spellings somewhere need their occurrences gathered.
			tables := []map[string]*Symbol{m.Relations, m.Functions, m.Constants}
			// A key of two tables is a key of one of the two smaller ones: the largest table's
			// keys are not looked up in the others.
			largest := 0
			for ti, table := range tables {
				if len(table) > len(tables[largest]) {
					largest = ti
				}
			}
			var keys []string
			byKey := map[string][]int{}
			// The symbols of the three tables, as a list (tables[s.Kind] holds s).
			for _, s := range m.symbols {
				ti, k := int(s.Kind), s.Key
				// A key is written two ways when one of its symbols has two spellings, or when
				// it names symbols of two tables, spelled differently.
				if s.SpellingCount() < 2 && (ti == largest || !inOtherTable(tables, ti, k)) {
					continue
				}
				if _, done := byKey[k]; done {
					continue
				}
				byKey[k] = nil
				if !mixedSpelling(tables, k) {
					continue
				}
				var occs []int
				for _, t := range tables {
					if sym := t[k]; sym != nil {
						occs = append(occs, sym.Occs...)
					}
				}
				sort.Ints(occs)
				byKey[k] = occs
				keys = append(keys, k)
			}
			sort.Slice(keys, func(i, j int) bool { return byKey[keys[i]][0] < byKey[keys[j]][0] })
			for _, k := range keys {
				reportSpellings(m, r, k, byKey[k], tables)
			}
		},
	})
}

// reportSpellings reports the occurrences occs (in source order) of key k, in tables, that are
// not spelled the most common way. The spellings are counted from the symbols' counts, and each
// message is made once per spelling: a constant of thousands of occurrences is common.
func reportSpellings(m *Model, r *Reporter, k string, occs []int, tables []map[string]*Symbol) {
	count := map[string]int{} // spelling -> occurrences; "Cell" in infix spells Cell
	for _, t := range tables {
		if sym := t[k]; sym != nil {
			for sp, n := range sym.Spellings() {
				count[sp] += n
			}
		}
	}
	if len(count) < 2 {
		return
	}
	n := -1
	for _, c := range count {
		n = max(n, c)
	}
	major, text := "", ""
	for _, i := range occs { // ties: the spelling written first
		if sp := m.Spelling(m.rawOcc(i)); count[sp] == n {
			major, text = sp, m.rawOcc(i).Name
			break
		}
	}
	fix := syntax.Fix{Title: fmt.Sprintf("Spell every %s as %s", k, text), Safe: true}
	var others []Occurrence // the occurrences not spelled major, where they are
	for _, i := range occs {
		if m.Spelling(m.rawOcc(i)) != major {
			o := m.Occ(i)
			others = append(others, o)
			fix.Edits = append(fix.Edits, syntax.TextEdit{Span: o.Span, NewText: text})
		}
	}
	msgs := map[string]string{} // name as written -> message
	for _, o := range others {
		msg, ok := msgs[o.Name]
		if !ok {
			msg = fmt.Sprintf("%s is spelled %s elsewhere (%s)", o.Name, text, counted(n, "time", "times"))
			msgs[o.Name] = msg
		}
		r.Report(o.Span, msg, nil, fix)
	}
}

// inOtherTable reports whether key names a symbol of a table other than tables[ti].
func inOtherTable(tables []map[string]*Symbol, ti int, key string) bool {
	for i, t := range tables {
		if i != ti && t[key] != nil {
			return true
		}
	}
	return false
}

// mixedSpelling reports whether key is written in more than one spelling across the tables.
func mixedSpelling(tables []map[string]*Symbol, key string) bool {
	first := ""
	for _, t := range tables {
		if sym := t[key]; sym != nil {
			for sp := range sym.Spellings() {
				if first == "" {
					first = sp
				} else if sp != first {
					return true
				}
			}
		}
	}
	return false
}
