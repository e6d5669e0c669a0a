package ide

import (
	"fmt"
	"sort"

	"github.com/gdl-lsp/gdl/analysis"
)

// Symbol identity shared by definition, references, highlight, rename and hover: two
// occurrences name the same thing when they share a namespace (relation, function, constant) and
// a case-folded name; a variable is the same only within its clause.

// occurrenceAt returns the occurrence under the cursor, or nil.
func occurrenceAt(snap *Snapshot, off int) *analysis.Occurrence {
	return snap.Model().OccurrenceAt(off)
}

// occurrencesOf returns every occurrence of the symbol o names, in source order.
func occurrencesOf(m *analysis.Model, o *analysis.Occurrence) []*analysis.Occurrence {
	var out []*analysis.Occurrence
	switch o.Kind {
	case analysis.OccVariable:
		c := m.Clauses[o.Clause]
		for _, i := range c.Vars[o.Key] {
			out = append(out, &c.Occurrences(m)[i])
		}
		return out
	case analysis.OccKeyword:
		return nil
	}
	var table map[string]*analysis.Symbol
	switch o.Kind {
	case analysis.OccRelation:
		table = m.Relations
	case analysis.OccFunction:
		table = m.Functions
	case analysis.OccConstant:
		table = m.Constants
	}
	if s := table[o.Key]; s != nil {
		for _, i := range s.Occs {
			o := m.Occ(i)
			out = append(out, &o)
		}
	}
	return out
}

// bindingOccurrence returns the occurrence that binds a variable in its clause: the first one in
// a positive body atom (not under `not`, not in `distinct`), else the first one at all.
func bindingOccurrence(m *analysis.Model, v *analysis.Occurrence) *analysis.Occurrence {
	c := m.Clauses[v.Clause]
	for _, i := range c.Vars[v.Key] {
		o := &c.Occurrences(m)[i]
		if !o.Def && !o.Negated && o.Relation != "distinct" {
			return o
		}
	}
	if occs := c.Vars[v.Key]; len(occs) > 0 {
		return &c.Occurrences(m)[occs[0]]
	}
	return v
}

// isKeyword reports whether the occurrence is a GDL keyword or connective, which no rename may
// touch.
func isKeyword(o *analysis.Occurrence) bool {
	return o.Kind == analysis.OccKeyword || (o.Kind == analysis.OccRelation && analysis.IsKeyword(o.Key))
}

// Nearest keeps the n items (sorted by start offset) whose starts are nearest off: the run of n
// around it. Replies that could grow with the file (references, highlights) keep what is on
// the user's screen.
func Nearest[T any](items []T, start func(T) int, off, n int) []T {
	if len(items) <= n {
		return items
	}
	k := sort.Search(len(items), func(i int) bool { return start(items[i]) >= off })
	from := min(max(k-n/2, 0), len(items)-n)
	return items[from : from+n]
}

// mostCommonArity is the arity a symbol is used with most (ties: the smallest).
func mostCommonArity(s *analysis.Symbol) int {
	best, n := 0, -1
	for a, occs := range s.Arities() {
		if len(occs) > n || (len(occs) == n && a < best) {
			best, n = a, len(occs)
		}
	}
	return best
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
