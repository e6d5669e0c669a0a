package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type playOut struct {
	Playouts   int
	MeanLength float64 `json:"mean_length"`
	MinLength  int     `json:"min_length"`
	MaxLength  int     `json:"max_length"`
	Terminal   int
	Roles      []string
	Goals      map[string][]struct {
		Value string
		Count int
	}
	Violations []struct {
		Kind, Role, Detail string
		Count              int
		Moves              []string
	}
}

func playJSONOf(t *testing.T, bin string, args ...string) (playOut, int) {
	t.Helper()
	stdout, stderr, code := gdl(t, bin, append([]string{"play", "--format", "json"}, args...)...)
	var out playOut
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatalf("gdl play %v: exit %d, %v\nstdout %s\nstderr %s", args, code, err, stdout, stderr)
	}
	return out, code
}

func TestPlayTicTacToe(t *testing.T) {
	bin := buildGDL(t)
	out, code := playJSONOf(t, bin, tttGame, "--playouts", "300", "--seed", "7")
	if code != 0 || len(out.Violations) != 0 {
		t.Fatalf("exit %d, violations %+v", code, out.Violations)
	}
	if out.Playouts != 300 || out.Terminal != 300 || out.MinLength < 5 || out.MaxLength > 9 {
		t.Errorf("tic-tac-toe lasts 5 to 9 moves: %+v", out)
	}
	for _, r := range []string{"xplayer", "oplayer"} {
		total := 0
		for _, gn := range out.Goals[r] {
			if gn.Value != "0" && gn.Value != "50" && gn.Value != "100" {
				t.Errorf("%s: goal value %s", r, gn.Value)
			}
			total += gn.Count
		}
		if total != 300 {
			t.Errorf("%s: %d goal values for 300 playouts", r, total)
		}
	}
	// The same seed plays the same games.
	again, _ := playJSONOf(t, bin, tttGame, "--playouts", "300", "--seed", "7")
	if again.MeanLength != out.MeanLength || len(again.Goals["xplayer"]) != len(out.Goals["xplayer"]) {
		t.Errorf("seed 7 twice: %+v vs %+v", out, again)
	}
	stdout, _, code := gdl(t, bin, "play", tttGame, "--playouts", "20")
	if code != 0 || !strings.Contains(stdout, "playouts/s") || !strings.Contains(stdout, "violations: none") {
		t.Errorf("text output, exit %d:\n%s", code, stdout)
	}
}

func writeGame(t *testing.T, src string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "game.kif")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestPlayViolations(t *testing.T) {
	bin := buildGDL(t)
	cases := []struct {
		name, src string
		args      []string
		kind      string
		role      string
		moves     string
	}{
		{"no legal move", `(role a) (role b)
			(init (s 0))
			(<= (legal a go) (true (s 0)))
			(<= (legal b wait) (true (s ?n)))
			(<= (next (s 1)) (true (s 0)))
			(<= terminal (true (s 2)))
			(goal a 0) (goal b 0)`, nil, "no-legal-move", "a", "(go wait)"},
		{"two goal values", `(role a)
			(init (s 0))
			(legal a go)
			(<= (next (s 1)) (true (s 0)))
			(<= terminal (true (s 1)))
			(<= (goal a 100) (true (s 1)))
			(<= (goal a 0) (true (s ?x)))`, nil, "goal", "a", "(go)"},
		{"no goal value", `(role a)
			(init (s 0))
			(legal a go)
			(<= (next (s 1)) (true (s 0)))
			(<= terminal (true (s 1)))
			(<= (goal a 100) (true (s 0)))`, nil, "goal", "a", "(go)"},
		{"depth limit", `(role a)
			(init (s 0))
			(legal a go)
			(<= (next (s ?x)) (true (s ?x)))
			(<= terminal (true (s 1)))
			(goal a 0)`, []string{"--max-depth", "3"}, "depth-limit", "", "(go) (go) (go)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			game := writeGame(t, c.src)
			out, code := playJSONOf(t, bin, append([]string{game, "--playouts", "5"}, c.args...)...)
			if code != 1 || len(out.Violations) != 1 {
				t.Fatalf("exit %d, violations %+v", code, out.Violations)
			}
			v := out.Violations[0]
			if v.Kind != c.kind || v.Role != c.role || v.Count != 5 || strings.Join(v.Moves, " ") != c.moves {
				t.Errorf("violation %+v, want kind %s role %q moves %s", v, c.kind, c.role, c.moves)
			}
		})
	}
}

func TestPlayStopsRunawayRules(t *testing.T) {
	bin := buildGDL(t)
	game := writeGame(t, `(role a) (init (s 0)) (legal a go)
		(<= (next (s (f ?x))) (true (s ?x)))
		(<= (next (s ?y)) (true (s ?x)) (grow ?x ?y))
		(<= (grow ?x (g ?x)) (true (s ?x)))
		(<= (grow ?x (g ?y)) (grow ?x ?y))
		(<= terminal (true (s done)))`)
	_, stderr, code := gdl(t, bin, "play", game, "--playouts", "1")
	if code != 1 || !strings.Contains(stderr, "term depth limit") || !strings.Contains(stderr, "grow/2") {
		t.Errorf("exit %d, stderr %s", code, stderr)
	}
}
