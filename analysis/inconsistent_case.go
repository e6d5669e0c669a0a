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
			first := map[string]int{} // key -> its first occurrence, or -1 when spelled one way
			// The symbols of the three tables, as a list (tables[s.Kind] holds s).
			for _, s := range m.symbols {
				ti, k := int(s.Kind), s.Key
				// A key is written two ways when one of its symbols has two spellings, or when
				// it names symbols of two tables, spelled differently.
				if s.SpellingCount() < 2 && (ti == largest || !inOtherTable(tables, ti, k)) {
					continue
				}
				if _, done := first[k]; done {
					continue
				}
				first[k] = -1
				if !mixedSpelling(tables, k) {
					continue
				}
				at := -1
				for _, t := range tables {
					if sym := t[k]; sym != nil && (at < 0 || sym.Occs[0] < at) {
						at = sym.Occs[0]
					}
				}
				first[k] = at
				keys = append(keys, k)
			}
			sort.Slice(keys, func(i, j int) bool { return first[keys[i]] < first[keys[j]] })
			for _, k := range keys {
				reportSpellings(m, r, k, tables)
			}
		},
	})
}

// reportSpellings reports the occurrences of key k, in tables, that are not spelled the most
// common way. The spellings are counted from the symbols' counts, and each message is made once
// per spelling: a constant of thousands of occurrences is common. Only the occurrences of a
// symbol of several spellings are read one by one: a symbol spelled one way is all major or
// all not.
func reportSpellings(m *Model, r *Reporter, k string, tables []map[string]*Symbol) {
	count := map[string]int{} // spelling -> occurrences; "Cell" in infix spells Cell
	var syms []*Symbol
	for _, t := range tables {
		if sym := t[k]; sym != nil {
			syms = append(syms, sym)
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
	at := -1 // ties: the spelling written first
	for _, sym := range syms {
		if sym.SpellingCount() == 1 {
			if count[sym.spelling] == n && (at < 0 || sym.Occs[0] < at) {
				at = sym.Occs[0]
			}
			continue
		}
		for _, i := range sym.Occs {
			if at >= 0 && i > at {
				break
			}
			if count[m.Spelling(m.rawOcc(i))] == n {
				at = i
				break
			}
		}
	}
	major, text := m.Spelling(m.rawOcc(at)), m.rawOcc(at).Name
	fix := syntax.Fix{Title: fmt.Sprintf("Spell every %s as %s", k, text), Safe: true}
	var idx []int // the occurrences not spelled major
	for _, sym := range syms {
		switch {
		case sym.SpellingCount() > 1:
			for _, i := range sym.Occs {
				if m.Spelling(m.rawOcc(i)) != major {
					idx = append(idx, i)
				}
			}
		case sym.spelling != major:
			idx = append(idx, sym.Occs...)
		}
	}
	sort.Ints(idx)
	others := make([]Occurrence, len(idx)) // where they are
	for j, i := range idx {
		others[j] = m.Occ(i)
		fix.Edits = append(fix.Edits, syntax.TextEdit{Span: others[j].Span, NewText: text})
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
