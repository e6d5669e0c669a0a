package gengame

import (
	"runtime/debug"
	"strings"
	"testing"
)

// NestingShapes are the shapes Nested writes: a rule body or a term nested depth levels deep.
var NestingShapes = []string{"not", "or", "and", "term", "infix-not", "infix-or", "infix-paren", "infix-term"}

// nestings says how each shape writes its rule: the rule's start, what opens a level, the
// innermost literal or term, what closes a level, and the rule's end.
var nestings = map[string]struct{ rule, open, inner, close, end string }{
	"not":         {"(<= p ", "(not ", "(true (c 1))", ")", ")\n"},
	"or":          {"(<= p ", "(or (true (c 1)) ", "(true (c 1))", ")", ")\n"},
	"and":         {"(<= p ", "(and (true (c 1)) ", "(true (c 1))", ")", ")\n"},
	"term":        {"(<= (p ?x) (true (c ?x)) (q ", "(f ", "?x", ")", "))\n"},
	"infix-not":   {"p :- ", "~", "true(c(1))", "", "\n"},
	"infix-or":    {"p :- ", "(true(c(1)) | ", "true(c(1))", ")", "\n"},
	"infix-paren": {"p :- ", "(", "true(c(1))", ")", "\n"},
	"infix-term":  {"p(X) :- true(c(X)) & q(", "f(", "X", ")", ")\n"},
}

// Nested writes a small valid game (one role, one step) with one rule, last, whose body or term
// nests depth levels deep in the given shape (one of NestingShapes), for the tests that hostile
// input takes linear time and no stack: 1,000,000 levels of not are 6 MB, under the 16 MiB
// limit. In prefix:
//
//   - not: (<= p (not (not ... (true (c 1)))))
//   - or: (<= p (or (true (c 1)) (or (true (c 1)) ... (true (c 1)))))
//   - and: (<= p (and (true (c 1)) (and (true (c 1)) ... (true (c 1)))))
//   - term: (<= (p ?x) (true (c ?x)) (q (f (f ... ?x))))
//
// and the infix ones: p :- ~~...~true(c(1)); p :- (true(c(1)) | (true(c(1)) | ...)) (a million
// levels are 15 MB); p :- (((...true(c(1))))), disjunctions of one branch; and
// p(X) :- true(c(X)) & q(f(f(...X))).
func Nested(shape string, depth int) string {
	n, ok := nestings[shape]
	if !ok {
		panic("gengame: no nesting shape " + shape)
	}
	var b strings.Builder
	if Infix(shape) {
		b.WriteString("role(a)\ninit(c(1))\nlegal(a,go) :- true(c(1))\nnext(c(2)) :- true(c(1))\n" +
			"terminal :- true(c(2))\ngoal(a,100) :- true(c(2))\ngoal(a,0) :- true(c(1))\nq(1)\n")
	} else {
		b.WriteString("(role a)\n(init (c 1))\n(<= (legal a go) (true (c 1)))\n(<= (next (c 2)) (true (c 1)))\n" +
			"(<= terminal (true (c 2)))\n(<= (goal a 100) (true (c 2)))\n(<= (goal a 0) (true (c 1)))\n(q 1)\n")
	}
	b.Grow(depth * (len(n.open) + len(n.close)))
	b.WriteString(n.rule)
	for range depth {
		b.WriteString(n.open)
	}
	b.WriteString(n.inner)
	for range depth {
		b.WriteString(n.close)
	}
	b.WriteString(n.end)
	return b.String()
}

// Infix reports whether a nesting shape is written in infix GDL.
func Infix(shape string) bool { return strings.HasPrefix(shape, "infix-") }

// EachNested runs test as a subtest of t for every nesting shape, with the game Nested writes
// depth levels deep (short with -short), and with the goroutine stack limited to 4 MB: at these
// depths anything that recurses per level of nesting overflows it, and the test fails.
func EachNested(t *testing.T, depth, short int, test func(t *testing.T, shape, src string)) {
	if testing.Short() {
		depth = short
	}
	defer debug.SetMaxStack(debug.SetMaxStack(4 << 20))
	for _, shape := range NestingShapes {
		t.Run(shape, func(t *testing.T) { test(t, shape, Nested(shape, depth)) })
	}
}
