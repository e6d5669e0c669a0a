package eval

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// lookaheadGame has a rule whose smallest relation, diff/3 (27 facts), joins badly with the
// rest: each diff fact binds ?u, and aux/2 has 200 facts per ?u. asked/3 (40 facts) binds ?x,
// which keys aux/2 down to 3 facts, and then diff/3 is a probe.
func lookaheadGame() string {
	var b strings.Builder
	b.WriteString("(role p) (init (s 1)) (<= (next (s 1)) (true (s 1))) (<= (legal p go) (true (s 1)))\n")
	b.WriteString("(<= terminal (true (s 2))) (goal p 100)\n")
	for a := 1; a <= 3; a++ {
		for c := 1; c <= 3; c++ {
			for u := 1; u <= 3; u++ {
				fmt.Fprintf(&b, "(diff %d %d %d) ", a, c, u)
			}
		}
	}
	for u := 1; u <= 3; u++ {
		for x := 1; x <= 200; x++ {
			fmt.Fprintf(&b, "(aux %d %d) ", u, x)
		}
	}
	for x := 1; x <= 40; x++ {
		fmt.Fprintf(&b, "(asked 1 1 %d) ", x)
	}
	b.WriteString("\n(<= (h ?cx ?cy ?x) (diff ?cx ?cy ?u) (aux ?u ?x) (asked ?cx ?cy ?x))\n")
	b.WriteString("(<= (next (s 2)) (true (s 1)) (h 1 1 7))\n")
	return b.String()
}

// The restricted pass's planner looks one literal ahead: it scans asked/3 first (40 facts, then
// about 3 of aux/2 each), not the smallest relation, diff/3 (27 facts, then 40 of asked/3 or
// 200 of aux/2 each). The interpreter's planner, and the relaxed program's as written, keep
// the plain greedy order.
func TestGroundingPlanLooksAhead(t *testing.T) {
	p := compileText(t, lookaheadGame())
	g := p.take()
	defer p.put(g)
	first := func(s *session) string {
		s.begin(context.Background())
		var h *relation
		for _, r := range s.rels {
			if r.name == "h" {
				h = r
			}
			if slices.Contains([]string{"diff", "aux", "asked"}, r.name) {
				if err := s.ensure(r); err != nil {
					t.Fatal(err)
				}
			}
		}
		if h == nil || len(h.rules) != 1 {
			t.Fatal("no rule of h")
		}
		pl := s.planAll(h.rules[0])
		for _, st := range pl.steps {
			if st.op == opScan {
				return st.rel.name
			}
		}
		return ""
	}
	rg := g.relaxed(nil)
	if got := first(rg); got != "diff" {
		t.Errorf("the plan of the relaxed program as written scans %s first, want diff (the greedy order)", got)
	}
	rg.lookahead = true // as in the restricted pass
	if got := first(rg); got != "asked" {
		t.Errorf("the grounding's plan scans %s first, want asked", got)
	}
	if got := first(g); got != "diff" {
		t.Errorf("the interpreter's plan scans %s first, want diff (the greedy order)", got)
	}
}

// keepBody copies a body into the arena: the copy does not change when the caller reuses its
// slice, nor when another body is kept after it or the copy is appended to.
func TestKeepBody(t *testing.T) {
	b := &grounder{}
	scratch := []GroundLit{{Atom: 1}, {Atom: 2, Neg: true}}
	one := b.keepBody(scratch)
	scratch[0].Atom, scratch[1].Atom = 9, 9
	two := b.keepBody(scratch[:1])
	grown := append(one, GroundLit{Atom: 3})
	grown[0].Atom = 8
	if !slices.Equal(one, []GroundLit{{Atom: 1}, {Atom: 2, Neg: true}}) {
		t.Errorf("first body %v, want [1 -2]", one)
	}
	if !slices.Equal(two, []GroundLit{{Atom: 9}}) {
		t.Errorf("second body %v, want [9]", two)
	}
	if b.keepBody(nil) != nil {
		t.Error("an empty body is not nil")
	}
	// Past a chunk: a new one, the bodies before unchanged.
	var kept [][]GroundLit
	for i := range bodyChunk {
		kept = append(kept, b.keepBody([]GroundLit{{Atom: Term(i + 1)}, {Atom: Term(i + 2)}}))
	}
	for i, k := range kept {
		if len(k) != 2 || cap(k) != 2 || k[0].Atom != Term(i+1) || k[1].Atom != Term(i+2) {
			t.Fatalf("body %d is %v (cap %d)", i, k, cap(k))
		}
	}
	if !slices.Equal(one, []GroundLit{{Atom: 1}, {Atom: 2, Neg: true}}) {
		t.Errorf("first body %v after a new chunk", one)
	}
}
