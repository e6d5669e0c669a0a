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
	DepthLimit *struct {
		MaxDepth int `json:"max_depth"`
		Playouts int
		Moves    []string
	} `json:"depth_limit"`
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

// loopGame never ends: every playout reaches --max-depth.
const loopGame = `(role a)
(init (s 0))
(legal a go)
(<= (next (s ?x)) (true (s ?x)))
(<= terminal (true (s 1)))
(goal a 0)
`

// TestPlayDepthLimit: playouts that reach --max-depth are a possible non-termination of their
// own (exit 0, pointing to gdl verify), not a violation like a missing goal; a move sequence
// longer than a screen is written only to the --moves-out file.
func TestPlayDepthLimit(t *testing.T) {
	bin := buildGDL(t)
	game := writeGame(t, loopGame)
	out, code := playJSONOf(t, bin, game, "--playouts", "5", "--max-depth", "3")
	if code != 0 || len(out.Violations) != 0 || out.DepthLimit == nil {
		t.Fatalf("exit %d, violations %+v, depth limit %+v", code, out.Violations, out.DepthLimit)
	}
	if d := out.DepthLimit; d.MaxDepth != 3 || d.Playouts != 5 || strings.Join(d.Moves, " ") != "(go) (go) (go)" {
		t.Errorf("depth limit %+v", d)
	}
	text, _, code := gdl(t, bin, "play", game, "--playouts", "5", "--max-depth", "3")
	if code != 0 || !strings.Contains(text, "violations: none\n") ||
		!strings.Contains(text, "possible non-termination: 5 of 5 playouts reached --max-depth 3 without a terminal state") ||
		!strings.Contains(text, "gdl verify") || !strings.Contains(text, "--moves '(go) (go) (go)'") {
		t.Errorf("exit %d\n%s", code, text)
	}
	// 200 joint moves: not printed; written once, to the file, when asked.
	text, _, _ = gdl(t, bin, "play", game, "--playouts", "2", "--max-depth", "200")
	if strings.Contains(text, "(go) (go)") || !strings.Contains(text, "200 joint moves (give --moves-out FILE to have them written)") {
		t.Errorf("long moves:\n%s", text)
	}
	file := filepath.Join(t.TempDir(), "moves.txt")
	text, _, _ = gdl(t, bin, "play", game, "--playouts", "2", "--max-depth", "200", "--moves-out", file)
	if strings.Contains(text, "(go) (go)") || !strings.Contains(text, "200 joint moves, written to line 1 of "+file) {
		t.Errorf("--moves-out:\n%s", text)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.TrimSpace(strings.Repeat("(go) ", 200)) + "\n"; string(data) != want {
		t.Errorf("moves file %q", data)
	}
	// The line replays with gdl query --moves.
	if out, errOut, code := gdl(t, bin, "query", game, "terminal", "--moves", strings.TrimSpace(string(data))); code != 0 || out != "false\n" {
		t.Errorf("replay: exit %d, %q %q", code, out, errOut)
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
	stdout, stderr, code := gdl(t, bin, "play", game, "--playouts", "1")
	if code != 1 || !strings.Contains(stdout, "eval-error") || !strings.Contains(stdout, "term depth limit") || !strings.Contains(stdout, "grow/2") {
		t.Errorf("exit %d, stdout %s\nstderr %s", code, stdout, stderr)
	}
}

// An evaluation stopped by a limit in a reachable state is a violation with the joint moves that
// reach it; the other playouts' statistics are still reported.
func TestPlayEvaluationError(t *testing.T) {
	bin := buildGDL(t)
	game := "../../testdata/games/growing.kif"
	out, code := playJSONOf(t, bin, game, "--playouts", "40", "--seed", "3", "--max-term-depth", "4")
	if code != 1 || out.Playouts != 40 || len(out.Violations) != 1 {
		t.Fatalf("exit %d, %+v", code, out)
	}
	v := out.Violations[0]
	if v.Kind != "eval-error" || !strings.Contains(v.Detail, "term depth limit 4") || !strings.Contains(v.Detail, "next/1") ||
		strings.Join(v.Moves, " ") != "(grow) (grow) (grow) (grow)" {
		t.Errorf("violation %+v", v)
	}
	// A playout either stops at once (terminal, goal 100) or grows until the limit.
	if out.Terminal == 0 || out.Terminal+v.Count != 40 || out.MinLength != 1 || out.MaxLength != 4 {
		t.Errorf("terminal %d + eval errors %d of 40; lengths %d to %d", out.Terminal, v.Count, out.MinLength, out.MaxLength)
	}
	if g := out.Goals["player"]; len(g) != 1 || g[0].Value != "100" || g[0].Count != out.Terminal {
		t.Errorf("goals %+v", g)
	}
	// The moves reproduce the error.
	_, stderr, code := gdl(t, bin, "query", game, "(true ?f)", "--max-term-depth", "4", "--moves", strings.Join(v.Moves, " "))
	if code != 1 || !strings.Contains(stderr, "term depth limit 4") {
		t.Errorf("query with the violation's moves: exit %d, %s", code, stderr)
	}
	// Under the default limits the growth stops at depth 256, the same way.
	out, code = playJSONOf(t, bin, game, "--playouts", "10", "--seed", "3")
	if code != 1 || len(out.Violations) != 1 || out.Violations[0].Kind != "eval-error" || len(out.Violations[0].Moves) != 256 {
		t.Errorf("default limits: exit %d, %+v", code, out.Violations)
	}
}

// gdl play reports CPU time beside wall time.
func TestPlayCPUTime(t *testing.T) {
	bin := buildGDL(t)
	stdout, stderr, code := gdl(t, bin, "play", "--format", "json", tttGame, "--playouts", "2000")
	var out struct {
		Playouts   int
		Seconds    float64
		CPUSeconds float64 `json:"cpu_seconds"`
		PerCPU     float64 `json:"playouts_per_cpu_second"`
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil || code != 0 {
		t.Fatalf("exit %d, %v\n%s\n%s", code, err, stdout, stderr)
	}
	if out.CPUSeconds <= 0 || out.PerCPU <= 0 {
		t.Fatalf("no CPU time: %s", stdout)
	}
	if r := out.PerCPU * out.CPUSeconds / float64(out.Playouts); r < 0.99 || r > 1.01 {
		t.Errorf("playouts per CPU second %v and CPU seconds %v do not make %d playouts", out.PerCPU, out.CPUSeconds, out.Playouts)
	}
	stdout, _, _ = gdl(t, bin, "play", tttGame, "--playouts", "20")
	if !strings.Contains(stdout, "s CPU:") || !strings.Contains(stdout, "per CPU second") {
		t.Errorf("text output without CPU time:\n%s", stdout)
	}
}

// TestPlayFigures: the lengths and the first role's outcomes add up to the playouts.
func TestPlayFigures(t *testing.T) {
	bin := buildGDL(t)
	stdout, _, code := gdl(t, bin, "play", tttGame, "--playouts", "200", "--format", "json")
	var out struct {
		Playouts int
		Lengths  []struct{ Length, Count int }
		First    struct {
			Role                string
			Wins, Draws, Losses int
		} `json:"first_player"`
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil || code != 0 {
		t.Fatalf("exit %d, %v", code, err)
	}
	n := 0
	for _, l := range out.Lengths {
		if l.Length < 5 || l.Length > 9 {
			t.Errorf("a tic-tac-toe playout of %d joint moves", l.Length)
		}
		n += l.Count
	}
	if n != 200 || out.First.Role != "xplayer" || out.First.Wins+out.First.Draws+out.First.Losses != 200 || out.First.Wins < out.First.Losses {
		t.Errorf("figures: %+v", out)
	}
}

// TestPlayPlayers pits the MCTS player (a playout budget, so the same on any machine) against
// random play, seats rotated; the options are checked.
func TestPlayPlayers(t *testing.T) {
	bin := buildGDL(t)
	stdout, stderr, code := gdl(t, bin, "play", tttGame, "--players", "mcts,random", "--matches", "4", "--playouts-per-move", "1000", "--format", "json")
	var out struct {
		Players []string
		Results []struct {
			Player                       string
			Matches, Wins, Draws, Losses int
			ByRole                       []struct {
				Role    string
				Matches int
			} `json:"by_role"`
		}
		List []struct {
			Seats  []string
			Goals  []int
			Length int
		} `json:"match_list"`
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil || code != 0 {
		t.Fatalf("exit %d, %v\n%s\n%s", code, err, stdout, stderr)
	}
	mcts := out.Results[0]
	if mcts.Player != "mcts" || mcts.Matches != 4 || mcts.Losses != 0 || mcts.ByRole[0].Matches != 2 || mcts.ByRole[1].Matches != 2 {
		t.Errorf("mcts: %+v", mcts)
	}
	if len(out.List) != 4 || strings.Join(out.List[0].Seats, ",") != "mcts,random" || strings.Join(out.List[1].Seats, ",") != "random,mcts" {
		t.Errorf("seats: %+v", out.List)
	}
	stdout, _, code = gdl(t, bin, "play", tttGame, "--players", "random,random", "--matches", "3", "--rotate=false")
	if code != 0 || !strings.Contains(stdout, "random#1") || !strings.Contains(stdout, "random#2") || !strings.Contains(stdout, "seats fixed") {
		t.Errorf("text: exit %d\n%s", code, stdout)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--players", "mcts,alphazero"}, `"alphazero" is not a player`},
		{[]string{"--players", "mcts"}, "names 1 players"},
		{[]string{"--players", "mcts,random", "--playouts", "10"}, "--playouts and --time are for random playouts"},
		{[]string{"--matches", "3"}, "give --players"},
		{[]string{"--players", "mcts,random", "--matches", "0"}, "--matches must be at least 1"},
		{[]string{"--players", "mcts,random", "--movetime", "0s"}, "positive --movetime"},
	} {
		if _, stderr, code := gdl(t, bin, append([]string{"play", tttGame}, c.args...)...); code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %s; want 2 and %q", c.args, code, stderr, c.want)
		}
	}
}

// TestPlayPlayersStatistics: the figures of one-role games and of GDL-II's random role. In a
// game of one role a win is the goal 100; the random role is chance: it may be left out of
// --players, it plays at random, and no table has it; the header speaks of mcts only when an
// mcts player takes part.
func TestPlayPlayersStatistics(t *testing.T) {
	bin := buildGDL(t)
	const buttons = "../../testdata/games/buttons.kif"
	const monty = "../../testdata/games/montyhall.kif"
	stdout, stderr, code := gdl(t, bin, "play", buttons, "--players", "random", "--matches", "20")
	if code != 0 || strings.Contains(stdout, "mcts") || !strings.Contains(stdout, "one role: a win is the goal 100") {
		t.Errorf("buttons: exit %d\n%s%s", code, stdout, stderr)
	}
	// buttons gives random play the goal 0 or a goal below 100 in most matches: not wins.
	type results struct {
		Players []string
		Results []struct {
			Player        string
			Matches, Wins int
			Losses        int
			MeanGoal      float64                 `json:"mean_goal"`
			ByRole        []struct{ Role string } `json:"by_role"`
		}
		List []struct {
			Seats []string
			Goals []int
		} `json:"match_list"`
	}
	read := func(args ...string) results {
		t.Helper()
		stdout, stderr, code := gdl(t, bin, append([]string{"play"}, args...)...)
		var out results
		if err := json.Unmarshal([]byte(stdout), &out); err != nil || code != 0 {
			t.Fatalf("%v: exit %d, %v\n%s%s", args, code, err, stdout, stderr)
		}
		return out
	}
	out := read(buttons, "--players", "random", "--matches", "20", "--format", "json")
	wins := 0
	for _, m := range out.List {
		if m.Goals[0] == 100 {
			wins++
		}
	}
	if r := out.Results[0]; r.Wins != wins || r.Wins+r.Losses != 20 {
		t.Errorf("buttons: %d matches with the goal 100, %+v", wins, r)
	}
	// Monty Hall: the random role left out, or given as random; no table has it.
	for _, players := range []string{"mcts", "mcts,random"} {
		out = read(monty, "--players", players, "--matches", "10", "--playouts-per-move", "200", "--format", "json")
		if len(out.Results) != 1 || out.Results[0].Player != "mcts" || len(out.Results[0].ByRole) != 1 || out.Results[0].ByRole[0].Role != "contestant" {
			t.Errorf("--players %s: %+v", players, out.Results)
		}
		if strings.Join(out.List[0].Seats, ",") != "mcts,random (chance)" {
			t.Errorf("--players %s: seats %v", players, out.List[0].Seats)
		}
	}
	stdout, _, code = gdl(t, bin, "play", monty, "--players", "random", "--matches", "3")
	if code != 0 || strings.Contains(stdout, "mcts") || !strings.Contains(stdout, "the random role plays at random") || strings.Contains(stdout, "\nrandom#") {
		t.Errorf("monty hall, random: exit %d\n%s", code, stdout)
	}
	for _, c := range []struct {
		players, want string
	}{
		{"mcts,mcts", "role random is GDL-II's chance and plays at random"},
		{"mcts,random,random", "give 2 (or 1, leaving out the random role"},
	} {
		if _, stderr, code := gdl(t, bin, "play", monty, "--players", c.players); code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("--players %s: exit %d, %s; want %q", c.players, code, stderr, c.want)
		}
	}
}
