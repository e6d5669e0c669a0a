package ide

import "github.com/gdl-lsp/gdl/syntax"

// SelectionRange grows from the token at off through every enclosing list to the whole form:
// the spans, innermost first. maxDepth > 2 bounds them: under deep nesting it keeps the token,
// the innermost maxDepth-2 lists and the whole form, so that expanding still ends on the form.
// Outside every form it is the empty span at off. A cursor right after a name (before the ',',
// ')' or space that follows it: `f(X|,Y)`) starts from the name.
func SelectionRange(snap *Snapshot, off, maxDepth int) []syntax.Span {
	f := snap.File()
	leaf, path := f.LeafAt(off)
	if off > 0 && !isName(leaf) {
		if l, p := f.LeafAt(off - 1); isName(l) && l.Span().End == off {
			leaf, path = l, p
		}
	}
	if keep := maxDepth - 2; maxDepth > 2 && len(path) > keep+1 {
		inner := path[len(path)-keep:]
		path = append(path[:1:1], inner...)
	}
	var out []syntax.Span // outermost first, reversed at the end
	for _, c := range path {
		out = append(out, c.Span())
	}
	if leaf.Valid() {
		if sp := leaf.Span(); len(out) == 0 || out[len(out)-1] != sp {
			out = append(out, sp)
		}
	}
	if len(out) == 0 {
		return []syntax.Span{{Start: off, End: off}}
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// isName reports whether c is a name or a variable.
func isName(c syntax.Cursor) bool {
	return c.Valid() && (c.Kind() == syntax.Word || c.Kind() == syntax.Variable)
}
