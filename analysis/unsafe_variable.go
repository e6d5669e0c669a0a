package analysis

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/gdl-lsp/gdl/syntax"
)

func init() {
	register(&Check{
		Code:     "unsafe-variable",
		Severity: Error,
		Category: CategorySemantics,
		Summary:  "A variable of the head, of a not or of a distinct that no positive atom of the body binds. The rule has no defined meaning.",
		Example:  "(<= (legal ?p noop) (not (true (control ?p))))",
		Fix: "Add a positive literal that binds the variable, e.g. (role ?p), or correct its name. When the rule " +
			"binds a variable the unsafe one is likely a misspelling of (close in spelling, or the only bound " +
			"variable whose values can stand where the unsafe one stands, as ?player for ?who in " +
			"(not (true (control ?who))) when (role ?player) binds it), the first quick fix renames it. For a " +
			"variable that only occurs in a negated atom, the next one moves the atom into a helper relation and negates that: " +
			"(not (true (line ?c ?i ?j))) becomes (not (hasLine ?i ?j)) with (<= (hasLine ?i ?j) (true (line ?c ?i ?j))). " +
			"Helpers are named after the atom (hasLine, doesMark, doesSomething), never take a name the file uses, " +
			"and one atom (up to renaming its variables) gets one helper, so all fixes of a file can be applied at once.",
		Clause: func(m *Model, c *Clause, r *Reporter) {
			if c.IsRule {
				checkSafety(c, r)
			}
		},
		Amend: func(m *Model, ds []*Diagnostic) {
			addHelperFixes(m, ds)
			addRenameFixes(m, ds)
		},
	})
}

// addHelperFixes gives each unsafe variable of a negated atom the fix that moves the atom into
// a helper relation. It runs on the whole file, after the per-clause check: a helper's name must
// not clash with any name of the file, and the same atom must get the same helper everywhere.
func addHelperFixes(m *Model, ds []*Diagnostic) {
	helpers := &helperNames{m: m}
	var atom syntax.Atom // the negated atom of the diagnostics before, and its fix
	var fix *syntax.Fix
	for _, d := range ds {
		c := m.ClauseAt(d.Span.Start)
		if c == nil {
			continue
		}
		if !atom.Valid() || !atom.Span().Contains(d.Span.Start) {
			atom, fix = negatedAtomAt(c, d.Span), nil
			if !atom.Valid() {
				continue
			}
			if f, ok := helperFix(m, c, atom, boundVars(c), helpers); ok {
				fix = &f
			}
		}
		if fix != nil {
			d.Fixes = append(d.Fixes[:len(d.Fixes):len(d.Fixes)], *fix)
		}
	}
}

// negatedAtomAt returns the atom of the clause's (not atom) literal that contains span, or an
// invalid atom.
func negatedAtomAt(c *Clause, span syntax.Span) syntax.Atom {
	var out syntax.Atom
	walkLiterals(c, func(v literalVisit) {
		if v.Kind != syntax.LitNot || out.Valid() {
			return
		}
		if ops := v.Lit.Operands(); len(ops) == 1 && ops[0].Kind() == syntax.LitAtom {
			if a := ops[0].Atom(); a.Span().Contains(span.Start) && a.Span().Contains(span.End-1) {
				out = a
			}
		}
	})
	return out
}

// boundVars returns the variables that the body binds: those of its positive atoms and those
// every branch of an `or` binds.
func boundVars(c *Clause) map[string]bool {
	b := make(map[string]bool, len(c.Vars)) // no bigger than the clause's variables
	for _, l := range c.Body {
		Binds(l, b)
	}
	return b
}

// checkSafety reports each unsafe variable of a rule once, at its first occurrence, saying
// where it occurs; its other occurrences are related locations.
func checkSafety(c *Clause, r *Reporter) {
	bound := boundVars(c)
	type unsafeVar struct {
		name   string
		spans  []syntax.Span
		places []string
	}
	var order []string
	vars := map[string]*unsafeVar{}
	unsafe := func(cur syntax.Cursor, where string) {
		forEachVar(cur, func(name string, span syntax.Span) {
			k := syntax.VarKey(name)
			if bound[k] {
				return
			}
			v := vars[k]
			if v == nil {
				v = &unsafeVar{name: name}
				vars[k] = v
				order = append(order, k)
			}
			v.spans = append(v.spans, span)
			if !slices.Contains(v.places, where) {
				v.places = append(v.places, where)
			}
		})
	}
	unsafe(c.Head.Cursor, "the head")
	walkLiterals(c, func(v literalVisit) {
		switch v.Kind {
		case syntax.LitDistinct:
			unsafe(v.Lit.Cursor, "a distinct")
		case syntax.LitNot:
			ops := v.Lit.Operands()
			if len(ops) != 1 || ops[0].Kind() != syntax.LitAtom {
				return // reported by invalid-negation; inner atoms are visited on their own
			}
			unsafe(ops[0].Cursor, "a negated atom") // the helper fix comes from addHelperFixes
		}
	})
	for _, k := range order {
		v := vars[k]
		where := v.places[0]
		if n := len(v.places); n > 1 {
			where = strings.Join(v.places[:n-1], ", ") + " and " + v.places[n-1]
		}
		var related []Related
		for _, sp := range v.spans[1:] {
			related = append(related, Related{Span: sp, Message: v.name + " occurs here too"})
		}
		r.Report(v.spans[0], fmt.Sprintf("unsafe variable %s: it occurs in %s but in no positive atom of the body, so the rule has no defined meaning",
			v.name, where), related)
	}
}

// helperFix turns (not (rel ... ?unsafe ... ?safe ...)) into (not (helper ?safe ...)) with a new
// rule (<= (helper ?safe ...) (rel ... ?unsafe ... ?safe ...)): the unsafe variables are
// projected away, which is what the author meant ("no value of ?unsafe makes it true").
func helperFix(m *Model, c *Clause, a syntax.Atom, bound map[string]bool, helpers *helperNames) (syntax.Fix, bool) {
	var safe []string
	seen := map[string]bool{}
	hasUnsafe, elsewhere := false, false
	forEachVar(a.Cursor, func(name string, _ syntax.Span) {
		k := syntax.VarKey(name)
		if !bound[k] {
			hasUnsafe = true
			// Projecting the variable away only keeps the author's meaning when the negated
			// atom is its only occurrence (an unsafe head variable stays unsafe otherwise).
			for _, oi := range c.Vars[k] {
				if sp := c.Occurrences(m)[oi].Span; sp.Start < a.Span().Start || sp.End > a.Span().End {
					elsewhere = true
				}
			}
		} else if !seen[k] {
			seen[k] = true
			safe = append(safe, name)
		}
	})
	if !hasUnsafe || elsewhere {
		return syntax.Fix{}, false
	}
	h := helpers.helperFor(c, a, bound)
	if h == nil {
		return syntax.Fix{}, false
	}
	head := m.Notation().Atom(h.written, safe...)
	edits := []syntax.TextEdit{{Span: a.Span(), NewText: head}}
	title := "Negate the helper relation " + h.name + ", which already says this"
	if h.rule != "" {
		edits = append(edits, syntax.TextEdit{Span: syntax.Span{Start: h.at, End: h.at}, NewText: h.rule})
		title = "Move the negated atom into a helper relation " + h.name
	}
	return syntax.Fix{Title: title, Edits: edits}, true
}

// helper is the relation that stands for one negated atom, up to the renaming of variables.
type helper struct {
	name    string
	written string // the name written in the file's notation
	rule    string // the rule to add, "" when the file already defines the helper
	at      int    // where the rule goes: after the first clause that needs it
}

// helperNames gives helper relations their names for one analysis of a file. Different negated
// atoms get different names, the same atom (up to renaming its variables) the same one, so
// that applying every fix of the file at once keeps its meaning: each fix that needs a new
// helper inserts the same rule at the same place. A name never clashes, in any spelling, with
// a symbol of the file (forms with syntax errors included) or a keyword; a helper the file
// already defines (one rule, the same atom) is reused.
type helperNames struct {
	m        *Model
	taken    map[string]bool    // folded names of the file's symbols and of the helpers so far
	existing map[string]string  // shape -> name of a relation of the file that is that helper
	byShape  map[string]*helper // shape -> the helper given out in this analysis
}

// helperFor returns the helper for atom a of clause c, whose bound variables are given, or nil
// when its name cannot be written in the file's notation.
func (h *helperNames) helperFor(c *Clause, a syntax.Atom, bound map[string]bool) *helper {
	if h.taken == nil {
		h.index()
	}
	d := h.m.Notation()
	shape := atomShape(a.Cursor, bound)
	if name, ok := h.existing[shape]; ok {
		written, ok := d.Name(name)
		if !ok {
			return nil
		}
		return &helper{name: name, written: written}
	}
	if x := h.byShape[shape]; x != nil {
		return x
	}
	base := helperBase(a)
	name := base
	for i := 2; h.taken[syntax.Fold(name)]; i++ {
		name = base + strconv.Itoa(i)
	}
	h.taken[syntax.Fold(name)] = true
	var safe []string
	seen := map[string]bool{}
	forEachVar(a.Cursor, func(v string, _ syntax.Span) {
		if k := syntax.VarKey(v); bound[k] && !seen[k] {
			seen[k] = true
			safe = append(safe, v)
		}
	})
	written, ok := d.Name(name)
	if !ok {
		return nil
	}
	at, nl := afterClause(h.m.File.Source(), c.Form.Span().End, d)
	x := &helper{name: name, written: written, at: at,
		rule: nl + d.RuleLines(d.Atom(written, safe...), nl, "    ", a.Text())}
	h.byShape[shape] = x
	return x
}

// afterClause returns where a new rule goes after a clause ending at end: at the end of its last
// line when only blanks and a comment follow it there (the comment stays with its clause; in
// infix also the '.' that may end it), right after it otherwise; and the line break to write,
// the one that ends that line.
func afterClause(src string, end int, d syntax.Dialect) (int, string) {
	i := end
	if d == syntax.Infix && i < len(src) && src[i] == '.' {
		i++
		end = i
	}
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	if i < len(src) && src[i] == d.CommentMarks()[0] {
		for i < len(src) && src[i] != '\n' && src[i] != '\r' {
			i++
		}
	}
	switch {
	case strings.HasPrefix(src[i:], "\r\n"):
		return i, "\r\n"
	case strings.HasPrefix(src[i:], "\r"):
		return i, "\r"
	case i < len(src) && src[i] == '\n':
		return i, "\n"
	case i == len(src):
		return i, firstLineBreak(src)
	}
	return end, firstLineBreak(src)
}

// firstLineBreak returns the file's first line break, LF when it has none.
func firstLineBreak(src string) string {
	if i := strings.IndexAny(src, "\r\n"); i >= 0 && src[i] == '\r' {
		if strings.HasPrefix(src[i:], "\r\n") {
			return "\r\n"
		}
		return "\r"
	}
	return "\n"
}

// index collects the names in use and the helpers the file already has.
func (h *helperNames) index() {
	h.taken, h.existing, h.byShape = map[string]bool{}, map[string]string{}, map[string]*helper{}
	for k := range RelationKeywords {
		h.taken[k] = true
	}
	for k := range Connectives {
		h.taken[k] = true
	}
	var words func(c syntax.Cursor)
	words = func(c syntax.Cursor) {
		switch c.Kind() {
		case syntax.Word:
			h.taken[c.Symbol().Key()] = true
		case syntax.List:
			for _, e := range c.Elements() {
				words(e)
			}
		}
	}
	for _, f := range h.m.File.Forms() {
		words(f.Cursor)
	}
	// A relation defined by exactly one rule (<= (p ?v1 ... ?vn) atom), whose head lists
	// distinct variables in the order the atom first uses them, is the helper of that atom.
	count := map[string]int{}
	for _, c := range h.m.Clauses {
		count[c.Key()]++
	}
	for _, c := range h.m.Clauses {
		k := c.Key()
		if count[k] != 1 || h.m.Broken[k] || IsKeyword(k) || !c.IsRule || len(c.Body) != 1 || c.Body[0].Kind() != syntax.LitAtom {
			continue
		}
		var head []string
		inHead := map[string]bool{}
		for _, t := range c.Head.Args() {
			if t.Kind() != syntax.TermVariable || inHead[t.Name().Key()] {
				head = nil
				break
			}
			inHead[t.Name().Key()] = true
			head = append(head, t.Name().Key())
		}
		if len(head) != c.Head.Arity() {
			continue
		}
		body := c.Body[0].Atom()
		var order []string
		seen := map[string]bool{}
		forEachVar(body.Cursor, func(v string, _ syntax.Span) {
			if k := syntax.VarKey(v); inHead[k] && !seen[k] {
				seen[k] = true
				order = append(order, k)
			}
		})
		if strings.Join(order, " ") != strings.Join(head, " ") {
			continue
		}
		if shape := atomShape(body.Cursor, inHead); h.existing[shape] == "" {
			h.existing[shape] = c.Head.Name().Name()
		}
	}
}

// atomShape is the canonical text of an atom with its variables renamed in order of first
// appearance: ?s1, ?s2... for those in bound (the helper's arguments), ?u1, ?u2... for the
// others. Two atoms with the same shape have the same helper.
func atomShape(c syntax.Cursor, bound map[string]bool) string {
	names := map[string]string{}
	ns, nu := 0, 0
	key := TermKey(c)
	var b strings.Builder
	for i := 0; i < len(key); {
		if key[i] != '?' {
			b.WriteByte(key[i])
			i++
			continue
		}
		j := i + 1
		for j < len(key) && key[j] != ' ' && key[j] != ')' && key[j] != '(' {
			j++
		}
		v := key[i:j]
		n, ok := names[v]
		if !ok {
			if bound[v] {
				ns++
				n = "?s" + strconv.Itoa(ns)
			} else {
				nu++
				n = "?u" + strconv.Itoa(nu)
			}
			names[v] = n
		}
		b.WriteString(n)
		i = j
	}
	return b.String()
}

// helperBase derives a helper's name from the atom: (true (line ...)) gives hasLine, (does ?r
// (mark ...)) doesMark, (does ?r ?m) doesSomething, (true ?f) hasFluent, (cell ...) hasCell.
func helperBase(a syntax.Atom) string {
	prefix, word := "has", a.Name().Name()
	switch k, args := a.Name().Key(), a.Args(); {
	case k == "true" && len(args) == 1:
		word = "fluent"
		if args[0].Kind() != syntax.TermVariable {
			word = args[0].Name().Name()
		}
	case k == "does" && len(args) == 2:
		prefix, word = "does", "something"
		if args[1].Kind() != syntax.TermVariable {
			word = args[1].Name().Name()
		}
	}
	rs := []rune(word)
	if len(rs) > 0 {
		rs[0] = unicode.ToUpper(rs[0])
	}
	return prefix + string(rs)
}
