package eval_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/internal/corpus"
	"github.com/gdl-lsp/gdl/internal/cputime"
	"github.com/gdl-lsp/gdl/propnet"
	"github.com/gdl-lsp/gdl/syntax"
)

// TestMeasureGroundTimes measures FarOver's table again (groundTimes, eval/ground_times.go):
// for each game, the CPU time of Ground and of propnet.New, one game after the other with a
// garbage collection between, each with 40 s, and prints the rows to paste into the table
// (take the lower of two runs, each run alone on the machine, and state the load). It runs only
// when asked for, under a memory limit (chess builds in about 500 MB):
//
//	ulimit -v 8000000; GDL_GROUND_TIMES=1 go test ./eval -run TestMeasureGroundTimes -v
func TestMeasureGroundTimes(t *testing.T) {
	if os.Getenv("GDL_GROUND_TIMES") == "" {
		t.Skip("measures for minutes: GDL_GROUND_TIMES=1 to run it")
	}
	for _, path := range eval.GroundTimesForTest() {
		data, err := os.ReadFile(filepath.Join(corpus.Dir(), path))
		if err != nil {
			t.Fatal(err)
		}
		f, _ := syntax.ParseDialect(string(data), syntax.DetectContent(string(data)))
		res := analysis.Analyze(f, nil)
		est, err := eval.Compile(res).EstimateGround(context.Background(), eval.GroundLimits{})
		if err != nil {
			t.Fatal(err)
		}
		p := eval.Compile(res)
		runtime.GC()
		start := cputime.Now()
		gr, err := p.Ground(context.Background(), eval.GroundLimits{Timeout: 40 * time.Second})
		ground := cputime.Now() - start
		row := fmt.Sprintf("{%.4g, neverBuilds, neverBuilds, %q}, // %v: %v", eval.RatioForTest(est), path, ground.Round(10*time.Millisecond), err)
		if err == nil {
			_, err = propnet.New(context.Background(), p, gr, propnet.Limits{})
			build := cputime.Now() - start
			row = fmt.Sprintf("{%.4g, %d * time.Millisecond, %d * time.Millisecond, %q}, // %d ground rules, %v", eval.RatioForTest(est),
				ground.Milliseconds()/10*10, build.Milliseconds()/10*10, path, len(gr.Rules), err)
		}
		t.Log(row)
	}
}
