package gengame

import (
	"fmt"
	"strings"
)

// Family is a hostile family of inputs: games that stress one dimension of the checker (many
// unknown names, many rules of one relation, a long rule, a deep term, many roles, many arities of
// one name), written at any size, so that a benchmark can show how a cost grows with it.
type Family struct {
	Name string
	// Make writes a member of about size bytes (at least size).
	Make func(size int) string
	// Edit, when set, is how the form a benchmark edits begins: the first such form past the
	// middle, so that every size sees the same kind of edit (the middle of many-roles falls on a
	// role fact at one size and on a legal rule at another, whose edits differ in cost).
	Edit string
}

// EditAt returns where a benchmark types into src, a member of f: right after the opening
// parenthesis of the first form past the middle that begins with f.Edit, else MiddleParen's.
func (f Family) EditAt(src string) int {
	if f.Edit != "" {
		if i := strings.Index(src[len(src)/2:], f.Edit); i >= 0 {
			return len(src)/2 + i + 1
		}
	}
	return MiddleParen(src)
}

// Families are the hostile families the scale benchmarks run.
var Families = []Family{
	{"unknown-relations", UnknownRelations, ""},
	{"rules-of-one-relation", RulesOfOneRelation, ""},
	{"long-rule-body", LongRuleBody, ""},
	{"deep-term", DeepTerm, ""},
	{"many-roles", ManyRoles, "(<= (legal "},
	{"many-arities", ManyArities, ""},
}

// skeleton is a small complete game the families add to.
const skeleton = "(role red)\n(init (step 0))\n(<= (legal red noop) (true (step 0)))\n" +
	"(<= (next (step 1)) (true (step 0)))\n(<= terminal (true (step 1)))\n(<= (goal red 100) (true (step 1)))\n"

// UnknownRelations is N rules (<= (rI ?x) (role ?x) (not (qI ?x))), every qI undefined and close
// in spelling to a defined rI: each use asks "did you mean".
func UnknownRelations(size int) string {
	var b strings.Builder
	b.WriteString(skeleton)
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "(<= (r%d ?x) (role ?x) (not (q%d ?x)))\n", i, i)
	}
	return b.String()
}

// RulesOfOneRelation is N rules of one relation, each using a numbered constant.
func RulesOfOneRelation(size int) string {
	var b strings.Builder
	b.WriteString(skeleton)
	for i := 0; i < 100; i++ {
		fmt.Fprintf(&b, "(num %d)\n", i)
	}
	b.WriteString("(<= (legal red (pick ?x)) (true (step 0)) (p ?x))\n")
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "(<= (p ?x) (num ?x) (distinct ?x %d))\n", i)
	}
	return b.String()
}

// LongRuleBody is one rule with N body literals, a chain of variables through a successor
// relation.
func LongRuleBody(size int) string {
	var b strings.Builder
	b.WriteString(skeleton)
	for i := 0; i < 100; i++ {
		fmt.Fprintf(&b, "(succ %d %d)\n", i, i+1)
	}
	b.WriteString("(<= (legal red (chain ?x0)) (true (step 0)) (long ?x0))\n(<= (long ?x0)\n")
	for i := 0; b.Len() < size-2; i++ {
		fmt.Fprintf(&b, "    (succ ?x%d ?x%d)\n", i, i+1)
	}
	b.WriteString(")\n")
	return b.String()
}

// DeepTerm is a fluent whose term is nested N deep: (init (deep (f (f ... (f z) ...)))).
func DeepTerm(size int) string {
	var b strings.Builder
	b.WriteString(skeleton)
	n := max(1, (size-b.Len())/4)
	b.WriteString("(init (deep ")
	b.WriteString(strings.Repeat("(f ", n))
	b.WriteString("z")
	b.WriteString(strings.Repeat(")", n))
	b.WriteString("))\n")
	return b.String()
}

// ManyRoles is a game of N roles, each with its own legal and goal rules.
func ManyRoles(size int) string {
	var b strings.Builder
	b.WriteString("(init (step 0))\n(<= (next (step 1)) (true (step 0)))\n(<= terminal (true (step 1)))\n")
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "(role p%d)\n(<= (legal p%d (move %d)) (true (step 0)))\n(<= (goal p%d 50) (true (step 1)))\n", i, i, i, i)
	}
	return b.String()
}

// ManyArities is one name used with N arities: (p), (p a), (p a a), ... each a fact, and a rule
// reading each. The file grows with the square of N.
func ManyArities(size int) string {
	var b strings.Builder
	b.WriteString(skeleton)
	for n := 0; b.Len() < size; n++ {
		args := strings.Repeat(" a", n)
		fmt.Fprintf(&b, "(p%s)\n(<= (q%d) (p%s))\n", args, n, args)
	}
	return b.String()
}

// MiddleParen returns the offset just inside the first "(" in the second half of src (src's
// middle when there is none): where the benchmarks type into a file of a hostile family.
func MiddleParen(src string) int {
	if i := strings.IndexByte(src[len(src)/2:], '('); i >= 0 {
		return len(src)/2 + i + 1
	}
	return len(src) / 2
}
