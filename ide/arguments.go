package ide

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"unicode"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/syntax"
)

// What the editing features know about arguments: where the cursor sits among the elements of
// the lists around it (site), and the names and values of a relation's or function's arguments
// (argumentInfo), which signature help, completion and the arity quick fix share.

// site is the place of a cursor inside the lists that enclose it.
type site struct {
	lists []syntax.Cursor // the lists that contain the cursor, outermost first
	index int             // the element of the innermost list the cursor is at: 0 its head, i its i-th argument
	// atom is set when the innermost list is an atom (a fact, a rule's head, a body literal,
	// an operand of not or or), clear when it is a function term or a rule (`<=`).
	atom bool
	rule bool // the innermost list is a rule: (<= head body...)
}

// siteAt finds the lists around off. A list contains off when off lies after its '(' and before
// its ')' (or anywhere up to its end when it is never closed). ok is false outside every list.
func siteAt(f *syntax.File, off int) (site, bool) {
	var s site
	leaf, path := f.LeafAt(off)
	path = append(path, leaf)
	for _, c := range path {
		if !c.Valid() || c.Kind() != syntax.List {
			continue
		}
		sp := c.Span()
		inside := sp.Start < off && (off < sp.End || c.Node().Unclosed && off <= sp.End)
		if inside {
			s.lists = append(s.lists, c)
		}
	}
	if len(s.lists) == 0 {
		return s, false
	}
	inner := s.lists[len(s.lists)-1]
	for _, e := range inner.Elements() {
		if e.Span().End < off {
			s.index++
		}
	}
	s.atom, s.rule = listKind(s.lists)
	return s, true
}

// listKind says what the last of nested lists (outermost first) is: an atom, a rule, or (both
// false) a function term or a connective's list. It walks down from the top-level form: a form
// is an atom or a rule; the elements of a rule after <= are atoms, as are the operands of not
// and or in atom places; anything else inside an atom is a term.
func listKind(lists []syntax.Cursor) (atom, rule bool) {
	atom = true
	for k, c := range lists {
		if k > 0 {
			head := listKey(lists[k-1])
			atom = rule || atom && (head == "not" || head == "or")
		}
		rule = atom && k == 0 && listKey(c) == "<="
	}
	return atom && !rule, rule
}

// listKey returns the key of a list's head: its folded name, or for an infix operator the prefix
// keyword it stands for (`:-` is <=, `~` is not, a disjunction's `(` is or); "" without a head.
func listKey(c syntax.Cursor) string {
	if h := c.Head(); h.Valid() && (h.Kind() == syntax.Word || h.Kind() == syntax.Operator) {
		return h.Symbol().Key()
	}
	return ""
}

// head returns the innermost list's head word and its key; "" when it has none.
func (s site) head() (name, key string) {
	h := s.lists[len(s.lists)-1].Head()
	if !h.Valid() || h.Kind() != syntax.Word {
		return "", ""
	}
	return h.Text(), h.Symbol().Key()
}

// parent returns the list around the innermost one and the innermost one's place in it (the
// element index), or ok false at the top level.
func (s site) parent() (parent syntax.Cursor, index int, ok bool) {
	if len(s.lists) < 2 {
		return syntax.Cursor{}, 0, false
	}
	p, self := s.lists[len(s.lists)-2], s.lists[len(s.lists)-1]
	for i, e := range p.Elements() {
		if e.Span() == self.Span() {
			return p, i, true
		}
	}
	return syntax.Cursor{}, 0, false
}

// argInfo describes one argument of a relation or function.
type argInfo struct {
	Name   string   // a variable name for it, in the file's notation (?x, X): from a doc comment, a pattern, or ?argN
	Values []string // constants written there, most used first (at most maxArgValues)
}

const maxArgValues = 12

// keywordArgs names the arguments of the relation keywords.
var keywordArgs = map[string][]string{
	"role": {"?name"}, "init": {"?proposition"}, "true": {"?proposition"}, "does": {"?role", "?move"},
	"next": {"?proposition"}, "legal": {"?role", "?move"}, "goal": {"?role", "?value"},
	"distinct": {"?a", "?b"}, "base": {"?proposition"}, "input": {"?role", "?move"}, "sees": {"?role", "?percept"},
}

// argumentInfo names the arguments of a relation (function false) or function term of the
// given arity, best source first: a doc comment above a clause that mentions it, written like
// `; (cell ?x ?y ?mark): ...` (in infix, `% cell(X,Y,Mark): ...`); the variables of its patterns
// in `base` and `input` rules and facts; those of rule heads; those of rule bodies. A position
// with no name gets ?argN. Names are variables in the notation of f (?x, or X in infix). It also
// gathers the constants written at each position. The list whose head is at skip (the one
// being typed) is left out.
func argumentInfo(m *analysis.Model, f *syntax.File, key string, arity int, function bool, skip syntax.Span) []argInfo {
	out := make([]argInfo, arity)
	d := f.Dialect()
	defer fillArgNames(out, d)
	if !function {
		if names, ok := keywordArgs[key]; ok && len(names) == arity {
			for i := range out {
				out[i].Name = names[i]
			}
		}
	}
	table := m.Relations
	if function {
		table = m.Functions
	}
	sym := table[key]
	if sym == nil || arity == 0 {
		return out
	}
	v := newArgVotes(arity)
	docs := map[int]bool{} // clauses whose doc comment was read
	pattern := docPattern(sym.Name(m), arity, d)
	occs := sym.OccsOfArity(arity)
	if len(occs) > maxInfoOccurrences {
		occs = occs[:maxInfoOccurrences]
	}
	for _, i := range occs {
		o := m.Occ(i)
		if o.Span == skip {
			continue
		}
		c := m.Clauses[o.Clause]
		if !docs[int(o.Clause)] {
			docs[int(o.Clause)] = true
			v.docComment(c.Form.Doc(), pattern, d)
		}
		list := listNamed(f, o.Span)
		if !list.Valid() {
			continue
		}
		tier := tierBody
		switch {
		case o.Def && (c.Key() == "base" || c.Key() == "input"):
			tier = tierPattern
		case o.Def:
			tier = tierHead
		}
		v.occurrence(list, tier)
	}
	v.fill(out)
	return out
}

// The sources of an argument's name, best first.
const (
	tierDoc     = iota // a doc comment
	tierPattern        // a base or input clause
	tierHead           // a clause head
	tierBody           // a rule body
	tiers
)

// argVotes gathers, per argument position, the variable names each source proposes and the
// constants written there.
type argVotes struct {
	arity  int
	votes  [tiers][]map[string]int // by tier, then position
	first  map[string]int          // the order names were seen in, for ties
	values []map[string]int        // by position
}

func newArgVotes(arity int) *argVotes {
	v := &argVotes{arity: arity, first: map[string]int{}, values: make([]map[string]int, arity)}
	for t := range v.votes {
		v.votes[t] = make([]map[string]int, arity)
	}
	return v
}

func (v *argVotes) vote(tier, pos int, name string) {
	if v.votes[tier][pos] == nil {
		v.votes[tier][pos] = map[string]int{}
	}
	v.votes[tier][pos][name]++
	if _, ok := v.first[name]; !ok {
		v.first[name] = len(v.first)
	}
}

// docComment votes for the names a clause's doc comment gives the arguments, in a pattern like
// `(cell ?x ?y ?mark)`.
func (v *argVotes) docComment(doc string, pattern *regexp.Regexp, d syntax.Dialect) {
	if doc == "" {
		return
	}
	args := pattern.FindStringSubmatch(doc)
	if args == nil {
		return
	}
	for pos, a := range strings.FieldsFunc(args[1], func(r rune) bool { return r == ',' || unicode.IsSpace(r) }) {
		if name, ok := d.Var(a); ok {
			v.vote(tierDoc, pos, name)
		}
	}
}

// occurrence votes for the variables of one occurrence, the list named, and counts its
// constants.
func (v *argVotes) occurrence(list syntax.Cursor, tier int) {
	for pos, t := range (syntax.Term{Cursor: list}).ArgSeq() {
		if pos >= v.arity {
			break
		}
		switch t.Kind() {
		case syntax.TermVariable:
			v.vote(tier, pos, t.Text())
		case syntax.TermConstant:
			if v.values[pos] == nil {
				v.values[pos] = map[string]int{}
			}
			v.values[pos][t.Text()]++
		}
	}
}

// fill names the arguments not named yet after the best source with a vote, and lists the
// constants most used at each.
func (v *argVotes) fill(out []argInfo) {
	for pos := range out {
		if out[pos].Name == "" {
			for t := 0; t < tiers; t++ {
				if best := mostVoted(v.votes[t][pos], v.first); best != "" {
					out[pos].Name = best
					break
				}
			}
		}
		out[pos].Values = mostUsed(v.values[pos], maxArgValues)
	}
}

// maxInfoOccurrences bounds the occurrences argumentInfo reads, so that it stays fast on a
// relation used thousands of times (the names are settled long before).
const maxInfoOccurrences = 2000

// docPattern matches `(name a1 ... an)` in a doc comment, or in infix `name(A1,...,An)`,
// case-insensitively.
func docPattern(name string, arity int, d syntax.Dialect) *regexp.Regexp {
	if d == syntax.Infix {
		quoted, _ := d.Name(name)
		arg := `\s*[^\s(),%"]+\s*`
		return regexp.MustCompile(`(?i)(?:^|[^\w"])` + regexp.QuoteMeta(quoted) + `\((` + arg + `(?:,` + arg + `){` + fmt.Sprint(arity-1) + `})\)`)
	}
	return regexp.MustCompile(`(?i)\(\s*` + regexp.QuoteMeta(name) + `((?:\s+\??[^\s()?;]+){` + fmt.Sprint(arity) + `})\s*\)`)
}

// listNamed returns the list whose head is the name at span, or an invalid cursor.
func listNamed(f *syntax.File, name syntax.Span) syntax.Cursor {
	_, path := f.LeafAt(name.Start)
	for i := len(path) - 1; i >= 0; i-- {
		if c := path[i]; c.Kind() == syntax.List && c.Head().Valid() && c.Head().Span() == name {
			return c
		}
	}
	return syntax.Cursor{}
}

// fillArgNames writes the names in notation d (?x, or X in infix), gives every unnamed argument
// ?argN (Arg1) and makes names unique (?x, ?x_2).
func fillArgNames(args []argInfo, d syntax.Dialect) {
	seen := map[string]bool{}
	for i := range args {
		if v, ok := d.Var(args[i].Name); ok {
			args[i].Name = v
		} else {
			args[i].Name = ""
		}
		if args[i].Name == "" {
			args[i].Name, _ = d.Var(fmt.Sprintf("?arg%d", i+1))
		}
		name := args[i].Name
		for n := 2; seen[syntax.VarKey(name)]; n++ {
			name = fmt.Sprintf("%s_%d", args[i].Name, n)
		}
		args[i].Name = name
		seen[syntax.VarKey(name)] = true
	}
}

// mostVoted returns the name with most votes (ties: the one seen first), or "".
func mostVoted(votes map[string]int, first map[string]int) string {
	best, n := "", 0
	for name, v := range votes {
		if v > n || v == n && first[name] < first[best] {
			best, n = name, v
		}
	}
	return best
}

// mostUsed returns up to n keys, most counted first (ties: in order).
func mostUsed(counts map[string]int, n int) []string {
	if len(counts) == 0 {
		return nil
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if counts[keys[i]] != counts[keys[j]] {
			return counts[keys[i]] > counts[keys[j]]
		}
		return lessNatural(keys[i], keys[j])
	})
	if len(keys) > n {
		keys = keys[:n]
	}
	return keys
}

// lessNatural orders numbers by value before other names, which are in text order.
func lessNatural(a, b string) bool {
	na, nb := isNumber(a), isNumber(b)
	switch {
	case na && nb && len(a) != len(b):
		return len(a) < len(b)
	case na != nb:
		return na
	}
	return a < b
}

// pattern writes `(name ?a ?b)`, or in infix `name(A,B)`; name alone without arguments.
func pattern(name string, args []argInfo, d syntax.Dialect) string {
	names := make([]string, len(args))
	for i, a := range args {
		names[i] = a.Name
	}
	return d.Atom(name, names...)
}
