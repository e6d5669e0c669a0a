package game

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/internal/corpus"
	"github.com/gdl-lsp/gdl/syntax"
)

// staticSetsHold walks a game at random and checks the analyzer's static over-approximation
// (analysis.Model.CanStand, on which the undefined-fluent, undefined-move and role-without-*
// checks rest) against what the game really does: every fluent of every state reached must be
// one that init or next may produce, every legal move one that legal may give, for a role legal
// may give it to. It returns the number of states checked, or -1 when the game does not load.
func staticSetsHold(t *testing.T, name, src string, walks, steps int) int {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	g, res, err := Load(ctx, src, Options{Engine: Auto, Limits: eval.Limits{Timeout: 10 * time.Second, MaxFacts: 2_000_000}})
	if err != nil {
		return -1
	}
	m := res.Model
	d := m.Notation()
	term := func(text string) syntax.Term {
		f, errs := syntax.ParseDialect(d.Atom("true", text), d)
		if len(errs) > 0 || len(f.Forms()) != 1 {
			t.Fatalf("%s: %s does not parse back: %v", name, text, errs)
		}
		return f.Forms()[0].Fact().Args()[0]
	}
	rng := rand.New(rand.NewPCG(1, 2))
	states := 0
	for range walks {
		s, err := g.Initial(ctx)
		if err != nil {
			return states
		}
		for step := 0; step <= steps; step++ {
			states++
			for _, f := range s.Fluents() {
				if text := g.String(f); !m.CanStand(analysis.KeywordRel("true"), 0, term(text)) {
					t.Errorf("%s: step %d: the fluent %s holds, but the analyzer says init and next never produce it", name, step, text)
				}
			}
			if term, err := g.Terminal(ctx, s); err != nil || term {
				break
			}
			legal, err := g.Legal(ctx, s)
			if err != nil {
				return states
			}
			joint := make([]eval.Term, len(legal))
			for r, moves := range legal {
				role := g.RoleNames()[r]
				for _, mv := range moves {
					text := g.String(mv)
					if !m.CanStand(analysis.KeywordRel("does"), 1, term(text)) {
						t.Errorf("%s: step %d: %s is legal, but the analyzer says no legal rule allows it", name, step, text)
					}
					if !m.CanStand(analysis.KeywordRel("does"), 0, term(role)) {
						t.Errorf("%s: step %d: %s has the legal move %s, but the analyzer says no legal rule is for it", name, step, role, text)
					}
				}
				if len(moves) == 0 {
					return states
				}
				joint[r] = moves[rng.IntN(len(moves))]
			}
			if s, err = g.Next(ctx, s, joint); err != nil {
				return states
			}
		}
	}
	return states
}

// TestStaticSetsHoldTestdata checks the static sets on the games written for this project.
func TestStaticSetsHoldTestdata(t *testing.T) {
	files, _ := filepath.Glob("../testdata/games/*.kif")
	hrf, _ := filepath.Glob("../testdata/games/*.hrf")
	files = append(files, hrf...)
	if len(files) == 0 {
		t.Fatal("no testdata/games")
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if n := staticSetsHold(t, filepath.Base(f), string(src), 5, 100); n <= 0 {
			t.Errorf("%s: no state checked", filepath.Base(f))
		}
	}
}

// TestStaticSetsHoldCorpus checks the static sets on random walks through every corpus game
// that loads (with -short, a fixed sample of one in ten).
func TestStaticSetsHoldCorpus(t *testing.T) {
	games := corpus.Games(t)
	if testing.Short() {
		games = corpus.Sample(games, 10, "ticTacToe/", "montyhall")
	}
	checked, states := 0, 0
	for _, e := range games {
		src, err := os.ReadFile(e.Abs())
		if err != nil {
			t.Fatal(err)
		}
		if n := staticSetsHold(t, e.Path, string(src), 1, 60); n > 0 {
			checked++
			states += n
		}
	}
	t.Logf("static sets checked on %d of %d corpus games (%d states)", checked, len(games), states)
}
