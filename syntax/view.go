package syntax

import (
	"iter"
	"strings"
)

// Cursor points at a node of a file: the node, the text of its top-level item and the item's
// absolute start. The typed views below are cursors with a GDL meaning.
type Cursor struct {
	n    *Node
	text string
	base int
}

// Valid reports whether the cursor points at a node.
func (c Cursor) Valid() bool { return c.n != nil }

// Node returns the underlying node (offsets relative to the item).
func (c Cursor) Node() *Node { return c.n }

// Kind returns the node kind.
func (c Cursor) Kind() Kind { return c.n.Kind }

// Span returns the node's absolute byte range.
func (c Cursor) Span() Span { return Span{c.base + int(c.n.Start), c.base + int(c.n.End)} }

// Text returns the node's source text, as written.
func (c Cursor) Text() string { return c.text[c.n.Start:c.n.End] }

// Moved returns the cursor of the same node in a version of the file in which the node's
// top-level item starts d bytes later: the incremental parser shares untouched items, nodes
// included, between versions, so what was derived from them can be moved instead of derived
// again.
func (c Cursor) Moved(d int) Cursor {
	if c.n != nil {
		c.base += d
	}
	return c
}

// Elements returns cursors to the meaningful children of a list (no parentheses, punctuation or
// trivia), head first: for an infix rule `h :- b`, the ':-', then h, then b.
func (c Cursor) Elements() []Cursor {
	n := elementCount(c.n)
	if n == 0 {
		return nil
	}
	out := make([]Cursor, 0, n)
	for _, k := range elementOrder(c.n) {
		out = append(out, Cursor{&c.n.Kids[k], c.text, c.base})
	}
	return out
}

// isElement reports whether a child of a list carries meaning (is not a parenthesis,
// punctuation or trivia).
func isElement(k Kind) bool {
	switch k {
	case Whitespace, Comment, LParen, RParen, Punct:
		return false
	}
	return true
}

// elementCount returns the number of meaningful children of a list node (0 for a token).
func elementCount(n *Node) int {
	if n == nil || n.Kind != List {
		return 0
	}
	k := 0
	for i := range n.Kids {
		if isElement(n.Kids[i].Kind) {
			k++
		}
	}
	return k
}

// elementOrder returns the indexes among n's children of its elements, head first.
func elementOrder(n *Node) []int {
	h := headIndex(n)
	if h < 0 {
		return nil
	}
	out := []int{h}
	for i := range n.Kids {
		if i != h && isElement(n.Kids[i].Kind) {
			out = append(out, i)
		}
	}
	return out
}

// element returns the i-th meaningful child of a list, head first, or an invalid cursor.
func (c Cursor) element(i int) Cursor {
	if c.n == nil || c.n.Kind != List {
		return Cursor{}
	}
	h := headIndex(c.n)
	if h < 0 {
		return Cursor{}
	}
	if i == 0 {
		return Cursor{&c.n.Kids[h], c.text, c.base}
	}
	i--
	for k := range c.n.Kids {
		if k != h && isElement(c.n.Kids[k].Kind) {
			if i == 0 {
				return Cursor{&c.n.Kids[k], c.text, c.base}
			}
			i--
		}
	}
	return Cursor{}
}

// elementSeq yields the meaningful children of a list after the first skip of them (head
// first), numbered from 0, as views of type T, without allocating.
func elementSeq[T ~struct{ Cursor }](c Cursor, skip int) iter.Seq2[int, T] {
	return func(yield func(int, T) bool) {
		if c.n == nil || c.n.Kind != List {
			return
		}
		h := headIndex(c.n)
		if h < 0 {
			return
		}
		i := -skip
		if i >= 0 && !yield(i, T{Cursor{&c.n.Kids[h], c.text, c.base}}) {
			return
		}
		i++
		for k := range c.n.Kids {
			if k == h || !isElement(c.n.Kids[k].Kind) {
				continue
			}
			if i >= 0 && !yield(i, T{Cursor{&c.n.Kids[k], c.text, c.base}}) {
				return
			}
			i++
		}
	}
}

// elementsFrom returns the meaningful children of a list after the first skip of them (head
// first), as views of type T, in one allocation (nil when there are none). The typed views are
// all a Cursor.
func elementsFrom[T ~struct{ Cursor }](c Cursor, skip int) []T {
	n := elementCount(c.n) - skip
	if n <= 0 {
		return nil
	}
	out := make([]T, 0, n)
	h := headIndex(c.n)
	if skip == 0 {
		out = append(out, T{Cursor{&c.n.Kids[h], c.text, c.base}})
	} else {
		skip--
	}
	for k := range c.n.Kids {
		if k == h || !isElement(c.n.Kids[k].Kind) {
			continue
		}
		if skip > 0 {
			skip--
			continue
		}
		out = append(out, T{Cursor{&c.n.Kids[k], c.text, c.base}})
	}
	return out
}

// Children returns cursors to all children, trivia and parentheses included.
func (c Cursor) Children() []Cursor {
	if c.n == nil {
		return nil
	}
	out := make([]Cursor, len(c.n.Kids))
	for i := range c.n.Kids {
		out[i] = Cursor{&c.n.Kids[i], c.text, c.base}
	}
	return out
}

// Head returns the first element of a list, or an invalid cursor.
func (c Cursor) Head() Cursor {
	if c.n == nil || c.n.Kind != List {
		return Cursor{}
	}
	if h := c.n.first(); h != nil {
		return Cursor{h, c.text, c.base}
	}
	return Cursor{}
}

// Symbol views a Symbol or Variable token.
func (c Cursor) Symbol() Symbol { return Symbol{c} }

// Symbol is a name as written: a constant, relation, function, keyword, number or variable.
// Symbols compare case-insensitively: use Key for comparisons and Name for display.
type Symbol struct{ Cursor }

// Name returns the spelling the author wrote; for a quoted infix name, without its quotes.
func (s Symbol) Name() string {
	if s.n != nil && s.n.Quoted {
		return unquote(s.Text())
	}
	return s.Text()
}

// Key returns the case-folded name used to compare symbols. A variable's key is VarKey's, the
// same in both notations (?x for ?x, ?X and X). An infix operator's key is the prefix keyword
// it stands for: `~` is not, `:-` is <=, and a disjunction's `(` (or `|`) is or.
func (s Symbol) Key() string {
	if s.n != nil {
		switch s.n.Kind {
		case Operator:
			return operatorKey(s.Text())
		case Variable:
			return VarKey(s.Text())
		}
	}
	return Fold(s.Name())
}

// VarKey returns the key of a variable written in either notation: its case-folded name after a
// '?', so that ?board, ?Board and the infix Board have the same key.
func VarKey(name string) string {
	if strings.HasPrefix(name, "?") {
		return Fold(name)
	}
	return "?" + Fold(name)
}

// IsOperator reports whether the symbol is an infix operator (`~`, `:-`, a disjunction's `(`).
func (s Symbol) IsOperator() bool { return s.n != nil && s.n.Kind == Operator }

// operatorKey returns the prefix keyword an infix operator stands for.
func operatorKey(op string) string {
	switch op {
	case "~":
		return "not"
	case ":-":
		return "<="
	case "(", "|":
		return "or"
	}
	return op
}

// unquote returns the name a quoted infix word stands for: its text without the quotes (an
// unterminated one has only the opening quote).
func unquote(t string) string {
	t = strings.TrimPrefix(t, `"`)
	return strings.TrimSuffix(t, `"`)
}

// IsVariable reports whether the symbol is a variable (?x).
func (s Symbol) IsVariable() bool { return s.n != nil && s.n.Kind == Variable }

// Fold returns the case-folded form of a symbol. ASCII names (nearly all) are lowered without
// allocating when already lower case.
func Fold(s string) string {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			return strings.ToLower(s)
		}
		if 'A' <= c && c <= 'Z' {
			return strings.ToLower(s)
		}
	}
	return s
}

// TermKind is the kind of a term.
type TermKind uint8

const (
	TermInvalid  TermKind = iota // a shape that is not a term (an empty list, a list headed by a list ...)
	TermConstant                 // a, 123
	TermVariable                 // ?x
	TermFunction                 // (f t1 ... tn)
)

// Term is a term: a constant, a variable or a function term.
type Term struct{ Cursor }

// Kind returns what kind of term this is.
func (t Term) Kind() TermKind {
	switch t.n.Kind {
	case Word:
		return TermConstant
	case Variable:
		return TermVariable
	case List:
		if h := t.Head(); h.Valid() && h.n.Kind == Word {
			return TermFunction
		}
	}
	return TermInvalid
}

// Name returns the constant, the variable, or the function name of a function term.
func (t Term) Name() Symbol {
	if t.n.Kind == List {
		return Symbol{t.Head()}
	}
	return Symbol(t)
}

// Args returns the arguments of a function term.
func (t Term) Args() []Term { return argTerms(t.Cursor) }

func argTerms(c Cursor) []Term { return elementsFrom[Term](c, 1) }

// Arity returns the number of arguments of a function term (0 for a constant or variable).
func (t Term) Arity() int { return max(elementCount(t.n)-1, 0) }

// ArgSeq yields the arguments of a function term with their indexes, like Args without
// allocating.
func (t Term) ArgSeq() iter.Seq2[int, Term] { return elementSeq[Term](t.Cursor, 1) }

// Atom is a relation applied to terms, `(rel t1 ... tn)`, or a bare proposition `rel`.
type Atom struct{ Cursor }

// Name returns the relation name (invalid when the atom is malformed).
func (a Atom) Name() Symbol {
	if a.n.Kind == List {
		return Symbol{a.Head()}
	}
	return Symbol(a)
}

// Args returns the argument terms.
func (a Atom) Args() []Term { return argTerms(a.Cursor) }

// ArgSeq yields the argument terms with their indexes, like Args without allocating.
func (a Atom) ArgSeq() iter.Seq2[int, Term] { return elementSeq[Term](a.Cursor, 1) }

// Arity returns the number of arguments.
func (a Atom) Arity() int {
	return max(elementCount(a.n)-1, 0)
}

// Parenthesized reports whether the atom is written as a list, like `(terminal)`.
func (a Atom) Parenthesized() bool { return a.n.Kind == List }

// Valid reports whether the atom has a relation name.
func (a Atom) Valid() bool {
	if a.n == nil {
		return false
	}
	if a.n.Kind == Word {
		return true
	}
	h := a.Head()
	return a.n.Kind == List && h.Valid() && h.n.Kind == Word
}

// LiteralKind is the kind of a body literal.
type LiteralKind uint8

const (
	LitInvalid  LiteralKind = iota // not a literal (a variable, an empty list ...)
	LitAtom                        // an atom
	LitNot                         // (not lit)
	LitDistinct                    // (distinct t1 t2)
	LitOr                          // (or lit1 ... litn)
)

// Literal is a rule body literal.
type Literal struct{ Cursor }

// Kind returns what kind of literal this is. `not`, `distinct` and `or` are recognised
// case-insensitively, and so are infix `~l` and `(l1 | l2)`; their operand count is checked by
// the analyzer, not here.
func (l Literal) Kind() LiteralKind {
	switch l.n.Kind {
	case Word:
		return LitAtom
	case List:
		h := l.Head()
		if !h.Valid() {
			return LitInvalid
		}
		if h.n.Kind == Operator {
			switch h.Text() {
			case "~":
				return LitNot
			case "(", "|":
				return LitOr
			}
			return LitInvalid
		}
		if h.n.Kind != Word {
			return LitInvalid
		}
		// Most literals are atoms: compare only names of the keywords' lengths.
		switch t := h.Symbol().Name(); len(t) {
		case 2:
			if strings.EqualFold(t, "or") {
				return LitOr
			}
		case 3:
			if strings.EqualFold(t, "not") {
				return LitNot
			}
		case 8:
			if strings.EqualFold(t, "distinct") {
				return LitDistinct
			}
		}
		return LitAtom
	}
	return LitInvalid
}

// Atom views the literal as an atom (for LitAtom; for the others it is the keyword's list).
func (l Literal) Atom() Atom { return Atom(l) }

// Keyword returns `not`, `distinct` or `or` as written (infix: also the operator `~`, or the
// `(` that opens a disjunction; Key gives the keyword).
func (l Literal) Keyword() Symbol { return Symbol{l.Head()} }

// Operands returns the literals inside a `not` or an `or`.
func (l Literal) Operands() []Literal { return elementsFrom[Literal](l.Cursor, 1) }

// OperandSeq yields the literals inside a `not` or an `or` with their indexes, like Operands
// without allocating.
func (l Literal) OperandSeq() iter.Seq2[int, Literal] { return elementSeq[Literal](l.Cursor, 1) }

// TermSeq yields the operands of a `distinct` as terms with their indexes, like Terms without
// allocating.
func (l Literal) TermSeq() iter.Seq2[int, Term] { return elementSeq[Term](l.Cursor, 1) }

// Terms returns the operands of a `distinct` as terms.
func (l Literal) Terms() []Term { return argTerms(l.Cursor) }

// Rule is `(<= head body...)`, in infix `head :- body & ...`.
type Rule struct{ Cursor }

// Arrow returns the `<=` symbol (infix: `:-`).
func (r Rule) Arrow() Symbol { return Symbol{r.Head()} }

// RuleHead returns the head atom; ok is false for `(<=)`, and for an infix rule without a
// head, `:- body`.
func (r Rule) RuleHead() (Atom, bool) {
	if r.headless() {
		return Atom{}, false
	}
	h := r.element(1)
	return Atom{h}, h.Valid()
}

// Body returns the body literals.
func (r Rule) Body() []Literal {
	if r.headless() {
		return elementsFrom[Literal](r.Cursor, 1)
	}
	return elementsFrom[Literal](r.Cursor, 2)
}

// headless reports whether the rule is an infix rule without a head: nothing before its ':-'.
func (r Rule) headless() bool {
	if r.n == nil || !r.n.Infix {
		return false
	}
	for i := range r.n.Kids {
		switch k := r.n.Kids[i].Kind; {
		case k == Operator:
			return true
		case isElement(k):
			return false
		}
	}
	return false
}

// Form is a top-level form of a file: a rule, a fact, or a malformed form.
type Form struct {
	Cursor
	f   *File
	idx int // item index
}

// Forms returns the top-level forms of the file, in order. Stray tokens (an unmatched ')', a
// lone variable) are not forms.
func (f *File) Forms() []Form {
	out := make([]Form, 0, len(f.items)/2)
	for i := range f.items {
		it := &f.items[i]
		if k := it.node.Kind; k == List || k == Word {
			out = append(out, Form{Cursor{&it.node, it.text, it.start}, f, i})
		}
	}
	return out
}

// FormSeq yields the top-level forms of the file in order, like Forms without allocating.
func (f *File) FormSeq() iter.Seq[Form] {
	return func(yield func(Form) bool) {
		for i := range f.items {
			it := &f.items[i]
			if k := it.node.Kind; k == List || k == Word {
				if !yield(Form{Cursor{&it.node, it.text, it.start}, f, i}) {
					return
				}
			}
		}
	}
}

// Identity is a form's identity: the same for the very same form in two versions of a file
// (the incremental parser shares the forms an edit did not touch), different for any other
// form. It is comparable and can key a map, so a later layer can keep what it derived from a
// form outside the tree, for the next version to find.
type Identity struct{ u *unit }

// Identity returns the form's identity.
func (fm Form) Identity() Identity { return Identity{fm.f.items[fm.idx].unit} }

// IsRule reports whether the form is a rule `(<= ...)` or, in infix, `head :- body`.
func (fm Form) IsRule() bool {
	h := fm.Head()
	if !h.Valid() {
		return false
	}
	switch h.n.Kind {
	case Word:
		return !h.n.Quoted && h.Text() == "<="
	case Operator:
		return h.Text() == ":-"
	}
	return false
}

// Rule views the form as a rule.
func (fm Form) Rule() Rule { return Rule{fm.Cursor} }

// Fact views the form as a fact (an atom).
func (fm Form) Fact() Atom { return Atom{fm.Cursor} }

// Unclosed reports whether the form's '(' was never closed.
func (fm Form) Unclosed() bool { return fm.n.Unclosed }

// HasErrors reports whether the parser found an error inside this form.
func (fm Form) HasErrors() bool { return len(fm.f.items[fm.idx].errs) > 0 }

// Errors returns the parser's errors inside this form (the first MaxErrors), sorted by
// position: File.Errors may have left them out.
func (fm Form) Errors() []Error { return appendItemErrors(nil, fm.f.items[fm.idx]) }

// Doc returns the documentation comment of the form: the comment lines directly above it, with
// no blank line in between, without their leading semicolons (infix: percent signs) and one
// following space.
func (fm Form) Doc() string {
	items := fm.f.items
	var lines []string
	for i := fm.idx - 1; i >= 0; i-- {
		ws := items[i]
		if ws.node.Kind != Whitespace || LineBreaks(ws.text) != 1 {
			break
		}
		if i == 0 || items[i-1].node.Kind != Comment {
			break
		}
		c := items[i-1]
		// Only a comment that starts its line documents; a trailing comment belongs to the
		// form before it.
		if i-1 > 0 && !(items[i-2].node.Kind == Whitespace && (LineBreaks(items[i-2].text) > 0 || i-2 == 0)) {
			break
		}
		lines = append(lines, commentText(c.text, fm.f.dialect))
		i--
	}
	for l, r := 0, len(lines)-1; l < r; l, r = l+1, r-1 {
		lines[l], lines[r] = lines[r], lines[l]
	}
	return strings.Join(lines, "\n")
}

func commentText(c string, d Dialect) string {
	c = strings.TrimLeft(c, d.CommentMarks())
	c = strings.TrimPrefix(c, " ")
	return strings.TrimRight(c, " \t")
}

// LineBreaks counts the line breaks of s (LF, CRLF and bare CR each count once).
func LineBreaks(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\n':
			n++
		case '\r':
			n++
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
		}
	}
	return n
}

// LeafAt returns the token that contains offset off (the one ending there if off falls between
// two tokens and the earlier one is not trivia), or an invalid cursor. The path to it, outermost
// first, is returned too.
func (f *File) LeafAt(off int) (Cursor, []Cursor) {
	if len(f.items) == 0 {
		return Cursor{}, nil
	}
	off = min(max(off, 0), len(f.src)) // offsets outside the text clamp to it
	i := f.itemAt(off)
	it := &f.items[i]
	rel := int32(off - it.start)
	if rel == 0 && i > 0 && f.items[i-1].node.Kind != Whitespace {
		it = &f.items[i-1]
		rel = int32(off - it.start)
	}
	var path []Cursor
	n := &it.node
	for {
		path = append(path, Cursor{n, it.text, it.start})
		if n.Kind != List {
			return path[len(path)-1], path[:len(path)-1]
		}
		var next *Node
		for k := range n.Kids {
			kid := &n.Kids[k]
			if kid.Start <= rel && rel < kid.End {
				next = kid
				// Prefer the token that ends at the cursor over whitespace starting there.
				if kid.Start == rel && k > 0 && kid.Kind == Whitespace && !n.Kids[k-1].Kind.IsTrivia() {
					next = &n.Kids[k-1]
				}
				break
			}
			if kid.End == rel && k == len(n.Kids)-1 {
				next = kid
			}
		}
		if next == nil {
			return path[len(path)-1], path[:len(path)-1]
		}
		n = next
	}
}
