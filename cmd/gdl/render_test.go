package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRender draws tic-tac-toe after two moves as text, SVG and JSON, with flags after GAME.
func TestRender(t *testing.T) {
	bin := buildGDL(t)
	stdout, stderr, code := gdl(t, bin, "render", tttGame, "--moves", "((mark 2 2) noop) (noop (mark 1 3))")
	want := "step 2 (not terminal)\n\ncell (3 rows, 3 columns)\n  1 2 3\n1 . . o\n2 . x .\n3 . . .\n\ncontrol: xplayer\n"
	if code != 0 || !strings.HasSuffix(stdout, want) {
		t.Errorf("text: exit %d, stderr %s\n%s\nwant ...%s", code, stderr, stdout, want)
	}
	stdout, _, code = gdl(t, bin, "render", "--format", "svg", tttGame)
	if code != 0 || !strings.HasPrefix(stdout, "<svg ") || strings.Count(stdout, `<rect class="square"`) != 9 || !strings.Contains(stdout, "<title>row 1, column 1: (cell 1 1 b)</title>") {
		t.Errorf("svg: exit %d\n%s", code, stdout)
	}
	stdout, _, code = gdl(t, bin, "render", tttGame, "--format", "json", "--moves", "((mark 1 1) noop) (noop (mark 2 1)) ((mark 1 2) noop) (noop (mark 2 2)) ((mark 1 3) noop)")
	var out struct {
		Step     int
		Terminal bool
		View     struct {
			Boards []struct {
				Relation          string
				RowArg, ColumnArg int
				Rows, Columns     []string
				Cells             [][]struct{ Text string }
			}
		}
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil || code != 0 {
		t.Fatalf("json: exit %d, %v\n%s", code, err, stdout)
	}
	b := out.View.Boards
	if out.Step != 5 || !out.Terminal || len(b) != 1 || b[0].RowArg != 1 || len(b[0].Cells) != 3 || b[0].Cells[0][2].Text != "x" || b[0].Cells[1][1].Text != "o" {
		t.Errorf("json: %+v", out)
	}
}

// TestRenderBoardSection: the gdl.json beside the game names the board; a broken one is an
// error with its position; bad options and moves are refused.
func TestRenderBoardSection(t *testing.T) {
	bin := buildGDL(t)
	src, err := os.ReadFile(tttGame)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	game := filepath.Join(dir, "ttt.kif")
	os.WriteFile(game, src, 0o644)
	os.WriteFile(filepath.Join(dir, "gdl.json"), []byte(`{"board": {"boards": [{"relation": "cell", "row": 2, "column": 1, "rowsUp": true}], "pieces": {"x": "X", "b": "-"}}}`), 0o644)
	stdout, _, code := gdl(t, bin, "render", game, "--moves", "((mark 2 3) noop)")
	if want := "cell (3 rows, 3 columns)\n  1 2 3\n3 - X -\n2 - - -\n1 - - -\n"; code != 0 || !strings.Contains(stdout, want) {
		t.Errorf("the configured board: exit %d\n%s\nwant\n%s", code, stdout, want)
	}
	os.WriteFile(filepath.Join(dir, "gdl.json"), []byte(`{"board": {"boards": [{"relation": "square", "row": 1, "column": 2}], "detect": false}}`), 0o644)
	stdout, stderr, code := gdl(t, bin, "render", game)
	if code != 0 || strings.Contains(stdout, "rows,") || !strings.Contains(stderr, `gdl.json names the board "square"`) {
		t.Errorf("a board no fluent has: exit %d\nstdout %s\nstderr %s", code, stdout, stderr)
	}
	os.WriteFile(filepath.Join(dir, "gdl.json"), []byte("{\"board\": {\"boards\": [{\"row\": 1}]}}"), 0o644)
	if _, stderr, code := gdl(t, bin, "render", game); code != 2 || !strings.Contains(stderr, "gdl.json:1:23: board.boards: a board needs \"relation\"") {
		t.Errorf("a broken gdl.json: exit %d, %s", code, stderr)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"render", tttGame, "--format", "png"}, 2, "--format must be text, svg or json"},
		{[]string{"render", tttGame, "--moves", "((mark 9 9) noop)"}, 1, "(mark 9 9) is not a legal move of role xplayer"},
		{[]string{"render", tttGame, "--moves", "((mark 1 1)"}, 2, "--moves"},
		{[]string{"render"}, 2, "Usage: gdl render"},
	} {
		if _, stderr, code := gdl(t, bin, c.args...); code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %s; want %d and %q", c.args, code, stderr, c.code, c.want)
		}
	}
}

// TestRenderAs: --as draws the state as a GDL-II role knows it: Monty Hall's contestant does
// not know where the car is, the host does.
func TestRenderAs(t *testing.T) {
	bin := buildGDL(t)
	const monty = "../../testdata/games/montyhall.kif"
	moves := "(noop (hide 1)) ((pick 2) noop) (noop (reveal 3))"
	stdout, stderr, code := gdl(t, bin, "render", monty, "--moves", moves, "--as", "contestant")
	if code != 0 || !strings.Contains(stdout, "as contestant knows it: it may be in 2 states") || !strings.Contains(stdout, "unknown to contestant: prize") ||
		strings.Contains(stdout, "prize: 1") {
		t.Errorf("contestant: exit %d\n%s%s", code, stdout, stderr)
	}
	stdout, _, code = gdl(t, bin, "render", monty, "--moves", moves, "--as", "random", "--format", "json")
	var out struct {
		As struct {
			Role          string
			States        int
			UnknownOthers []string `json:"unknown_others"`
		}
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil || code != 0 || out.As.Role != "random" || out.As.States != 1 || len(out.As.UnknownOthers) != 0 {
		t.Errorf("random: exit %d, %v: %+v\n%s", code, err, out, stdout)
	}
	if _, stderr, code := gdl(t, bin, "render", monty, "--as", "host"); code != 2 || !strings.Contains(stderr, "host is not a role") {
		t.Errorf("--as host: exit %d, %s", code, stderr)
	}
}
