package syntax

import (
	"fmt"
	"slices"
	"strings"
)

// checkInvariants returns the first broken invariant of a parsed file, or "":
//   - printing the tree gives the source back byte for byte;
//   - items are contiguous and cover the source, each item's text is its slice of the source;
//   - in every tree, leaves are contiguous, a list spans exactly its children, starts with '(' and
//     ends with ')' unless it is unclosed;
//   - errors are sorted, lie inside the source, have a known code and a message, and their fixes'
//     edits lie inside the source too.
func checkInvariants(f *File) string {
	src := f.Source()
	var b strings.Builder
	f.Print(&b)
	if b.String() != src {
		return fmt.Sprintf("Print does not give the source back: got %d bytes, want %d", b.Len(), len(src))
	}
	pos := 0
	for i, it := range f.items {
		if it.start != pos {
			return fmt.Sprintf("item %d starts at %d, want %d", i, it.start, pos)
		}
		if it.start+len(it.text) > len(src) || src[it.start:it.start+len(it.text)] != it.text {
			return fmt.Sprintf("item %d text %q is not the source at %d", i, clip(it.text), it.start)
		}
		if it.node.Start != 0 || int(it.node.End) != len(it.text) {
			return fmt.Sprintf("item %d root spans %d..%d, want 0..%d", i, it.node.Start, it.node.End, len(it.text))
		}
		if msg := checkNode(&it.node, it.text, true); msg != "" {
			return fmt.Sprintf("item %d at %d: %s", i, it.start, msg)
		}
		// Only prefix forms cut by the next '(' in column 0 have an extent that depends on the
		// rest of the file; infix recovery is local.
		if f.dialect == Prefix && it.unclosed != it.node.Unclosed && !infixShaped(&it.node) {
			return fmt.Sprintf("item %d at %d: unit unclosed %v, root %v", i, it.start, it.unclosed, it.node.Unclosed)
		}
		if f.dialect == Infix && it.unclosed {
			return fmt.Sprintf("item %d at %d: an unclosed unit in an infix file", i, it.start)
		}
		if f.dialect == Prefix && (it.node.Kind == Whitespace || it.node.Kind == Comment || it.node.Kind == Word) {
			if len(it.errs) > 0 {
				return fmt.Sprintf("item %d %s at %d has errors %v", i, it.node.Kind, it.start, it.errs)
			}
		}
		pos += len(it.text)
	}
	if pos != len(src) {
		return fmt.Sprintf("items cover %d bytes of %d", pos, len(src))
	}
	if (len(src) == 0) != (len(f.items) == 0) {
		return fmt.Sprintf("%d items for %d bytes", len(f.items), len(src))
	}
	for i, e := range f.errs {
		if e.Span.Start < 0 || e.Span.Start > e.Span.End || e.Span.End > len(src) {
			return fmt.Sprintf("error %d range %v outside the source of %d bytes", i, e.Span, len(src))
		}
		if e.Span.Start == e.Span.End {
			return fmt.Sprintf("error %d %s has an empty range %v", i, e.Code, e.Span)
		}
		if i > 0 && f.errs[i-1].Span.Start > e.Span.Start {
			return fmt.Sprintf("errors not sorted at %d", i)
		}
		if !slices.Contains(Codes, e.Code) {
			return fmt.Sprintf("error %d has an unknown code %q", i, e.Code)
		}
		if e.Message == "" {
			return fmt.Sprintf("error %d %s has no message", i, e.Code)
		}
		if e.Fix != nil {
			for _, te := range e.Fix.Edits {
				if te.Span.Start < 0 || te.Span.Start > te.Span.End || te.Span.End > len(src) {
					return fmt.Sprintf("error %d fix edit %v outside the source", i, te.Span)
				}
			}
		}
	}
	return ""
}

// infixShaped reports whether a list has an infix shape: an Infix list, or a call f(...).
func infixShaped(n *Node) bool {
	return n.Kind == List && (n.Infix || len(n.Kids) > 0 && n.Kids[0].Kind != LParen)
}

func checkNode(n *Node, text string, top bool) string {
	if n.Start < 0 || n.Start > n.End || int(n.End) > len(text) {
		return fmt.Sprintf("%s %d..%d outside its item", n.Kind, n.Start, n.End)
	}
	if n.Kind != List {
		if n.Start == n.End {
			return fmt.Sprintf("empty %s token at %d", n.Kind, n.Start)
		}
		if len(n.Kids) > 0 || n.Unclosed || n.Infix {
			return fmt.Sprintf("token %s at %d has children or flags", n.Kind, n.Start)
		}
		if n.Quoted && (n.Kind != Word || text[n.Start] != '"') {
			return fmt.Sprintf("token %s at %d is quoted but does not start with '\"'", n.Kind, n.Start)
		}
		return ""
	}
	if len(n.Kids) == 0 {
		return fmt.Sprintf("list at %d has no children", n.Start)
	}
	if n.Kids[0].Start != n.Start {
		return fmt.Sprintf("list at %d does not start with its first child", n.Start)
	}
	last := n.Kids[len(n.Kids)-1]
	if last.End != n.End {
		return fmt.Sprintf("list at %d ends at %d, its last child at %d", n.Start, n.End, last.End)
	}
	// The children of an infix list may be anything in order; a prefix list and a call have
	// their parentheses where they belong.
	paren := -1 // index of the list's '('
	switch {
	case n.Infix && n.Kids[0].Kind == Operator && text[n.Kids[0].Start] == '(':
		paren = 0
	case n.Infix:
	case n.Kids[0].Kind == LParen:
		paren = 0
	case n.Kids[0].Kind == Word || n.Kids[0].Kind == Variable:
		paren = 1
		if n.Kids[paren].Kind == Whitespace {
			paren++
		}
		if paren >= len(n.Kids) || n.Kids[paren].Kind != LParen {
			return fmt.Sprintf("call at %d has no '(' after its name", n.Start)
		}
	default:
		return fmt.Sprintf("list at %d does not start with its '(' or a name", n.Start)
	}
	if paren >= 0 {
		end := len(n.Kids) - 1
		if end > paren && n.Kids[end].Kind == Punct && text[n.Kids[end].Start] == '.' {
			end-- // a '.' ending an infix statement in a prefix file
		}
		if n.Unclosed == (n.Kids[end].Kind == RParen && end > paren) {
			return fmt.Sprintf("list at %d: unclosed is %v but child %d is %s", n.Start, n.Unclosed, end, n.Kids[end].Kind)
		}
		for i := range n.Kids {
			k := n.Kids[i].Kind
			if i != paren && (k == LParen || k == Operator && text[n.Kids[i].Start] == '(') {
				return fmt.Sprintf("a bare '(' inside the list at %d", n.Start)
			}
			if i < end && k == RParen {
				return fmt.Sprintf("a ')' before the end of the list at %d", n.Start)
			}
		}
	}
	pos := n.Start
	for i := range n.Kids {
		k := &n.Kids[i]
		if k.Start != pos {
			return fmt.Sprintf("child %d of the list at %d starts at %d, want %d", i, n.Start, k.Start, pos)
		}
		if msg := checkNode(k, text, false); msg != "" {
			return msg
		}
		if !infixShaped(n) && !infixShaped(k) {
			if k.Kind == List && k.Unclosed && i != len(n.Kids)-1 {
				return fmt.Sprintf("an unclosed list that is not the last child of the list at %d", n.Start)
			}
			if k.Kind == List && k.Unclosed && !n.Unclosed {
				return fmt.Sprintf("an unclosed list inside the closed list at %d", n.Start)
			}
		}
		pos = k.End
	}
	return ""
}
