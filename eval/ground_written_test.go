package eval

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gdl-lsp/gdl/internal/corpus"
)

// stepGame is a game whose relation step/4 is n⁴ atoms whole but is asked only with its last
// two arguments 1: restricted by magic sets, n² of them.
func stepGame(n int) string {
	var b strings.Builder
	b.WriteString("(role p) (init (at 0))\n")
	b.WriteString("(<= (step ?a ?b ?c ?d) (num ?a) (num ?b) (num ?c) (num ?d))\n")
	b.WriteString("(<= (legal p (go ?x)) (true (at ?a)) (step ?a ?x 1 1))\n")
	b.WriteString("(<= (next (at ?x)) (does p (go ?x)))\n")
	b.WriteString("(<= terminal (true (at 3))) (<= (goal p 100) (true (at 3))) (<= (goal p 0) (not (true (at 3))))\n")
	for i := range n {
		fmt.Fprintf(&b, "(num %d)\n", i)
	}
	return b.String()
}

// groundText is a grounding's rules and fluents as sorted text: equal for the same program
// whatever the order of its terms' IDs.
func groundText(p *Program, gr *Grounding) string {
	var lines []string
	for _, r := range gr.Rules {
		var b strings.Builder
		b.WriteString(p.String(r.Head))
		for _, l := range r.Body {
			fmt.Fprintf(&b, " %v:%s", l.Neg, p.String(l.Atom))
		}
		lines = append(lines, b.String())
	}
	for _, f := range gr.Fluents {
		lines = append(lines, "fluent "+p.String(f))
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}

// writtenPass runs the pass as written alone and reports whether it stopped at a limit of size.
func writtenPass(t *testing.T, p *Program, lim GroundLimits) (tooBig bool, err error) {
	t.Helper()
	g := p.take()
	defer p.put(g)
	defer func() { g.spare = nil }()
	g.begin(context.Background())
	g.useState(g.empty)
	if err := g.ensureTop(g.initRel); err != nil {
		t.Fatal(err)
	}
	_, err = g.ground(context.Background(), lim.withDefaults(), g.stateOf(g.initRel).fluents, nil)
	var ge *GroundError
	return errors.As(err, &ge) && ge.tooBig, err
}

// A program predicted far over the limit of atoms as written (writtenOver) is grounded
// restricted at once, into the same rules as when it tries the pass as written first; the
// prediction is right (the pass as written stops at a limit of size). One under it is
// untouched. On the corpus, the games nearest to writtenOverRatio on each side: the checkers
// games (68.3 times the limit of atoms) ground as written, chess (87.3) does not. Without
// -short, every corpus game predicted over is checked to stop at a limit of size as written.
func TestWrittenOver(t *testing.T) {
	small := GroundLimits{MaxFacts: 1000, MaxRules: 100_000, Timeout: 30 * time.Second}
	for _, c := range []struct {
		n    int
		over bool
	}{{20, true}, {4, false}} {
		src := stepGame(c.n)
		p := compileText(t, src)
		_, over := p.writtenOver(context.Background(), p.take(), small)
		if over != c.over {
			t.Fatalf("stepGame(%d): predicted over %v, want %v", c.n, over, c.over)
		}
		tooBig, err := writtenPass(t, compileText(t, src), small)
		if tooBig != c.over || !c.over && err != nil {
			t.Fatalf("stepGame(%d): the pass as written stops at a limit of size: %v (%v)", c.n, tooBig, err)
		}
		predicted, err := p.Ground(context.Background(), small)
		if err != nil {
			t.Fatalf("stepGame(%d): %v", c.n, err)
		}
		q := compileText(t, src)
		tried, err := q.ground(context.Background(), small, false)
		if err != nil {
			t.Fatalf("stepGame(%d), as written first: %v", c.n, err)
		}
		if a, b := groundText(p, predicted), groundText(q, tried); a != b || len(predicted.Rules) == 0 {
			t.Errorf("stepGame(%d): %d ground rules predicted, %d tried as written first:\n%s\n--\n%s", c.n, len(predicted.Rules), len(tried.Rules), a, b)
		}
	}
	games := corpus.ShortSample(t, corpus.Games(t), 100, "checkers/checkers.kif", "chess/chess.kif")
	for _, e := range games {
		data, err := os.ReadFile(e.Abs())
		if err != nil {
			t.Fatal(err)
		}
		p := compileText(t, string(data))
		g := p.take()
		if g.refused() != nil {
			continue
		}
		bound, over := p.writtenOver(context.Background(), g, GroundLimits{})
		p.put(g)
		wantOver := strings.HasSuffix(e.Path, "chess/chess.kif")
		if strings.HasSuffix(e.Path, "checkers/checkers.kif") || wantOver {
			if over != wantOver {
				t.Errorf("%s: predicted over %v (%s atoms as written), want %v", e.Path, over, countText(bound.Facts), wantOver)
			}
		}
		if !over && !wantOver {
			continue
		}
		if tooBig, err := writtenPass(t, p, GroundLimits{Timeout: 20 * time.Second}); !tooBig && (err == nil || !strings.Contains(err.Error(), "time limit")) {
			t.Errorf("%s: predicted over (%s atoms as written), but the pass as written ends %v", e.Path, countText(bound.Facts), err)
		}
	}
}
