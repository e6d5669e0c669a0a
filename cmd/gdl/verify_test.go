package main

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/gdl-lsp/gdl/game"
)

type verifyOut struct {
	Complete   bool
	Stopped    string
	States     int
	Depth      int
	FullDepth  int `json:"full_depth"`
	Properties map[string]string
	Findings   []struct {
		Property, Kind, Role, Message string
		Moves                         []string
		Infix                         []string `json:"moves_infix"`
		Count                         int
		Explanation                   struct {
			Literal string
			Holds   bool
			WhyNot  *struct{ Kind string } `json:"why_not"`
		}
	}
}

func verifyJSONOf(t *testing.T, bin string, args ...string) (verifyOut, int) {
	t.Helper()
	stdout, stderr, code := gdl(t, bin, append([]string{"verify", "--format", "json"}, args...)...)
	var out verifyOut
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatalf("gdl verify %v: exit %d, %v\nstdout %s\nstderr %s", args, code, err, stdout, stderr)
	}
	return out, code
}

const (
	verifyPlayability = "../../testdata/verify/playability.kif"
	verifyClean       = "../../testdata/verify/clean.kif"
)

// A finding's moves, given to gdl query --moves, reach the state where it shows: here bob has
// no legal move and the state is not terminal.
func TestVerifyWitnessReplaysWithQuery(t *testing.T) {
	bin := buildGDL(t)
	stdout, stderr, code := gdl(t, bin, "verify", verifyPlayability)
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s%s", code, stdout, stderr)
	}
	var lines, explanation []string
	for _, l := range strings.Split(strings.TrimSpace(stdout), "\n") {
		if strings.HasPrefix(l, "    ") {
			explanation = append(explanation, l)
		} else {
			lines = append(lines, l)
		}
	}
	if len(explanation) == 0 || !strings.Contains(explanation[0], "(legal bob ?move)  does not hold") {
		t.Errorf("no explanation under the finding:\n%s", stdout)
	}
	if len(lines) != 2 || !strings.HasPrefix(lines[0], verifyPlayability+": playability (bob): bob has no legal move") ||
		!strings.Contains(lines[1], "complete: 61 states") || !strings.Contains(lines[1], "playability failed") || !strings.HasSuffix(lines[1], "; 1 finding") {
		t.Fatalf("text output:\n%s", stdout)
	}
	m := regexp.MustCompile(`--moves '([^']*)'$`).FindStringSubmatch(lines[0])
	if m == nil {
		t.Fatalf("no moves in %q", lines[0])
	}
	out, _, code := gdl(t, bin, "query", verifyPlayability, "(legal bob ?m)", "terminal", "(legal alice ?m)", "--moves", m[1])
	if code != 0 || out != "; (legal bob ?m)\n\n; terminal\nfalse\n\n; (legal alice ?m)\n(legal alice (press a))\n(legal alice (press b))\n(legal alice (press c))\n(legal alice (press d))\n" {
		t.Errorf("query after the witness: exit %d\n%s", code, out)
	}

	// The same in JSON, flags after the game.
	v, code := verifyJSONOf(t, bin, verifyPlayability, "--engine", "interpreted")
	if code != 1 || !v.Complete || v.States != 61 || len(v.Findings) != 1 || v.Properties["playability"] != "failed" || v.Properties["termination"] != "ok" {
		t.Fatalf("exit %d: %+v", code, v)
	}
	f := v.Findings[0]
	if f.Property != "playability" || f.Role != "bob" || f.Kind != "no-legal-move" || len(f.Moves) != 5 || strings.Join(f.Moves, " ") != m[1] ||
		f.Explanation.Literal != "(legal bob ?move)" || f.Explanation.Holds || f.Explanation.WhyNot == nil {
		t.Errorf("finding %+v", f)
	}
}

func TestVerifyCLI(t *testing.T) {
	bin := buildGDL(t)
	v, code := verifyJSONOf(t, bin, verifyClean)
	if code != 0 || !v.Complete || len(v.Findings) != 0 || v.Properties["winnability"] != "ok" || v.Properties["input"] != "skipped" {
		t.Errorf("clean: exit %d %+v", code, v)
	}
	// A budget that runs out: incomplete, nothing found, unknown rather than failed.
	v, code = verifyJSONOf(t, bin, "--max-states", "10", verifyClean)
	if code != 0 || v.Complete || v.Stopped != "max-states" || v.States != 10 || v.Properties["termination"] != "unknown" {
		t.Errorf("budget: exit %d %+v", code, v)
	}
	stdout, _, code := gdl(t, bin, "verify", verifyClean, "--max-states", "10")
	if code != 0 || !strings.Contains(stdout, "incomplete (--max-states reached): 10 states") || !strings.Contains(stdout, "termination unknown") {
		t.Errorf("budget text: exit %d\n%s", code, stdout)
	}
	for _, c := range []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"verify"}, 2, "Usage: gdl verify"},
		{[]string{"verify", verifyClean, "--format", "xml"}, 2, "--format must be text or json"},
		{[]string{"verify", verifyClean, "--max-states", "0"}, 2, "--max-states must be at least 1"},
		{[]string{"verify", verifyClean, "--timeout", "-1s"}, 2, "--timeout must not be negative"},
		{[]string{"verify", verifyClean, "--engine", "fast"}, 2, "engine must be auto, compiled or interpreted"},
		{[]string{"verify", "no-such-file.kif"}, 2, "no-such-file.kif"},
		{[]string{"verify", writeGame(t, brokenGame)}, 1, "[unclosed-paren]"},
		{[]string{"verify", writeGame(t, "(init (c 1))\n")}, 1, "the game has no role"},
		{[]string{"stats", verifyClean, "--playouts", "0"}, 2, "--playouts must be at least 1"},
		{[]string{"stats"}, 2, "Usage: gdl stats"},
	} {
		_, stderr, code := gdl(t, bin, c.args...)
		if code != c.code || !strings.Contains(stderr, c.stderr) {
			t.Errorf("%v: exit %d, want %d; stderr lacks %q:\n%s", c.args, code, c.code, c.stderr, stderr)
		}
	}
}

type statsOut struct {
	Complete     bool
	States       int
	Terminal     int `json:"terminal_states"`
	Shortest     int `json:"shortest_match"`
	Longest      int `json:"longest_match"`
	TurnTaking   bool
	Playouts     int
	FirstRole    string  `json:"first_role"`
	FirstAdvance float64 `json:"first_advantage"`
	Roles        []struct {
		Role      string
		BranchMax int               `json:"legal_moves_max"`
		PlayGoals []game.ValueCount `json:"playout_goals"`
	}
	Solution *struct {
		Solved bool
		Reason string
		Values map[string]int
		Mover  string
		Moves  []struct {
			Move  string
			Value int
		}
		Best []string
	}
}

func TestStatsCLI(t *testing.T) {
	bin := buildGDL(t)
	stdout, stderr, code := gdl(t, bin, "stats", "--format", "json", tttGame, "--playouts", "200")
	var out statsOut
	if err := json.Unmarshal([]byte(stdout), &out); err != nil || code != 0 {
		t.Fatalf("exit %d, %v\n%s%s", code, err, stdout, stderr)
	}
	if !out.Complete || out.States != 5478 || out.Terminal != 958 || out.Shortest != 5 || out.Longest != 9 || out.Playouts != 200 ||
		out.FirstRole != "xplayer" || out.FirstAdvance <= 0 || len(out.Roles) != 2 || out.Roles[0].BranchMax != 9 {
		t.Errorf("tic-tac-toe: %+v", out)
	}
	// Tic-tac-toe is a draw, whatever the first move.
	s := out.Solution
	if s == nil || !s.Solved || s.Values["xplayer"] != 50 || s.Values["oplayer"] != 50 || s.Mover != "xplayer" || len(s.Moves) != 9 || len(s.Best) != 9 {
		t.Errorf("solution: %+v", s)
	}
	stdout, _, code = gdl(t, bin, "stats", "../../testdata/games/nim.kif")
	if code != 0 || !strings.Contains(stdout, "solved: under perfect play first 100, second 0") ||
		!strings.Contains(stdout, "(take a 2) 100 (best)") || !strings.Contains(stdout, "(take a 1) 0,") {
		t.Errorf("nim: exit %d\n%s", code, stdout)
	}
	stdout, _, code = gdl(t, bin, "stats", "../../testdata/games/race3.kif", "--playouts", "10")
	if code != 0 || !strings.Contains(stdout, "roles move at the same time") || !strings.Contains(stdout, "not solved") {
		t.Errorf("race3: exit %d\n%s", code, stdout)
	}
}

// TestStatsSolveReasons: why a game is not solved names the condition it fails (--solve-states
// 0 included), and the solved values come in role order, as every other line (issue 23, item 13).
func TestStatsSolveReasons(t *testing.T) {
	bin := buildGDL(t)
	games := "../../testdata/games/"
	runCLICases(t, bin, []cliCase{
		{name: "solving off", args: []string{"stats", games + "nim.kif", "--solve-states", "0", "--playouts", "10"}, code: 0,
			stdout: "\nnot solved: --solve-states 0 turns the solver off\n", emptyError: true},
		{name: "role order", args: []string{"stats", tttGame, "--playouts", "10"}, code: 0,
			stdout: "\nsolved: under perfect play xplayer 50, oplayer 50 (", emptyError: true},
		{name: "one player", args: []string{"stats", games + "buttons.kif", "--playouts", "10"}, code: 0,
			stdout: "\nnot solved: not a game of two players\n", emptyError: true},
		{name: "incomplete", args: []string{"stats", tttGame, "--max-states", "100", "--playouts", "10"}, code: 0,
			stdout: "\nnot solved: the exploration is incomplete, and the solver needs every state\n", emptyError: true},
		{name: "solving off in JSON", args: []string{"stats", games + "nim.kif", "--solve-states", "0", "--playouts", "10", "--format", "json"}, code: 0,
			stdout: `"reason": "--solve-states 0 turns the solver off"`, emptyError: true},
	})
}

// TestVerifyInfixWitness: the JSON witness of an infix game is KIF, as for the same game in
// KIF, with the infix rendering beside it, which the text output uses (issue 23, item 5).
func TestVerifyInfixWitness(t *testing.T) {
	bin := buildGDL(t)
	infix, stderr, code := gdl(t, bin, "convert", "--to", "infix", verifyPlayability)
	if code != 0 {
		t.Fatalf("convert: exit %d\n%s", code, stderr)
	}
	hrf := writeFile(t, t.TempDir(), "playability.hrf", infix)
	kif, _ := verifyJSONOf(t, bin, verifyPlayability)
	v, code := verifyJSONOf(t, bin, hrf)
	if code != 1 || len(v.Findings) != 1 || len(kif.Findings) != 1 {
		t.Fatalf("exit %d: %+v", code, v)
	}
	f := v.Findings[0]
	if strings.Join(f.Moves, " ") != strings.Join(kif.Findings[0].Moves, " ") || kif.Findings[0].Infix != nil {
		t.Errorf("moves %q, want the KIF game's %q (and no infix for it: %q)", f.Moves, kif.Findings[0].Moves, kif.Findings[0].Infix)
	}
	if len(f.Infix) != 5 || f.Infix[0] != "(press(a), press(d))" {
		t.Errorf("moves_infix %q", f.Infix)
	}
	out, _, _ := gdl(t, bin, "verify", hrf)
	if !strings.Contains(out, "--moves '"+strings.Join(f.Infix, " ")+"'") {
		t.Errorf("text output:\n%s", out)
	}
	// Both replay with gdl query.
	for _, moves := range [][]string{f.Moves, f.Infix} {
		if out, errOut, code := gdl(t, bin, "query", hrf, "terminal", "--moves", strings.Join(moves, " ")); code != 0 || out != "false\n" {
			t.Errorf("query --moves %q: exit %d, %q %s", moves, code, out, errOut)
		}
	}
}

// TestVerifyRequireComplete: a search that runs out of budget exits 0 unless
// --require-complete, which makes it exit 3 and name the unknown properties; findings still
// exit 1 and a complete search 0 (issue 23, item 6).
func TestVerifyRequireComplete(t *testing.T) {
	bin := buildGDL(t)
	runCLICases(t, bin, []cliCase{
		{name: "incomplete", args: []string{"verify", tttGame, "--max-states", "100"}, code: 0, stdout: "incomplete (--max-states reached)", emptyError: true},
		{name: "incomplete, required complete", args: []string{"verify", tttGame, "--max-states", "100", "--require-complete"}, code: 3,
			stdout: "termination unknown", stderr: []string{"gdl verify: " + tttGame + ": --require-complete: the search stopped (--max-states reached) before termination, playability, goal, winnability could be decided"}},
		{name: "json too", args: []string{"verify", tttGame, "--max-states", "100", "--require-complete", "--format", "json"}, code: 3,
			stdout: `"complete": false`, stderr: []string{"--require-complete"}},
		{name: "complete", args: []string{"verify", tttGame, "--require-complete"}, code: 0, stdout: "nothing found", emptyError: true},
		{name: "a finding", args: []string{"verify", verifyPlayability, "--max-states", "30", "--require-complete"}, code: 1, stdout: "playability (bob)"},
	})
}
