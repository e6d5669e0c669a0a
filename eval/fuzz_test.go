package eval

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gdl-lsp/gdl/internal/gengame"
)

// FuzzEval loads arbitrary text as a game and plays it under tight limits: whatever the text,
// evaluation ends with a result or an error, never a panic or a hang.
func FuzzEval(f *testing.F) {
	files, _ := filepath.Glob("../testdata/games/*.kif")
	for _, p := range files {
		if src, err := os.ReadFile(p); err == nil {
			f.Add(string(src))
		}
	}
	f.Add("(role r) (p 0) (<= (p (s ?x)) (p ?x)) (<= (legal r (go ?x)) (p ?x)) (init (p 0))")
	f.Add("(role r) (<= (q ?x) (not (q ?x))) (<= (legal r a) (or (q 1) (not (distinct 1 1))))")
	f.Add("(role a) (role b) (init x) (<= (next y) (does a ?m) (does b ?m)) (legal a 1) (legal b 1)")
	f.Add("(role r) (init x) (<= (legal r a) and) (<= (legal r b) (and (true x) (and)) (not and)) (<= and (true x))")
	// The nesting shapes of issue 22 (prefix ones: Load reads prefix GDL).
	for _, shape := range gengame.NestingShapes {
		if !strings.HasPrefix(shape, "infix-") {
			f.Add(gengame.Nested(shape, 2000))
		}
	}
	f.Fuzz(func(t *testing.T, src string) {
		g, _ := Load(src)
		g.SetLimits(Limits{Timeout: 200 * time.Millisecond, MaxFacts: 20000, MaxDepth: 30})
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		rng := rand.New(rand.NewPCG(3, 4))
		_, err := g.Playout(ctx, rng, 20)
		var ref *RefusedError
		var lim *LimitError
		if err != nil && !errors.As(err, &ref) && !errors.As(err, &lim) {
			t.Fatalf("unexpected error kind: %v", err)
		}
		for _, q := range []string{"(legal ?r ?m)", "(next ?f)", "terminal", "(goal ?r ?v)"} {
			if qq, err := g.ParseQuery(q); err == nil {
				s, err := g.Initial(ctx)
				if err != nil {
					s = g.NewState(nil)
				}
				g.Ask(ctx, s, nil, qq)
			}
		}
	})
}
