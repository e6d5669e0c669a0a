package syntax

import (
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// Node is a node of the lossless syntax tree. Leaves are tokens; a List holds its parentheses,
// trivia and elements as children, in source order, so the leaves of a tree cover its text
// exactly. Offsets are relative to the start of the top-level item that contains the node; the
// views (Form, Atom, Term, ...) add the item's absolute start.
type Node struct {
	Kind     Kind
	Unclosed bool // a List whose ')' is missing
	// Infix marks an infix List whose head is its Operator child wherever that stands: a rule
	// `h :- b & c` (head ':-'), a negation `~l` (head '~') and a disjunction `(a | b)` (head its
	// '('). Its elements, head first, are the operator and then the other elements in order.
	Infix bool
	// Quoted marks an infix Word written in double quotes: its name is the text between them.
	Quoted     bool
	Start, End int32 // [Start, End) relative to the item
	Kids       []Node
}

// Elements returns the children of a list that carry meaning, head first: everything but the
// parentheses, punctuation and trivia.
func (n *Node) Elements() []*Node {
	var out []*Node
	h := headIndex(n)
	if h < 0 {
		return nil
	}
	out = append(out, &n.Kids[h])
	for i := range n.Kids {
		if i != h && isElement(n.Kids[i].Kind) {
			out = append(out, &n.Kids[i])
		}
	}
	return out
}

// first returns the head of a list (its first element, or the operator of an Infix list), or nil.
func (n *Node) first() *Node {
	if h := headIndex(n); h >= 0 {
		return &n.Kids[h]
	}
	return nil
}

// headIndex returns the index among n's children of its head: the operator of an Infix list,
// else its first element; -1 when it has none.
func headIndex(n *Node) int {
	if n.Infix {
		for i := range n.Kids {
			if n.Kids[i].Kind == Operator {
				return i
			}
		}
	}
	for i := range n.Kids {
		if isElement(n.Kids[i].Kind) {
			return i
		}
	}
	return -1
}

// unit is one parsed top-level item. It is immutable once built and shared between the versions
// of a file that did not touch it.
type unit struct {
	text     string  // the item's source text
	node     Node    // root; Start is 0 and End is len(text)
	errs     []Error // relative to the item start
	unclosed bool    // a form cut short by error recovery: its extent depends on the rest of the file
	// Parenthesis balance of the item's tokens: net is the number of '(' minus the number of
	// ')', low the lowest running balance over its prefixes (the empty one included, so <= 0).
	net, low int32
	// extra is how far past its end plus utf8.UTFMax the item's parse read: an infix statement
	// looks at the token after it to know whether it goes on (`&`, `:-`). Edit reparses an item
	// whose reach touches the edit.
	extra int32
}

type item struct {
	start int
	*unit
}

// File is a parsed document: a sequence of top-level items (forms, whitespace, comments and
// stray tokens) that together cover the source byte for byte. A File is immutable; Edit returns
// a new one.
type File struct {
	src      string
	dialect  Dialect
	items    []item
	errs     []Error // the first MaxErrors errors
	errCount int     // all the errors
	unclosed []int   // indices of the items that are unclosed forms, in order
	lineOnce sync.Once
	lines    *LineIndex
	// linesMade is set once lines is (and lines never changes again); lineEdit, for a File made
	// by Edit from one whose lines were made, is how to make lines from those (LineIndex.Edited).
	linesMade atomic.Bool
	lineEdit  *lineEdit
	reparsed  Span  // for a File made by Edit: the region that was parsed anew
	reused    int   // for a File made by Edit: how many items were taken over unchanged
	extra     int32 // an upper bound of the extra of its items (see unit.extra)

	// sufLow[i] is the lowest running parenthesis balance over the prefixes of the text from
	// item i to the end. Edit uses it to tell, without scanning the rest of the file, that a
	// form is never closed. It is filled lazily from the end: entries from sufValid on are valid.
	mu       sync.Mutex
	sufLow   []int32
	sufValid int
}

// suffixLow returns sufLow[i], computing what is missing.
func (f *File) suffixLow(i int) int32 {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.sufLow == nil {
		f.sufLow = make([]int32, len(f.items)+1)
		f.sufValid = len(f.items)
	}
	for ; f.sufValid > i; f.sufValid-- {
		j := f.sufValid - 1
		u := f.items[j].unit
		f.sufLow[j] = min(u.low, u.net+f.sufLow[j+1])
	}
	return f.sufLow[i]
}

// Source returns the text the file was parsed from.
func (f *File) Source() string { return f.src }

// Dialect returns the notation the file was parsed in.
func (f *File) Dialect() Dialect { return f.dialect }

// MaxErrors is the most errors a File lists: a megabyte of ')' is a million errors, and their
// list (each with its fix) would take a gigabyte. ErrorCount counts them all.
const MaxErrors = 1000

// Errors returns the syntax errors of the file sorted by position: the first MaxErrors of them.
func (f *File) Errors() []Error { return f.errs }

// ErrorCount returns the number of syntax errors of the file, those Errors leaves out included.
func (f *File) ErrorCount() int { return f.errCount }

// Lines returns the line index of the source, built on first use (safe for concurrent use).
func (f *File) Lines() *LineIndex {
	f.lineOnce.Do(func() {
		switch {
		case f.lines != nil:
		case f.lineEdit != nil:
			e := f.lineEdit
			f.lines = e.from.Edited(f.src, e.start, e.end, e.text)
		default:
			f.lines = NewLineIndex(f.src)
		}
		f.lineEdit = nil
		f.linesMade.Store(true)
	})
	return f.lines
}

// Reparsed returns, for a File produced by Edit, the region parsed anew and the number of items
// reused from the previous version. For a File produced by Parse it is the whole text and 0.
func (f *File) Reparsed() (Span, int) { return f.reparsed, f.reused }

// Print writes the text covered by the tree's leaves. It equals Source(): the tree is lossless.
func (f *File) Print(b *strings.Builder) {
	for _, it := range f.items {
		printNode(b, it.text, &it.node)
	}
}

// printNode writes the leaves of n in order. It walks with an explicit stack, so that deep
// nesting cannot exhaust the goroutine stack.
func printNode(b *strings.Builder, text string, n *Node) {
	type frame struct {
		n   *Node
		kid int
	}
	stack := []frame{{n, 0}}
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if f.n.Kind != List {
			b.WriteString(text[f.n.Start:f.n.End])
			stack = stack[:len(stack)-1]
			continue
		}
		if f.kid >= len(f.n.Kids) {
			stack = stack[:len(stack)-1]
			continue
		}
		f.kid++
		stack = append(stack, frame{&f.n.Kids[f.kid-1], 0})
	}
}

// collectErrors gathers the errors and the unclosed forms of every item.
func (f *File) collectErrors() {
	f.errs, f.errCount = f.errs[:0], 0
	f.unclosed = f.unclosed[:0]
	for i, it := range f.items {
		f.errs = appendItemErrors(f.errs, it)
		f.errCount += len(it.errs)
		if it.unclosed {
			f.unclosed = append(f.unclosed, i)
		}
	}
}

// appendItemErrors appends the errors of an item, made absolute and sorted by position, as far
// as dst has room below MaxErrors.
func appendItemErrors(dst []Error, it item) []Error {
	room := MaxErrors - len(dst)
	if room <= 0 || len(it.errs) == 0 {
		return dst
	}
	added := slices.Clone(it.errs)
	sort.SliceStable(added, func(i, j int) bool { return added[i].Span.Start < added[j].Span.Start })
	for _, e := range added[:min(room, len(added))] {
		dst = append(dst, shiftError(e, it.start))
	}
	return dst
}

// shiftError moves an error, and the edits of its fix, by d bytes.
func shiftError(e Error, d int) Error {
	e.Span.Start += d
	e.Span.End += d
	if e.Fix != nil {
		fix := *e.Fix
		fix.Edits = make([]TextEdit, len(e.Fix.Edits))
		for i, te := range e.Fix.Edits {
			te.Span.Start += d
			te.Span.End += d
			fix.Edits[i] = te
		}
		e.Fix = &fix
	}
	return e
}

// itemAt returns the index of the item that contains offset off (the last item whose start is
// <= off).
func (f *File) itemAt(off int) int {
	i := sort.Search(len(f.items), func(i int) bool { return f.items[i].start > off }) - 1
	if i < 0 {
		i = 0
	}
	return i
}

func (f *File) itemEnd(i int) int {
	if i+1 < len(f.items) {
		return f.items[i+1].start
	}
	return len(f.src)
}
