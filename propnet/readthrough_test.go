package propnet

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gdl-lsp/gdl/eval"
)

// guardedTwiceOver is guarded where the king is attacked from an even square under threat, or
// from any square while a mark stands on the king's (two rules of attacked, each copying one
// fluent with a static test), and a second rule of legal, stepping back, reads attacked of the
// square moved to: atoms of attacked read negated by several ground rules. In the grounding
// restricted by magic sets, attacked is read through its rules (not evaluated), and the network
// plays as the interpreter.
func guardedTwiceOver() string {
	src := strings.Replace(guarded(), "(<= (attacked ?k ?u) (true (threat ?k ?u)))",
		"(<= (attacked ?k ?u) (true (threat ?k ?u)) (even ?u))\n(<= (attacked ?k ?u) (true (mark ?k)) (num ?u))\n"+
			"(<= (next (mark ?u)) (does p (go ?u ?v)) (even ?v))\n"+
			"(<= (legal p (back ?u ?v)) (true (at ?u)) (succ ?v ?u) (true (king ?k)) (not (attacked ?k ?v)) (not (attacked ?k ?u)))\n"+
			"(<= (next (at ?v)) (does p (back ?u ?v)))\n(<= (next (king ?k)) (does p (back ?u ?v)) (true (king ?k)))", 1)
	for i := 0; i < 20; i += 2 {
		src += fmt.Sprintf("(even %d)\n", i)
	}
	return src
}

// TestReadThroughRules: a relation read only negated, by several rules, is read through its
// rules in the restricted grounding, and the network plays as the interpreter.
func TestReadThroughRules(t *testing.T) {
	_, written, _, _ := build(t, guardedTwiceOver(), eval.GroundLimits{})
	if len(written.Rules) <= 5_000 {
		t.Fatalf("%d ground rules as written: the test wants the restricted pass", len(written.Rules))
	}
	walkWith(t, guardedTwiceOver(), eval.GroundLimits{MaxRules: 5_000}, 20, 10)
}
