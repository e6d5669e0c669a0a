package gengame

import "strings"

// NestingShapes are the shapes Nested writes: a rule body or a term nested depth levels deep.
var NestingShapes = []string{"not", "or", "and", "term", "infix-not", "infix-or", "infix-term"}

// Nested writes a small valid game (one role, one step) with one rule whose body or term nests
// depth levels deep in the given shape (one of NestingShapes), for the tests that hostile input
// takes linear time and no stack: 1,000,000 levels of not are 6 MB, under the 16 MiB limit.
//
//   - not: (<= p (not (not ... (true (c 1)))))
//   - or: (<= p (or (true (c 1)) (or (true (c 1)) ... (true (c 1)))))
//   - and: (<= p (and (true (c 1)) (and (true (c 1)) ... (true (c 1)))))
//   - term: (<= (p ?x) (true (c ?x)) (q (f (f ... ?x))))
//
// and the infix ones: p :- ~~...~true(c(1)); p :- (true(c(1)) | (true(c(1)) | ...)); and
// p(X) :- true(c(X)) & q(f(f(...X))).
func Nested(shape string, depth int) string {
	var b strings.Builder
	infix := strings.HasPrefix(shape, "infix-")
	if infix {
		b.WriteString("role(a)\ninit(c(1))\nlegal(a,go) :- true(c(1))\nnext(c(2)) :- true(c(1))\n" +
			"terminal :- true(c(2))\ngoal(a,100) :- true(c(2))\ngoal(a,0) :- true(c(1))\nq(1)\n")
	} else {
		b.WriteString("(role a)\n(init (c 1))\n(<= (legal a go) (true (c 1)))\n(<= (next (c 2)) (true (c 1)))\n" +
			"(<= terminal (true (c 2)))\n(<= (goal a 100) (true (c 2)))\n(<= (goal a 0) (true (c 1)))\n(q 1)\n")
	}
	b.Grow(depth * 24)
	switch shape {
	case "not":
		b.WriteString("(<= p ")
		repeat(&b, "(not ", depth)
		b.WriteString("(true (c 1))")
		repeat(&b, ")", depth)
		b.WriteString(")\n")
	case "or", "and":
		b.WriteString("(<= p ")
		repeat(&b, "("+shape+" (true (c 1)) ", depth)
		b.WriteString("(true (c 1))")
		repeat(&b, ")", depth)
		b.WriteString(")\n")
	case "term":
		b.WriteString("(<= (p ?x) (true (c ?x)) (q ")
		repeat(&b, "(f ", depth)
		b.WriteString("?x")
		repeat(&b, ")", depth)
		b.WriteString("))\n")
	case "infix-not":
		b.WriteString("p :- ")
		repeat(&b, "~", depth)
		b.WriteString("true(c(1))\n")
	case "infix-or":
		b.WriteString("p :- ")
		repeat(&b, "(true(c(1)) | ", depth)
		b.WriteString("true(c(1))")
		repeat(&b, ")", depth)
		b.WriteString("\n")
	case "infix-term":
		b.WriteString("p(X) :- true(c(X)) & q(")
		repeat(&b, "f(", depth)
		b.WriteString("X")
		repeat(&b, ")", depth)
		b.WriteString(")\n")
	default:
		panic("gengame: no nesting shape " + shape)
	}
	return b.String()
}

func repeat(b *strings.Builder, s string, n int) {
	for range n {
		b.WriteString(s)
	}
}
