package eval

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestLazyBounds: computed when a magic set passes the least cap (lazyBounds), the bounds of
// relations whole give the ground rules that all of them computed before the restricted passes
// give, whatever the least cap (a hundredth of the limit of facts): a stop at a tentative cap
// stands when the relation's bound is under the least cap, and the pass runs again otherwise.
func TestLazyBounds(t *testing.T) {
	for _, c := range []struct {
		name, src string
		maxRules  int
	}{{"blockers", blockers(), 300}, {"lines", lines(), 300}} {
		for _, facts := range []int{600, 1000, 2000, 4000, 8000, 20000, 200000} {
			lim := GroundLimits{MaxRules: c.maxRules, MaxFacts: facts}
			lazy := groundBounds(t, c.src, lim, true)
			eager := groundBounds(t, c.src, lim, false)
			if lazy != eager {
				t.Errorf("%s, limit of facts %d: the ground rules differ with the bounds computed lazily:\n%s\nbefore:\n%s", c.name, facts, lazy, eager)
			}
		}
	}
}

// lines is a game on 12 squares whose moves name three squares on a line, the middle one
// empty, and far/4 makes the relaxed program as written too big: clear/3 reads the state only to filter, its bound whole is the 30 lines, and legal
// asks its magic set for every square and two numbers (1,728 atoms): past the least cap, it is
// computed whole, at once when its bound is under the least cap, after a pass again otherwise.
func lines() string {
	var b strings.Builder
	b.WriteString(`(role p) (init (at 0)) (init (clock 0))
(<= (legal p (go ?u ?v ?w)) (true (at ?u)) (num ?v) (num ?w) (clear ?u ?v ?w))
(<= (legal p wait) (true (clock ?c)))
(<= (legal p (jump ?u)) (true (at ?u)) (far ?u ?u ?u ?u))
(<= (far ?a ?b ?c ?d) (num ?a) (num ?b) (num ?c) (num ?d))
(<= (clear ?u ?v ?w) (line ?u ?v ?w) (true (empty ?v)))
(<= (next (at ?w)) (does p (go ?u ?v ?w)))
(<= (next (at ?u)) (does p wait) (true (at ?u)))
(<= (next (empty ?v)) (true (empty ?v)) (not (does p (go ?v ?v ?v))))
(<= (next (empty ?u)) (does p (go ?u ?v ?w)))
(<= (next (clock ?n)) (true (clock ?m)) (succ ?m ?n))
(<= terminal (true (clock 9)))
(<= (goal p 100) (true (at 5)))
(<= (goal p 0) (not (true (at 5))))
`)
	for i := 0; i < 12; i++ {
		fmt.Fprintf(&b, "(num %d) (succ %d %d) (init (empty %d))\n", i, i, i+1, i)
		for d := 1; d <= 3 && i+2*d < 12; d++ {
			fmt.Fprintf(&b, "(line %d %d %d)\n", i, i+d, i+2*d)
		}
	}
	return b.String()
}

// TestLazyBoundsComputed: a restricted pass whose magic sets stay under the least cap computes
// no bound; one past it computes the bounds of what it reads, not of every relation.
func TestLazyBoundsComputed(t *testing.T) {
	g := compileText(t, blockers()).take()
	free := g.boundable()
	if len(free) == 0 {
		t.Fatal("no relation can be bounded")
	}
	var hit uint32
	for fn := range free {
		if g.st.store.fnName(fn) == "hit" {
			hit = fn
		}
	}
	plan := &magicPlan{sizes: map[uint32]int{}, free: free, tried: map[uint32]bool{}, minCap: 1}
	lim := GroundLimits{MaxFacts: 100000}.withDefaults()
	if hit != 0 {
		t.Errorf("hit/3 reads the state otherwise than to filter, yet is bounded")
	}
	var num uint32
	for fn := range free {
		if g.st.store.fnName(fn) == "succ" {
			num = fn
		}
	}
	if num == 0 {
		t.Fatal("succ/2 is not bounded")
	}
	if g.lazyBounds(context.Background(), lim, time.Now(), plan, []uint32{num}) {
		t.Error("succ/2's 12 facts passed a cap of 1: the stop stands, want it not to")
	}
	if plan.sizes[num] != 12 || len(plan.sizes) >= len(free) {
		t.Errorf("bounds %v of %d relations, want succ/2's 12 alone", plan.sizes, len(free))
	}
}

// groundBounds grounds src restricted by magic sets, with the bounds whole computed lazily or
// not, and returns its rules as text (groundText), or the error.
func groundBounds(t *testing.T, src string, lim GroundLimits, lazy bool) string {
	t.Helper()
	defer func(was bool) { lazyMagicBounds = was }(lazyMagicBounds)
	lazyMagicBounds = lazy
	p := compileText(t, src)
	gr, err := p.Ground(context.Background(), lim)
	if err != nil {
		return err.Error()
	}
	return groundText(p, gr)
}
