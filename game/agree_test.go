package game

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/internal/corpus"
)

// agreement walks a game at random with both engines side by side and compares, in every state,
// terminal, each role's legal moves and goal values, the percepts of the joint move played and
// the next state. It returns the number of states compared; an error is a disagreement, or an
// evaluation error of one engine only. errSkip says why the game was not compared.
type agreement struct {
	walks, steps int
	seed         uint64
	budget       time.Duration // per game: an evaluation still running then fails
	soft         time.Duration // per game: no new step is started after this (0: none)
}

var errSkip = errors.New("skipped")

func (a agreement) run(src string) (int, error) {
	ctx, cancel := context.WithTimeout(context.Background(), a.budget)
	defer cancel()
	lim := eval.Limits{Timeout: a.budget, MaxFacts: 2_000_000}
	c, _, err := Load(ctx, src, Options{Engine: Compiled, Limits: lim})
	if err != nil {
		return 0, fmt.Errorf("%w: %v", errSkip, err)
	}
	in, _, err := Load(ctx, src, Options{Engine: Interpreted, Limits: lim})
	if err != nil {
		return 0, err
	}
	if c.Engine() != Compiled || in.Engine() != Interpreted {
		return 0, fmt.Errorf("engines: %s and %s", c.Engine(), in.Engine())
	}
	rng := rand.New(rand.NewPCG(a.seed, 7))
	states := 0
	var stop time.Time
	if a.soft > 0 {
		stop = time.Now().Add(a.soft)
	}
	for w := 0; w < a.walks && (stop.IsZero() || time.Now().Before(stop)); w++ {
		n, err := a.walk(ctx, c, in, rng, stop)
		states += n
		if err != nil {
			return states, err
		}
	}
	return states, nil
}

// interpErr turns an error of the interpreter alone into a skip: the interpreter stops at its
// limits where the compiled engine has none.
func interpErr(err error) error {
	var lim *eval.LimitError
	if errors.As(err, &lim) {
		return fmt.Errorf("%w: the interpreter stopped: %v", errSkip, err)
	}
	return err
}

func (a agreement) walk(ctx context.Context, c, in *Game, rng *rand.Rand, stop time.Time) (int, error) {
	sc, err := c.Initial(ctx)
	if err != nil {
		return 0, fmt.Errorf("compiled initial: %v", err)
	}
	si, err := in.Initial(ctx)
	if err != nil {
		return 0, interpErr(err)
	}
	for step := 0; ; step++ {
		where := fmt.Sprintf("step %d", step)
		if x, y := c.Strings(sc.Fluents()), in.Strings(si.Fluents()); !slices.Equal(x, y) {
			return step, fmt.Errorf("%s: state\ncompiled:    %v\ninterpreted: %v", where, x, y)
		}
		tc, _ := c.Terminal(ctx, sc)
		ti, err := in.Terminal(ctx, si)
		if err != nil {
			return step, interpErr(err)
		}
		if tc != ti {
			return step, fmt.Errorf("%s: terminal: compiled %v, interpreted %v", where, tc, ti)
		}
		lc, _ := c.Legal(ctx, sc)
		li, err := in.Legal(ctx, si)
		if err != nil {
			return step, interpErr(err)
		}
		gc, _ := c.Goals(ctx, sc)
		gi, err := in.Goals(ctx, si)
		if err != nil {
			return step, interpErr(err)
		}
		for r := range lc {
			if x, y := c.Strings(lc[r]), in.Strings(li[r]); !slices.Equal(x, y) {
				return step, fmt.Errorf("%s: legal moves of %s\ncompiled:    %v\ninterpreted: %v", where, c.RoleNames()[r], x, y)
			}
			if x, y := c.Strings(gc[r]), in.Strings(gi[r]); !slices.Equal(x, y) {
				return step, fmt.Errorf("%s: goals of %s\ncompiled:    %v\ninterpreted: %v", where, c.RoleNames()[r], x, y)
			}
		}
		if tc || step >= a.steps || !stop.IsZero() && time.Now().After(stop) {
			return step + 1, nil
		}
		jc := make([]eval.Term, len(lc))
		ji := make([]eval.Term, len(li))
		for r := range lc {
			if len(lc[r]) == 0 {
				return step + 1, nil
			}
			k := rng.IntN(len(lc[r]))
			text := c.String(lc[r][k])
			jc[r] = lc[r][k]
			for _, m := range li[r] {
				if in.String(m) == text {
					ji[r] = m
				}
			}
		}
		pc, _ := c.Sees(ctx, sc, jc)
		pi, err := in.Sees(ctx, si, ji)
		if err != nil {
			return step, interpErr(err)
		}
		for r := range pc {
			if x, y := c.Strings(pc[r]), in.Strings(pi[r]); !slices.Equal(x, y) {
				return step, fmt.Errorf("%s: percepts of %s after %s\ncompiled:    %v\ninterpreted: %v", where, c.RoleNames()[r], c.FormatJoint(jc), x, y)
			}
		}
		if sc, err = c.Next(ctx, sc, jc); err != nil {
			return step, fmt.Errorf("%s: compiled next: %v", where, err)
		}
		if si, err = in.Next(ctx, si, ji); err != nil {
			return step, interpErr(err)
		}
	}
}

// TestEnginesAgreeTestdata compares the engines on the games written for this project.
func TestEnginesAgreeTestdata(t *testing.T) {
	files, _ := filepath.Glob("../testdata/games/*.kif")
	if len(files) == 0 {
		t.Fatal("no testdata/games/*.kif")
	}
	a := agreement{walks: 20, steps: 200, seed: 1, budget: 20 * time.Second}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		n, err := a.run(string(src))
		switch {
		case errors.Is(err, errSkip):
			t.Logf("%s: %v", filepath.Base(f), err)
		case err != nil:
			t.Errorf("%s: %v", filepath.Base(f), err)
		default:
			t.Logf("%s: %d states agree", filepath.Base(f), n)
		}
	}
}

// TestEnginesAgreeCorpus compares the engines on random walks through every corpus game that
// compiles (with -short, a fixed sample of them); the summary lists the games that do not
// compile and why.
func TestEnginesAgreeCorpus(t *testing.T) {
	games := corpus.Games(t)
	a := agreement{walks: 3, steps: 100, seed: 1, budget: 20 * time.Second, soft: 3 * time.Second}
	games = corpus.ShortSample(t, games, 10, "ticTacToe/", "connectFour/", "breakthrough/", "montyhall")
	if testing.Short() {
		a.walks = 2
	}
	compared, states := 0, 0
	skipped := map[string][]string{}
	for _, e := range games {
		src, err := os.ReadFile(e.Abs())
		if err != nil {
			t.Fatal(err)
		}
		n, err := a.run(string(src))
		states += n
		switch {
		case errors.Is(err, errSkip):
			reason := strings.TrimPrefix(err.Error(), errSkip.Error()+": ")
			reason = skipReason(reason)
			skipped[reason] = append(skipped[reason], e.Path)
		case err != nil:
			t.Errorf("%s: %v", e.Path, err)
		default:
			compared++
		}
	}
	lines := []string{fmt.Sprintf("compared %d of %d corpus games (%d states; %d walks of up to %d joint moves each, at most %v per game): state, legal moves, goals, terminal and percepts at every step",
		compared, len(games), states, a.walks, a.steps, a.soft)}
	var keys []string
	for k := range skipped {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		lines = append(lines, fmt.Sprintf("not compared, %d: %s: %s", len(skipped[k]), k, strings.Join(skipped[k], ", ")))
	}
	if testing.Short() {
		lines = append(lines, "(-short: a fixed sample of one in ten games; run go test ./game -run TestEnginesAgreeCorpus for all)")
	}
	for _, l := range lines {
		t.Log(l)
	}
	if err := corpus.WriteSummary("game: the compiled engine against the interpreter", lines); err != nil {
		t.Error(err)
	}
}

// skipReason shortens a reason to its kind, for grouping.
func skipReason(r string) string {
	switch {
	case strings.Contains(r, "recursive"):
		return "ground rules recursive"
	case strings.Contains(r, "ground rules"):
		return "too many ground rules"
	case strings.Contains(r, "atoms can hold"):
		return "too many atoms can hold"
	case strings.Contains(r, "time limit"), strings.Contains(r, "longer than"), strings.Contains(r, "deadline"):
		return "grounding over its time budget"
	case strings.Contains(r, "interpreter stopped"):
		return "the interpreter stopped at a limit"
	case strings.Contains(r, "no defined meaning"):
		return "rules without a defined meaning"
	}
	return r
}
