package eval

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/internal/cputime"
)

// BenchmarkChessStep measures one random step of chess (legal, terminal, next) from the
// initial state: the game whose whole-relation evaluation needs seconds per state.
func BenchmarkChessStep(b *testing.B) {
	g := corpusGame(b, "ggp-org__ggp-repository/war/root/games/chess/chess.kif")
	ctx := context.Background()
	s0, err := g.Initial(ctx)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s := s0
		for d := 0; d < 4; d++ {
			legal, err := g.Legal(ctx, s)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := g.Terminal(ctx, s); err != nil {
				b.Fatal(err)
			}
			joint := make([]Term, len(legal))
			for r, ms := range legal {
				joint[r] = ms[rng.IntN(len(ms))]
			}
			if s, err = g.Next(ctx, s, joint); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkChessPlayout measures random playouts of chess capped at 20 joint moves, the figure
// docs/performance.md compares with SWI-Prolog running the same capped playouts.
func BenchmarkChessPlayout(b *testing.B) {
	g := corpusGame(b, "ggp-org__ggp-repository/war/root/games/chess/chess.kif")
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, 2))
	if _, err := g.Playout(ctx, rng, 20); err != nil {
		b.Fatal(err)
	}
	cpu0 := cputime.Now()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := g.Playout(ctx, rng, 20)
		if err != nil {
			b.Fatal(err)
		}
		for _, v := range res.Violations {
			if v.Kind != ViolationDepth {
				b.Fatalf("violation: %+v", v)
			}
		}
	}
	if cpu := cputime.Now() - cpu0; cpu > 0 {
		b.ReportMetric(float64(b.N)/cpu.Seconds(), "playouts/cpu-s")
	}
}

// BenchmarkChessLenses asks what the language server's code lenses of chess.kif ask, from a
// cold game: every relation defined in the file with all its arguments free, in the initial
// state (a relation about a joint move after each legal joint move), under the lenses' time
// limit of 1 s per evaluation. "first" asks for the 1,001 first answers (AskFirst: the 1,000 the
// server keeps, and whether there are more), "all" for every answer (Ask). It reports the total
// time, the evaluations stopped by the limit, and the heap in use after.
func BenchmarkChessLenses(b *testing.B) {
	src, err := os.ReadFile(filepath.Join(corpusDir, "ggp-org__ggp-repository/war/root/games/chess/chess.kif"))
	if err != nil {
		b.Skipf("SKIPPED: the shared corpus (%s) is not there: %v", corpusDir, err)
	}
	for _, mode := range []string{"first", "all"} {
		b.Run(mode, func(b *testing.B) {
			stopped := 0
			var g *Program
			for i := 0; i < b.N; i++ {
				stopped = 0
				var res *analysis.Result
				g, res = Load(string(src))
				g.SetLimits(Limits{Timeout: time.Second})
				ctx := context.Background()
				s, err := g.Initial(ctx)
				if err != nil {
					b.Fatal(err)
				}
				seen := map[string]bool{}
				for _, c := range res.Model.Clauses {
					key := c.Key()
					if seen[key] || key == "true" || key == "does" {
						continue
					}
					seen[key] = true
					text := c.Head.Name().Name()
					if n := c.Head.Arity(); n > 0 {
						vars := make([]string, n)
						for j := range vars {
							vars[j] = fmt.Sprintf("?a%d", j+1)
						}
						text = "(" + text + " " + strings.Join(vars, " ") + ")"
					}
					q, err := g.ParseQuery(text)
					if err != nil {
						b.Fatal(err)
					}
					joints := [][]Term{nil}
					if q.NeedsMove() {
						legal, err := g.Legal(ctx, s)
						if err != nil {
							b.Fatal(err)
						}
						joints = nil
						for _, m := range legal[0] {
							for _, n := range legal[1] {
								if len(joints) < 64 {
									joints = append(joints, []Term{m, n})
								}
							}
						}
					}
					for _, j := range joints {
						if mode == "first" {
							_, _, err = g.AskFirst(ctx, s, j, q, 1001)
						} else {
							_, err = g.Ask(ctx, s, j, q)
						}
						var lim *LimitError
						if errors.As(err, &lim) {
							stopped++
						} else if err != nil {
							b.Fatal(err)
						}
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/all-lenses")
			b.ReportMetric(float64(stopped), "stopped")
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "heap-MB")
			runtime.KeepAlive(g)
		})
	}
}
