package eval

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gdl-lsp/gdl/internal/corpus"
)

// TestCorpusPlayouts plays every game of the corpus for a few random playouts under tight
// limits. Nothing may panic or hang; the only errors allowed are a refusal (a game whose rules
// have no defined meaning) and the end of the game's time (a game too slow for it); a limit
// of one evaluation (a game too big for the limits) must come back as a violation; every playout
// must reach a terminal state or a reported violation.
func TestCorpusPlayouts(t *testing.T) {
	games := corpus.Paths(corpus.ShortSample(t, corpus.Games(t), 8, "ticTacToe/", "montyhall"))
	var refused, limited, played int
	for _, path := range games {
		src, err := os.ReadFile(filepath.Join(corpusDir, path))
		if err != nil {
			t.Fatal(err)
		}
		g, _ := Load(string(src))
		g.SetLimits(Limits{Timeout: time.Second, MaxFacts: 1_000_000})
		ctx, cancel := context.WithTimeout(context.Background(), 4*time.Second)
		rng := rand.New(rand.NewPCG(1, 1))
		for i := 0; i < 2; i++ {
			res, err := g.Playout(ctx, rng, 300)
			var ref *RefusedError
			var lim *LimitError
			switch {
			case errors.As(err, &ref):
				refused++
				t.Logf("%s: refused: %v", path, err)
			case errors.As(err, &lim) && lim.Limit == LimitCanceled:
				limited++
				t.Logf("%s: %v", path, err)
			case err != nil:
				t.Errorf("%s: %v", path, err)
			case !res.Terminal && len(res.Violations) == 0:
				t.Errorf("%s: a playout ended without a terminal state or a violation", path)
			case len(res.Violations) > 0 && res.Violations[len(res.Violations)-1].Kind == ViolationEval:
				v := res.Violations[len(res.Violations)-1]
				if !errors.As(v.Err, &lim) || lim.Limit == LimitCanceled {
					t.Errorf("%s: an evaluation error that is not a limit: %v", path, v.Err)
				}
				limited++
				t.Logf("%s: after %d joint moves: %s", path, len(v.Moves), v.Detail)
			default:
				played++
				continue
			}
			break
		}
		cancel()
	}
	t.Logf("%d games: %d playouts, %d refused, %d stopped by a limit", len(games), played, refused, limited)
}
