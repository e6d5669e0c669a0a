package eval

import (
	"strings"
	"testing"
)

// auxCount returns the auxiliary relations of the relaxed program of src, restricted by magic
// sets or not.
func auxCount(t *testing.T, src string, magic bool) int {
	t.Helper()
	g := compileText(t, src).take()
	var plan *magicPlan
	if magic {
		plan = &magicPlan{}
	}
	n := 0
	for _, r := range g.relaxed(plan).rels {
		if strings.HasPrefix(r.name, "aux") {
			n++
		}
	}
	return n
}

// The restricted pass projects out a move's own variables and splits a rule off with a domain
// only where the join is big: not in a rule of two literals (crissrace's moves), nor for a rule
// of one group (crisscross's next), where each grew the networks.
func TestProjectionAndDomainsPerRule(t *testing.T) {
	for _, src := range []string{
		// The move's own ?a and ?b, in a rule of two literals.
		`(role p) (init (at 1 1)) (cell 1 1) (cell 1 2)
(<= (legal p (move ?a ?b ?x ?y)) (true (at ?a ?b)) (cell ?x ?y))
(<= (next (at ?x ?y)) (does p (move ?a ?b ?x ?y)) (cell ?x ?y))
(<= terminal (true (at 1 2))) (goal p 100)`,
		// One group, (cell ?z ?z) (not (true (at ?z ?y))), whose ?y only the state binds.
		`(role p) (init (at 1 1)) (cell 1 1) (cell 1 2)
(<= (legal p (go ?x ?y)) (true (at ?a ?b)) (cell ?x ?y))
(<= (next (at ?x ?y)) (does p (go ?x ?y)))
(<= (next (seen ?x ?y)) (true (at ?x ?y)) (cell ?z ?z) (not (true (at ?z ?y))))
(<= terminal (true (at 1 2))) (goal p 100)`,
	} {
		if plain, restricted := auxCount(t, src, false), auxCount(t, src, true); plain != restricted {
			t.Errorf("%d auxiliary relations restricted, %d as written:\n%s", restricted, plain, src)
		}
	}
}
