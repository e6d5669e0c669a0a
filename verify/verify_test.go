package verify

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/game"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/verify")

var bg = context.Background()

var engines = []game.Engine{game.Compiled, game.Interpreted}

func load(t *testing.T, path string, e game.Engine) *game.Game {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	g, _, err := game.Load(bg, string(src), game.Options{Engine: e})
	if err != nil {
		t.Fatal(err)
	}
	if e != game.Auto && g.Engine() != e {
		t.Fatalf("%s: engine %s, want %s", path, g.Engine(), e)
	}
	return g
}

// want is a `; want: PROPERTY ROLE KIND LENGTH` line of a test game: a finding expected, with
// the number of joint moves of its witness (ROLE is - for none).
type want struct {
	property, role, kind string
	length               int
}

func (w want) String() string {
	return fmt.Sprintf("%s %s %s %d", w.property, w.role, w.kind, w.length)
}

func wants(t *testing.T, path string) []want {
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []want
	for _, line := range strings.Split(string(src), "\n") {
		rest, ok := strings.CutPrefix(line, "; want: ")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		n, err := strconv.Atoi(f[len(f)-1])
		if len(f) != 4 || err != nil {
			t.Fatalf("%s: bad want line %q", path, line)
		}
		out = append(out, want{f[0], f[1], f[2], n})
	}
	return out
}

func got(r *Result) []want {
	var out []want
	for _, f := range r.Findings {
		role := f.Role
		if role == "" {
			role = "-"
		}
		out = append(out, want{string(f.Property), role, f.Kind, len(f.Moves)})
	}
	return out
}

// report writes a result without its timing, for the golden files.
func report(r *Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "complete: %v, stopped: %q, states %d, terminal %d, depth %d, full depth %d\n",
		r.Complete, r.Stopped, r.States, r.Terminal, r.Depth, r.FullDepth)
	b.WriteString("properties:")
	for _, p := range Properties {
		fmt.Fprintf(&b, " %s %s", p, r.Properties[p])
	}
	b.WriteString("\n")
	for _, rr := range r.Roles {
		fmt.Fprintf(&b, "role %s: random %v, weak %s, strong %s, best %d\n", rr.Role, rr.Random, rr.Weak, rr.Strong, rr.Best)
	}
	for _, f := range r.Findings {
		fmt.Fprintf(&b, "finding: %s %q %s, count %d, loop %d, subject %q, relations %v\n  %s\n  --moves '%s'\n",
			f.Property, f.Role, f.Kind, f.Count, f.Loop, f.Subject, f.Relations, f.Message, strings.Join(f.Joints, " "))
		if f.Explanation != nil {
			for _, l := range strings.Split(strings.TrimSuffix(f.Explanation.Text(""), "\n"), "\n") {
				b.WriteString("  | " + l + "\n")
			}
		}
	}
	for _, e := range r.Errors {
		fmt.Fprintf(&b, "error: %s\n  --moves '%s'\n", e.Message, strings.Join(e.Joints, " "))
	}
	return b.String()
}

// TestGames verifies the games of testdata/verify on both engines: the findings are the ones
// their `; want:` lines list, the report equals the golden file (the same for both engines),
// and every witness replays to its defect.
func TestGames(t *testing.T) {
	files, _ := filepath.Glob("../testdata/verify/*.kif")
	if len(files) == 0 {
		t.Fatal("no test games")
	}
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".kif")
		t.Run(name, func(t *testing.T) {
			golden := strings.TrimSuffix(path, ".kif") + ".golden"
			for _, e := range engines {
				g := load(t, path, e)
				r, err := Verify(bg, g, Options{})
				if err != nil {
					t.Fatalf("%s: %v", e, err)
				}
				if !r.Complete {
					t.Errorf("%s: not complete: %s", e, r.Stopped)
				}
				if w, gt := wants(t, path), got(r); !slices.Equal(w, gt) {
					t.Errorf("%s: findings %v, want %v", e, gt, w)
				}
				for i := range r.Findings {
					replayDefect(t, g, &r.Findings[i])
				}
				text := report(r)
				if *update && e == game.Compiled {
					if err := os.WriteFile(golden, []byte(text), 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (run with -update to make it)", err)
				}
				if text != string(want) {
					t.Errorf("%s: report differs from %s:\n%s\nwant:\n%s", e, golden, text, want)
				}
			}
		})
	}
}

// replayDefect plays a finding's witness through the game API and checks, independently of the
// verifier's own check, that the defect is there.
func replayDefect(t *testing.T, g *game.Game, f *Finding) {
	t.Helper()
	p, err := g.Replay(bg, f.Moves)
	if err != nil || p.Err != nil {
		t.Fatalf("%s: witness does not replay: %v %v", f.Property, err, p.Err)
	}
	joints, err := g.ParseJointMoves(strings.Join(f.Joints, " "))
	if err != nil || !slices.EqualFunc(joints, f.Moves, slices.Equal) {
		t.Errorf("%s: the KIF of the witness reads back as %v, not %v (%v)", f.Property, joints, f.Moves, err)
	}
	s := p.State()
	role := slices.Index(g.RoleNames(), f.Role)
	term, _ := g.Terminal(bg, s)
	legal, _ := g.Legal(bg, s)
	goals, _ := g.Goals(bg, s)
	ok := false
	switch f.Property {
	case Termination:
		// A cycle: the state after the moves is the one the loop started from. No terminal
		// state: an exhaustive search from the state finds no terminal state.
		if f.Kind == "cycle" {
			ok = !term && f.Loop > 0 && p.States[len(p.States)-1-f.Loop].Key() == s.Key()
		} else {
			ok = !term && !terminalReachable(t, g, s)
		}
	case Playability:
		ok = !term && len(legal[role]) == 0
	case Goal:
		vals := goals[role]
		switch f.Kind {
		case "no-goal":
			ok = term && len(vals) == 0
		case "several-goals":
			ok = term && len(vals) > 1
		default:
			v, isInt := g.Int(vals[0])
			ok = term && len(vals) == 1 && (!isInt || v < 0 || v > 100)
		}
	case Winnability:
		v, _ := g.Int(goals[role][0])
		ok = term && len(goals[role]) == 1 && v < 100
	case Input:
		m, _ := g.ParseTerm(f.Subject)
		q, _ := g.ParseQuery("(input " + f.Role + " " + f.Subject + ")")
		answers, _ := g.Ask(bg, s, nil, q)
		ok = slices.Contains(legal[role], m) && len(answers) == 0
	case Base:
		fl, _ := g.ParseTerm(f.Subject)
		q, _ := g.ParseQuery("(base " + f.Subject + ")")
		answers, _ := g.Ask(bg, s, nil, q)
		ok = slices.Contains(s.Fluents(), fl) && len(answers) == 0
	}
	if !ok {
		t.Errorf("%s %s %s: the witness %v does not show the defect", f.Property, f.Role, f.Kind, f.Joints)
	}
}

// terminalReachable searches the states reachable from s, depth first.
func terminalReachable(t *testing.T, g *game.Game, s *game.State) bool {
	seen := map[string]bool{s.Key(): true}
	stack := []*game.State{s}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if term, _ := g.Terminal(bg, s); term {
			return true
		}
		joints, _, err := g.JointMoves(bg, s, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		for _, j := range joints {
			n, err := g.Next(bg, s, j)
			if err != nil {
				t.Fatal(err)
			}
			if !seen[n.Key()] {
				seen[n.Key()] = true
				stack = append(stack, n)
			}
		}
	}
	return false
}

// The team's test games are well-formed: verification proves it, but for the state that grows
// without end and the games too big to explore whole.
func TestProjectGames(t *testing.T) {
	files, _ := filepath.Glob("../testdata/games/*.kif")
	for _, path := range files {
		name := filepath.Base(path)
		g := load(t, path, game.Auto)
		opts := Options{}
		if name == "sim.kif" || name == "connectfour.kif" {
			opts.MaxStates = 3000
		}
		r, err := Verify(bg, g, opts)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		switch name {
		case "growing.kif":
			// Each move nests a term one level deeper: the state at the term depth limit cannot
			// be evaluated, which is reported with the moves that reach it.
			if r.Complete || r.Stopped != "errors" || len(r.Errors) != 1 || len(r.Findings) != 0 ||
				!strings.Contains(r.Errors[0].Message, "term depth limit") || r.Properties[Termination] != Unknown {
				t.Errorf("%s: %s", name, report(r))
			}
			if len(r.Errors) == 1 {
				p, err := g.Replay(bg, r.Errors[0].Moves)
				if err != nil || p.Err != nil {
					t.Errorf("%s: the moves of the error do not replay: %v %v", name, err, p.Err)
				} else if joints, _, err := g.JointMoves(bg, p.State(), 1); err != nil || len(joints) != 1 {
					t.Errorf("%s: %v", name, err)
				} else if _, err := g.Next(bg, p.State(), joints[0]); err == nil {
					t.Errorf("%s: the next state of the error's state evaluates", name)
				}
			}
		case "sim.kif", "connectfour.kif":
			if r.Complete || r.Stopped != "max-states" || r.States != 3000 || len(r.Findings) != 0 ||
				r.Properties[Termination] != Unknown || r.Properties[Winnability] != Unknown {
				t.Errorf("%s: %s", name, report(r))
			}
		default:
			if !r.Complete || r.Found() {
				t.Errorf("%s: %s", name, report(r))
			}
			for p, s := range r.Properties {
				if s != OK && !(s == Skipped && (p == Input || p == Base)) {
					t.Errorf("%s: %s is %s", name, p, s)
				}
			}
		}
	}
}

// A budget that runs out leaves the result incomplete: what was found stays, and properties
// without a finding are unknown, not failed.
func TestBudget(t *testing.T) {
	g := load(t, "../testdata/verify/playability.kif", game.Compiled)
	// States by depth: 1, 3, 4, 5, 6, 7, 7, ... (the step is the depth; progress 0 with the
	// last presses the same or not, and each progress up to the depth reached by the code).
	// 19 states: every state up to depth 4, none of depth 5.
	r, err := Verify(bg, g, Options{MaxStates: 19})
	if err != nil {
		t.Fatal(err)
	}
	if r.Complete || r.Stopped != "max-states" || r.States != 19 || r.FullDepth != 4 || r.Depth != 4 || r.Found() {
		t.Errorf("max-states: %s", report(r))
	}
	for _, p := range []Property{Termination, Playability, Goal, Winnability} {
		if r.Properties[p] != Unknown {
			t.Errorf("max-states: %s is %s, want unknown", p, r.Properties[p])
		}
	}
	// Every state up to depth 5, with the defect, and not the whole game: the finding is kept.
	r, err = Verify(bg, g, Options{MaxStates: 26})
	if err != nil {
		t.Fatal(err)
	}
	if r.Complete || r.FullDepth != 5 || len(r.Findings) != 1 || r.Properties[Playability] != Failed || r.Properties[Termination] != Unknown {
		t.Errorf("max-states 26: %s", report(r))
	}
	r, err = Verify(bg, g, Options{Timeout: time.Nanosecond})
	if err != nil {
		t.Fatal(err)
	}
	if r.Complete || r.Stopped != "timeout" || r.Found() || r.Properties[Termination] != Unknown || r.Properties[Winnability] != Unknown {
		t.Errorf("timeout: %s", report(r))
	}
}

// The context cancels a search; progress is reported while it runs.
func TestCancelAndProgress(t *testing.T) {
	g := load(t, "../testdata/games/tictactoe.kif", game.Compiled)
	ctx, cancel := context.WithCancel(bg)
	var seen []Progress
	_, err := Verify(ctx, g, Options{ProgressEvery: time.Nanosecond, Progress: func(p Progress) {
		seen = append(seen, p)
		if p.Explored >= 1000 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	if len(seen) < 2 || seen[len(seen)-1].Explored < 1000 || seen[0].Explored > seen[1].Explored {
		t.Errorf("progress: %+v", seen)
	}
	r, err := Verify(bg, g, Options{})
	if err != nil || !r.Complete || r.States != 5478 || r.Terminal != 958 {
		t.Errorf("tic-tac-toe: %v %s", err, report(r))
	}
}

// CheckWitness, which Verify runs on every finding, rejects a witness that does not show the
// defect.
func TestCheckWitnessRejects(t *testing.T) {
	for _, name := range []string{"playability", "goal", "termination", "winnability", "input", "base"} {
		g := load(t, "../testdata/verify/"+name+".kif", game.Compiled)
		r, err := Verify(bg, g, Options{})
		if err != nil || len(r.Findings) == 0 {
			t.Fatalf("%s: %v %d findings", name, err, len(r.Findings))
		}
		f := r.Findings[0]
		if err := CheckWitness(bg, g, &f); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		short := f
		short.Moves = f.Moves[:len(f.Moves)-1]
		if err := CheckWitness(bg, g, &short); err == nil {
			t.Errorf("%s: a witness without its last joint move passes", name)
		}
	}
	// A joint move that is not legal.
	g := load(t, "../testdata/verify/playability.kif", game.Compiled)
	r, _ := Verify(bg, g, Options{})
	f := r.Findings[0]
	bad, err := g.ParseJointMoves("((press z) (press a))")
	if err != nil {
		t.Fatal(err)
	}
	f.Moves = append(bad, f.Moves[1:]...)
	if err := CheckWitness(bg, g, &f); err == nil || !strings.Contains(err.Error(), "does not replay") {
		t.Errorf("illegal witness: %v", err)
	}
}

// deepening nests a term one level deeper with each grow; flip toggles a flag back and forth.
// With a term depth limit of 4 the states after four grows cannot be evaluated, while the flips
// make cycles everywhere.
const deepening = `(role p)
(init (count z))
(legal p grow)
(legal p flip)
(<= (next (count (s ?c))) (does p grow) (true (count ?c)))
(<= (next (count ?c)) (does p flip) (true (count ?c)))
(<= (next on) (does p flip) (not (true on)))
(<= (next on) (does p grow) (true on))
(<= terminal (true (count (s (s (s (s (s z))))))))
(goal p 100)
`

// A state that cannot be evaluated leaves a gap in the explored graph; the states after it keep
// their own successors (regression: they took their neighbour's, and the cycle found did not
// replay).
func TestErrorStateKeepsGraph(t *testing.T) {
	g, _, err := game.Load(bg, deepening, game.Options{Engine: game.Interpreted, Limits: eval.Limits{MaxDepth: 4}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := Verify(bg, g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Complete || r.Stopped != "errors" || len(r.Errors) != 2 || got(r) == nil || r.Findings[0].Kind != "cycle" {
		t.Fatalf("%s", report(r))
	}
	for i := range r.Findings {
		replayDefect(t, g, &r.Findings[i])
	}
}

// A base whose rules have no defined meaning (a variable in a fact, as some corpus games write
// patterns) is not checked, and says so; the rest of the game is verified.
func TestUnsafeBaseIsNotChecked(t *testing.T) {
	src, err := os.ReadFile("../testdata/verify/clean.kif")
	if err != nil {
		t.Fatal(err)
	}
	g, _, err := game.Load(bg, string(src)+"(base (step ?n))\n", game.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := Verify(bg, g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Complete || r.Found() || r.Properties[Base] != Skipped || r.Properties[Termination] != OK || len(r.Notes) != 1 ||
		!strings.Contains(r.Notes[0], "base coverage is not checked: base/1 has no defined meaning") {
		t.Errorf("%s\nnotes %q", report(r), r.Notes)
	}
}

// base in the notation before 2010 (domain declarations with several arguments) is not checked.
func TestLegacyBaseIsNotChecked(t *testing.T) {
	src, err := os.ReadFile("../testdata/verify/base.kif")
	if err != nil {
		t.Fatal(err)
	}
	g, _, err := game.Load(bg, string(src)+"(base step (val 0 1 2 3 4 5 6 7 8 9 10))\n", game.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := Verify(bg, g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Complete || r.Found() || r.Properties[Base] != Skipped || r.Properties[Input] != OK || len(r.Notes) != 1 ||
		r.Notes[0] != "base coverage is not checked: base is written with 2 arguments too, not only 1: the notation before 2010 (late-keyword-as-term)" {
		t.Errorf("%s\nnotes %q", report(r), r.Notes)
	}
}

// layered, termination's shortcut, holds only of graphs where sccs finds no cycle and no trap;
// the games of testdata/verify have both kinds of graph.
func TestLayeredAgreesWithSCCs(t *testing.T) {
	paths, err := filepath.Glob("../testdata/verify/*.kif")
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[bool]int{}
	for _, path := range paths {
		for _, e := range engines {
			x, err := explore(bg, load(t, path, e), Options{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			sc, layered := x.sccs(), x.layered()
			kinds[layered]++
			if layered && (sc.entry >= 0 || sc.trap >= 0 || sc.onCycles != 0 || sc.traps != 0) {
				t.Errorf("%s (%s): layered, but sccs finds %+v", path, e, sc)
			}
		}
	}
	if kinds[true] == 0 || kinds[false] == 0 {
		t.Errorf("layered and not: %v, want both", kinds)
	}
}
