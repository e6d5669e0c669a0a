package ide

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/syntax"
)

// CompletionKind says what a completion item inserts.
type CompletionKind int

const (
	CompletionRelation CompletionKind = iota
	CompletionKeyword
	CompletionFunction
	CompletionVariable
	CompletionRole
	CompletionConstant
	CompletionFluent // a proposition of the state: what init, next and base produce
	CompletionMove   // a move: what legal and input allow
)

// CompletionItem is one proposal. Text replaces Replace (the word before the cursor); it is a
// snippet (with ${n:...} placeholders) when Snippet is set.
type CompletionItem struct {
	Label, Detail string
	Kind          CompletionKind
	SortText      string
	Text          string
	Snippet       bool
	Doc           string // Markdown
	Replace       syntax.Span
}

// completionPlace is what the grammar allows at the cursor.
type completionPlace int

const (
	placeTopLevel completionPlace = iota // outside every form: a fact or a rule may start here
	placeHead                            // the name of a fact or rule head: after '(' at top level or as a rule's head
	placeLiteral                         // the name of a body atom: after '(' in a rule body, in not/or
	placeBodyItem                        // an element of a rule body written without '('
	placeFunction                        // the name of a function term: after '(' inside an atom
	placeTerm                            // an argument of an atom or function term
)

// Completion offers, by place: relations with snippets of their arity and keywords where an
// atom may start; where a term may, what fits the argument: the fluents of the game (what init,
// next and base produce) as the argument of true, init, next and base; a role's moves (what its
// legal and input rules allow) as the move of does, legal and input; the roles as the role of
// legal, goal, does, sees and input; elsewhere the constants written at that argument, then the
// variables of the clause, roles, constants and functions. Without snippets, items insert their
// label. What items insert is written in the document's notation: `(cell ?x ?y)` in prefix,
// `cell(X,Y)` in infix.
func Completion(snap *Snapshot, off int, snippets bool) []CompletionItem {
	if st := snap.syntaxStage(); st != nil {
		return st.completion(off, snippets)
	}
	return newCompletion(snap, off, snippets).offer()
}

// offer adds the items that fit the place and returns them.
func (c *completion) offer() []CompletionItem {
	s, _ := siteAt(c.file, c.start)
	switch c.place {
	case placeTopLevel, placeBodyItem:
		c.relations(true)
	case placeHead, placeLiteral:
		c.relations(false)
	case placeFunction:
		c.functionName(s)
	case placeTerm:
		if !c.argument(s) {
			c.anyTerm()
		}
	}
	return c.items
}

// completion is the context of one completion: the document, the word being typed (from start
// to the cursor off) and the place it is at, and the items offered so far. Its providers
// (relations, variables, roles, patterns, functions, constants) add the items of one kind.
type completion struct {
	m          *analysis.Model
	file       *syntax.File
	d          syntax.Dialect
	start, off int
	place      completionPlace
	snippets   bool
	// wrapping: in prefix a snippet is wrapped in parentheses where no '(' was typed; infix
	// writes the parentheses after the name, always.
	wrapping bool
	items    []CompletionItem
	seen     map[string]bool // labels offered, by kind
}

func newCompletion(snap *Snapshot, off int, snippets bool) *completion {
	c := &completion{m: snap.Model(), d: snap.Dialect(), off: off, snippets: snippets, items: []CompletionItem{}, seen: map[string]bool{}}
	src := snap.Text()
	c.start = off
	for c.start > 0 && isWordByte(src[c.start-1], c.d) {
		c.start--
	}
	c.file = snap.File()
	if c.d == syntax.Infix {
		c.place = infixPlaceAt(c.file, c.start)
	} else {
		c.place = completionPlaceAt(snap, c.start, c.start > 0 && src[c.start-1] == '(')
	}
	c.wrapping = c.d == syntax.Prefix
	return c
}

// replace is the word being typed, which an item replaces.
func (c *completion) replace() syntax.Span { return syntax.Span{Start: c.start, End: c.off} }

// add offers an item once per label and kind; sortGroup orders the groups of items.
func (c *completion) add(label string, kind CompletionKind, detail, snippet, doc string, sortGroup int) {
	k := fmt.Sprint(kind, " ", label)
	if c.seen[k] {
		return
	}
	c.seen[k] = true
	it := CompletionItem{Label: label, Kind: kind, Detail: detail, SortText: fmt.Sprintf("%d%s", sortGroup, label),
		Text: label, Doc: doc, Replace: c.replace()}
	if c.snippets && snippet != "" {
		it.Text, it.Snippet = snippet, true
	}
	c.items = append(c.items, it)
}

// typing reports whether the only occurrence of a symbol is the word being typed: it is not
// one to offer.
func (c *completion) typing(sym *analysis.Symbol) bool {
	return len(sym.Occs) == 1 && c.m.Occ(sym.Occs[0]).Span.Start == c.start
}

// symbol is the name of relation (or function) key as offered, its snippet and its most
// common arity; ok is false when it is the word being typed.
func (c *completion) symbol(key string, sym *analysis.Symbol, function bool) (name, snip string, arity int, ok bool) {
	if c.typing(sym) {
		return "", "", 0, false
	}
	arity = mostCommonArity(sym)
	name = written(c.d, sym.Name(c.m))
	return name, snippet(name, c.args(key, arity, function), c.d), arity, true
}

// args describes the arguments of relation (or function) key of the given arity.
func (c *completion) args(key string, arity int, function bool) []argInfo {
	return argumentInfo(c.m, c.file, key, arity, function, c.replace())
}

// relations offers the relations, with snippets of their arity (wrapped in parentheses when
// wrap), and the keywords that fit the place.
func (c *completion) relations(wrap bool) {
	wrap = wrap && c.wrapping
	for _, key := range sortedKeys(c.m.Relations) {
		if analysis.IsKeyword(key) {
			continue
		}
		name, snip, arity, ok := c.symbol(key, c.m.Relations[key], false)
		if !ok {
			continue
		}
		if wrap && arity > 0 {
			snip = "(" + snip + ")"
		}
		c.add(name, CompletionRelation, fmt.Sprintf("relation/%d", arity), snip, "", 1)
	}
	for _, kw := range keywordOrder {
		snip := keywordSnippet(kw, c.d)
		if !keywordFits(kw, c.place) || snip == "" {
			continue
		}
		if wrap && kw != "terminal" {
			snip = "(" + snip + ")"
		}
		c.add(kw, CompletionKeyword, "keyword", snip, keywordDoc(kw, c.d), 2)
	}
}

// variables offers the variables of the clause at the cursor.
func (c *completion) variables(group int) {
	cl := c.m.ClauseAt(c.off)
	if cl == nil {
		return
	}
	var vars []string
	cos := cl.Occurrences(c.m)
	for _, occs := range cl.Vars {
		// A variable whose only occurrence is the word being typed is not in scope.
		if len(occs) > 0 && !(len(occs) == 1 && cos[occs[0]].Span.Start == c.start) {
			vars = append(vars, cos[occs[0]].Name)
		}
	}
	sort.Strings(vars)
	for _, v := range vars {
		c.add(v, CompletionVariable, "variable", "", "", group)
	}
}

// roles offers the roles; it returns their keys.
func (c *completion) roles(group int) map[string]bool {
	keys := map[string]bool{}
	for _, r := range c.m.Roles {
		keys[r.Key] = true
		c.add(written(c.d, r.Name), CompletionRole, "role", "", "", group)
	}
	return keys
}

// patterns offers fluents or moves: a function pattern with a snippet of its arguments
// (wrapped in parentheses unless one was typed), a constant as it is.
func (c *completion) patterns(ps []termPattern, kind CompletionKind, what string, wrap bool) {
	wrap = wrap && c.wrapping
	for _, p := range ps {
		if p.arity == 0 {
			c.add(p.name, kind, what, "", "", 0)
			continue
		}
		args := c.args(p.key, p.arity, true)
		snip := snippet(p.name, args, c.d)
		if wrap {
			snip = "(" + snip + ")"
		}
		c.add(p.name, kind, what+" "+pattern(p.name, args, c.d), snip, "", 0)
	}
}

// functions offers the function symbols, with snippets of their arity (wrapped in parentheses
// when wrap).
func (c *completion) functions(group int, wrap bool) {
	for _, key := range sortedKeys(c.m.Functions) {
		name, snip, arity, ok := c.symbol(key, c.m.Functions[key], true)
		if !ok {
			continue
		}
		if wrap {
			snip = "(" + snip + ")"
		}
		c.add(name, CompletionFunction, fmt.Sprintf("function/%d", arity), snip, "", group)
	}
}

// functionName completes the name of a function term: the fluents or moves that fit the
// argument it is, else any function.
func (c *completion) functionName(s site) {
	if parent, i, ok := s.parent(); ok && len(s.lists) >= 2 {
		outer := site{lists: s.lists[:len(s.lists)-1], index: i}
		outer.atom, _ = listKind(outer.lists)
		if what, ps, ok := argumentPatterns(c.m, outer, parent, c.start); ok {
			c.patterns(ps, what.kind, what.detail, false)
			return
		}
	}
	c.functions(1, false)
}

// argument completes an argument whose relation says what fits it: the fluents or moves of the
// game, or the roles, then the clause's variables. It reports whether it did; otherwise it has
// offered the constants written at this argument elsewhere, and anyTerm follows.
func (c *completion) argument(s site) bool {
	if len(s.lists) == 0 {
		return false
	}
	inner := s.lists[len(s.lists)-1]
	if what, ps, ok := argumentPatterns(c.m, s, inner, c.start); ok {
		c.patterns(ps, what.kind, what.detail, true)
		c.variables(1)
		return true
	}
	if _, key := s.head(); s.atom && s.index == 1 && roleFirst[key] {
		c.roles(0)
		c.variables(1)
		return true
	}
	if name, key := s.head(); key != "" && s.index >= 1 {
		c.writtenConstants(s, inner, name, key)
	}
	return false
}

// writtenConstants offers the constants written at this argument of relation (or function)
// key elsewhere; they come first.
func (c *completion) writtenConstants(s site, inner syntax.Cursor, name, key string) {
	arity := len(inner.Elements()) - 1
	if sym := symbolOf(c.m, key, !s.atom); sym != nil {
		if sym.OccsOfArity(arity) == nil {
			arity = mostCommonArity(sym)
		}
	}
	if s.index > arity {
		return
	}
	for _, v := range c.args(key, arity, !s.atom)[s.index-1].Values {
		kind := CompletionConstant
		if c.m.IsRole(syntax.Fold(strings.Trim(v, `"`))) { // "White" is the role White
			kind = CompletionRole
		}
		c.add(v, kind, fmt.Sprintf("written as argument %d of %s", s.index, name), "", "", 0)
	}
}

// anyTerm offers what any term may be: the clause's variables, the roles, the constants and
// the functions.
func (c *completion) anyTerm() {
	c.variables(1)
	isRole := c.roles(2)
	for _, key := range sortedKeys(c.m.Constants) {
		if isRole[key] {
			continue
		}
		sym := c.m.Constants[key]
		// A constant that occurs once only at the cursor is the word being typed.
		if c.typing(sym) {
			continue
		}
		c.add(written(c.d, sym.Name(c.m)), CompletionConstant, "constant", "", "", 3)
	}
	c.functions(4, c.wrapping)
}

// roleFirst lists the relation keywords whose first argument is a role.
var roleFirst = map[string]bool{"legal": true, "goal": true, "does": true, "sees": true, "input": true}

// symbolOf returns the relation (or, with function, the function) key.
func symbolOf(m *analysis.Model, key string, function bool) *analysis.Symbol {
	if function {
		return m.Functions[key]
	}
	return m.Relations[key]
}

// patternKind says what argumentPatterns offers.
type patternKind struct {
	kind   CompletionKind
	detail string
}

// argumentPatterns returns the fluents or moves that fit argument s.index of the atom list:
// the fluents for the argument of true, init, next and base; the moves of the role written
// first (any role's for a variable) for the move of does, legal and input. The word being typed,
// at typing, is not a pattern.
func argumentPatterns(m *analysis.Model, s site, list syntax.Cursor, typing int) (patternKind, []termPattern, bool) {
	if !s.atom {
		return patternKind{}, nil, false
	}
	h := list.Head()
	if !h.Valid() || h.Kind() != syntax.Word {
		return patternKind{}, nil, false
	}
	switch key := h.Symbol().Key(); {
	case s.index == 1 && (key == "true" || key == "init" || key == "next" || key == "base"):
		return patternKind{CompletionFluent, "fluent"}, fluentPatterns(m, typing), true
	case s.index == 2 && (key == "does" || key == "legal" || key == "input"):
		el := list.Elements()
		role := ""
		if len(el) > 1 && el[1].Kind() == syntax.Word {
			role = el[1].Symbol().Key()
		}
		what := "move"
		if role != "" {
			what = "move of " + el[1].Text()
		}
		return patternKind{CompletionMove, what}, movePatterns(m, role, typing), true
	}
	return patternKind{}, nil, false
}

// termPattern is the shape of a fluent or a move: a constant, or a function name and arity.
type termPattern struct {
	name, key string
	arity     int
}

// fluentPatterns lists the shapes of the propositions the game's init, next and base produce,
// in the order they are first written; a term whose name starts at skip is left out.
func fluentPatterns(m *analysis.Model, skip int) []termPattern {
	var out []termPattern
	seen := map[termPattern]bool{}
	for _, c := range m.Clauses {
		switch c.Key() {
		case "init", "next", "base":
		default:
			continue
		}
		if c.Head.Arity() != 1 {
			continue
		}
		out = addPattern(out, seen, c.Head.Args()[0], skip)
	}
	return out
}

// movePatterns lists the shapes of the moves the game's legal and input clauses allow role (a
// key; "" for any role), in the order they are first written; a term whose name starts at
// skip is left out.
func movePatterns(m *analysis.Model, role string, skip int) []termPattern {
	var out []termPattern
	seen := map[termPattern]bool{}
	for _, c := range m.Clauses {
		switch c.Key() {
		case "legal", "input":
		default:
			continue
		}
		if c.Head.Arity() != 2 {
			continue
		}
		args := c.Head.Args()
		if r := args[0]; role != "" && r.Kind() == syntax.TermConstant && r.Name().Key() != role {
			continue
		}
		out = addPattern(out, seen, args[1], skip)
	}
	return out
}

func addPattern(out []termPattern, seen map[termPattern]bool, t syntax.Term, skip int) []termPattern {
	if t.Kind() == syntax.TermInvalid || t.Name().Span().Start == skip {
		return out
	}
	var p termPattern
	switch t.Kind() {
	case syntax.TermConstant:
		p = termPattern{name: t.Text(), key: t.Name().Key()}
	case syntax.TermFunction:
		p = termPattern{name: t.Name().Text(), key: t.Name().Key(), arity: t.Arity()}
	default:
		return out
	}
	k := p
	k.name = ""
	if seen[k] {
		return out
	}
	seen[k] = true
	return append(out, p)
}

// snippet writes a name followed by a placeholder for each argument, named by args:
// "cell ${1:?x} ${2:?y}" (the caller adds the parentheses), or in infix "cell(${1:X},${2:Y})".
func snippet(name string, args []argInfo, d syntax.Dialect) string {
	out := snippetEscaper.Replace(name)
	if d == syntax.Infix {
		if len(args) == 0 {
			return out
		}
		for i, a := range args {
			sep := ","
			if i == 0 {
				sep = "("
			}
			out += fmt.Sprintf("%s${%d:%s}", sep, i+1, snippetEscaper.Replace(a.Name))
		}
		return out + ")"
	}
	for i, a := range args {
		out += fmt.Sprintf(" ${%d:%s}", i+1, snippetEscaper.Replace(a.Name))
	}
	return out
}

// written returns how a name (as the model spells it, without infix quotes) is written in d:
// quoted in infix when it cannot be written bare.
func written(d syntax.Dialect, name string) string {
	if w, ok := d.Name(name); ok {
		return w
	}
	return name
}

// snippetEscaper escapes the characters that mean something in a snippet.
var snippetEscaper = strings.NewReplacer(`\`, `\\`, "$", `\$`, "}", `\}`)

// completionPlaceAt decides the place of a word starting at start from the enclosing lists.
func completionPlaceAt(snap *Snapshot, start int, afterParen bool) completionPlace {
	var lists []syntax.Cursor
	probe := start
	if afterParen {
		probe = start - 1 // inside the list the '(' opens
	}
	_, path := snap.File().LeafAt(probe)
	for _, c := range path {
		if c.Kind() == syntax.List && c.Span().Start < start {
			lists = append(lists, c)
		}
	}
	if afterParen && len(lists) > 0 && lists[len(lists)-1].Span().Start == start-1 {
		// The word names the list it opens; what matters is where that list sits.
		self := lists[len(lists)-1]
		lists = lists[:len(lists)-1]
		if len(lists) == 0 {
			return placeHead
		}
		parent := lists[len(lists)-1]
		switch h := syntax.Fold(parent.Head().Text()); h {
		case "<=":
			if el := parent.Elements(); len(el) > 1 && el[1].Span() == self.Span() {
				return placeHead
			}
			return placeLiteral
		case "not", "or":
			return placeLiteral
		}
		return placeFunction
	}
	if len(lists) == 0 {
		return placeTopLevel
	}
	parent := lists[len(lists)-1]
	if h := parent.Head(); h.Valid() {
		switch syntax.Fold(h.Text()) {
		case "<=", "or", "not":
			return placeBodyItem
		}
	}
	return placeTerm
}

// keywordFits reports whether a keyword may start an atom at place: `init` and `next` only in
// heads, `true`, `does` and the connectives only in bodies.
func keywordFits(kw string, place completionPlace) bool {
	switch place {
	case placeHead:
		switch kw {
		case "true", "does", "not", "distinct", "or":
			return false
		}
	case placeLiteral, placeBodyItem:
		switch kw {
		case "<=", "init", "next", "base", "input":
			return false
		}
	}
	return true
}

// infixPlaceAt decides the place of a word starting at start in an infix file from the token
// before it: after `:-`, `&`, `|`, `~` or a disjunction's `(` a literal goes; after the `(` or a
// `,` of an atom or function term, an argument; anywhere else (the start of the file, after a
// complete statement or its `.`) a new statement, whose head is the word.
func infixPlaceAt(f *syntax.File, start int) completionPlace {
	src := f.Source()
	pos := start
	for {
		for pos > 0 && strings.IndexByte(" \t\n\r\f\v", src[pos-1]) >= 0 {
			pos--
		}
		if pos == 0 {
			return placeTopLevel
		}
		leaf, path := f.LeafAt(pos - 1)
		if !leaf.Valid() {
			return placeTopLevel
		}
		switch leaf.Kind() {
		case syntax.Comment:
			pos = leaf.Span().Start
			continue
		case syntax.Operator:
			return placeLiteral
		case syntax.Punct:
			switch src[leaf.Span().Start] {
			case '&', '|':
				return placeLiteral
			case ',':
				// Between arguments, unless the ',' wrongly joins body literals.
				if len(path) > 0 && path[len(path)-1].Kind() == syntax.List && listKey(path[len(path)-1]) == "<=" {
					return placeLiteral
				}
				return placeTerm
			}
			return placeTopLevel
		case syntax.LParen:
			return placeTerm
		}
		return placeTopLevel
	}
}

// isWordByte reports whether c may be part of a name being typed in notation d.
func isWordByte(c byte, d syntax.Dialect) bool {
	if d == syntax.Infix {
		return c >= 0x80 || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("_-+*/", c) >= 0
	}
	switch c {
	case ' ', '\t', '\n', '\r', '\f', '\v', '(', ')', ';':
		return false
	}
	return c >= 0x20 && c != 0x7f
}

// completion is Completion from the syntax stage: what the form at the cursor offers alone (its
// variables, the names it spells, the keywords), and, where a relation fits, every relation a
// head defines, by name and the arity of its first definition.
func (st *syntaxStage) completion(off int, snippets bool) []CompletionItem {
	ch := st.chunkAt(off)
	c := newCompletion(ch.snap, off-ch.start, snippets)
	c.offer()
	if c.place == placeTopLevel || c.place == placeBodyItem || c.place == placeHead || c.place == placeLiteral {
		seen := map[string]bool{}
		for _, h := range st.allHeads() {
			if h.key == "" || analysis.IsKeyword(h.key) || seen[h.key] || h.atom.Name().Span().Start == ch.start+c.start {
				continue
			}
			seen[h.key] = true
			c.add(written(c.d, h.atom.Name().Name()), CompletionRelation, fmt.Sprintf("relation/%d", h.arity), "", "", 1)
		}
	}
	items := c.items
	for i := range items {
		items[i].Replace = ch.span(items[i].Replace)
	}
	return items
}
