package analysis

import (
	"context"
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/gdl-lsp/gdl/internal/gengame"
	"github.com/gdl-lsp/gdl/syntax"
)

// TestRemoveLegalEvaluatesNothing removes one of about 5,800 legal rules (legal's roles are
// anything, more than maxSetConsts constants, and its moves (move anything)) and puts it back:
// neither edit evaluates a unit of the producers, and both keep the previous version's sets of
// legal and does. Before the counts of ground terms, the removal evaluated 10,901 units and the
// putting back 5,451.
func TestRemoveLegalEvaluatesNothing(t *testing.T) {
	src := gengame.ManyRoles(512 << 10)
	at := strings.Index(src[len(src)/2:], "(<= (legal ") + len(src)/2 + 1
	f, _ := syntax.Parse(src)
	prev, err := AnalyzeContext(context.Background(), f, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, what := range []string{"removal", "putting back", "removal again", "putting back again"} {
		if i%2 == 0 {
			f = f.Edit(at, at, "x")
		} else {
			f = f.Edit(at, at+1, "")
		}
		got, err := AnalyzeContext(context.Background(), f, nil, prev)
		if err != nil {
			t.Fatal(err)
		}
		p, pp := got.Model.prodMemo, prev.Model.prodMemo
		if !pp.sets[place{KeywordRel("legal"), 0}].any {
			t.Fatal("legal's roles are not anything: the test does not test what it says")
		}
		if p.pops > 0 {
			t.Errorf("%s: %d units evaluated, want none", what, p.pops)
		}
		for _, rel := range []string{"legal", "does"} {
			for arg := range 2 {
				pl := place{KeywordRel(rel), arg}
				if p.sets[pl] != pp.sets[pl] {
					t.Errorf("%s: the set of %s argument %d computed again", what, rel, arg)
				}
			}
		}
		if diff := sameResult(got, Analyze(f, nil)); diff != "" {
			t.Fatalf("%s: the incremental analysis differs from a fresh one: %s", what, diff)
		}
		prev = got
	}
}

// TestGroundCountsEqualFull adds and removes legal rules at random in a file whose legal's roles
// cross maxSetConsts constants both ways, some of them spelt differently or written twice, some
// not ground, and moves whose argument crosses it too; after every edit the incremental analysis
// equals a fresh one, and every count of ground terms the producers keep equals the count made
// from the version's clauses (a count left stale would absorb a term that changes a set).
func TestGroundCountsEqualFull(t *testing.T) {
	rng := rand.New(rand.NewSource(21))
	var lines []string // the file's lines; legal rules and others
	rule := func(id int, upper bool) string {
		r, m := fmt.Sprintf("r%d", id), "move"
		if upper {
			r, m = strings.ToUpper(r), "MOVE"
		}
		return fmt.Sprintf("(<= (legal %s (%s %d)) (true (s 0)))", r, m, id)
	}
	lines = append(lines, "(role r0)", "(init (s 0))", "(<= (next (s 1)) (true (s 0)))", "(<= terminal (true (s 1)))")
	const start = maxSetConsts - 1
	for id := range start {
		lines = append(lines, rule(id, false))
	}
	next := start
	text := func() string { return strings.Join(lines, "\n") + "\n" }
	offset := func(i int) int { // the offset of line i
		n := 0
		for _, l := range lines[:i] {
			n += len(l) + 1
		}
		return n
	}
	roles := func(m *Model) *termSet { return m.producersAt(KeywordRel("legal"), 0) }
	f, _ := syntax.Parse(text())
	prev, err := AnalyzeContext(context.Background(), f, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	anyBefore, up, down, absorbed := roles(prev.Model).any, 0, 0, 0
	targets := []int{maxSetConsts + 2, maxSetConsts - 2, maxSetConsts + 2, maxSetConsts - 1}
	target := 0
	legal := func() int { // the legal rules' distinct roles
		seen := map[string]bool{}
		for _, l := range lines {
			if strings.HasPrefix(l, "(<= (legal r") || strings.HasPrefix(l, "(<= (legal R") {
				seen[strings.ToLower(strings.Fields(l)[2])] = true
			}
		}
		return len(seen)
	}
	for step := 0; target < len(targets); step++ {
		if step > 200 {
			t.Fatal("the targets were not reached")
		}
		n := legal()
		if n == targets[target] {
			target++
			continue
		}
		grow := n < targets[target]
		if rng.Intn(4) == 0 {
			grow = !grow
		}
		var at, end int
		var ins string
		i := 4 + rng.Intn(len(lines)-4)
		switch {
		case grow && rng.Intn(5) == 0: // a second rule for a role, spelt otherwise, or not ground
			add := rule(rng.Intn(next), true)
			if rng.Intn(2) == 0 {
				add = "(<= (legal ?r (move 1)) (role ?r))"
			}
			at, ins = offset(i), add+"\n"
			lines = append(lines[:i], append([]string{add}, lines[i:]...)...)
		case grow:
			add := rule(next, false)
			next++
			at, ins = offset(i), add+"\n"
			lines = append(lines[:i], append([]string{add}, lines[i:]...)...)
		default:
			at, end = offset(i), offset(i+1)
			lines = append(lines[:i], lines[i+1:]...)
		}
		if end == 0 {
			end = at
		}
		f = f.Edit(at, end, ins)
		if f.Source() != text() {
			t.Fatal("the edit does not make the text the test keeps")
		}
		want := Analyze(f, nil)
		got, err := AnalyzeContext(context.Background(), f, nil, prev)
		if err != nil {
			t.Fatal(err)
		}
		if diff := sameResult(got, want); diff != "" {
			t.Fatalf("step %d (%d legal roles): the incremental analysis differs from a fresh one: %s", step, legal(), diff)
		}
		p := got.Model.prodMemo
		for pl, g := range p.ground {
			if g.owner.Load() != p {
				t.Fatalf("step %d: the counts of %v belong to another version", step, pl)
			}
			if g2, w := g.root.String(), p.countPlace(pl).root.String(); g2 != w {
				t.Fatalf("step %d: the counts of %v are stale\n got %.300s\nwant %.300s", step, pl, g2, w)
			}
		}
		if p.ground[place{KeywordRel("legal"), 0}] != nil && p.pops == 0 {
			absorbed++
		}
		if a := roles(got.Model).any; a != anyBefore {
			if a {
				up++
			} else {
				down++
			}
			anyBefore = a
		}
		prev = got
	}
	if up < 2 || down < 1 || absorbed == 0 {
		t.Fatalf("legal's roles became anything %d times and stopped being %d times, %d edits absorbed: the bound is not crossed both ways", up, down, absorbed)
	}
	t.Logf("legal's roles became anything %d times, stopped %d times; %d edits evaluated no unit", up, down, absorbed)
}

// TestGroundCountsTwoEditsOfOneVersion analyses two different edits of one version at once, as
// the language server may when a newer edit comes while an analysis runs, and then one more edit
// of each: one takes over the counts, the other counts again, and every version equals a fresh
// analysis (run with -race: the owner of the counts is read under another model's lock).
func TestGroundCountsTwoEditsOfOneVersion(t *testing.T) {
	src := gengame.ManyRoles(512 << 10)
	first := strings.Index(src[len(src)/2:], "(<= (legal ") + len(src)/2 + 1
	f, _ := syntax.Parse(src)
	base, err := AnalyzeContext(context.Background(), f, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Remove a rule, so that the counts are made, then analyse two edits of that version.
	f = f.Edit(first, first, "x")
	a, err := AnalyzeContext(context.Background(), f, nil, base)
	if err != nil {
		t.Fatal(err)
	}
	second := strings.Index(src, "(<= (legal p7 ") + 1
	files := []*syntax.File{f.Edit(first, first+1, ""), f.Edit(second, second, "x")}
	results := make([]*Result, len(files))
	errs := make([]error, len(files))
	var wg sync.WaitGroup
	for i, g := range files {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = AnalyzeContext(context.Background(), g, nil, a)
		}()
	}
	wg.Wait()
	for i, g := range files {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		got := results[i]
		for j := range 2 {
			if diff := sameResult(got, Analyze(g, nil)); diff != "" {
				t.Fatalf("edit %d, %d: the incremental analysis differs from a fresh one: %s", i, j, diff)
			}
			if got.Model.prodMemo.pops > 0 {
				t.Errorf("edit %d, %d: %d units evaluated, want none", i, j, got.Model.prodMemo.pops)
			}
			if j == 1 {
				break
			}
			at := strings.Index(g.Source(), "(<= (legal p9 ") + 1 // one more removal
			g = g.Edit(at, at, "x")
			if got, err = AnalyzeContext(context.Background(), g, nil, got); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// String writes the counts with their parts sorted.
func (g *groundNode) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d{", g.n)
	keys := make([]string, 0, len(g.consts))
	for k, n := range g.consts {
		keys = append(keys, fmt.Sprintf("%s:%d", k, n))
	}
	sort.Strings(keys)
	b.WriteString(strings.Join(keys, " "))
	var fs []string
	for k, f := range g.funcs {
		var names []string
		for n, c := range f.names {
			names = append(names, fmt.Sprintf("%s:%d", n, c))
		}
		sort.Strings(names)
		s := fmt.Sprintf("(%s/%d %v", k.key, k.arity, names)
		for _, a := range f.args {
			s += " " + a.String()
		}
		fs = append(fs, s+")")
	}
	sort.Strings(fs)
	b.WriteString(strings.Join(fs, " "))
	b.WriteString("}")
	return b.String()
}
