package eval

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gdl-lsp/gdl/internal/cputime"
)

// evaluation is one evaluation of a game, as a caller makes it: random playouts from seed (the
// legal moves taken in byte order of their text, since derivation order may differ between
// sessions), and in each state a query, all written out as text to compare.
func evaluation(ctx context.Context, g *Program, q *Query, seed uint64, playouts int) (string, error) {
	rng := rand.New(rand.NewPCG(seed, 7))
	var b strings.Builder
	for range playouts {
		s, err := g.Initial(ctx)
		if err != nil {
			return "", err
		}
		for depth := 0; depth < 200; depth++ {
			as, err := g.Ask(ctx, s, nil, q)
			if err != nil {
				return "", err
			}
			answers := make([]string, len(as))
			for i, a := range as {
				answers[i] = q.Format(a)
			}
			slices.Sort(answers)
			fmt.Fprintf(&b, "%s\n", strings.Join(answers, " "))
			if end, err := g.Terminal(ctx, s); err != nil || end {
				goals, err := g.Goals(ctx, s)
				fmt.Fprintf(&b, "goals %v\n", goals)
				if err != nil {
					return "", err
				}
				break
			}
			legal, err := g.Legal(ctx, s)
			if err != nil {
				return "", err
			}
			joint := make([]Term, len(legal))
			for i, ms := range legal {
				slices.SortFunc(ms, func(a, b Term) int { return strings.Compare(g.String(a), g.String(b)) })
				joint[i] = ms[rng.IntN(len(ms))]
			}
			fmt.Fprintf(&b, "%s\n", g.FormatJoint(joint))
			if s, err = g.Next(ctx, s, joint); err != nil {
				return "", err
			}
		}
	}
	return b.String(), nil
}

// concurrentSetup loads connectfour twice: one Program evaluates each of the n evaluations alone
// (want), the other is the one the evaluations share.
func concurrentSetup(tb testing.TB, n, playouts int) (g *Program, q *Query, want []string) {
	src, err := os.ReadFile("../testdata/games/connectfour.kif")
	if err != nil {
		tb.Fatal(err)
	}
	const query = "(legal ?r ?m) (true (control ?r))"
	alone, _ := Load(string(src))
	qa, err := alone.ParseQuery(query)
	if err != nil {
		tb.Fatal(err)
	}
	want = make([]string, n)
	for i := range want {
		if want[i], err = evaluation(context.Background(), alone, qa, uint64(i), playouts); err != nil {
			tb.Fatal(err)
		}
	}
	g, _ = Load(string(src))
	if q, err = g.ParseQuery(query); err != nil {
		tb.Fatal(err)
	}
	return g, q, want
}

// runEvaluations runs the n evaluations on g, one after another or each on its own goroutine,
// and checks that each gives what it gives alone.
func runEvaluations(tb testing.TB, g *Program, q *Query, want []string, playouts int, concurrent bool) {
	n := len(want)
	got := make([]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		run := func() { got[i], errs[i] = evaluation(context.Background(), g, q, uint64(i), playouts) }
		if !concurrent {
			run()
			continue
		}
		wg.Go(run)
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil {
			tb.Fatalf("evaluation %d: %v", i, errs[i])
		}
		if got[i] != want[i] {
			tb.Errorf("evaluation %d (concurrent %v) gave\n%s\nalone it gives\n%s", i, concurrent, got[i], want[i])
		}
	}
}

// TestConcurrentEvaluations runs 8 evaluations of one game at once, each on its own goroutine,
// and checks that each gives what it gives alone (run it with -race). How much faster at once is
// BenchmarkConcurrentEvaluations.
func TestConcurrentEvaluations(t *testing.T) {
	playouts := 20
	if testing.Short() {
		playouts = 2
	}
	g, q, want := concurrentSetup(t, 8, playouts)
	runEvaluations(t, g, q, want, playouts, true)
	runEvaluations(t, g, q, want, playouts, false)
	runEvaluations(t, g, q, want, playouts, true)
}

// BenchmarkConcurrentEvaluations times the 8 evaluations of TestConcurrentEvaluations one after
// another and at once, side by side in each iteration, and reports the ratio of their wall
// times (wall-ratio) and of their CPU times (cpu-ratio), with the same wall ratio for a loop that
// shares nothing (spin-ratio: what the machine allows now). The figure in docs/performance.md.
func BenchmarkConcurrentEvaluations(b *testing.B) {
	const n, playouts = 8, 20
	g, q, want := concurrentSetup(b, n, playouts)
	runEvaluations(b, g, q, want, playouts, true) // the sessions of the 8 at once, made and warmed
	var seq, par, seqCPU, parCPU, spinSum time.Duration
	var spins float64
	for b.Loop() {
		t0, c0 := time.Now(), cputime.Now()
		runEvaluations(b, g, q, want, playouts, false)
		t1, c1 := time.Now(), cputime.Now()
		runEvaluations(b, g, q, want, playouts, true)
		t2, c2 := time.Now(), cputime.Now()
		seq, par = seq+t1.Sub(t0), par+t2.Sub(t1)
		seqCPU, parCPU = seqCPU+(c1-c0), parCPU+(c2-c1)
		spins += spinRatio(n, t1.Sub(t0)/n)
		spinSum++
	}
	b.ReportMetric(float64(seq)/float64(par), "wall-ratio")
	b.ReportMetric(float64(seqCPU)/float64(parCPU), "cpu-ratio")
	b.ReportMetric(spins/float64(spinSum), "spin-ratio")
	b.Logf("GOMAXPROCS %d: one after another %v wall, %v CPU; at once %v wall, %v CPU (totals)", runtime.GOMAXPROCS(0),
		seq.Round(time.Millisecond), seqCPU.Round(time.Millisecond), par.Round(time.Millisecond), parCPU.Round(time.Millisecond))
}

// spinRatio runs n loops of about d each one after another, then at once, and returns the ratio
// of the wall times. (Benchmark code: it calibrates the loop on the clock.)
func spinRatio(n int, d time.Duration) float64 {
	start := time.Now()
	iters := 0
	for time.Since(start) < d {
		spin(100_000)
		iters++
	}
	one := func() { spin(100_000 * iters) }
	start = time.Now()
	for range n {
		one()
	}
	seq := time.Since(start)
	start = time.Now()
	var wg sync.WaitGroup
	for range n {
		wg.Go(one)
	}
	wg.Wait()
	return float64(seq) / float64(time.Since(start))
}

var spinSink atomic.Uint64 // keeps the loop's result, so that it is computed

func spin(k int) {
	x := uint64(1)
	for range k {
		x = x*6364136223846793005 + 1442695040888963407
	}
	spinSink.Add(x)
}

// TestStaticFactsShared: the static facts one session computed whole are taken by the next
// session the Program compiles, which evaluates none of them again.
func TestStaticFactsShared(t *testing.T) {
	g, _ := Load(`(role r) (init (p 0)) (succ 0 1) (succ 1 2) (succ 2 3)
		(<= (less ?x ?y) (succ ?x ?y)) (<= (less ?x ?z) (succ ?x ?y) (less ?y ?z))
		(<= (legal r (go ?y)) (true (p ?x)) (less ?x ?y)) (<= (next (p ?y)) (does r (go ?y)))
		(<= terminal (true (p 3))) (goal r 100)`)
	ctx := context.Background()
	s, err := g.Initial(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want, err := g.Legal(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	first := g.take()
	second := g.take() // a new session: the first is taken
	defer g.put(first)
	defer g.put(second)
	second.lim = DefaultLimits
	second.begin(ctx)
	second.useState(s)
	if err := second.ensureTop(second.legalRel); err != nil {
		t.Fatal(err)
	}
	if got := second.byRole(second.legalRel); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("the second session's legal moves: %v, want %v", got, want)
	}
	less := second.relByFn[second.st.functor(second.st.sym("less"), 2)]
	if c := second.comps[less.scc]; c.evals != 0 || len(less.facts) != 6 {
		t.Errorf("the second session evaluated less/2 %d times, %d facts; want none and the 6 published", c.evals, len(less.facts))
	}
}
