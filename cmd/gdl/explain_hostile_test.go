//go:build unix

package main

import (
	"fmt"
	"strings"
	"testing"
)

// TestExplainHostile: gdl explain on games built to exhaust it, under the data limit of
// hostile: a term nested 9,000 deep (the evaluator's depth limit stops it, exit 1), one nested
// 20,000 deep (the evaluator refuses a rule whose terms nest deeper than 10,000 levels), a chain of
// 3,000 derivations (a proof taller than the height bound is cut, saying so), and a why-not over
// a wide relation (the node limit cuts it). Each ends within the time limit.
func TestExplainHostile(t *testing.T) {
	bin := buildGDL(t)
	dir := t.TempDir()
	head := "(role r)\n(init (s 1))\n(<= (legal r go) (true (s 1)))\n(<= (next (s 1)) (does r go))\n(goal r 100)\n(<= terminal (true (s 2)))\n"
	deepGame := func(name string, depth int) string {
		return writeFile(t, dir, name, head+"(<= (p ?x) (q ?x))\n(q "+strings.Repeat("(f ", depth)+"a"+strings.Repeat(")", depth)+")\n")
	}
	deep, deeper := deepGame("deep.kif", 9000), deepGame("deeper.kif", 20000)
	var chain, wide strings.Builder
	chain.WriteString(head + "(<= (reach n0) (true (s 1)))\n(<= (reach ?y) (reach ?x) (succ ?x ?y))\n")
	wide.WriteString(head)
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&chain, "(succ n%d n%d)\n", i, i+1)
		fmt.Fprintf(&wide, "(<= (w %d) (true (s %d)))\n", i%50, i+2)
	}
	long := writeFile(t, dir, "chain.kif", chain.String())
	many := writeFile(t, dir, "wide.kif", wide.String())
	for _, c := range []struct {
		path, literal string
		code          int
		want          string
	}{
		{deep, "(p ?x)", 1, "term depth limit"},
		{deeper, "(p ?x)", 1, "its terms nest more than 10000 levels deep"},
		{long, "(reach n2999)", 0, "cut here: no proof of height at most 512 found"},
		{long, "(reach n100)", 0, "(reach n100) holds (a proof of height 101)"},
		{many, "(w ?x)", 0, "cut here: the limit of 400 nodes reached"},
	} {
		out, errOut, code := hostile(t, bin, nil, "explain", c.path, c.literal)
		if code != c.code || !strings.Contains(out+errOut, c.want) {
			t.Errorf("%s %s: exit %d, want %d and %q\n%s%s", c.path, c.literal, code, c.code, c.want, cut(out), cut(errOut))
		}
	}
}

func cut(s string) string {
	if len(s) > 2000 {
		return s[:2000] + "…\n"
	}
	return s
}
