package ide

import (
	"fmt"
	"sort"

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
// atom may start; variables of the clause, roles, constants and functions where a term may.
// Without snippets, items insert their label.
func Completion(snap *Snapshot, off int, snippets bool) []CompletionItem {
	m := snap.Model()
	src := snap.Text()
	start := off
	for start > 0 && isSymbolByte(src[start-1]) {
		start--
	}
	afterParen := start > 0 && src[start-1] == '('
	place := completionPlaceAt(snap, start, afterParen)
	replace := syntax.Span{Start: start, End: off}
	items := []CompletionItem{}
	add := func(label string, kind CompletionKind, detail, snippet, doc string, sortGroup int) {
		it := CompletionItem{Label: label, Kind: kind, Detail: detail, SortText: fmt.Sprintf("%d%s", sortGroup, label),
			Text: label, Doc: doc, Replace: replace}
		if snippets && snippet != "" {
			it.Text, it.Snippet = snippet, true
		}
		items = append(items, it)
	}
	relations := func(wrap bool) {
		for _, key := range sortedKeys(m.Relations) {
			if analysis.IsKeyword(key) {
				continue
			}
			sym := m.Relations[key]
			arity := mostCommonArity(sym)
			name := sym.Name(m)
			snip := snippet(name, arity)
			if wrap && arity > 0 {
				snip = "(" + snip + ")"
			}
			add(name, CompletionRelation, fmt.Sprintf("relation/%d", arity), snip, "", 1)
		}
		for _, kw := range keywordOrder {
			if !keywordFits(kw, place) {
				continue
			}
			snip := keywordSnippets[kw]
			if wrap && kw != "terminal" {
				snip = "(" + snip + ")"
			}
			add(kw, CompletionKeyword, "keyword", snip, keywordDocs[kw], 2)
		}
	}
	switch place {
	case placeTopLevel:
		relations(true)
	case placeHead, placeLiteral:
		relations(false)
	case placeBodyItem:
		relations(true)
	case placeFunction:
		for _, key := range sortedKeys(m.Functions) {
			sym := m.Functions[key]
			arity := mostCommonArity(sym)
			name := sym.Name(m)
			add(name, CompletionFunction, fmt.Sprintf("function/%d", arity), snippet(name, arity), "", 1)
		}
	case placeTerm:
		if c := m.ClauseAt(off); c != nil {
			var vars []string
			for _, occs := range c.Vars {
				// A variable whose only occurrence is the word being typed is not in scope.
				if len(occs) > 0 && !(len(occs) == 1 && m.Occurrences[occs[0]].Span.Start == start) {
					vars = append(vars, m.Occurrences[occs[0]].Name)
				}
			}
			sort.Strings(vars)
			for _, v := range vars {
				add(v, CompletionVariable, "variable", "", "", 0)
			}
		}
		roles := map[string]bool{}
		for _, r := range m.Roles {
			roles[r.Key] = true
			add(r.Name, CompletionRole, "role", "", "", 1)
		}
		for _, key := range sortedKeys(m.Constants) {
			if roles[key] {
				continue
			}
			sym := m.Constants[key]
			// A constant that occurs once only at the cursor is the word being typed.
			if len(sym.Occs) == 1 && m.Occurrences[sym.Occs[0]].Span.Start == start {
				continue
			}
			add(sym.Name(m), CompletionConstant, "constant", "", "", 2)
		}
		for _, key := range sortedKeys(m.Functions) {
			sym := m.Functions[key]
			arity := mostCommonArity(sym)
			add(sym.Name(m), CompletionFunction, fmt.Sprintf("function/%d", arity), "("+snippet(sym.Name(m), arity)+")", "", 3)
		}
	}
	return items
}

// snippet writes a name followed by a placeholder for each argument: "cell ${1:?x1} ${2:?x2}".
func snippet(name string, arity int) string {
	for i := 1; i <= arity; i++ {
		name += fmt.Sprintf(" ${%d:?x%d}", i, i)
	}
	return name
}

// completionPlaceAt decides the place of a word starting at start from the enclosing lists.
func completionPlaceAt(snap *Snapshot, start int, afterParen bool) completionPlace {
	var lists []syntax.Cursor
	probe := start
	if afterParen {
		probe = start - 1 // inside the list the '(' opens
	}
	_, path := snap.File.LeafAt(probe)
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

func isSymbolByte(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '\f', '\v', '(', ')', ';':
		return false
	}
	return c >= 0x20 && c != 0x7f
}
