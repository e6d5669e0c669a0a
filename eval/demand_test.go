package eval

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
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
	far := g.warm().relByFn[g.st.functor(g.st.sym("far"), 4)]
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
	quad := g.warm().relByFn[g.st.functor(g.st.sym("quad"), 4)]
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
	if quad := g.warm().relByFn[g.st.functor(g.st.sym("quad"), 4)]; quad.demand == nil {
		t.Error("quad/4 has more than staticDemandCap facts and must have been switched to demand")
	}
}

// withDemand recompiles a game's demand choice before anything is evaluated: all demands every
// relation it may (whatever its arity and uses; the answers must not change), none demands
// nothing (every relation is computed whole, as bottom-up evaluation does by definition).
func withDemand(g *Program, all bool) *Program {
	for _, c := range g.warm().comps {
		c.demanded = false
	}
	for _, r := range g.warm().rels {
		r.demand, r.mayDemand = nil, false
		if !all || len(r.rules) == 0 || r.arity == 0 || r.arity > 64 || r.refused != nil || keywordRel(foldName(r.name)) {
			continue
		}
		r.demand = newDemand()
		g.warm().comps[r.scc].demanded = true
	}
	for _, c := range g.warm().comps {
		// A component is demanded as a whole.
		for _, r := range c.rels {
			if c.demanded && r.demand == nil {
				c.demanded = false
			}
		}
		if !c.demanded {
			for _, r := range c.rels {
				r.demand = nil
			}
		}
	}
	return g
}

// TestDemandAgreesWithWhole compares, along random walks, the answers of every relation of
// several games (asked with nothing bound, and with each value of its first argument bound)
// when every relation that may be is demanded, and when none is: tabled subgoals (recursive
// ones over cyclic graphs included, whose leader iterates) must give what bottom-up evaluation
// gives. It also checks that AskFirst gives the first answers of Ask.
func TestDemandAgreesWithWhole(t *testing.T) {
	games := []string{"../testdata/games/reach.kif", "../testdata/games/sim.kif", "../testdata/games/nim.kif",
		"../testdata/games/tictactoe.kif", "../testdata/games/lastcoin.kif"}
	for _, c := range []string{
		"ggp-org__ggp-repository/war/root/games/othello-comp2007/othello-comp2007.kif",
		"ggp-org__ggp-repository/war/root/games/amazons_8x8/amazons_8x8.kif",
		"ggp-org__ggp-repository/war/root/games/linesOfAction/linesOfAction.kif",
	} {
		if _, err := os.Stat(filepath.Join(corpusDir, c)); err != nil {
			t.Logf("SKIPPED %s: the shared corpus is not there", c)
			continue
		}
		games = append(games, filepath.Join(corpusDir, c))
	}
	for _, path := range games {
		t.Run(filepath.Base(path), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			whole, _ := Load(string(src))
			whole = withDemand(whole, false)
			demanded, _ := Load(string(src))
			demanded = withDemand(demanded, true)
			ctx := context.Background()
			rng := rand.New(rand.NewPCG(7, 8))
			s, err := whole.Initial(ctx)
			if err != nil {
				t.Fatal(err)
			}
			for step := 0; step < 6; step++ {
				compareState(t, whole, demanded, s)
				if done, _ := whole.Terminal(ctx, s); done {
					break
				}
				legal, err := whole.Legal(ctx, s)
				if err != nil {
					t.Fatal(err)
				}
				joint := make([]Term, len(legal))
				for i, ms := range legal {
					if len(ms) == 0 {
						return
					}
					joint[i] = ms[rng.IntN(len(ms))]
				}
				if s, err = whole.Next(ctx, s, joint); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// compareState asks every relation of the game in state s (relations about a joint move after
// the state's first legal joint move) of both games, which share no terms: answers are compared
// as text.
func compareState(t *testing.T, a, b *Program, s *State) {
	t.Helper()
	ctx := context.Background()
	sb, err := b.ParseState(strings.Join(a.Strings(s.Fluents()), " "))
	if err != nil {
		t.Fatal(err)
	}
	var joint []string
	if legal, err := a.Legal(ctx, s); err == nil {
		for _, ms := range legal {
			if len(ms) == 0 {
				joint = nil
				break
			}
			joint = append(joint, a.String(ms[0]))
		}
	}
	ask := func(g *Program, st *State, text string, first int) ([]string, bool) {
		t.Helper()
		q, err := g.ParseQuery(text)
		if err != nil {
			t.Fatal(err)
		}
		var j []Term
		if q.NeedsMove() {
			if joint == nil {
				return nil, false
			}
			js, err := g.ParseJointMoves("(" + strings.Join(joint, " ") + ")")
			if err != nil {
				t.Fatal(err)
			}
			j = js[0]
		}
		var as []Answer
		more := false
		if first > 0 {
			as, more, err = g.AskFirst(ctx, st, j, q, first)
		} else {
			as, err = g.Ask(ctx, st, j, q)
		}
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		out := make([]string, len(as))
		for i, x := range as {
			out[i] = q.Format(x)
		}
		return out, more
	}
	for _, r := range a.warm().rels {
		if len(r.rules) == 0 || r.refused != nil || strings.ContainsAny(r.name, "{ ") {
			continue // split.go's parts of a relation have no name to ask
		}
		vars := make([]string, r.arity)
		for i := range vars {
			vars[i] = fmt.Sprintf("?v%d", i)
		}
		queries := []string{r.name}
		if r.arity > 0 {
			queries[0] = "(" + r.name + " " + strings.Join(vars, " ") + ")"
		}
		all, _ := ask(a, s, queries[0], 0)
		if r.arity > 0 {
			firsts := map[string]bool{}
			for _, x := range all {
				q, _ := a.ParseQuery(x)
				if v := firstArg(a, q); v != "" && len(firsts) < 8 {
					firsts[v] = true
				}
			}
			for v := range firsts {
				queries = append(queries, "("+r.name+" "+v+" "+strings.Join(vars[1:], " ")+")")
			}
		}
		for _, text := range queries {
			want, _ := ask(a, s, text, 0)
			got, _ := ask(b, sb, text, 0)
			slices.Sort(want)
			slices.Sort(got)
			if !slices.Equal(want, got) {
				t.Fatalf("state %v: %s: whole %d answers, demanded %d\nwhole: %v\ndemanded: %v", a.Strings(s.Fluents()), text, len(want), len(got), want, got)
			}
			first, more := ask(b, sb, text, 3)
			if len(first) != min(3, len(want)) || more != (len(want) > 3) {
				t.Fatalf("%s: AskFirst(3) gave %d answers (more %v) of %d", text, len(first), more, len(want))
			}
			for _, x := range first {
				if !slices.Contains(want, x) {
					t.Fatalf("%s: AskFirst gave %s, which is no answer", text, x)
				}
			}
		}
	}
}

// firstArg returns the first argument of the atom a ground query is, as text.
func firstArg(g *Program, q *Query) string {
	v, _ := q.compiled.Load(g.warm())
	qp := v.(*queryPlan)
	if len(qp.rules) != 1 || len(qp.rules[0].body) != 1 {
		return ""
	}
	p := qp.rules[0].body[0].atom
	if p.kind == pConst {
		if args := g.st.argsOf(p.t); len(args) > 0 {
			return g.String(args[0])
		}
		return ""
	}
	if p.kind == pFunc && len(p.args) > 0 && p.args[0].kind == pConst {
		return g.String(p.args[0].t)
	}
	return ""
}

// TestDemandAfterLimit: an evaluation stopped by a limit while subgoals of a recursive relation
// are in progress leaves no incomplete table behind. sim.kif's before/2 is static (its tables
// are kept for the whole game) and recursive over a chain of points.
func TestDemandAfterLimit(t *testing.T) {
	src, err := os.ReadFile("../testdata/games/sim.kif")
	if err != nil {
		t.Fatal(err)
	}
	whole := withDemand(loadSrc(t, string(src)).g, false)
	demanded := withDemand(loadSrc(t, string(src)).g, true)
	const query = "(before 1 ?y)"
	want, err := machine{t, whole}.try(query)
	if err != nil || len(want) < 3 {
		t.Fatalf("%s: %v %v", query, want, err)
	}
	demanded.SetLimits(Limits{MaxFacts: 3})
	var lim *LimitError
	if _, err := (machine{t, demanded}).try(query); !errors.As(err, &lim) {
		t.Fatalf("with 3 facts at most: %v, want a limit error", err)
	}
	demanded.SetLimits(Limits{})
	got, err := machine{t, demanded}.try(query)
	if err != nil {
		t.Fatal(err)
	}
	eq(t, query, got, want...)
}

// TestConservativePlans: a plan that calls a demanded relation before the literal that binds
// one of its arguments (check/5 has four of five bound, pick/4 three of four) makes check ask
// big/1, a static relation that proved too big whole (20^4 facts), with nothing bound. The game
// then plans conservatively, every call no less bound than in the written order, and the
// question is answered within a limit of facts that enumerating big would pass (laikLee_hex's
// terminal enumerated every list this way).
func TestConservativePlans(t *testing.T) {
	var b strings.Builder
	b.WriteString("(role r) (init (at a)) (legal r go)\n")
	for i := 0; i < 20; i++ {
		b.WriteString("(le " + strconv.Itoa(i) + ")\n")
	}
	b.WriteString(`
		(<= (big (f ?a ?b ?c ?d)) (le ?a) (le ?b) (le ?c) (le ?d))
		(<= (check ?x ?b ?c ?d ?p) (true (at ?x)) (le ?b) (le ?c) (le ?d) (big ?p))
		(<= (pick ?a ?b ?c (f ?a ?b ?c ?a)) (true (at ?x)) (le ?a) (le ?b) (le ?c))
		(<= (top ?x) (true (at ?x)) (pick 3 4 5 ?p) (check ?x 1 2 3 ?p))
	`)
	g, _ := Load(b.String())
	g.SetLimits(Limits{MaxFacts: 150_000})
	// As after the first replanning, when calls are placed by their estimates (see callNeeds).
	g.warm().learned = true
	m := machine{t, g}
	s := m.init()
	q, err := g.ParseQuery("(top ?x)")
	if err != nil {
		t.Fatal(err)
	}
	as, err := g.Ask(bg, s, nil, q)
	if err != nil {
		t.Fatal(err)
	}
	if len(as) != 1 || q.Format(as[0]) != "(top a)" {
		t.Errorf("top: %d answers", len(as))
	}
	if !g.warm().conservative {
		t.Error("the game must have become conservative")
	}
}

// TestStaticDemandedUnevaluated: static relations are demanded past staticDemandCap facts, and
// a relation computed whole that asks one of them with nothing bound is demanded in turn,
// before it is computed whole when the planner sees it. gt_two_thirds_6p's arithmetic (lte/2 and
// sum/3 over the numbers to 600, 180,000 facts each) took 0.6 s to compute in part before being
// switched to demand; its playouts ask a few hundred subgoals. pair/2 is like laikLee_hex's
// connection/6, which asked isList/1 with nothing bound. With a limit of 50,000 facts per call,
// computing any of them whole fails.
func TestStaticDemandedUnevaluated(t *testing.T) {
	var b strings.Builder
	b.WriteString("(role r) (init (at 0)) (legal r go) (number 0)\n")
	for i := 1; i <= 600; i++ {
		fmt.Fprintf(&b, "(succ %d %d)\n", i-1, i)
	}
	b.WriteString(`
		(<= (number ?n) (succ ?m ?n))
		(<= (lte ?x ?x) (number ?x))
		(<= (lte ?x ?y) (succ ?z ?y) (lte ?x ?z))
		(<= (lt ?x ?y) (lte ?x ?y) (distinct ?x ?y))
		(<= (sum ?x 0 ?x) (number ?x))
		(<= (sum ?x ?y ?z) (succ ?y1 ?y) (sum ?x ?y1 ?z1) (succ ?z1 ?z))
		(<= (small ?x) (lte ?x 3))
		(<= (below ?x ?y) (small ?x) (small ?y) (lt ?x ?y))
		(<= (total ?z) (true (at ?x)) (small ?y) (sum ?x ?y ?z))
		; recursive, depending on the state, asks lte/2 with nothing bound when computed whole
		(<= (pair ?a ?b) (lte ?a ?b) (true (at ?a)))
		(<= (pair ?a ?c) (pair ?a ?b) (succ ?b ?c) (small ?c))
		(<= (reached ?c) (small ?c) (pair 0 ?c))
	`)
	g, _ := Load(b.String())
	g.SetLimits(Limits{MaxFacts: 50_000})
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
		return sortStrings(out)
	}
	eq(t, "small", ask("(small ?x)"), "(small 0)", "(small 1)", "(small 2)", "(small 3)")
	eq(t, "below", ask("(below 1 ?y)"), "(below 1 2)", "(below 1 3)")
	eq(t, "total", ask("(total ?z)"), "(total 0)", "(total 1)", "(total 2)", "(total 3)")
	eq(t, "sum", ask("(sum 250 300 ?z)"), "(sum 250 300 550)")
	eq(t, "lt", ask("(lt 598 ?y)"), "(lt 598 599)", "(lt 598 600)")
	eq(t, "reached", ask("(reached ?c)"), "(reached 0)", "(reached 1)", "(reached 2)", "(reached 3)")
	for _, r := range g.warm().rels {
		switch r.name {
		case "lte", "sum", "pair":
			if r.demand == nil {
				t.Errorf("%s/%d must be demanded", r.name, r.arity)
			}
		case "lt":
			// It asks lte/2 with nothing bound: demanded before it is computed whole.
			if r.demand == nil || g.warm().comps[r.scc].evals > 0 {
				t.Errorf("%s/%d must be demanded without being computed whole (%d evaluations)", r.name, r.arity, g.warm().comps[r.scc].evals)
			}
		}
	}
}

// TestEstimatedBigStaysConservative: a static relation demanded because the planner estimates
// it big, whose whole evaluation would ask all of a switched relation, makes the game plan
// conservatively, as that call does when it is made (see becomeConservative). sudoku's
// exactlyOne/10 reads exactlyFirst/10 so; planned by the answers of the calls made instead,
// goodRow/1 asked exactlyOne/10 with 7 of its 10 arguments bound, 100 times slower.
func TestEstimatedBigStaysConservative(t *testing.T) {
	var b strings.Builder
	b.WriteString("(role r) (legal r go)\n")
	for i := 1; i <= 30; i++ {
		fmt.Fprintf(&b, "(n %d) (eq %d %d)\n", i, i, i)
	}
	for i := 1; i <= 4; i++ {
		fmt.Fprintf(&b, "(init (mark %d %d))\n", i, i)
	}
	b.WriteString(`
		(<= (first ?z ?x1 ?x2 ?x3 ?x4) (eq ?z ?x1) (n ?x2) (n ?x3) (n ?x4)
			(not (eq ?z ?x2)) (not (eq ?z ?x3)) (not (eq ?z ?x4)))
		(<= (one ?z ?x1 ?x2 ?x3 ?x4) (first ?z ?x1 ?x2 ?x3 ?x4))
		(<= (one ?z ?x1 ?x2 ?x3 ?x4) (first ?z ?x2 ?x1 ?x3 ?x4))
		(<= good (true (mark 1 ?m1)) (true (mark 2 ?m2)) (true (mark 3 ?m3)) (true (mark 4 ?m4))
			(one 1 ?m1 ?m2 ?m3 ?m4))
	`)
	g, _ := Load(b.String())
	m := machine{t, g}
	s := m.init()
	q, err := g.ParseQuery("good")
	if err != nil {
		t.Fatal(err)
	}
	if as, err := g.Ask(bg, s, nil, q); err != nil || len(as) != 1 {
		t.Fatalf("good: %v, %v", as, err)
	}
	one := g.warm().relByFn[g.st.functor(g.st.sym("one"), 5)]
	if one == nil || one.demand == nil || g.warm().comps[one.scc].evals > 0 {
		t.Fatal("one/5 must be demanded without being computed whole")
	}
	if !g.warm().conservative {
		t.Error("the game must plan conservatively")
	}
}
