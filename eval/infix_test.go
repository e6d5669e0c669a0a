package eval

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
	"github.com/gdl-lsp/gdl/format"
	"github.com/gdl-lsp/gdl/internal/corpus"
	"github.com/gdl-lsp/gdl/syntax"
)

// loadIn parses, analyses and compiles a game written in dialect d.
func loadIn(src string, d syntax.Dialect) *Program {
	f, _ := syntax.ParseDialect(src, d)
	return Compile(analysis.Analyze(f, nil))
}

// kif writes a term in KIF whatever the game's notation, so that two games can be compared.
func kif(g *Program, t Term) string {
	var b strings.Builder
	g.formatIn(&b, t, syntax.Prefix)
	return b.String()
}

func kifs(g *Program, ts []Term) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = kif(g, t)
	}
	slices.Sort(out)
	return out
}

// stepper is one of the two games of a walk.
type stepper struct {
	g *Program
	s *State
}

// walkError tells a refusal (the rules have no defined meaning: both games must agree on it)
// from a limit reached (which ends the walk of that game without a verdict).
func walkError(err error) (limit bool) {
	var lim *LimitError
	return errors.As(err, &lim)
}

// TestInfixCorpusWalks converts every corpus game (with -short, a sample) to infix and walks
// both versions in lockstep along random joint moves: the roles, and in every state reached
// the terminal test, the goals of a terminal state, every role's legal moves and the next state
// must be the same. A walk stops early, without a verdict, when either version reaches an
// evaluation limit.
func TestInfixCorpusWalks(t *testing.T) {
	list := corpus.Games(t)
	list = corpus.ShortSample(t, list, 10, "ticTacToe/", "montyhall", "connectFour/")
	compared, steps, limited := 0, 0, 0
	for _, e := range list {
		data, err := os.ReadFile(e.Abs())
		if err != nil {
			t.Fatal(err)
		}
		f, errs := syntax.Parse(string(data))
		if len(errs) > 0 {
			continue
		}
		text, cerr := format.Convert(f, syntax.Infix)
		if cerr != nil {
			t.Errorf("%s: %s", e.Path, cerr.Message)
			continue
		}
		pre, inf := loadIn(string(data), syntax.Prefix), loadIn(text, syntax.Infix)
		if inf.Notation() != syntax.Infix {
			t.Fatalf("%s: the infix game says it is %v", e.Path, inf.Notation())
		}
		n, lim, err := walkBoth(pre, inf, 1, 20)
		steps += n
		if lim {
			limited++
		}
		if err != nil {
			t.Errorf("%s: %v", e.Path, err)
			continue
		}
		compared++
	}
	t.Logf("%d games compared over %d states (%d stopped by a limit)", compared, steps, limited)
	corpus.WriteSummary("infix versions of corpus games evaluated like the originals", []string{
		fmt.Sprintf("%d games, %d states compared, %d walks stopped by an evaluation limit", compared, steps, limited)})
}

// walkBoth walks two versions of a game along the same random joint moves and returns the
// number of states compared, whether a limit stopped a walk, and the first difference.
func walkBoth(a, b *Program, walks, depth int) (int, bool, error) {
	for _, g := range []*Program{a, b} {
		g.SetLimits(Limits{Timeout: 2 * time.Second, MaxFacts: 500_000})
	}
	if ra, rb := kifs(a, a.Roles()), kifs(b, b.Roles()); !slices.Equal(ra, rb) {
		return 0, false, fmt.Errorf("roles %v and %v", ra, rb)
	}
	ctx := context.Background()
	steps := 0
	rng := rand.New(rand.NewPCG(7, 7))
	for w := 0; w < walks; w++ {
		x, y := stepper{g: a}, stepper{g: b}
		var errA, errB error
		x.s, errA = a.Initial(ctx)
		y.s, errB = b.Initial(ctx)
		if stop, err := agree("initial state", errA, errB); stop || err != nil {
			return steps, stop, err
		}
		for d := 0; d < depth; d++ {
			steps++
			if fa, fb := kifs(a, x.s.Fluents()), kifs(b, y.s.Fluents()); !slices.Equal(fa, fb) {
				return steps, false, fmt.Errorf("walk %d, step %d: states differ:\n%v\n%v", w, d, fa, fb)
			}
			ta, errA := a.Terminal(ctx, x.s)
			tb, errB := b.Terminal(ctx, y.s)
			if stop, err := agree("terminal", errA, errB); stop || err != nil {
				return steps, stop, err
			}
			if ta != tb {
				return steps, false, fmt.Errorf("walk %d, step %d: terminal %v and %v", w, d, ta, tb)
			}
			if ta {
				ga, errA := a.Goals(ctx, x.s)
				gb, errB := b.Goals(ctx, y.s)
				if stop, err := agree("goals", errA, errB); stop || err != nil {
					return steps, stop, err
				}
				for r := range ga {
					if ka, kb := kifs(a, ga[r]), kifs(b, gb[r]); !slices.Equal(ka, kb) {
						return steps, false, fmt.Errorf("walk %d, step %d: goals of role %d: %v and %v", w, d, r, ka, kb)
					}
				}
				break
			}
			la, errA := a.Legal(ctx, x.s)
			lb, errB := b.Legal(ctx, y.s)
			if stop, err := agree("legal", errA, errB); stop || err != nil {
				return steps, stop, err
			}
			var ja, jb []Term
			for r := range la {
				ka, kb := kifs(a, la[r]), kifs(b, lb[r])
				if !slices.Equal(ka, kb) {
					return steps, false, fmt.Errorf("walk %d, step %d: legal moves of role %d: %v and %v", w, d, r, ka, kb)
				}
				if len(ka) == 0 {
					return steps, false, nil // no legal move: both agree, the walk ends
				}
				pick := ka[rng.IntN(len(ka))]
				ja = append(ja, byKIF(a, la[r], pick))
				jb = append(jb, byKIF(b, lb[r], pick))
			}
			na, errA := a.Next(ctx, x.s, ja)
			nb, errB := b.Next(ctx, y.s, jb)
			if stop, err := agree("next", errA, errB); stop || err != nil {
				return steps, stop, err
			}
			x.s, y.s = na, nb
		}
	}
	return steps, false, nil
}

func byKIF(g *Program, ts []Term, want string) Term {
	for _, t := range ts {
		if kif(g, t) == want {
			return t
		}
	}
	return 0
}

// agree compares the errors of the two versions: a limit in either stops the walk; otherwise
// both succeed, or both fail the same way (a refusal of rules without a defined meaning).
func agree(what string, a, b error) (stop bool, err error) {
	if a != nil && walkError(a) || b != nil && walkError(b) {
		return true, nil
	}
	switch {
	case a == nil && b == nil:
		return false, nil
	case a == nil || b == nil:
		return false, fmt.Errorf("%s: errors %v and %v", what, a, b)
	}
	var ra, rb *RefusedError
	if errors.As(a, &ra) && errors.As(b, &rb) {
		return true, nil
	}
	return false, fmt.Errorf("%s: errors %v and %v", what, a, b)
}

// TestInfixQueries asks an infix game questions written in either notation: the answers come in
// the query's notation, and terms, states and joint moves are read in either.
func TestInfixQueries(t *testing.T) {
	const game = `role(white) role(black)
init(cell(1,b)) init(cell(2,b)) init(control(white))
legal(W,mark(X)) :- true(cell(X,b)) & true(control(W))
legal(black,noop) :- true(control(white))
legal(white,noop) :- true(control(black))
next(cell(X,W)) :- does(W,mark(X))
next(cell(X,b)) :- true(cell(X,b)) & ~marked(X)
marked(X) :- does(W,mark(X))
next(control(black)) :- true(control(white))
next(control(white)) :- true(control(black))
"Named"(1)
terminal :- ~true(cell(1,b)) & ~true(cell(2,b))
goal(R,50) :- role(R)
`
	g := loadIn(game, syntax.Infix)
	ctx := context.Background()
	s, err := g.Initial(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ query, want string }{
		{"legal(R,M)", "legal(black,noop) legal(white,mark(1)) legal(white,mark(2))"},
		{"(legal ?r ?m)", "(legal black noop) (legal white (mark 1)) (legal white (mark 2))"},
		{"true(cell(X,b)) & ~marked(X)", "true(cell(1,b)) & ~marked(1) true(cell(2,b)) & ~marked(2)"},
		{`"Named"(X)`, `"Named"(1)`},
		{"(Named ?x)", "(Named 1)"},
		{"terminal", ""},
		{"(true (cell ?x b)) (distinct ?x 2)", "(true (cell 1 b)) (distinct 1 2)"},
	} {
		q, err := g.ParseQuery(tc.query)
		if err != nil {
			t.Fatalf("%s: %v", tc.query, err)
		}
		as, err := g.Ask(ctx, s, nil, q)
		if err != nil {
			t.Fatalf("%s: %v", tc.query, err)
		}
		var got []string
		for _, a := range as {
			got = append(got, q.Format(a))
		}
		slices.Sort(got)
		if strings.Join(got, " ") != tc.want {
			t.Errorf("%s: answers %q, want %q", tc.query, strings.Join(got, " "), tc.want)
		}
	}
	for _, bad := range []string{"legal(R,M) legal(R,M)", "legal(R,", "legal(R,M) & "} {
		if _, err := g.ParseQuery(bad); err == nil {
			t.Errorf("query %q: no error", bad)
		}
	}
	if got := g.Strings(s.Fluents()); strings.Join(got, " ") != "cell(1,b) cell(2,b) control(white)" {
		t.Errorf("state %v", got)
	}
	for _, text := range []string{"(mark(1), noop)", "((mark 1) noop)"} {
		js, err := g.ParseJointMoves(text)
		if err != nil || len(js) != 1 {
			t.Fatalf("%s: %v %v", text, js, err)
		}
		if got := g.FormatJoint(js[0]); got != "(mark(1), noop)" {
			t.Errorf("%s: FormatJoint %q", text, got)
		}
	}
	if _, err := g.ParseJointMoves("(mark(1))"); err == nil || !strings.Contains(err.Error(), "has 1 moves") {
		t.Errorf("a joint move of one move for two roles: %v", err)
	}
	for _, text := range []string{"cell(1,b) control(white)", "(cell 1 b) (control white)"} {
		st, err := g.ParseState(text)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		if got := strings.Join(g.Strings(st.Fluents()), " "); got != "cell(1,b) control(white)" {
			t.Errorf("%s: %s", text, got)
		}
	}
}
