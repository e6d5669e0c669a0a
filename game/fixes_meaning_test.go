package game

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/internal/corpus"
	"github.com/gdl-lsp/gdl/syntax"
)

// TestSafeFixesKeepMeaning is issue 22, item 6: a fix marked Safe, which `gdl check --fix`
// applies without asking, must keep what the game means to the evaluator. TestFixesPlay
// compares the play of a game before and after each fix; this test compares every relation, and
// on games that do not load as well: the safe fixes of the files of TestFixesPlay, the corpus
// games (one in four; one in 40 with -short) and the reproductions are applied as
// --fix does (in rounds); then, in the states of random walks through the game as it was, every
// relation of either version is asked in both, with the joint move of the walk, and must have
// the same answers (names compared case-folded: a fix may change a spelling).
func TestSafeFixesKeepMeaning(t *testing.T) {
	cases := map[string]string{
		// and is a relation to the engines, which no rule defines: p never held, and does
		// once the fix splices it.
		"and-literal": "(role a) (init (c 1)) (<= (legal a go) (true (c 1))) (<= (next (c 1)) (true (c 1)))\n" +
			"(<= p (and (true (c 1))))\n(<= q and)\n(<= r (and))\n(<= terminal (true (c 2))) (<= (goal a 100) p)\n",
	}
	paths := fixCaseFiles()
	sample := 4
	if testing.Short() {
		sample = 40
	}
	for _, e := range corpus.Sample(corpus.Games(t), sample, "ticTacToe/") {
		paths = append(paths, e.Abs())
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		cases[p] = string(data)
	}
	changed := 0
	names := make([]string, 0, len(cases))
	for name := range cases {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		src := cases[name]
		d := syntax.Detect(name, src)
		fixed := applySafeFixes(src, d)
		if fixed == src {
			continue
		}
		changed++
		start := time.Now()
		diff := sameMeaning(src, fixed, d)
		if testing.Verbose() {
			t.Logf("%s: compared in %v", name, time.Since(start).Round(time.Millisecond))
		}
		if diff != "" {
			t.Errorf("%s: the safe fixes change the game's meaning: %s\nfixed text:\n%.2000s", name, diff, fixed)
		}
	}
	t.Logf("%d of %d files changed by their safe fixes", changed, len(cases))
}

// applySafeFixes applies the safe fixes of src in rounds, as gdl check --fix does.
func applySafeFixes(src string, d syntax.Dialect) string {
	for range 8 {
		f, _ := syntax.ParseDialect(src, d)
		next, applied := analysis.ApplyFixes(src, analysis.Analyze(f, nil).Diagnostics, func(_ analysis.Diagnostic, fx syntax.Fix) bool { return fx.Safe })
		if len(applied) == 0 || next == src {
			break
		}
		src = next
	}
	return src
}

// sameMeaning walks the game of before at random and compares, in each state reached, every
// relation's answers in before and after; it returns the first difference, or "".
func sameMeaning(before, after string, d syntax.Dialect) string {
	load := func(src string) (*eval.Program, *analysis.Model) {
		f, _ := syntax.ParseDialect(src, d)
		res := analysis.Analyze(f, nil)
		g := eval.Compile(res)
		g.SetLimits(eval.Limits{Timeout: time.Second, MaxFacts: 200_000})
		return g, res.Model
	}
	gb, mb := load(before)
	ga, ma := load(after)
	rels := map[analysis.Rel]bool{}
	for _, m := range []*analysis.Model{mb, ma} {
		for key, s := range m.Relations {
			for arity := range s.Arities() {
				if key != "true" && key != "does" && key != "distinct" && key != "and" && !analysis.Connectives[key] {
					rels[analysis.Rel{Key: key, Arity: arity}] = true
				}
			}
		}
	}
	sorted := make([]analysis.Rel, 0, len(rels))
	for r := range rels {
		sorted = append(sorted, r)
	}
	slices.SortFunc(sorted, func(a, b analysis.Rel) int { return strings.Compare(a.String(), b.String()) })
	// A game gets 3 s: the walks compare what they reached by then.
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	rng := rand.New(rand.NewPCG(22, 6))
	for walk := 0; walk < 2; walk++ {
		s, err := gb.Initial(ctx)
		if err != nil {
			return "" // the game as it was has no initial state to compare in
		}
		for step := 0; step < 8; step++ {
			var joint []eval.Term
			if legal, err := gb.Legal(ctx, s); err == nil && len(legal) == len(gb.Roles()) {
				for _, ms := range legal {
					if len(ms) == 0 {
						joint = nil
						break
					}
					joint = append(joint, ms[rng.IntN(len(ms))])
				}
			}
			sa, err := ga.ParseState(strings.Join(gb.Strings(s.Fluents()), " "))
			if err != nil {
				return fmt.Sprintf("the state %v does not read in the fixed game: %v", gb.Strings(s.Fluents()), err)
			}
			var jointA []eval.Term
			for _, m := range joint {
				t, err := ga.ParseTerm(gb.String(m))
				if err != nil {
					return fmt.Sprintf("the move %s does not read in the fixed game: %v", gb.String(m), err)
				}
				jointA = append(jointA, t)
			}
			for _, r := range sorted {
				wb, errB := answerSet(ctx, gb, s, joint, r)
				if errB != nil {
					continue // no answer to compare with
				}
				wa, errA := answerSet(ctx, ga, sa, jointA, r)
				if lim := (*eval.LimitError)(nil); errors.As(errA, &lim) {
					return "" // out of time: nothing more to compare
				}
				if errA != nil || !slices.Equal(wb, wa) {
					return fmt.Sprintf("in state %v after %d moves, %s: %v before, %v (%v) after",
						gb.Strings(s.Fluents()), step, r, wb, wa, errA)
				}
			}
			if joint == nil {
				break
			}
			if s, err = gb.Next(ctx, s, joint); err != nil {
				break
			}
		}
	}
	return ""
}

// answerSet asks rel with a variable per argument, in state s after joint (nil: no move), and
// returns its answers case-folded and sorted. A relation the game does not mention has none.
func answerSet(ctx context.Context, g *eval.Program, s *eval.State, joint []eval.Term, rel analysis.Rel) ([]string, error) {
	text := rel.Key
	if rel.Arity > 0 {
		text = "(" + rel.Key
		for i := range rel.Arity {
			text += fmt.Sprintf(" ?v%d", i)
		}
		text += ")"
	}
	q, err := g.ParseQuery(text)
	if err != nil {
		if strings.Contains(err.Error(), "does not mention") {
			return nil, nil
		}
		return nil, err
	}
	if q.NeedsMove() && joint == nil {
		return nil, errors.New("no joint move")
	}
	if !q.NeedsMove() {
		joint = nil
	}
	answers, err := g.Ask(ctx, s, joint, q)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(answers))
	for i, a := range answers {
		out[i] = syntax.Fold(q.Format(a))
	}
	slices.Sort(out)
	return out, nil
}
