package analysis

import (
	"context"
	"fmt"
	"maps"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/gdl-lsp/gdl/internal/gengame"
	"github.com/gdl-lsp/gdl/syntax"
)

// TestIncrementalEqualsFull edits games at random and checks, after every edit, that the
// analysis reusing the previous version's (AnalyzeContext with prev) equals a fresh Analyze:
// the same diagnostics, occurrences, clauses, edges, components and strata. Reuse goes on from
// version to version, as in the language server.
func TestIncrementalEqualsFull(t *testing.T) {
	inputs := map[string]string{}
	own, _ := filepath.Glob("../testdata/games/*.kif")
	infix, _ := filepath.Glob("../testdata/games/*.hrf")
	own = append(own, infix...)
	for _, p := range own {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		inputs[filepath.Base(p)] = string(data)
	}
	// A spread of corpus games, small to large, when the corpus is there.
	if _, err := os.Stat(filepath.Join(corpusDir, "MANIFEST.tsv")); err == nil {
		games := corpusGameFiles(t)
		sort.Strings(games)
		for i := 0; i < len(games); i += 20 {
			src, err := os.ReadFile(filepath.Join(corpusDir, games[i]))
			if err != nil {
				t.Fatal(err)
			}
			inputs[games[i]] = string(src)
		}
		// Real games one after another, names renamed per game: a file where the sets of true
		// and does hold every game's fluents and moves, and base and input are checked.
		if src, err := gengame.Corpus(corpusDir, 40<<10); err == nil {
			inputs["corpus-made-40KB"] = src
		}
		// Misspelt relations among more names than are scanned whole: the name index's answers,
		// at distance 1 and 2, taken over from version to version.
		inputs["unknown-relations-12KB"] = gengame.UnknownRelations(12 << 10)
		// The other hostile families, small: one relation of many rules, a long body, a deep
		// term, many roles, one name of many arities.
		for _, fam := range gengame.Families[1:] {
			inputs[fam.Name+"-6KB"] = fam.Make(6 << 10)
		}
		var b strings.Builder
		b.WriteString("(role a)\n")
		for i := range 150 {
			fmt.Fprintf(&b, "(<= (relation%d ?x) (role ?x) (not (rilatien%d ?x)))\n", i, i)
		}
		inputs["misspelt-distance-2"] = b.String()
	} else {
		t.Logf("corpus games skipped (%v): only testdata games are edited", err)
	}
	names := make([]string, 0, len(inputs))
	for n := range inputs {
		names = append(names, n)
	}
	sort.Strings(names)
	rng := rand.New(rand.NewSource(1))
	edits, reused, reusedClauses, clauses := 0, 0, 0, 0
	segs, merged := 0, 0        // the most segments of occurrences a model had, and how often they were merged
	renumbered, rebased := 0, 0 // graphs numbered from prev's numbers (renumber), and anew though it changed
	for _, name := range names {
		f := parseCase(name, inputs[name])
		prev, _ := AnalyzeContext(context.Background(), f, nil, nil)
		for i := 0; i < 40; i++ {
			start, end, text := semanticEdit(rng, f.Source())
			f = f.Edit(start, end, text)
			// A fresh analysis first: it must not disturb what the incremental one reuses.
			want := Analyze(f, nil)
			got, err := AnalyzeContext(context.Background(), f, nil, prev)
			if err != nil {
				t.Fatal(err)
			}
			reusedClauses += got.Model.reused
			if n := len(got.Model.occSegs); n > maxOccSegs {
				t.Fatalf("%s, edit %d: %d segments of occurrences, at most %d", name, i, n, maxOccSegs)
			} else if n < len(prev.Model.occSegs)-3 {
				merged++ // copied into one, or shorter for a removal of many forms
			}
			segs = max(segs, len(got.Model.occSegs))
			switch gm, pm := got.Model, prev.Model; {
			case gm.rels == pm.rels: // the same graph (sameGraph)
			case reflect.ValueOf(gm.rels.base).UnsafePointer() == reflect.ValueOf(pm.rels.base).UnsafePointer():
				renumbered++
			default:
				rebased++
			}
			if diff := sameResult(got, want); diff != "" {
				t.Fatalf("%s, edit %d (%d..%d -> %q): incremental analysis differs from a fresh one: %s", name, i, start, end, text, diff)
			}
			nav := &Result{Model: NavigationModel(got.Model), Diagnostics: want.Diagnostics}
			if diff := sameResult(nav, &Result{Model: NewModel(f), Diagnostics: want.Diagnostics}); diff != "" {
				t.Fatalf("%s, edit %d (%d..%d -> %q): the navigation model differs from NewModel's: %s", name, i, start, end, text, diff)
			}
			_, n := f.Reparsed()
			reused += n
			clauses += len(got.Model.Clauses)
			edits++
			prev = got
		}
	}
	// Nearly every clause is reused from version to version: an edit touches one or two forms.
	if reusedClauses < clauses*9/10 {
		t.Fatalf("%d of %d clauses reused from the previous version: incremental analysis is not exercised", reusedClauses, clauses)
	}
	// The graph of a version numbered from its previous version's, and anew when that lost or
	// gained too many relations.
	if renumbered < 100 || rebased == 0 {
		t.Fatalf("graphs renumbered from the previous version's %d times, numbered anew %d times: both must occur", renumbered, rebased)
	}
	// The models refer to earlier versions' occurrences (occSeg), and copy them into one now and then.
	if segs < 16 || merged == 0 {
		t.Fatalf("at most %d segments of occurrences, merged %d times: their reuse is not exercised", segs, merged)
	}
	t.Logf("%d edits over %d games: %d items reused by the parser, %d of %d clauses by the analysis; up to %d segments of occurrences, merged %d times; graphs renumbered %d times, numbered anew %d",
		edits, len(names), reused, reusedClauses, clauses, segs, merged, renumbered, rebased)
}

// TestCancelledAnalysis checks that a cancelled context stops the analysis with its error.
func TestCancelledAnalysis(t *testing.T) {
	data, err := os.ReadFile("../testdata/games/tictactoe.kif")
	if err != nil {
		t.Fatal(err)
	}
	f, _ := syntax.Parse(string(data))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if res, err := AnalyzeContext(ctx, f, nil, nil); err != context.Canceled || res != nil {
		t.Fatalf("AnalyzeContext with a cancelled context = %v, %v; want nil, context.Canceled", res, err)
	}
}

// semanticEdit picks an edit that changes what a game means: a name typed into or deleted from a
// form, a literal added or removed, a form broken, closed, added, removed or duplicated, many
// lines removed.
func semanticEdit(rng *rand.Rand, src string) (start, end int, text string) {
	n := len(src)
	at := rng.Intn(n + 1)
	forms := []string{
		"\n(<= (p ?x) (q ?x) (not (r ?x)))\n", "\n(role extra)\n", "\n(<= (legal extra noop) (true (on ?y)))\n",
		"\n(<= terminal (p a))\n", "\n(q a)\n(r (f a))\n", "\n(<= (goal extra 150) (p ?z))\n",
		"\n(<= (q ?x) (p ?x))\n", "\n(<= (Cell ?x) (p ?X))\n", "\n(<= (p ?x) (or (q ?x) (r ?x)))\n",
	}
	switch r := rng.Intn(11); {
	case r < 3: // type a character or a space
		return at, at, string("aZ?( )x1"[rng.Intn(8)])
	case r < 5: // delete a short range
		return at, min(n, at+1+rng.Intn(8)), ""
	case r < 7: // add a form
		return at, at, forms[rng.Intn(len(forms))]
	case r < 8: // delete from one line start to a later one (removes or merges forms)
		s := strings.LastIndexByte(src[:at], '\n') + 1
		e := strings.IndexByte(src[at:], '\n')
		if e < 0 {
			return s, n, ""
		}
		return s, at + e, ""
	case r < 9: // duplicate a line
		s := strings.LastIndexByte(src[:at], '\n') + 1
		e := strings.IndexByte(src[at:], '\n')
		if e < 0 {
			e = n - at
		}
		return s, s, src[s:at+e] + "\n"
	case r < 10: // a parenthesis
		return at, at, string("()"[rng.Intn(2)])
	default: // delete many lines (more forms than the analysis looks ahead for the next one it knows)
		s := strings.LastIndexByte(src[:at], '\n') + 1
		e := s
		for k := 0; k < 40 && e < n; k++ {
			if i := strings.IndexByte(src[e:], '\n'); i >= 0 {
				e += i + 1
			} else {
				e = n
			}
		}
		return s, e, ""
	}
}

// allOccurrences returns m's occurrences, read one by one with Occ, and compares them with
// those AllOccurrences yields (it panics when they differ).
func allOccurrences(m *Model) []Occurrence {
	var out []Occurrence
	for i, o := range m.AllOccurrences() {
		if i != len(out) || m.Occ(i) != o {
			panic(fmt.Sprintf("AllOccurrences and Occ differ at %d", i))
		}
		out = append(out, o)
	}
	if len(out) != m.NumOccurrences() {
		panic("AllOccurrences yields another number of occurrences")
	}
	return out
}

// sameResult reports how two analyses differ, or "".
func sameResult(got, want *Result) string {
	if g, w := fmt.Sprintf("%+v", got.Diagnostics), fmt.Sprintf("%+v", want.Diagnostics); g != w {
		return fmt.Sprintf("diagnostics\n got %s\nwant %s", g, w)
	}
	gm, wm := got.Model, want.Model
	all := allOccurrences(gm)
	if !slices.Equal(all, allOccurrences(wm)) {
		return "occurrences differ"
	}
	for i := 1; i < gm.NumOccurrences(); i++ {
		if gm.Occ(i-1).Span.Start >= gm.Occ(i).Span.Start {
			return fmt.Sprintf("occurrences %d and %d are out of order", i-1, i)
		}
	}
	for _, c := range gm.Clauses { // a clause's own list is the model's
		if !slices.Equal(c.Occurrences(gm), all[c.occLo:c.occHi]) {
			return fmt.Sprintf("the occurrences of clause %d differ from the model's", c.Index)
		}
	}
	if len(gm.Clauses) != len(wm.Clauses) {
		return fmt.Sprintf("%d clauses, want %d", len(gm.Clauses), len(wm.Clauses))
	}
	for i, c := range gm.Clauses {
		w := wm.Clauses[i]
		if c.Form.Span() != w.Form.Span() || c.Key() != w.Key() || c.occLo != w.occLo || c.occHi != w.occHi || c.edgeLo != w.edgeLo || c.edgeHi != w.edgeHi ||
			!reflect.DeepEqual(c.Vars, w.Vars) {
			return fmt.Sprintf("clause %d differs", i)
		}
	}
	if !slices.Equal(gm.Edges, wm.Edges) {
		return "edges differ"
	}
	if !reflect.DeepEqual(gm.SCCs, wm.SCCs) || !reflect.DeepEqual(byRelation(gm, gm.Stratum), byRelation(wm, wm.Stratum)) ||
		!reflect.DeepEqual(byRelation(gm, gm.SCCOf), byRelation(wm, wm.SCCOf)) || !reflect.DeepEqual(gm.Recursive, wm.Recursive) {
		return "components or strata differ"
	}
	if d := sameNumbering(gm, wm); d != "" {
		return d
	}
	for _, t := range [][2]map[string]*Symbol{{gm.Relations, wm.Relations}, {gm.Functions, wm.Functions}, {gm.Constants, wm.Constants}} {
		if d := sameSymbols(t[0], t[1]); d != "" {
			return d
		}
	}
	if !reflect.DeepEqual(gm.Roles, wm.Roles) || !reflect.DeepEqual(gm.Broken, wm.Broken) {
		return "roles or broken forms differ"
	}
	return sameProducers(gm, wm)
}

// sameProducers compares the sets of every place got's producers computed (some of them taken
// over from earlier versions) with the same places computed from scratch on want.
func sameProducers(got, want *Model) string {
	if got.prodMemo == nil {
		return ""
	}
	got.mu.Lock()
	places := make([]place, 0, len(got.prodMemo.sets))
	for pl := range got.prodMemo.sets {
		places = append(places, pl)
	}
	got.mu.Unlock()
	for _, pl := range places {
		g, w := got.producersAt(pl.rel, pl.arg).String(), want.producersAt(pl.rel, pl.arg).String()
		if g != w {
			return fmt.Sprintf("the set of %s argument %d\n got %s\nwant %s", pl.rel, pl.arg, g, w)
		}
	}
	return ""
}

// sameNumbering reports how the relations' numbers and outgoing edges of two models differ, or
// "": the same relations in the same order, each found by its number (relNum) and no other
// relation found (a relation an earlier version's index knows and this one lost included).
func sameNumbering(got, want *Model) string {
	if !slices.Equal(got.nodeNames, want.nodeNames) {
		return "the graph's relations differ"
	}
	for v, r := range got.nodeNames {
		if g, ok := got.relNum(r); !ok || int(g) != v {
			return fmt.Sprintf("relation %s is numbered %d (found %v), want %d", r, g, ok, v)
		}
		if !slices.Equal(got.OutEdges(r), want.OutEdges(r)) {
			return fmt.Sprintf("the edges out of %s differ", r)
		}
	}
	for _, x := range []map[Rel]int32{got.rels.base, got.rels.extra} {
		for r := range x {
			if _, ok := want.relNum(r); !ok {
				if v, found := got.relNum(r); found {
					return fmt.Sprintf("relation %s is no longer in the graph but has number %d", r, v)
				}
			}
		}
	}
	return ""
}

// sameSymbols reports how two symbol tables differ, or "".
func sameSymbols(got, want map[string]*Symbol) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%d symbols, want %d", len(got), len(want))
	}
	for k, w := range want {
		g := got[k]
		if g == nil {
			return fmt.Sprintf("symbol %s missing", k)
		}
		if g.Kind != w.Kind || g.Key != w.Key || g.defs != w.defs || !slices.Equal(g.Occs, w.Occs) ||
			!reflect.DeepEqual(maps.Collect(g.Spellings()), maps.Collect(w.Spellings())) || !reflect.DeepEqual(maps.Collect(g.Arities()), maps.Collect(w.Arities())) {
			return fmt.Sprintf("symbol %s differs", k)
		}
	}
	return ""
}

// FuzzIncrementalAnalysis edits any text with any edit and checks that the analysis reusing the
// previous version's equals a fresh one, and that neither panics.
func FuzzIncrementalAnalysis(f *testing.F) {
	seeds := checkCases(f)
	games, _ := filepath.Glob("../testdata/games/*.kif")
	for _, p := range append(seeds, games...) {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(data), uint16(len(data)/2), uint8(3), "(<= (p ?x) (q ?x))\n")
	}
	f.Add("(role a)\n(<= (p ?x) (not (p ?x)))", uint16(10), uint8(0), "(")
	// Stray ands in every shape (issue 10: a bare and crashed the analyzer).
	f.Add("(<= p and)\n(<= q (and) (not and) (or and (and q)))\n(and)\n(<= (and ?x) (p ?x))\n", uint16(8), uint8(3), "(and ")
	f.Add("role(a)\np(X) :- q(X) & ~r(X) & (s | t)\n", uint16(12), uint8(2), "~")
	// The nesting shapes of issue 22, edited in the middle of the deep rule.
	for _, shape := range gengame.NestingShapes {
		src := gengame.Nested(shape, 2000)
		f.Add(src, uint16(len(src)-len(src)/4), uint8(1), "(not ")
	}
	f.Fuzz(func(t *testing.T, src string, at uint16, del uint8, text string) {
		for _, d := range []syntax.Dialect{syntax.Prefix, syntax.Infix} {
			file, _ := syntax.ParseDialect(src, d)
			prev, _ := AnalyzeContext(context.Background(), file, nil, nil)
			start := int(at) % (len(src) + 1)
			end := min(len(src), start+int(del)%16)
			edited := file.Edit(start, end, text)
			got, err := AnalyzeContext(context.Background(), edited, nil, prev)
			if err != nil {
				t.Fatal(err)
			}
			if diff := sameResult(got, Analyze(edited, nil)); diff != "" {
				t.Fatalf("%v: edit %d..%d -> %q: incremental analysis differs from a fresh one: %s", d, start, end, text, diff)
			}
		}
	})
}

// TestCancelledAnalysisKeepsReuse: an analysis cancelled half-way must not make the forms forget
// the last completed analysis, which the next version builds on.
func TestCancelledAnalysisKeepsReuse(t *testing.T) {
	data, err := os.ReadFile("../testdata/games/tictactoe.kif")
	if err != nil {
		t.Fatal(err)
	}
	src := string(data)
	f1, _ := syntax.Parse(src)
	v1, _ := AnalyzeContext(context.Background(), f1, nil, nil)
	at := strings.Index(src, "(<= terminal")
	f2 := f1.Edit(at, at, "\n")
	// Version 2's analysis is abandoned after its model is built (the context is cancelled
	// before the checks).
	ctx, cancel := context.WithCancel(context.Background())
	m2, err := newModel(ctx, f2, true, v1.Model)
	if err != nil {
		t.Fatal(err)
	}
	_ = m2
	cancel()
	f3 := f2.Edit(at, at, "\n")
	v3, err := AnalyzeContext(context.Background(), f3, nil, v1)
	if err != nil {
		t.Fatal(err)
	}
	if v3.Model.reused < len(v3.Model.Clauses)-1 {
		t.Errorf("after an abandoned analysis: %d of %d clauses reused from the last completed one", v3.Model.reused, len(v3.Model.Clauses))
	}
}

// TestIncrementalGraph checks the reuse of the previous version's dependency graph: an edit that
// keeps every clause's head and every edge (a constant, a variable, a comment) keeps the graph
// itself, and edits that change an edge, even only its sign, give the graph of a fresh analysis.
func TestIncrementalGraph(t *testing.T) {
	src := "(role a)\n(q 1)\n(r 2)\n(<= (p ?x) (q ?x) (not (r ?x)))\n(<= (s ?x) (p ?x))\n; a comment\n(<= terminal (s 1))\n"
	edits := []struct {
		name, from, to string
		same           bool // the graph is the previous version's
	}{
		{"a constant", "(s 1)", "(s 2)", true},
		{"a comment", "; a comment", "; another comment", true},
		{"a variable", "(p ?x) (q ?x)", "(p ?y) (q ?y)", true},
		{"negation to disjunction", "(not (r", "(or (r", false},
		{"disjunction to negation", "(or (r", "(not (r", false},
		{"a body relation", "(s ?x) (p ?x)", "(s ?x) (q ?x)", false},
		{"a head", "(<= (s ?x)", "(<= (t ?x)", false},
	}
	f, _ := syntax.Parse(src)
	prev, _ := AnalyzeContext(context.Background(), f, nil, nil)
	for _, e := range edits {
		var got *Result
		f, got = replaceAndReanalyze(t, e.name, f, prev, e.from, e.to)
		if same := reflect.ValueOf(got.Model.sccOf).Pointer() == reflect.ValueOf(prev.Model.sccOf).Pointer(); same != e.same {
			t.Errorf("%s: graph taken over from the previous version: %v, want %v", e.name, same, e.same)
		}
		prev = got
	}
}

// TestIncrementalFailingUses edits the rules that make the sets undefined-fluent and
// undefined-move read (init, next, legal) and the uses they judge, one at a time: the uses a
// version reuses are judged from the clause's memo only while the sets are the very ones it was
// made with, so each edit must give what a fresh analysis gives.
func TestIncrementalFailingUses(t *testing.T) {
	src := "(role white)\n(init (cell 1))\n(<= (next (cell ?x)) (true (cell ?x)))\n" +
		"(<= (legal white (mark ?x)) (true (cell ?x)))\n(<= (p ?x) (true (cel ?x)))\n" +
		"(<= (q ?x) (does white (mark ?x)))\n(<= (r ?x) (does black (mark ?x)))\n(<= terminal (p 1))\n"
	edits := []struct{ old, new string }{
		{"(init (cell 1))", "(init (cel 1))"},        // cel is produced now, cell is not
		{"(<= (q ?x)", "(<= (qq ?x)"},                // an unrelated edit: the sets stay
		{"(init (cel 1))", "(init (cell 1))"},        // back
		{"(legal white (mark", "(legal white (mork"}, // the move mark is not allowed now
		{"(role white)", "(role white)\n(role black)"},
		{"(legal white (mork", "(legal black (mark"},
		{"(true (cel ?x))", "(true (cell ?x))"},
	}
	f := parseCase("failing-uses.kif", src)
	prev, _ := AnalyzeContext(context.Background(), f, nil, nil)
	for i, e := range edits {
		at := strings.Index(f.Source(), e.old)
		if at < 0 {
			t.Fatalf("edit %d: %q is not in the file", i, e.old)
		}
		f = f.Edit(at, at+len(e.old), e.new)
		want := Analyze(f, nil)
		got, err := AnalyzeContext(context.Background(), f, nil, prev)
		if err != nil {
			t.Fatal(err)
		}
		if diff := sameResult(got, want); diff != "" {
			t.Fatalf("edit %d (%q -> %q): incremental analysis differs from a fresh one: %s", i, e.old, e.new, diff)
		}
		prev = got
	}
}

// TestOccurrenceSegments types a name into one rule after another, from the end of a generated
// game to its start, so that every version refers to more runs of its predecessors' occurrences
// (occSeg), until a version copies them into one: every version's occurrences equal a fresh
// analysis's, and a model never holds more than maxOccSegs segments.
func TestOccurrenceSegments(t *testing.T) {
	src := gengame.Layered(40 << 10)
	f, _ := syntax.Parse(src)
	prev, _ := AnalyzeContext(context.Background(), f, nil, nil)
	var rules []int // where each rule's head name starts
	for form := range f.FormSeq() {
		if form.IsRule() {
			rules = append(rules, form.Span().Start+len("(<= ("))
		}
	}
	most, merged := 0, false
	for k := len(rules) - 1; k >= 0 && k > len(rules)-3*maxOccSegs; k -= 2 {
		f = f.Edit(rules[k], rules[k], "x")
		got, err := AnalyzeContext(context.Background(), f, nil, prev)
		if err != nil {
			t.Fatal(err)
		}
		if diff := sameResult(got, Analyze(f, nil)); diff != "" {
			t.Fatalf("after typing into rule %d: incremental analysis differs from a fresh one: %s", k, diff)
		}
		n := len(got.Model.occSegs)
		if n > maxOccSegs {
			t.Fatalf("after typing into rule %d: %d segments of occurrences, at most %d", k, n, maxOccSegs)
		}
		merged = merged || n == 1 && len(prev.Model.occSegs) > 1
		most, prev = max(most, n), got
	}
	if most < maxOccSegs-2 || !merged {
		t.Fatalf("at most %d segments, merged into one: %v; want about %d, merged", most, merged, maxOccSegs)
	}
	// Now from the start to the end: each version shares the clauses before its edit with the
	// one before, made by ever more versions, until a version shares none.
	f, _ = syntax.Parse(src)
	prev, _ = AnalyzeContext(context.Background(), f, nil, nil)
	renewed := false
	for k := 0; k < len(rules) && k < 4*maxClauseGens; k++ {
		f = f.Edit(rules[k]+k, rules[k]+k, "x") // the rules before k are one byte longer each
		got, err := AnalyzeContext(context.Background(), f, nil, prev)
		if err != nil {
			t.Fatal(err)
		}
		if diff := sameResult(got, Analyze(f, nil)); diff != "" {
			t.Fatalf("after typing into rule %d, from the start: incremental analysis differs from a fresh one: %s", k, diff)
		}
		if n := len(got.Model.gens); n > maxClauseGens {
			t.Fatalf("after typing into rule %d: the clauses of %d models, at most %d", k, n, maxClauseGens)
		}
		renewed = renewed || !got.Model.share
		prev = got
	}
	if !renewed {
		t.Fatalf("typing into %d rules one after another: every version shared clauses", 4*maxClauseGens)
	}
}

// byRelation returns what of(r) says of each relation of m's dependency graph (SCCOf, Stratum).
func byRelation(m *Model, of func(Rel) (int, bool)) map[Rel]int {
	out := map[Rel]int{}
	for _, r := range m.nodeNames {
		if v, ok := of(r); ok {
			out[r] = v
		}
	}
	return out
}

// TestPartFinderTable checks how the next version finds the parts of prev: an edit inside one
// form (which the parser answers by parsing it and the form before it anew) finds the rest by
// looking ahead, without the table of prev's identities, which is made of every form of the file;
// removing many forms finds the forms after them through that table.
func TestPartFinderTable(t *testing.T) {
	src := gengame.ManyRoles(64 << 10)
	f, _ := syntax.Parse(src)
	prev, _ := AnalyzeContext(context.Background(), f, nil, nil)
	at := gengame.Families[slices.IndexFunc(gengame.Families, func(fam gengame.Family) bool { return fam.Name == "many-roles" })].EditAt(src)
	g := f.Edit(at, at, "x")
	got, err := AnalyzeContext(context.Background(), g, nil, prev)
	if err != nil {
		t.Fatal(err)
	}
	if prev.Model.byForm != nil {
		t.Errorf("a character typed into a form made the table of the previous version's %d forms", len(prev.Model.parts))
	}
	if n := len(got.Model.Clauses); got.Model.reused < n-3 {
		t.Errorf("%d of %d clauses reused after a character typed", got.Model.reused, n)
	}
	// Remove 200 forms from the middle: the forms after them are found in the table.
	from := strings.Index(src[len(src)/3:], "(role ") + len(src)/3
	to := from
	for range 200 {
		to += strings.Index(src[to+1:], "(role ") + 1
	}
	h := g.Edit(from, to, "")
	again, err := AnalyzeContext(context.Background(), h, nil, got)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(again.Model.Clauses); again.Model.reused < n-indexMisses-3 {
		t.Errorf("%d of %d clauses reused after 600 forms removed", again.Model.reused, n)
	}
	if got.Model.byForm == nil {
		t.Errorf("600 forms removed: the forms after them were not looked up in the table")
	}
	if !reflect.DeepEqual(diagLines(Analyze(h, nil).Diagnostics), diagLines(again.Diagnostics)) {
		t.Errorf("after 600 forms removed: incremental diagnostics differ from a full analysis")
	}
}

// TestIncrementalRoles checks the role declarations a version takes over from the previous one
// (moved, not read again from the facts) against a fresh analysis, after edits before, among and
// inside the role facts.
func TestIncrementalRoles(t *testing.T) {
	src := gengame.ManyRoles(8 << 10)
	f, _ := syntax.Parse(src)
	prev, _ := AnalyzeContext(context.Background(), f, nil, nil)
	mid := strings.Index(src[len(src)/2:], "(role ") + len(src)/2
	edits := []struct {
		at, end int
		text    string
	}{
		{0, 0, "; a comment\n"},                // every role moves
		{mid, mid, "(role extra)\n"},           // a role added among them
		{mid + 6, mid + 7, "E"},                // that role renamed: "(role Extra)"
		{mid, mid + len("(role Extra)\n"), ""}, // and removed
		{mid + 1, mid + 1, "x"},                // a role fact made another relation's fact
		{mid + 1, mid + 2, ""},                 // and back
	}
	for i, e := range edits {
		f = f.Edit(e.at, e.end, e.text)
		got, err := AnalyzeContext(context.Background(), f, nil, prev)
		if err != nil {
			t.Fatal(err)
		}
		want := Analyze(f, nil)
		if !reflect.DeepEqual(got.Model.Roles, want.Model.Roles) {
			t.Fatalf("edit %d: roles differ from a fresh analysis:\n got %v\nwant %v", i, got.Model.Roles[:min(5, len(got.Model.Roles))], want.Model.Roles[:min(5, len(want.Model.Roles))])
		}
		if got.Model.reused == 0 {
			t.Fatalf("edit %d: nothing reused", i)
		}
		prev = got
	}
}
