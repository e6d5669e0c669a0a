package explain_test

import (
	"context"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/explain"
	"github.com/gdl-lsp/gdl/internal/corpus"
	"github.com/gdl-lsp/gdl/internal/readfile"
	"github.com/gdl-lsp/gdl/syntax"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func load(t testing.TB, path string) (*eval.Program, *analysis.Result) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	src := string(data)
	f, _ := syntax.ParseDialect(src, syntax.Detect(path, src))
	res := analysis.Analyze(f, nil)
	return eval.Compile(res), res
}

// pattern writes the literal of relation key/arity with a variable per argument.
func pattern(d syntax.Dialect, name string, arity int) string {
	if arity == 0 {
		return name
	}
	vs := make([]string, arity)
	for i := range vs {
		vs[i] = d.Atom("?v" + string(rune('a'+i)))
		if d == syntax.Infix {
			vs[i] = "V" + string(rune('a'+i))
		}
	}
	return d.Atom(name, vs...)
}

// sweep explains, in state s (and joint, for the literals about a joint move), literals of
// every relation of the game: a pattern with variables, one of its answers, and literals that do
// not hold (answers of other states, answers with an argument changed), and checks each.
type sweep struct {
	t       testing.TB
	ev      *eval.Program
	res     *analysis.Result
	rng     *rand.Rand
	brute   int
	seen    map[string][]string // relation pattern -> answers met in earlier states
	checked int
	opts    explain.Options
	// sample > 0 explains, per state, literals of that many relations chosen at random
	// (a true and a false one each), instead of every relation's.
	sample int
}

func (w *sweep) state(name string, s *eval.State, joint []eval.Term, patterns bool) {
	ctx := context.Background()
	d := w.ev.Notation()
	var keys []string
	for key := range w.res.Model.Relations {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	if w.sample > 0 {
		w.rng.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
	}
	done := 0
	for _, key := range keys {
		if w.sample > 0 && done >= w.sample {
			break
		}
		sym := w.res.Model.Relations[key]
		if key == "true" || key == "does" || key == "distinct" || key == "or" || key == "not" || key == "<=" {
			continue
		}
		var arities []int
		for a := range sym.Arities() {
			arities = append(arities, a)
		}
		slices.Sort(arities)
		for _, a := range arities {
			pat := pattern(d, key, a)
			q, err := w.ev.ParseQuery(pat)
			if err != nil {
				continue
			}
			if q.NeedsMove() != (joint != nil) {
				continue
			}
			as, _, err := w.ev.AskFirst(ctx, s, joint, q, 50)
			if err != nil {
				continue // a relation the game cannot evaluate (refused)
			}
			done++
			var lits []string
			if patterns && w.rng.Intn(3) == 0 {
				lits = append(lits, pat)
			}
			var texts []string
			for _, an := range as {
				texts = append(texts, q.Format(an))
			}
			if len(texts) > 0 {
				lits = append(lits, texts[w.rng.Intn(len(texts))])
			}
			for _, old := range w.seen[pat] {
				if !slices.Contains(texts, old) {
					lits = append(lits, old)
					break
				}
			}
			if len(texts) > 0 {
				if m := w.mutate(texts[w.rng.Intn(len(texts))], s, joint); m != "" {
					lits = append(lits, m)
				}
			}
			w.seen[pat] = append(w.seen[pat], texts...)
			if len(w.seen[pat]) > 200 {
				w.seen[pat] = w.seen[pat][len(w.seen[pat])-200:]
			}
			if w.sample > 0 {
				lits = w.oneEach(lits, s, joint)
			}
			for _, lit := range lits {
				w.explain(name, s, joint, lit)
			}
		}
	}
}

// oneEach keeps a literal that holds and one that does not, at random.
func (w *sweep) oneEach(lits []string, s *eval.State, joint []eval.Term) []string {
	c := newChecker(w.ev, w.res, s, joint)
	var yes, no []string
	for _, l := range lits {
		if ok, err := c.holds(l); err == nil && ok {
			yes = append(yes, l)
		} else if err == nil {
			no = append(no, l)
		}
	}
	var out []string
	for _, set := range [][]string{yes, no} {
		if len(set) > 0 {
			out = append(out, set[w.rng.Intn(len(set))])
		}
	}
	return out
}

// mutate returns the ground literal text with one argument replaced by another term of the
// state or the game, or "".
func (w *sweep) mutate(text string, s *eval.State, joint []eval.Term) string {
	t, err := w.ev.ParseTerm(text)
	if err != nil {
		return ""
	}
	name, args := w.ev.Decompose(t)
	if len(args) == 0 {
		return ""
	}
	c := newChecker(w.ev, w.res, s, joint)
	u := c.universe()
	v, err := w.ev.ParseTerm(u[w.rng.Intn(len(u))])
	if err != nil {
		return ""
	}
	args[w.rng.Intn(len(args))] = v
	return w.ev.String(w.ev.Compose(name, args...))
}

func (w *sweep) explain(name string, s *eval.State, joint []eval.Term, lit string) {
	w.t.Helper()
	x, err := explain.Explain(context.Background(), w.ev, w.res, s, joint, lit, w.opts)
	if err != nil {
		w.t.Errorf("%s: %s: %v", name, lit, err)
		return
	}
	c := newChecker(w.ev, w.res, s, joint)
	c.brute = w.brute
	if err := c.check(x, lit); err != nil {
		w.t.Errorf("%s: %s: %v\n%s", name, lit, err, x.Text(""))
	}
	w.checked++
}

// walk plays random joint moves from the initial state, sweeping each state reached.
func walk(t testing.TB, name string, ev *eval.Program, res *analysis.Result, rng *rand.Rand, steps, brute int, patterns bool) int {
	return (&sweep{t: t, ev: ev, res: res, rng: rng, brute: brute, seen: map[string][]string{}}).walk(name, steps, patterns)
}

func (w *sweep) walk(name string, steps int, patterns bool) int {
	ctx := context.Background()
	ev, rng := w.ev, w.rng
	s, err := ev.Initial(ctx)
	if err != nil {
		w.t.Logf("%s: no initial state: %v", name, err)
		return 0
	}
	for step := 0; step <= steps; step++ {
		w.state(name, s, nil, patterns)
		if term, err := ev.Terminal(ctx, s); err != nil || term {
			break
		}
		legal, err := ev.Legal(ctx, s)
		if err != nil {
			break
		}
		joint := make([]eval.Term, len(legal))
		for i, ms := range legal {
			if len(ms) == 0 {
				return w.checked
			}
			joint[i] = ms[rng.Intn(len(ms))]
		}
		w.state(name, s, joint, patterns)
		if s, err = ev.Next(ctx, s, joint); err != nil {
			break
		}
	}
	return w.checked
}

// TestWalksChecked explains literals of every relation along random walks through the team's
// games, prefix and infix (GDL-II's montyhall among them), and checks every explanation with the
// independent checker, why-nots by brute force.
func TestWalksChecked(t *testing.T) {
	paths, _ := filepath.Glob("../testdata/games/*.kif")
	hrf, _ := filepath.Glob("../testdata/games/*.hrf")
	paths = append(paths, hrf...)
	total := 0
	for _, path := range paths {
		name := filepath.Base(path)
		steps := 6
		if testing.Short() {
			steps = 3
		}
		ev, res := load(t, path)
		total += walk(t, name, ev, res, rand.New(rand.NewSource(27)), steps, 4000, true)
	}
	if total < 200 {
		t.Errorf("only %d explanations checked", total)
	}
	t.Logf("%d explanations checked", total)
}

// TestLimits: the depth and the node limit cut an explanation and say so.
func TestLimits(t *testing.T) {
	ev, res := load(t, "../testdata/games/tictactoe.kif")
	s, err := ev.Initial(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	x, err := explain.Explain(context.Background(), ev, res, s, nil, "terminal", explain.Options{Depth: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !x.Cut || !strings.Contains(x.Text(""), "cut here: --depth 1 reached") {
		t.Errorf("depth 1 does not cut:\n%s", x.Text(""))
	}
	x, err = explain.Explain(context.Background(), ev, res, s, nil, "terminal", explain.Options{MaxNodes: 5})
	if err != nil {
		t.Fatal(err)
	}
	if !x.Cut || !strings.Contains(x.Text(""), "the limit of 5 nodes reached") {
		t.Errorf("5 nodes do not cut:\n%s", x.Text(""))
	}
	if _, err := explain.Explain(context.Background(), ev, res, s, nil, "(next (control oplayer))", explain.Options{}); err != explain.ErrNeedsMove {
		t.Errorf("a literal about a joint move without one: %v", err)
	}
	if _, err := explain.Explain(context.Background(), ev, res, s, nil, "(line x) (line o)", explain.Options{}); err == nil {
		t.Errorf("two literals explained")
	}
}

// TestCorpusSweep walks the corpus games (under -short a sample) and explains, in each state
// reached, a literal that holds and one that does not of a few relations chosen at random,
// each checked by the independent checker.
func TestCorpusSweep(t *testing.T) {
	games := corpus.Games(t)
	games = corpus.ShortSample(t, games, 25, "ticTacToe/", "montyhall", "chess/chess.kif")
	total, skipped := 0, 0
	for _, e := range games {
		data, err := readfile.Regular(e.Abs(), readfile.GameLimit)
		if err != nil {
			t.Fatal(err)
		}
		src := string(data)
		f, _ := syntax.ParseDialect(src, syntax.Detect(e.Path, src))
		res := analysis.Analyze(f, nil)
		ev := eval.Compile(res)
		if ev.Refused() != nil {
			skipped++
			continue
		}
		ev.SetLimits(eval.Limits{Timeout: 10 * time.Second})
		w := &sweep{t: t, ev: ev, res: res, rng: rand.New(rand.NewSource(27)), brute: 500, seen: map[string][]string{}, sample: 2,
			opts: explain.Options{MaxNodes: 150}}
		total += w.walk(e.Path, 4, false)
	}
	t.Logf("%d explanations checked in %d games (%d refused)", total, len(games)-skipped, skipped)
	corpus.WriteSummary(t.Name(), []string{fmt.Sprintf("%d explanations checked in %d games", total, len(games)-skipped)})
}

// TestExplainLiteral explains a body literal of the game itself with a binding, as the editor
// and gdl test do: the same explanation as the literal written out.
func TestExplainLiteral(t *testing.T) {
	ev, res := load(t, "../testdata/games/tictactoe.kif")
	s, err := ev.Initial(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var lit syntax.Literal
	for _, c := range res.Model.Clauses {
		if c.Head.Name().Key() == "legal" && len(c.Body) > 0 {
			lit = c.Body[len(c.Body)-1] // (true (cell ?m ?n b))
			break
		}
	}
	one, two := ev.Compose("1"), ev.Compose("2")
	x, err := explain.ExplainLiteral(context.Background(), ev, res, s, nil, lit, map[string]eval.Term{"?m": one, "?n": two}, explain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := explain.Explain(context.Background(), ev, res, s, nil, "(true (cell 1 2 b))", explain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if x.Literal != "(true (cell 1 2 b))" || !x.Holds || x.Text("") != want.Text("") {
		t.Errorf("got %s\nwant %s", x.Text(""), want.Text(""))
	}
}
