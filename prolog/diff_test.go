package prolog_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/prolog"
	"github.com/gdl-lsp/gdl/syntax"
)

// step is one state of a random walk as SWI-Prolog printed it.
type step struct {
	state    []string
	legal    [][]string // per role
	terminal bool
	goals    [][]string // per role, terminal states only
	does     []string   // the joint move taken from this state, if any
}

// kifItems splits a line of KIF terms into the terms' texts.
func kifItems(s string) []string {
	f, _ := syntax.Parse(s)
	var out []string
	for _, fm := range f.Forms() {
		out = append(out, fm.Text())
	}
	return out
}

func parseWalk(out string) ([]step, error) {
	var steps []step
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		tag, rest, _ := strings.Cut(line, " ")
		switch tag {
		case "state":
			steps = append(steps, step{state: kifItems(rest)})
		case "legal", "goal", "terminal", "does":
			if len(steps) == 0 {
				return nil, fmt.Errorf("%q before any state", line)
			}
			s := &steps[len(steps)-1]
			items := kifItems(rest)
			switch tag {
			case "legal":
				s.legal = append(s.legal, items[1:])
			case "goal":
				s.goals = append(s.goals, items[1:])
			case "terminal":
				s.terminal = rest == "true"
			case "does":
				s.does = items
			}
		case "end":
		default:
			return nil, fmt.Errorf("unexpected line %q", line)
		}
	}
	return steps, nil
}

// canon folds case (Prolog prints case-folded names, we print the author's spelling) and sorts.
func canon(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = strings.ToLower(x)
	}
	slices.Sort(out)
	return out
}

func canonTerms(g *eval.Game, ts []eval.Term) []string { return canon(g.Strings(ts)) }

// TestDifferentialAgainstSWIProlog plays a random walk through every corpus game in SWI-Prolog
// (running our Prolog translation) and replays the same joint moves with the evaluator,
// comparing the state, every role's legal moves, terminal and the goals at every step.
func TestDifferentialAgainstSWIProlog(t *testing.T) {
	swipl := needSWI(t)
	games := corpusGames(t)
	if testing.Short() {
		games = games[:30]
	}
	var mu sync.Mutex
	compared, steps := 0, 0
	skipped := map[string][]string{}
	skip := func(why, g string) {
		mu.Lock()
		defer mu.Unlock()
		skipped[why] = append(skipped[why], g)
	}
	t.Run("games", func(t *testing.T) {
		for i, g := range games {
			seed := 1 + i%3
			t.Run(g, func(t *testing.T) {
				t.Parallel()
				data, err := os.ReadFile(filepath.Join(corpus, g))
				if err != nil {
					t.Fatal(err)
				}
				game, res := eval.Load(string(data))
				prog, blocking := prolog.Convert(res)
				if blocking != nil {
					skip("refused, no defined meaning ("+blocking[0].Code+")", g)
					return
				}
				out, err := runSWI(t, swipl, prog, prolog.WalkDriver, fmt.Sprintf("walk(%d, 30)", seed), 20*time.Second)
				if err != nil {
					skip("SWI-Prolog did not finish a 30-step walk in 20 s", g)
					return
				}
				walk, err := parseWalk(out)
				if err != nil {
					t.Fatalf("%s: %v", g, err)
				}
				n, err := replay(game, walk)
				mu.Lock()
				steps += n
				if err == nil {
					compared++
				}
				mu.Unlock()
				var refused *eval.RefusedError
				var limit *eval.LimitError
				switch {
				case err == nil:
				case errors.As(err, &refused):
					// Prolog runs rules GDL gives no meaning; the evaluator refuses them.
					skip("refused by the evaluator, no defined meaning", g)
				case errors.As(err, &limit) && !errors.Is(err, context.DeadlineExceeded):
					// Bottom-up evaluation derives the whole model, which a top-down
					// prover never asks for; some invalid games make it infinite.
					skip("stopped by an evaluation limit ("+limit.Limit+")", g)
				case errors.Is(err, context.DeadlineExceeded):
					skip("evaluator slower than 60 s for the walk", g)
				default:
					t.Errorf("seed %d: %v", seed, err)
				}
			})
		}
	})
	t.Logf("compared %d of %d corpus games with SWI-Prolog (%d steps)", compared, len(games), steps)
	for why, gs := range skipped {
		sort.Strings(gs)
		t.Logf("skipped %d: %s: %s", len(gs), why, strings.Join(gs, ", "))
	}
}

func replay(g *eval.Game, walk []step) (int, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	s, err := g.Initial(ctx)
	if err != nil {
		return 0, fmt.Errorf("initial state: %w", err)
	}
	for i, want := range walk {
		if got := canonTerms(g, s.Fluents()); !slices.Equal(got, canon(want.state)) {
			return i, fmt.Errorf("step %d: state differs\n got: %v\nwant: %v", i, got, canon(want.state))
		}
		legal, err := g.Legal(ctx, s)
		if err != nil {
			return i, fmt.Errorf("step %d: legal: %w", i, err)
		}
		for r := range want.legal {
			if got := canonTerms(g, legal[r]); !slices.Equal(got, canon(want.legal[r])) {
				return i, fmt.Errorf("step %d: legal moves of role %d differ\n got: %v\nwant: %v", i, r, got, canon(want.legal[r]))
			}
		}
		term, err := g.Terminal(ctx, s)
		if err != nil {
			return i, fmt.Errorf("step %d: terminal: %w", i, err)
		}
		if term != want.terminal {
			return i, fmt.Errorf("step %d: terminal is %v, SWI-Prolog says %v", i, term, want.terminal)
		}
		if want.terminal {
			goals, err := g.Goals(ctx, s)
			if err != nil {
				return i, fmt.Errorf("step %d: goals: %w", i, err)
			}
			for r := range want.goals {
				if got := canonTerms(g, goals[r]); !slices.Equal(got, canon(want.goals[r])) {
					return i, fmt.Errorf("step %d: goals of role %d differ\n got: %v\nwant: %v", i, r, got, canon(want.goals[r]))
				}
			}
		}
		if want.does == nil {
			return i + 1, nil
		}
		joint := make([]eval.Term, len(want.does))
		for k, m := range want.does {
			if joint[k], err = g.ParseTerm(m); err != nil {
				return i, fmt.Errorf("step %d: move %s: %v", i, m, err)
			}
		}
		if s, err = g.Next(ctx, s, joint); err != nil {
			return i, fmt.Errorf("step %d: next after %v: %w", i, want.does, err)
		}
	}
	return len(walk), nil
}
