package propnet

import (
	"testing"

	"github.com/gdl-lsp/gdl/eval"
)

// A grounding without a single atom (a game whose only relations are static) makes an empty
// atom table, not one of 2³² entries: the span of term ids used to wrap around, and gdl query
// on such a game spent a minute of system time faulting in gigabytes.
func TestAtomTableOfNoAtoms(t *testing.T) {
	g, _ := eval.Load("(role r)\n(p 0)\n(<= (p (s ?x)) (p ?x))\n")
	gr, err := g.Ground(bg, eval.GroundLimits{})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(gr.Rules) + len(gr.TrueAtoms) + len(gr.NextAtoms); n != 0 {
		t.Fatalf("%d rules and state atoms, want none", n)
	}
	tab := newAtomTable(gr)
	if len(tab.node) != 0 || len(tab.ruleOff) != 1 {
		t.Errorf("%d nodes, %d rule offsets for no atom", len(tab.node), len(tab.ruleOff))
	}
	if _, err := New(bg, g, gr, Limits{}); err != nil {
		t.Error(err)
	}
}
