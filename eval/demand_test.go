package eval

import (
	"strconv"
	"strings"
	"testing"
)

// TestDemand checks relations evaluated on demand against the answers of whole evaluation:
// a state relation of four arguments (demanded), used under not, with some arguments bound,
// with a ground head, and asked with nothing bound; and a static relation that proves big
// (more than staticDemandCap facts) and is switched to demand-driven evaluation.
func TestDemand(t *testing.T) {
	var b strings.Builder
	b.WriteString("(role r)\n")
	for i := 0; i < 20; i++ {
		b.WriteString("(n " + strconv.Itoa(i) + ")\n")
	}
	b.WriteString(`
		(init (at 1 2)) (init (at 3 4))
		(<= (far ?a ?b ?c ?d) (true (at ?a ?b)) (n ?c) (n ?d) (distinct ?a ?c))
		(<= (far 9 9 9 9) (true (at 1 2)))
		(<= (near ?a ?b) (true (at ?a ?b)) (not (far ?a ?b 1 7)))
		(<= (near2 ?c) (n ?c) (far 3 4 ?c 5))
		; static, 20^4 = 160,000 facts whole, asked with all four bound
		(<= (quad ?a ?b ?c ?d) (n ?a) (n ?b) (n ?c) (n ?d))
		(<= (small ?x) (n ?x) (quad ?x 1 2 ?x))
		(legal r go)
	`)
	g, _ := Load(b.String())
	far := g.relByFn[g.st.functor(g.st.sym("far"), 4)]
	if far == nil || far.demand == nil {
		t.Fatal("far/4 must be demanded")
	}
	m := machine{t, g}
	s := m.init()
	ask := func(query string) []string {
		t.Helper()
		q, err := g.ParseQuery(query)
		if err != nil {
			t.Fatal(err)
		}
		as, err := g.Ask(bg, s, nil, q)
		if err != nil {
			t.Fatalf("%s: %v", query, err)
		}
		var out []string
		for _, a := range as {
			out = append(out, q.Format(a))
		}
		return out
	}
	// (far 1 2 1 7) does not hold (?a = ?c), (far 3 4 1 7) does.
	eq(t, "near", sortStrings(ask("(near ?a ?b)")), "(near 1 2)")
	near2 := ask("(near2 ?c)")
	if len(near2) != 19 || strings.Contains(strings.Join(near2, " "), "(near2 3)") {
		t.Errorf("near2: %v", near2)
	}
	eq(t, "ground head", ask("(far 9 ?b 9 9)"), "(far 9 9 9 9)")
	if all := ask("(far ?a ?b ?c ?d)"); len(all) != 2*19*20+1 {
		t.Errorf("far with nothing bound: %d answers", len(all))
	}
	// Another state: the memo must not answer for the old one.
	s2, err := g.ParseState("(at 1 6)")
	if err != nil {
		t.Fatal(err)
	}
	s = s2
	eq(t, "near in another state", ask("(near ?a ?b)"), "(near 1 6)")
	eq(t, "ground head in another state", ask("(far 9 ?b 9 9)"))

	if small := ask("(small ?x)"); len(small) != 20 {
		t.Errorf("small: %v", small)
	}
	quad := g.relByFn[g.st.functor(g.st.sym("quad"), 4)]
	if quad.demand == nil {
		t.Error("quad/4 has more than staticDemandCap facts and must have been switched to demand")
	}
	eq(t, "quad", ask("(quad 1 2 3 ?d) (n ?d) (not (distinct ?d 4))"), "(quad 1 2 3 4) (n 4) (not (distinct 4 4))")
}

func sortStrings(xs []string) []string {
	out := append([]string(nil), xs...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

// TestSwitchDuringRecursion: a static relation that proves too big is switched to demand while
// a recursive relation is being evaluated (quad/4 is first needed by a subgoal of step/4 that
// reach/1's recursive rule asks). Switching drops every plan; the evaluation in progress must
// still run its own to the fixpoint (it stopped after the first round: ad_game_2x2's next state
// came out empty).
func TestSwitchDuringRecursion(t *testing.T) {
	var b strings.Builder
	b.WriteString("(role r) (init (at 0)) (legal r go)\n")
	for i := 0; i < 20; i++ {
		b.WriteString("(n " + strconv.Itoa(i) + ")\n")
		if i > 0 {
			b.WriteString("(succ " + strconv.Itoa(i-1) + " " + strconv.Itoa(i) + ")\n")
		}
	}
	b.WriteString(`
		; static, 20^4 = 160,000 facts whole, asked with two arguments bound
		(<= (quad ?a ?b ?c ?d) (n ?a) (n ?b) (n ?c) (n ?d))
		(<= (step ?x ?y ?c ?d) (true (at ?z)) (succ ?x ?y) (quad ?x ?y ?c ?d))
		(<= (reach 0) (true (at 0)))
		(<= (reach ?y) (reach ?x) (step ?x ?y 1 2))
	`)
	g, _ := Load(b.String())
	m := machine{t, g}
	s := m.init()
	q, err := g.ParseQuery("(reach ?x)")
	if err != nil {
		t.Fatal(err)
	}
	as, err := g.Ask(bg, s, nil, q)
	if err != nil {
		t.Fatal(err)
	}
	if len(as) != 20 {
		t.Errorf("reach: %d answers, want 20", len(as))
	}
	if quad := g.relByFn[g.st.functor(g.st.sym("quad"), 4)]; quad.demand == nil {
		t.Error("quad/4 has more than staticDemandCap facts and must have been switched to demand")
	}
}
