package eval

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"
)

// TestScratchStore checks a scratch store: it finds its parent's terms under their IDs, interns
// its own after them without the parent seeing them, and adopt gives the parent its terms with
// the same IDs only while the parent interned none since.
func TestScratchStore(t *testing.T) {
	s := newStore()
	a := s.constant("a")
	f := s.functor(s.sym("f"), 2)
	fa := s.intern(f, []Term{a, a})
	c := s.scratch()
	if c.intern(f, []Term{a, a}) != fa {
		t.Fatal("the scratch store does not find its parent's term")
	}
	b := c.constant("b")
	fab := c.intern(f, []Term{a, b})
	var deep []Term // a chain deeper than the term's record counts, to copy without recursion
	x := fab
	for i := 0; i < 5000; i++ {
		x = c.intern(f, []Term{x, b})
		deep = append(deep, x)
	}
	if v := newView(s); v.find(f, []Term{a, b}) != 0 || v.find(s.functor(s.sym("b"), 0), nil) != 0 {
		t.Fatal("the parent finds a term of its scratch store")
	}
	if _, ok := s.lookupFn(s.sym("b"), 0); !ok {
		t.Fatal("a functor made in the scratch store is not its parent's")
	}
	// The parent interns a term: the scratch store's IDs are no longer free in it.
	c2 := s.scratch()
	g := s.constant("g")
	if s.adopt(c2) {
		t.Fatal("adopted a scratch store though the parent interned since")
	}
	memo := &termMap{}
	got := s.copyTerm(c, deep[len(deep)-1], memo)
	if got == deep[len(deep)-1] {
		t.Fatal("a copied term kept its scratch ID though the parent's differ")
	}
	if want, have := termText(c, deep[len(deep)-1]), termText(s, got); want != have {
		t.Fatalf("copied %q as %q", want[:60], have[:60])
	}
	if s.copyTerm(c, fa, memo) != fa {
		t.Fatal("a term of the parent changed its ID")
	}
	// A scratch store of the parent as it is now is adopted: its terms keep their IDs.
	c3 := s.scratch()
	h := c3.intern(f, []Term{g, g})
	if !s.adopt(c3) {
		t.Fatal("a scratch store was not adopted though the parent interned nothing since")
	}
	if newView(s).find(f, []Term{g, g}) != h || termText(s, h) != "(f g g)" {
		t.Fatal("an adopted term is not the parent's under its ID")
	}
	if s.intern(s.functor(s.sym("k"), 0), nil) <= h {
		t.Fatal("the parent interned over an adopted term")
	}
}

func termText(s *store, t Term) string {
	var b strings.Builder
	s.format(&b, t)
	return b.String()
}

// TestScratchTruncate checks that a scratch store emptied for the next pass finds its parent's
// terms and none of its own, and interns anew from where its parent's end, in a table grown past
// its parent's.
func TestScratchTruncate(t *testing.T) {
	s := newStore()
	a := s.constant("a")
	f := s.functor(s.sym("f"), 1)
	fa := s.intern(f, []Term{a})
	c := s.scratch()
	first := c.intern(f, []Term{fa})
	x := first
	for i := 0; i < 100_000; i++ { // the table and arrays grow
		x = c.intern(f, []Term{x})
	}
	c.truncate()
	v := newView(c)
	if v.find(f, []Term{a}) != fa || v.find(f, []Term{fa}) != 0 || v.find(f, []Term{x}) != 0 {
		t.Fatal("after truncate, a scratch store's own terms are found or its parent's are not")
	}
	if got := c.intern(f, []Term{a, a}); int(got) != c.base {
		t.Fatalf("the first term after truncate is %d, want %d", got, c.base)
	}
	if termText(c, c.intern(f, []Term{fa})) != "(f (f a))" || c.count != c.terms.n-1 {
		t.Fatal("a term interned after truncate is not what it was made of")
	}
	if !s.adopt(c) || termText(s, Term(c.base)) != "(f a a)" {
		t.Fatal("a truncated scratch store is not adopted with its new terms")
	}
}

// TestCommitGroundingCopies grounds a game in a scratch store whose parent interns a term
// meanwhile, so that commitGrounding copies the grounding's terms into the parent instead of
// adopting them, and checks the copy against the grounding made as usual: the same rules in the
// same order, the same fluents, moves, goals, each list sorted by ID as keywords sorts them.
func TestCommitGroundingCopies(t *testing.T) {
	src, err := os.ReadFile("../testdata/games/tictactoe.kif")
	if err != nil {
		t.Fatal(err)
	}
	wp, _ := Load(string(src))
	want, err := wp.Ground(context.Background(), GroundLimits{})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := Load(string(src)) // a store without the grounding's terms
	g := p.take()
	defer p.put(g)
	parent := g.st.store
	sc := parent.scratch()
	sh := *g.shared
	sh.st = sc
	g2 := *g
	g2.shared, g2.st = &sh, newView(sc)
	got, err := g2.ground(context.Background(), GroundLimits{}.withDefaults(), slices.Clone(want.Init), nil)
	if err != nil {
		t.Fatal(err)
	}
	// The parent interns a term meanwhile, and the last fluent and legal atom: the copies of
	// the others come after them.
	parent.constant("interned meanwhile")
	parent.copyTerm(sc, got.Fluents[len(got.Fluents)-1], &termMap{})
	parent.copyTerm(sc, got.Legal[0][len(got.Legal[0])-1], &termMap{})
	parent.commitGrounding(sc, got)
	if len(got.Rules) != len(want.Rules) {
		t.Fatalf("%d rules, want %d", len(got.Rules), len(want.Rules))
	}
	for i := range want.Rules {
		if ruleString(p, got.Rules[i]) != ruleString(wp, want.Rules[i]) {
			t.Fatalf("rule %d: %s, want %s", i, ruleString(p, got.Rules[i]), ruleString(wp, want.Rules[i]))
		}
	}
	lists := func(gr *Grounding) [][]Term {
		out := [][]Term{gr.Fluents, gr.TrueAtoms, gr.NextAtoms, gr.Constant, {gr.Terminal}}
		for r := range gr.Roles {
			out = append(out, gr.Moves[r], gr.DoesAtoms[r], gr.Legal[r])
			for _, ga := range gr.Goals[r] {
				out = append(out, []Term{ga.Value, ga.Atom})
			}
		}
		return out
	}
	wl, gl := lists(want), lists(got)
	for i := range wl {
		if !slices.Equal(wp.Strings(wl[i]), p.Strings(gl[i])) {
			t.Fatalf("list %d: %v, want %v", i, p.Strings(gl[i]), wp.Strings(wl[i]))
		}
	}
	if !slices.IsSorted(got.Fluents) || !slices.IsSorted(got.Legal[0]) || !slices.IsSorted(got.Legal[1]) {
		t.Fatal("the copied lists are not sorted by ID")
	}
	for i, f := range got.Fluents {
		if p.String(got.TrueAtoms[i]) != "(true "+p.String(f)+")" {
			t.Fatalf("fluent %s has true atom %s", p.String(f), p.String(got.TrueAtoms[i]))
		}
	}
	for r := range got.Roles {
		for i, m := range got.Moves[r] {
			if p.String(got.DoesAtoms[r][i]) != "(does "+p.String(got.Roles[r])+" "+p.String(m)+")" {
				t.Fatalf("move %s has does atom %s", p.String(m), p.String(got.DoesAtoms[r][i]))
			}
		}
	}
}

func ruleString(p *Program, r GroundRule) string {
	s := p.String(r.Head) + " <="
	for _, l := range r.Body {
		if l.Neg {
			s += " not"
		}
		s += " " + p.String(l.Atom)
	}
	return s
}
