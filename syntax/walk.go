package syntax

import "iter"

// Descendants returns every node under c (c excluded), trivia and parentheses included, in
// source order, each list before what it contains. It walks with an explicit stack, so any
// depth of nesting is fine: the editor's features that visit every node of a form use it.
func (c Cursor) Descendants() iter.Seq[Cursor] {
	return func(yield func(Cursor) bool) {
		if c.n == nil {
			return
		}
		stack := []*Node{c.n}
		for len(stack) > 0 {
			n := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if n != c.n && !yield(Cursor{n, c.text, c.base}) {
				return
			}
			for i := len(n.Kids) - 1; i >= 0; i-- {
				stack = append(stack, &n.Kids[i])
			}
		}
	}
}
