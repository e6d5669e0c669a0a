package eval

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/internal/corpus"
	"github.com/gdl-lsp/gdl/syntax"
)

func compileText(t *testing.T, src string) *Program {
	t.Helper()
	f, _ := syntax.ParseDialect(src, syntax.DetectContent(src))
	return Compile(analysis.Analyze(f, nil))
}

// moveProduct is a game whose one role has n⁴ moves, (m A B C D) for A..D among n numbers: a
// relaxed program of about 2n⁴ atoms (legal and does), n⁴ ground rules.
func moveProduct(n int) string {
	var b strings.Builder
	b.WriteString("(role p) (init on) (<= (legal p (m ?a ?b ?c ?d)) (true on) (num ?a) (num ?b) (num ?c) (num ?d))\n")
	b.WriteString("(<= (next on) (does p (m ?a ?a ?a ?a))) (<= terminal (not (true on))) (goal p 0)\n")
	for i := range n {
		fmt.Fprintf(&b, "(num %d)\n", i)
	}
	return b.String()
}

// The estimate bounds the grounding: on the team's games and a sample of the corpus (each
// game that grounds within 10 s, 5 s under -short), a grounding never has more ground rules
// than the bounds. That FarOver gives up no game that builds is game's TestFarOverGames.
func TestEstimateBoundsGrounding(t *testing.T) {
	type game struct{ name, src string }
	var games []game
	paths, _ := filepath.Glob("../testdata/games/*.kif")
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		games = append(games, game{filepath.Base(p), string(data)})
	}
	for _, e := range corpus.ShortSample(t, corpus.Games(t), 20, "chess/chess.kif", "pancakes88/pancakes88.kif", "mummymaze1p/mummymaze1p.kif", "ticTacToe/") {
		data, err := os.ReadFile(e.Abs())
		if err != nil {
			t.Fatal(err)
		}
		games = append(games, game{e.Path, string(data)})
	}
	games = append(games, game{"moveProduct(8)", moveProduct(8)})
	for _, gm := range games {
		est, err := compileText(t, gm.src).EstimateGround(context.Background(), GroundLimits{})
		if err != nil {
			continue // refused: no defined meaning
		}
		lim := GroundLimits{Timeout: 10 * time.Second}
		if testing.Short() {
			lim.Timeout = DefaultGroundLimits.Timeout
		}
		gr, err := compileText(t, gm.src).Ground(context.Background(), lim)
		if err == nil && float64(len(gr.Rules)) > max(est.Plain.Rules, est.Restricted.Rules) {
			t.Errorf("%s: %d ground rules, estimated %s", gm.name, len(gr.Rules), est)
		}
	}
}

// FarOver scales with the time granted: a game of 20⁴ moves, 160 times over limits of 1,000
// atoms and ground rules, is tried in the default 5 s (merrills, 305 times over, builds in 1.4
// s) but not in 1 s; one of 60⁴ moves, 12,960 times over, is tried in neither, nor in 30 s (in
// proportion to merrills, 59 s), but is in 10 minutes; one of 6⁴ is near the limits (1.3
// times): tried in 1 s, not in 0.1 s (no measured game further over built in less than 0.2 s).
func TestFarOver(t *testing.T) {
	for _, c := range []struct {
		n       int
		timeout time.Duration
		far     bool
	}{
		{20, 0, false}, {20, 10 * time.Second, false}, {20, time.Second, true},
		{60, 0, true}, {60, 10 * time.Second, true}, {60, 30 * time.Second, true}, {60, 10 * time.Minute, false},
		{6, 0, false}, {6, time.Second, false}, {6, 100 * time.Millisecond, true}, {3, 0, false},
	} {
		lim := GroundLimits{MaxFacts: 1000, MaxRules: 1000, Timeout: c.timeout}
		est, err := compileText(t, moveProduct(c.n)).EstimateGround(context.Background(), lim)
		if err != nil {
			t.Fatal(err)
		}
		if moves := math.Pow(float64(c.n), 4); est.Plain.Facts < 2*moves || est.Plain.Rules < moves {
			t.Errorf("n = %d: %s, below the %v moves", c.n, est, moves)
		}
		if got := est.FarOver(lim); got != c.far {
			t.Errorf("n = %d, %v: FarOver %v, want %v (%s)", c.n, c.timeout, got, c.far, est)
		}
		est.Timed = true
		if est.FarOver(lim) {
			t.Errorf("n = %d: FarOver with a probe stopped on time", c.n)
		}
	}
}

// The model of FarOver on its own table: rows in increasing ratio; a game alike to measured
// ones takes as long as the slowest of them; another at least as long as the fastest measured
// game as far over or further; past the last game that builds, in proportion. At the default
// 5 s it gives up exactly the measured games that do not build in 5 s, and those alike to one.
func TestBuildTimeModel(t *testing.T) {
	for i, m := range groundTimes {
		if i > 0 && m.ratio < groundTimes[i-1].ratio {
			t.Errorf("%s: ratio %.4g after %.4g: not in increasing ratio", m.path, m.ratio, groundTimes[i-1].ratio)
		}
		if m.build < m.ground/2 {
			t.Errorf("%s: builds in %v, grounds in %v of CPU", m.path, m.build, m.ground)
		}
		got := buildTime(m.ratio)
		if got < m.build {
			t.Errorf("%s (%.4g times the limits, %v): modelled %v", m.path, m.ratio, m.build, got)
		}
		slow, _ := slowestAlike(m.ratio)
		if far, want := got > DefaultGroundLimits.Timeout, slow.build > DefaultGroundLimits.Timeout; far != want {
			t.Errorf("%s (%v, alike to %s, %v): modelled %v", m.path, m.build, slow.path, slow.build, got)
		} else if far && m.build <= DefaultGroundLimits.Timeout {
			t.Logf("%s builds in %v but is given up: alike to %s (%v)", m.path, m.build, slow.path, slow.build)
		}
	}
	italy, chess := buildTime(87.06), buildTime(87.32)
	if italy != chess || chess != 4460*time.Millisecond { // PORTUGAL, the slowest of them
		t.Errorf("the chess family: %v and %v, want PORTUGAL's 4.46 s", italy, chess)
	}
	if got := buildTime(50); got != 910*time.Millisecond { // ITALY is the fastest further over
		t.Errorf("50 times over: %v", got)
	}
	if got := buildTime(1937); got != neverBuilds { // sudoku
		t.Errorf("sudoku: %v", got)
	}
	var merrills groundTime // the last that builds
	for _, m := range groundTimes {
		if m.build != neverBuilds {
			merrills = m
		}
	}
	if got, want := buildTime(2*merrills.ratio), 2*merrills.build; got != want {
		t.Errorf("twice merrills' ratio: %v, want %v", got, want)
	}
}

// The table's ratios are the bounds EstimateGround gives its games now: a change of the
// estimate that moves a game's bound (by more than a tenth of alikeRatio's margin) makes the
// table stale, and this test says which rows to measure again.
func TestGroundTimesAreCurrent(t *testing.T) {
	if _, err := os.Stat(corpus.Dir()); err != nil {
		corpus.Skipf(t, "skipped: no corpus at %s", corpus.Dir())
	}
	for _, m := range groundTimes {
		data, err := os.ReadFile(filepath.Join(corpus.Dir(), m.path))
		if err != nil {
			t.Errorf("%s: %v", m.path, err)
			continue
		}
		est, err := compileText(t, string(data)).EstimateGround(context.Background(), GroundLimits{})
		if err != nil {
			t.Errorf("%s: %v", m.path, err)
			continue
		}
		got := est.Plain.ratio(DefaultGroundLimits)
		if est.Timed {
			t.Logf("%s: the probe stopped on its time (a heavy load): bound %.4g", m.path, got)
		} else if math.Abs(got/m.ratio-1) > (alikeRatio-1)/10 {
			t.Errorf("%s: bound as written %.4g times the limits, the table says %.4g: measure it again", m.path, got, m.ratio)
		}
	}
}

// The fact of a term-depth error is the start of the term, written in the game's notation,
// also when the term written out whole would be exponentially long (issue 21's hostile game:
// ten copies of the term per level, hash-consed).
func TestDepthErrorFactIsBounded(t *testing.T) {
	for _, c := range []struct{ src, query, want string }{
		{"(p a) (<= (p (f ?x ?x ?x ?x ?x ?x ?x ?x ?x ?x)) (p ?x))", "(p ?x)", "(f (f (f (f"},
		{"p(a). p(f(X, X, X, X, X, X, X, X, X, X)) :- p(X).", "p(X)", "f(f(f(f("},
		{"(q (g a b))", "(q ?x)", ""},
	} {
		g := compileText(t, c.src)
		g.SetLimits(Limits{MaxDepth: 40, Timeout: 30 * time.Second})
		q, err := g.ParseQuery(c.query)
		if err != nil {
			t.Fatal(err)
		}
		_, err = g.Ask(context.Background(), g.empty, nil, q)
		var le *LimitError
		if c.want == "" {
			if err != nil {
				t.Errorf("%s: %v", c.src, err)
			}
			continue
		}
		if !errors.As(err, &le) || le.Limit != LimitDepth || !strings.Contains(le.Fact, c.want) || len(le.Fact) > 123 || !strings.HasSuffix(le.Fact, "...") {
			t.Errorf("%s: %v (fact %q)", c.src, err, le.Fact)
		}
	}
	g := compileText(t, "(q (g a b)) (r \"x y\"(h c))")
	for _, text := range []string{"(g a b)", "c"} {
		if term, err := g.ParseTerm(text); err != nil || g.strStart(term, 120) != g.str(term) {
			t.Errorf("%s: %v %q %q", text, err, g.strStart(term, 120), g.str(term))
		}
	}
}

// A program of more clauses than the estimate looks at is not estimated (its two compilations
// of the relaxed program cost what the grounding's budget bounds anyway), and FarOver says no.
func TestEstimateSkipsLargePrograms(t *testing.T) {
	src := moveProduct(40) // far over the limits, 40⁴ moves
	var b strings.Builder
	b.WriteString(src)
	for i := range estimateMaxClauses {
		fmt.Fprintf(&b, "(filler %d)\n", i)
	}
	est, err := compileText(t, b.String()).EstimateGround(context.Background(), GroundLimits{})
	if err != nil {
		t.Fatal(err)
	}
	if !est.Skipped || est.FarOver(GroundLimits{}) || !strings.Contains(est.String(), "not estimated") {
		t.Fatalf("a program of %d clauses: %+v", estimateMaxClauses+10, est)
	}
	small, err := compileText(t, src).EstimateGround(context.Background(), GroundLimits{})
	if err != nil {
		t.Fatal(err)
	}
	if small.Skipped {
		t.Fatal("the same game without its filler facts was not estimated")
	}
}

// diagonals is a game of queens on an n×n board whose attacks along a diagonal share a sum
// (sum ?r ?c ?s): the rule of attacked has the shape of exclusion counting, C = (?r, ?c) in
// (sum ?r ?c ?s) alone, but each square has one witness, so counting does not pay and the
// rule as written is grounded, one ground rule per queen and square of its diagonal.
func diagonals(n int) string {
	var b strings.Builder
	b.WriteString("(role p) (init (placing 0))\n")
	b.WriteString("(<= (legal p (place ?r ?c)) (num ?r) (num ?c) (not (attacked ?r ?c)))\n")
	b.WriteString("(<= (next (q ?r ?c)) (does p (place ?r ?c))) (<= (next (q ?r ?c)) (true (q ?r ?c)))\n")
	b.WriteString("(<= (attacked ?r ?c) (true (q ?r2 ?c2)) (sum ?r2 ?c2 ?s) (sum ?r ?c ?s))\n")
	b.WriteString("(<= terminal (true (q ?r ?c))) (goal p 100)\n")
	for i := range n {
		fmt.Fprintf(&b, "(num %d)\n", i)
		for j := range n {
			fmt.Fprintf(&b, "(sum %d %d s%d)\n", i, j, i+j)
		}
	}
	return b.String()
}

// The ground rules of a rule marked for exclusion counting are bounded whether counting pays
// or not: before, the bound counted the marked rule's solutions, one per square, not those of
// the rule as written grounded in its place, one per queen and square of its diagonal (601
// ground rules against a bound of 441 for n = 8).
func TestEstimateBoundsExclusionCounting(t *testing.T) {
	for _, n := range []int{4, 8, 16} {
		src := diagonals(n)
		p := compileText(t, src)
		marked := false
		g := p.take()
		rg := g.relaxed(nil)
		p.put(g)
		for _, r := range rg.rels {
			for _, ru := range r.rules {
				marked = marked || ru.excl != nil
			}
		}
		if !marked {
			t.Fatalf("n = %d: no rule marked for exclusion counting", n)
		}
		est, err := p.EstimateGround(context.Background(), GroundLimits{})
		if err != nil {
			t.Fatal(err)
		}
		gr, err := compileText(t, src).Ground(context.Background(), GroundLimits{})
		if err != nil {
			t.Fatal(err)
		}
		if got := float64(len(gr.Rules)); got > est.Plain.Rules || got > est.Restricted.Rules {
			t.Errorf("n = %d: %d ground rules, estimated %s", n, len(gr.Rules), est)
		}
	}
}
