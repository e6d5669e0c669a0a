package game

import (
	"context"
	"os"
	"testing"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/internal/corpus"
	"github.com/gdl-lsp/gdl/syntax"
)

// Auto gives up no game that builds in its time (eval.GroundEstimate.FarOver): every corpus
// game the estimate finds far over the limits (a sample under -short, with chess and ITALY) is
// built with the compiled engine under the default limits (5 s), and fails when it builds,
// unless a game alike to it (eval.GroundEstimate.Alike) did not in this run:
// the estimate cannot tell them apart (ITALY builds in 0.9 s of CPU, GERMANY, alike, in 4.4 s).
// When a game given up gets faster, this fails until eval's groundTimes is measured again.
func TestFarOverGames(t *testing.T) {
	lim := eval.GroundLimits{Timeout: eval.DefaultGroundLimits.Timeout}
	type far struct {
		path  string
		est   *eval.GroundEstimate
		built bool
	}
	var fars []far
	for _, e := range corpus.ShortSample(t, corpus.Games(t), 20, "chess/chess.kif", "ITALY") {
		data, err := os.ReadFile(e.Abs())
		if err != nil {
			t.Fatal(err)
		}
		f, _ := syntax.ParseDialect(string(data), syntax.DetectContent(string(data)))
		res := analysis.Analyze(f, nil)
		est, err := eval.Compile(res).EstimateGround(context.Background(), lim)
		if err != nil || !est.FarOver(lim) {
			continue
		}
		_, err = New(context.Background(), res, Options{Engine: Compiled, Ground: lim})
		fars = append(fars, far{e.Path, est, err == nil})
	}
	for _, f := range fars {
		if !f.built {
			continue
		}
		excuse := ""
		for _, o := range fars {
			if !o.built && o.est.Alike(f.est, lim) {
				excuse = o.path
				break
			}
		}
		if excuse == "" {
			t.Errorf("%s: far over the limits (%s) but builds in %v", f.path, f.est, lim.Timeout)
		} else {
			t.Logf("%s builds in %v, given up with %s, alike to it, which does not", f.path, lim.Timeout, excuse)
		}
	}
	t.Logf("%d games far over the limits", len(fars))
}
