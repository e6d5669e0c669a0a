package propnet

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/internal/corpus"
)

// laneLimits ground the games of these tests: the default budget of wall time, generous enough
// on a quiet machine, is not under the race detector on a loaded one.
var laneLimits = eval.GroundLimits{Timeout: 2 * time.Minute}

// laneGames are the games of this package's tests, for the tests of Lanes.
func laneGames() map[string]string {
	return map[string]string{"cutGraph": cutGraph, "manyMoves": manyMoves, "inertPass": inertPass,
		"shiftRing": shiftRing(), "corridor": corridor, "chase": chase(), "lowestUniqueBid": lowestUniqueBid(),
		"stuck": stuck(false), "stuckUnguarded": stuck(true), "turns": turns()}
}

// testdataGames are the prefix games of testdata/games.
func testdataGames(t *testing.T) map[string]string {
	files, _ := filepath.Glob("../testdata/games/*.kif")
	if len(files) == 0 {
		t.Fatal("no testdata/games/*.kif")
	}
	out := map[string]string{}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(f)] = string(src)
	}
	return out
}

// errNoNet: the game has no network (it does not ground within the limits).
var errNoNet = errors.New("no network")

// laneWalk walks 64 random games at once, one per lane, and compares every lane in every step
// with the Machine (terminal, each role's legal moves and goals, the next state), and the first
// withInterp lanes also with the interpreter. A lane whose game ends starts again from the
// initial state, so lanes are at different points of their games. It returns the states
// compared.
func laneWalk(src string, lim eval.GroundLimits, steps, withInterp int, seed uint64) (int, error) {
	g, gr, n, err := buildNet(src, lim)
	if err != nil {
		return 0, err
	}
	return laneWalkNet(g, gr, n, steps, withInterp, seed)
}

// laneWalkNet is laneWalk on a network built.
func laneWalkNet(g *eval.Program, gr *eval.Grounding, n *Net, steps, withInterp int, seed uint64) (int, error) {
	bitsOf := fluentBits(g, gr, n)
	s0, err := g.Initial(bg)
	if err != nil {
		return 0, err
	}
	init, err := bitsOf(s0)
	if err != nil {
		return 0, err
	}
	l, m := n.NewLanes(), n.NewMachine()
	rng := rand.New(rand.NewPCG(seed, 9))
	states := make([][]uint64, 64)
	interp := make([]*eval.State, withInterp)
	for i := range states {
		states[i] = slices.Clone(init)
		if i < withInterp {
			interp[i] = s0
		}
	}
	nr := len(gr.Roles)
	joints := make([][]int32, 64)
	next, want := make([]uint64, n.Words()), make([]uint64, n.Words())
	compared := 0
	for step := 0; step < steps; step++ {
		for i, s := range states {
			l.Load(i, s)
		}
		l.Eval()
		term := l.Terminal()
		for i, s := range states {
			where := fmt.Sprintf("step %d lane %d", step, i)
			m.SetState(s)
			compared++
			if got := term>>uint(i)&1 != 0; got != m.Terminal() {
				return compared, fmt.Errorf("%s: terminal %v, machine %v", where, got, m.Terminal())
			}
			var ti bool
			var li, gi [][]eval.Term
			if i < withInterp {
				if ti, err = g.Terminal(bg, interp[i]); err == nil {
					if li, err = g.Legal(bg, interp[i]); err == nil {
						gi, err = g.Goals(bg, interp[i])
					}
				}
				if err != nil {
					return compared, fmt.Errorf("%s: the interpreter: %v", where, err)
				}
				if ti != m.Terminal() {
					return compared, fmt.Errorf("%s: terminal %v, interpreter %v", where, m.Terminal(), ti)
				}
			}
			joints[i] = joints[i][:0]
			for r := 0; r < nr; r++ {
				got := l.Legal(i, r, nil)
				slices.Sort(got)
				wantL := slices.Sorted(slices.Values(m.Legal(r)))
				if !slices.Equal(got, wantL) {
					return compared, fmt.Errorf("%s: legal moves of role %d: %v, machine %v", where, r, got, wantL)
				}
				if gotG, wantG := l.Goals(i, r, nil), m.Goals(r, nil); !slices.Equal(gotG, wantG) {
					return compared, fmt.Errorf("%s: goals of role %d: %v, machine %v", where, r, gotG, wantG)
				}
				if li != nil {
					var names, gnames []string
					for _, mv := range got {
						names = append(names, g.String(gr.Moves[r][mv]))
					}
					for _, k := range l.Goals(i, r, nil) {
						gnames = append(gnames, g.String(gr.Goals[r][k].Value))
					}
					slices.Sort(names)
					slices.Sort(gnames)
					if w := g.Strings(li[r]); !slices.Equal(names, w) {
						return compared, fmt.Errorf("%s: legal moves of role %d: %v, interpreter %v", where, r, names, w)
					}
					if w := g.Strings(gi[r]); !slices.Equal(gnames, w) {
						return compared, fmt.Errorf("%s: goals of role %d: %v, interpreter %v", where, r, gnames, w)
					}
				}
				if len(got) > 0 && len(joints[i]) == r {
					joints[i] = append(joints[i], got[rng.IntN(len(got))])
				}
			}
			if term>>uint(i)&1 != 0 || len(joints[i]) < nr {
				joints[i] = nil // the lane starts again
				continue
			}
			for r, mv := range joints[i] {
				l.Play(i, r, mv)
			}
		}
		l.Next()
		for i := range states {
			if joints[i] == nil {
				copy(states[i], init)
				if i < withInterp {
					interp[i] = s0
				}
				continue
			}
			l.NextState(i, next)
			m.SetState(states[i])
			m.Next(joints[i], want)
			if !slices.Equal(next, want) {
				return compared, fmt.Errorf("step %d lane %d: the next state differs from the machine's", step, i)
			}
			if i < withInterp {
				terms := make([]eval.Term, nr)
				for r, mv := range joints[i] {
					terms[r] = gr.Moves[r][mv]
				}
				if interp[i], err = g.Next(bg, interp[i], terms); err != nil {
					return compared, fmt.Errorf("step %d lane %d: the interpreter: %v", step, i, err)
				}
				if w, err := bitsOf(interp[i]); err != nil || !slices.Equal(next, w) {
					return compared, fmt.Errorf("step %d lane %d: the next state differs from the interpreter's (%v)", step, i, err)
				}
			}
			copy(states[i], next)
		}
	}
	return compared, nil
}

// Every lane agrees with the machine and the interpreter, on this package's games (cycles,
// lazy inputs, complemented moves, inert moves, constant fluents) and testdata's.
func TestLanesAgree(t *testing.T) {
	games := laneGames()
	for name, src := range testdataGames(t) {
		games[name] = src
	}
	for name, src := range games {
		n, err := laneWalk(src, laneLimits, 40, 64, 1)
		if errors.Is(err, errNoNet) {
			t.Logf("%s: %v", name, err)
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		t.Logf("%s: %d lane states agree", name, n)
	}
}

// Every lane agrees with the machine (and the first two with the interpreter) on random walks
// through every corpus game that compiles (with -short, a fixed sample).
func TestLanesAgreeCorpus(t *testing.T) {
	games := corpus.ShortSample(t, corpus.Games(t), 10, "ticTacToe/", "connectFour/", "breakthrough/", "speedChess/")
	compared, states := 0, 0
	skipped := map[string]string{}
	for _, e := range games {
		src, err := os.ReadFile(e.Abs())
		if err != nil {
			t.Fatal(err)
		}
		n, err := laneWalk(string(src), eval.GroundLimits{}, 30, 2, 2)
		states += n
		switch {
		case errors.Is(err, errNoNet):
			skipped[e.Path] = err.Error()
		case err != nil && strings.Contains(err.Error(), "the interpreter:"):
			t.Logf("%s: %v", e.Path, err)
		case err != nil:
			t.Errorf("%s: %v", e.Path, err)
		default:
			compared++
		}
	}
	t.Logf("compared %d of %d corpus games, %d lane states", compared, len(games), states)
	for p, why := range skipped {
		t.Logf("not compiled: %s: %.100s", p, why)
	}
}

// playoutEnd is a playout of Playouts with its goals.
type playoutEnd struct {
	PlayoutEnd
	goals [][]int
}

func runPlayouts(n *Net, start []uint64, seed uint64, maxDepth, count int) []playoutEnd {
	l := n.NewLanes()
	var ends []playoutEnd
	l.Playouts(LaneRun{Start: start, Seed: seed, MaxDepth: maxDepth, Count: count, End: func(e PlayoutEnd) bool {
		pe := playoutEnd{PlayoutEnd: e}
		for r := range n.input {
			pe.goals = append(pe.goals, l.Goals(e.Lane, r, nil))
		}
		ends = append(ends, pe)
		return true
	}})
	return ends
}

// A lane's playouts depend on its generator only: each, played again alone from its seed
// (Replay), ends the same way, its moves are legal on the machine and lead to the same last
// state, and the generator's state after it is the seed of the lane's next playout. A run of
// one playout plays lane 0's first playout of a run of many.
func TestLanesPlayoutsReplay(t *testing.T) {
	for name, src := range laneGames() {
		_, gr, n, _ := build(t, src, laneLimits)
		init := initBits(n, gr)
		maxDepth := 12
		ends := runPlayouts(n, init, 5, maxDepth, 300)
		if len(ends) != 300 {
			t.Fatalf("%s: %d playouts ended, want 300", name, len(ends))
		}
		r := n.NewLanes()
		m := n.NewMachine()
		lastSeed := map[int]uint64{}
		for k, e := range ends {
			var rec []int32
			res := r.Replay(init, e.Seed, maxDepth, &rec)
			if res != e.PlayoutResult {
				t.Fatalf("%s playout %d (lane %d): %+v, alone %+v", name, k, e.Lane, e.PlayoutResult, res)
			}
			for ro := range gr.Roles {
				if got := r.Goals(0, ro, nil); !slices.Equal(got, e.goals[ro]) {
					t.Fatalf("%s playout %d: goals of role %d %v, alone %v", name, k, ro, e.goals[ro], got)
				}
			}
			if prev, ok := lastSeed[e.Lane]; ok && prev != e.Seed {
				t.Fatalf("%s playout %d: lane %d's generator does not go on from its last playout", name, k, e.Lane)
			}
			lastSeed[e.Lane] = r.rng[0]
			m.SetState(init)
			nr := len(gr.Roles)
			for i := 0; i+nr <= len(rec); i += nr {
				for ro := range nr {
					if !m.IsLegal(ro, rec[i+ro]) {
						t.Fatalf("%s playout %d step %d: move %d of role %d is not legal", name, k, i/nr, rec[i+ro], ro)
					}
				}
				next := make([]uint64, n.Words())
				m.Next(rec[i:i+nr], next)
				m.SetState(next)
			}
			if m.Terminal() != res.Terminal {
				t.Fatalf("%s playout %d: terminal %v on the machine after its moves", name, k, m.Terminal())
			}
			for ro := range gr.Roles {
				if got := m.Goals(ro, nil); !slices.Equal(got, e.goals[ro]) {
					t.Fatalf("%s playout %d: goals of role %d %v, on the machine %v", name, k, ro, e.goals[ro], got)
				}
			}
		}
		one := runPlayouts(n, init, 5, maxDepth, 1)
		first := slices.IndexFunc(ends, func(e playoutEnd) bool { return e.Lane == 0 })
		if len(one) != 1 || one[0].PlayoutResult != ends[first].PlayoutResult || one[0].Seed != ends[first].Seed {
			t.Fatalf("%s: a run of one playout: %+v, lane 0 of a run of 300: %+v", name, one, ends[first])
		}
	}
}

// initBits is the initial state of a grounding as bits.
func initBits(n *Net, gr *eval.Grounding) []uint64 {
	idx := map[eval.Term]int{}
	for i, f := range gr.Fluents {
		idx[f] = i
	}
	init := make([]uint64, n.Words())
	for _, f := range gr.Init {
		i := idx[f]
		init[i>>6] |= 1 << uint(i&63)
	}
	return init
}

// The playouts of Lanes and of the Machine follow one distribution: on tic-tac-toe, the first
// role's goals (a chi-square test of the two samples, 2 degrees of freedom) and the lengths
// (a two-sample z test), with fixed seeds.
func TestLanesDistribution(t *testing.T) {
	src, err := os.ReadFile("../testdata/games/tictactoe.kif")
	if err != nil {
		t.Fatal(err)
	}
	_, gr, n, _ := build(t, string(src), laneLimits)
	init := initBits(n, gr)
	const count = 20000
	lanes := map[eval.Term]float64{}
	var lenL, lenL2 float64
	for _, e := range runPlayouts(n, init, 11, 100, count) {
		lanes[gr.Goals[0][e.goals[0][0]].Value]++
		d := float64(e.Depth)
		lenL += d
		lenL2 += d * d
	}
	m := n.NewMachine()
	rng := rand.New(rand.NewPCG(11, 12))
	machine := map[eval.Term]float64{}
	var lenM, lenM2 float64
	for range count {
		res := m.Playout(init, rng, 100, nil)
		machine[gr.Goals[0][m.Goals(0, nil)[0]].Value]++
		d := float64(res.Depth)
		lenM += d
		lenM2 += d * d
	}
	chi2, df := 0.0, -1
	for v := range mergeKeys(lanes, machine) {
		a, b := lanes[v], machine[v]
		// Two samples of equal size: sum of (a-b)^2/(a+b).
		chi2 += (a - b) * (a - b) / (a + b)
		df++
	}
	if df != 2 || chi2 > 13.8 { // p = 0.001 for 2 degrees of freedom
		t.Errorf("goal values: lanes %v, machine %v: chi-square %.2f with %d degrees of freedom", lanes, machine, chi2, df)
	}
	mL, mM := lenL/count, lenM/count
	vL, vM := lenL2/count-mL*mL, lenM2/count-mM*mM
	if z := (mL - mM) / math.Sqrt((vL+vM)/count); math.Abs(z) > 3.3 {
		t.Errorf("mean length: lanes %.3f, machine %.3f, z = %.2f", mL, mM, z)
	}
	t.Logf("goal values of the first role: lanes %v, machine %v; mean length %.3f and %.3f", lanes, machine, mL, mM)
}

func mergeKeys[K comparable](a, b map[K]float64) map[K]bool {
	out := map[K]bool{}
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

// LoadAll, NextStates and LegalAll do for all lanes at once what Load, NextState and Legal do
// for one: random states of 130 fluents (three words) in and out.
func TestLanesTransposes(t *testing.T) {
	var a, b [64]uint64
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range a {
		a[i] = rng.Uint64()
	}
	b = a
	transpose64(&b)
	for i := range 64 {
		for j := range 64 {
			if a[i]>>uint(j)&1 != b[j]>>uint(i)&1 {
				t.Fatalf("bit %d of row %d is not bit %d of row %d", j, i, i, j)
			}
		}
	}
	_, gr, n, _ := build(t, shiftRing(), laneLimits)
	init := initBits(n, gr)
	l, one := n.NewLanes(), n.NewLanes()
	states := make([][]uint64, 50)
	m := n.NewMachine()
	for i := range states {
		// A state reached by i random joint moves.
		m.Playout(init, rng, i, nil)
		states[i] = slices.Clone(m.State())
	}
	l.LoadAll(states)
	l.Eval()
	legal := make([][]int32, len(states))
	l.LegalAll(0, legal)
	for i, s := range states {
		one.Load(0, s)
		one.Eval()
		want := one.Legal(0, 0, nil)
		if !slices.Equal(legal[i], want) {
			t.Fatalf("lane %d: LegalAll %v, Legal %v", i, legal[i], want)
		}
		if len(want) > 0 {
			l.Play(i, 0, want[i%len(want)])
		}
	}
	l.Next()
	next := make([][]uint64, len(states))
	for i := range next {
		next[i] = make([]uint64, n.Words())
	}
	l.NextStates(next)
	want := make([]uint64, n.Words())
	for i := range states {
		l.NextState(i, want)
		if !slices.Equal(next[i], want) {
			t.Fatalf("lane %d: NextStates %x, NextState %x", i, next[i], want)
		}
	}
}

// toggles is a game of n lamps where the one player switches one lamp a move for 10 moves: a
// network of thousands of gates of which a move changes a handful.
func toggles(n int) string {
	var b strings.Builder
	b.WriteString(`(role p) (init (clock 0))
(<= (legal p (switch ?l)) (lamp ?l))
(<= (next (on ?l)) (does p (switch ?l)) (not (true (on ?l))))
(<= (next (on ?l)) (true (on ?l)) (not (does p (switch ?l))))
(<= (next (clock ?m)) (true (clock ?n)) (succ ?n ?m))
(<= terminal (true (clock 10)))
(goal p 100)
`)
	for i := range n {
		fmt.Fprintf(&b, "(lamp %d)\n", i)
	}
	for i := range 10 {
		fmt.Fprintf(&b, "(succ %d %d)\n", i, i+1)
	}
	return b.String()
}

// LaneStep says that Lanes pay (under 64) for tic-tac-toe, whose every move changes much of its
// small network, and not for 20,000 lamps, a move switching one of them.
func TestLaneStep(t *testing.T) {
	src, err := os.ReadFile("../testdata/games/tictactoe.kif")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, src string
		lanes     bool
	}{{"tictactoe", string(src), true}, {"toggles", toggles(20000), false}} {
		_, gr, n, _ := build(t, c.src, laneLimits)
		init := initBits(n, gr)
		m := n.NewMachine()
		m.SetState(init)
		w0 := m.Work()
		rng := rand.New(rand.NewPCG(1, 2))
		steps := 0
		for range 10 {
			steps += m.Playout(init, rng, 100, nil).Depth + 1
		}
		per := float64(m.Work()-w0) / float64(steps)
		if got := n.LaneStep(per); (got < 64) != c.lanes {
			t.Errorf("%s (%v, %.1f edges a step): a step of Lanes costs %.1f of the Machine's", c.name, n.Stats(), per, got)
		}
	}
}

// andWide, which stops a wide gate once it is 0 in every lane, is the AND of all its inputs:
// for every width around its thresholds, with lanes that fall to 0 early, late or never.
func TestAndWide(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	val := make([]uint64, 256)
	for i := range val {
		switch i % 4 {
		case 0:
			val[i] = ^uint64(0)
		case 1:
			val[i] = rng.Uint64() | rng.Uint64() | rng.Uint64()
		case 2:
			val[i] = rng.Uint64()
		default:
			val[i] = 0
		}
	}
	for width := 0; width <= 40; width++ {
		for trial := range 200 {
			in := make([]uint32, width)
			for j := range in {
				in[j] = uint32(rng.IntN(len(val)))
				if trial%3 == 0 {
					in[j] = in[j]&^3 | uint32(rng.IntN(3)) // no input that is 0 in every lane
				}
			}
			want := ^uint64(0)
			for _, a := range in {
				want &= val[a]
			}
			if got := andWide(val, in); got != want {
				t.Fatalf("width %d, inputs %v: %x, want %x", width, in, got, want)
			}
		}
	}
}

// stuck is a game whose terminal reads "the player in control has no legal move" (hasMove, the
// OR of the legal conditions of the role's group guarded by control), as speedChess's does: two
// tokens on a line, white's moving right, black's left, one or two cells, over free cells, and
// the cells they enter are no longer free. With unguarded, terminal also reads white's hasMove
// without the guard.
func stuck(unguarded bool) string {
	src := `(role white) (role black)
(init (control white)) (init (at white 1)) (init (at black 9))
(init (free 2)) (init (free 3)) (init (free 4)) (init (free 5)) (init (free 6)) (init (free 7))
(init (free 8))
(succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5) (succ 5 6) (succ 6 7) (succ 7 8) (succ 8 9)
(<= (forward white ?a ?b) (succ ?a ?b))
(<= (forward black ?a ?b) (succ ?b ?a))
(<= (legalMove ?p (go ?c)) (true (at ?p ?a)) (forward ?p ?a ?c) (true (free ?c)))
(<= (legalMove ?p (jump ?c)) (true (at ?p ?a)) (forward ?p ?a ?b) (forward ?p ?b ?c)
    (true (free ?b)) (true (free ?c)))
(<= (legal ?p ?m) (true (control ?p)) (legalMove ?p ?m))
(<= (legal ?p noop) (role ?p) (not (true (control ?p))))
(<= (hasMove ?p) (legalMove ?p ?m))
(<= terminal (true (control ?p)) (not (hasMove ?p)))
(<= (entered ?c) (does ?p (go ?c)))
(<= (entered ?c) (does ?p (jump ?c)))
(<= (next (at ?p ?c)) (does ?p (go ?c)))
(<= (next (at ?p ?c)) (does ?p (jump ?c)))
(<= (next (at ?p ?a)) (true (at ?p ?a)) (does ?p noop))
(<= (next (free ?c)) (true (free ?c)) (not (entered ?c)))
(<= (next (control white)) (true (control black)))
(<= (next (control black)) (true (control white)))
(<= (goal ?p 0) (true (control ?p)))
(<= (goal ?p 100) (role ?p) (not (true (control ?p))))
`
	if unguarded {
		src += "(<= terminal (not (hasMove white)) (true (free 5)))\n"
	}
	return src
}

// The OR of a group's legal conditions that a gate reads only where the group's guard holds is
// derived from gathering the moves (findDerived), and otherwise evaluated; either way every
// lane agrees with the Machine and the interpreter.
func TestLanesDerived(t *testing.T) {
	for _, c := range []struct {
		unguarded bool
		want      [2]bool // per role: its group of control's OR derived
	}{{false, [2]bool{true, true}}, {true, [2]bool{false, true}}} {
		src := stuck(c.unguarded)
		_, _, n, _ := build(t, src, laneLimits)
		p := n.lanes()
		var got [2]bool
		for r := range got {
			for _, s := range p.derived[r] {
				got[r] = got[r] || s >= 0
			}
		}
		if got != c.want {
			t.Errorf("unguarded %v: derived per role %v, want %v", c.unguarded, got, c.want)
		}
		if _, err := laneWalk(src, laneLimits, 40, 64, 1); err != nil {
			t.Errorf("unguarded %v: %v", c.unguarded, err)
		}
	}
}

// Keeping the lanes in phase (holdLanes) delays playouts but does not change them: per lane,
// the playouts of a run that keeps them in phase and of one that does not are the same, the
// one list a prefix of the other; and in a game of turns the two runs differ in order.
func TestLanesPhase(t *testing.T) {
	for name, src := range laneGames() {
		_, gr, n, _ := build(t, src, laneLimits)
		init := initBits(n, gr)
		p := n.lanes()
		var runs [2][]playoutEnd
		for k := range runs {
			p.phase = k == 1
			runs[k] = runPlayouts(n, init, 7, 12, 500)
		}
		var lanes [2][64][]playoutEnd
		for k, ends := range runs {
			for _, e := range ends {
				lanes[k][e.Lane] = append(lanes[k][e.Lane], e)
			}
		}
		for lane := range 64 {
			a, b := lanes[0][lane], lanes[1][lane]
			for i := range min(len(a), len(b)) {
				if a[i].PlayoutResult != b[i].PlayoutResult || a[i].Seed != b[i].Seed || !slices.EqualFunc(a[i].goals, b[i].goals, slices.Equal) {
					t.Fatalf("%s lane %d playout %d: %+v, in phase %+v", name, lane, i, a[i], b[i])
				}
			}
		}
		same := slices.EqualFunc(runs[0], runs[1], func(x, y playoutEnd) bool { return x.Lane == y.Lane && x.Seed == y.Seed })
		if name == "stuck" && same {
			t.Errorf("%s: in phase, the playouts end in the same order: no lane was held back", name)
		}
	}
}

// turns is a game of turns whose legal moves read gates that only the player in control needs:
// two tokens on a line of nine cells, each player stepping to a free cell next to its token
// (near: a gate read by the player's legal conditions only) or staying.
func turns() string {
	src := `(role white) (role black)
(init (control white)) (init (at white 1)) (init (at black 9)) (init (step 0))
(<= (adj ?a ?b) (succ ?a ?b))
(<= (adj ?a ?b) (succ ?b ?a))
(<= (near ?p ?c) (true (at ?p ?a)) (adj ?a ?c))
(<= (taken ?c) (true (at ?p ?c)))
(<= (free ?c) (cell ?c) (not (taken ?c)))
(<= (legal ?p (go ?c)) (true (control ?p)) (near ?p ?c) (free ?c))
(<= (legal ?p stay) (true (control ?p)))
(<= (legal ?p noop) (role ?p) (not (true (control ?p))))
(<= (next (at ?p ?c)) (does ?p (go ?c)))
(<= (next (at ?p ?a)) (true (at ?p ?a)) (not (moved ?p)))
(<= (moved ?p) (does ?p (go ?c)))
(<= (next (control white)) (true (control black)))
(<= (next (control black)) (true (control white)))
(<= (next (step ?m)) (true (step ?n)) (succ ?n ?m))
(<= terminal (true (step 9)))
(<= (goal ?p 100) (true (at ?p 5)))
(<= (goal ?p 0) (role ?p) (not (true (at ?p 5))))
`
	for i := 1; i <= 9; i++ {
		src += fmt.Sprintf("(cell %d) (succ %d %d)\n", i, i-1, i)
	}
	return src
}

// Lanes skips the gates that only the player in control needs (findNeeds): turns's layout has
// segments of gates that need (control white) and (control black), and its lanes agree with
// the Machine in every step (TestLanesAgree, with lanes at both players' turns) and in
// Playouts, which skips those segments when no lane needs them, against Replay, which
// evaluates one lane (TestLanesPlayoutsReplay); both have turns among their games.
func TestLanesGuardedSegments(t *testing.T) {
	_, gr, n, _ := build(t, turns(), laneLimits)
	p := n.lanes()
	guarded := map[uint32]int{}
	for _, sg := range p.aSegs {
		if sg.guard != laneAll {
			guarded[sg.guard] += int(sg.gates)
		}
	}
	var want []uint32
	for _, f := range []string{"(control white)", "(control black)"} {
		i := slices.IndexFunc(gr.Fluents, func(t eval.Term) bool { return n.g.String(t) == f })
		want = append(want, uint32(baseSlot+i)<<1)
	}
	for _, g := range want {
		if guarded[g] == 0 {
			t.Errorf("no gate needs guard %d: segments guarded %v", g, guarded)
		}
	}
	if !p.phase {
		t.Errorf("the lanes are not kept in phase")
	}
}
