package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdl-lsp/gdl/game"
	"github.com/gdl-lsp/gdl/internal/corpus"
)

// gdlBinary is the real binary, built once by TestMain for the tests that drive it over stdio.
var gdlBinary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "gdl-cmd-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	gdlBinary = filepath.Join(dir, "gdl")
	// The tests never write into the user's cache (game.CacheDir): the binaries they run
	// and the commands they call in this process use a temporary one.
	os.Setenv(game.CacheEnv, filepath.Join(dir, "cache"))
	if out, err := exec.Command("go", "build", "-o", gdlBinary, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go build: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(2)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// buildGDL returns the binary built by TestMain.
func buildGDL(t *testing.T) string {
	t.Helper()
	return gdlBinary
}

// gdl runs the binary and returns stdout, stderr and the exit status.
func gdl(t *testing.T, bin string, args ...string) (string, string, int) {
	t.Helper()
	return gdlIn(t, bin, "", args...)
}

type expectBlock struct {
	line    int // of the moves: line
	moves   string
	joint   string
	query   string
	answers []string
}

// readExpect parses a .expect file: blocks of `moves:`, `joint:`, `query:` and answer lines, separated by
// blank lines; lines starting with ';' are comments.
func readExpect(t *testing.T, path string) []expectBlock {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []expectBlock
	var cur *expectBlock
	flush := func() {
		if cur != nil {
			out = append(out, *cur)
			cur = nil
		}
	}
	for i, line := range strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n") {
		switch {
		case strings.HasPrefix(line, ";"):
		case strings.TrimSpace(line) == "":
			flush()
		case strings.HasPrefix(line, "moves:"):
			flush()
			cur = &expectBlock{line: i + 1, moves: strings.TrimSpace(strings.TrimPrefix(line, "moves:"))}
		case strings.HasPrefix(line, "joint:"):
			if cur == nil {
				t.Fatalf("%s:%d: joint: without moves:", path, i+1)
			}
			cur.joint = strings.TrimSpace(strings.TrimPrefix(line, "joint:"))
		case strings.HasPrefix(line, "query:"):
			if cur == nil {
				t.Fatalf("%s:%d: query: without moves:", path, i+1)
			}
			cur.query = strings.TrimSpace(strings.TrimPrefix(line, "query:"))
		default:
			if cur == nil || cur.query == "" {
				t.Fatalf("%s:%d: answer outside a block: %q", path, i+1, line)
			}
			cur.answers = append(cur.answers, line)
		}
	}
	flush()
	return out
}

// TestExpectations runs every block of testdata/games/*.expect through `gdl query` and compares
// the output with the hand-checked answers.
func TestExpectations(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/games/*.expect")
	if len(files) == 0 {
		t.Fatal("no testdata/games/*.expect files")
	}
	bin := buildGDL(t)
	for _, ef := range files {
		game := strings.TrimSuffix(ef, ".expect") + ".kif"
		if _, err := os.Stat(game); err != nil {
			game = strings.TrimSuffix(ef, ".expect") + ".hrf" // an infix game
		}
		t.Run(filepath.Base(game), func(t *testing.T) {
			for _, b := range readExpect(t, ef) {
				args := []string{"query", game, b.query}
				if b.moves != "" {
					args = append(args, "--moves", b.moves)
				}
				if b.joint != "" {
					args = append(args, "--joint", b.joint)
				}
				stdout, stderr, code := gdl(t, bin, args...)
				if code != 0 {
					t.Errorf("%s:%d: gdl %s: exit %d\n%s", ef, b.line, strings.Join(args, " "), code, stderr)
					continue
				}
				want := ""
				if len(b.answers) > 0 {
					want = strings.Join(b.answers, "\n") + "\n"
				}
				if stdout != want {
					t.Errorf("%s:%d: moves %q query %s:\ngot:\n%s\nwant:\n%s", ef, b.line, b.moves, b.query,
						stdout, strings.Join(b.answers, "\n"))
				}
			}
		})
	}
}

const tttGame = "../../testdata/games/tictactoe.kif"

func TestQueryIllegalMove(t *testing.T) {
	bin := buildGDL(t)
	_, stderr, code := gdl(t, bin, "query", tttGame, "(legal ?r ?m)", "--moves", "((mark 1 1) noop) ((mark 2 2) noop)")
	if code != 1 {
		t.Fatalf("exit %d, want 1; stderr %s", code, stderr)
	}
	if !strings.Contains(stderr, "(mark 2 2) is not a legal move of role xplayer") || !strings.Contains(stderr, "joint move 2") {
		t.Errorf("stderr does not name the joint move, role and move: %s", stderr)
	}
	_, stderr, code = gdl(t, bin, "query", tttGame, "terminal", "--moves", "((mark 1 1))")
	if code != 2 || !strings.Contains(stderr, "2 roles") {
		t.Errorf("a joint move with one move for two roles: exit %d, stderr %s", code, stderr)
	}
}

func TestQueryJSONAndConjunction(t *testing.T) {
	bin := buildGDL(t)
	stdout, stderr, code := gdl(t, bin, "query", "--format", "json", tttGame,
		"(true (cell ?x 1 ?m)) (distinct ?m b)", "--moves", "((mark 2 1) noop)")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var out struct {
		Moves   []string
		State   []string
		Queries []struct {
			Query   string
			Vars    []string
			Answers []struct {
				Text     string
				Bindings map[string]string
			}
		}
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if len(out.Queries) != 1 || len(out.Queries[0].Answers) != 1 {
		t.Fatalf("want one query with one answer: %s", stdout)
	}
	a := out.Queries[0].Answers[0]
	if a.Text != "(true (cell 2 1 x)) (distinct x b)" || a.Bindings["?x"] != "2" || a.Bindings["?m"] != "x" {
		t.Errorf("answer %+v", a)
	}
	if len(out.Moves) != 1 || out.Moves[0] != "((mark 2 1) noop)" {
		t.Errorf("moves %v", out.Moves)
	}
}

func TestQueryRefusesUnsafeGame(t *testing.T) {
	dir := t.TempDir()
	game := filepath.Join(dir, "unsafe.kif")
	src := "(role r)\n(p a)\n(<= (q ?x ?y) (p ?x))\n(<= (s ?x) (p ?x))\n"
	if err := os.WriteFile(game, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := buildGDL(t)
	_, stderr, code := gdl(t, bin, "query", game, "(q ?x ?y)")
	if code != 1 || !strings.Contains(stderr, "unsafe") || !strings.Contains(stderr, "unsafe.kif:3:") {
		t.Errorf("unsafe rule: exit %d, stderr %s", code, stderr)
	}
	// A relation that does not need the unsafe rule still answers.
	stdout, stderr, code := gdl(t, bin, "query", game, "(s ?x)")
	if code != 0 || stdout != "(s a)\n" {
		t.Errorf("safe relation: exit %d, stdout %q, stderr %s", code, stdout, stderr)
	}
}

func TestQueryWithoutInitialState(t *testing.T) {
	game := filepath.Join(t.TempDir(), "noinit.kif")
	src := "(role r) (p a)\n(<= (init (q ?x)) (p ?y))\n"
	if err := os.WriteFile(game, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := buildGDL(t)
	stdout, stderr, code := gdl(t, bin, "query", game, "(role ?r)", "(p ?x)")
	if code != 0 || stdout != "; (role ?r)\n(role r)\n\n; (p ?x)\n(p a)\n" {
		t.Errorf("static queries with a refused init: exit %d, stdout %q, stderr %s", code, stdout, stderr)
	}
	_, stderr, code = gdl(t, bin, "query", game, "(true ?f)")
	if code != 1 || !strings.Contains(stderr, "init/1 has no defined meaning") {
		t.Errorf("a state query with a refused init: exit %d, stderr %s", code, stderr)
	}
}

func TestQueryDepthLimit(t *testing.T) {
	dir := t.TempDir()
	game := filepath.Join(dir, "grow.kif")
	if err := os.WriteFile(game, []byte("(role r)\n(p 0)\n(<= (p (s ?x)) (p ?x))\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := buildGDL(t)
	_, stderr, code := gdl(t, bin, "query", game, "(p ?x)")
	if code != 1 || !strings.Contains(stderr, "term depth limit") || !strings.Contains(stderr, "p/1") || !strings.Contains(stderr, "line 3") {
		t.Errorf("exit %d, stderr %s", code, stderr)
	}
}

// TestQueryPerQuery: several queries are answered one by one, each under its header (text) or
// in its own object (JSON), and a query without variables that does not hold prints false
// (issue 23, item 9).
func TestQueryPerQuery(t *testing.T) {
	bin := buildGDL(t)
	out, errOut, code := gdl(t, bin, "query", tttGame, "(role ?r)", "terminal", "(legal oplayer ?m)", "(true (control xplayer))")
	want := "; (role ?r)\n(role oplayer)\n(role xplayer)\n\n; terminal\nfalse\n\n; (legal oplayer ?m)\n(legal oplayer noop)\n\n; (true (control xplayer))\n(true (control xplayer))\n"
	if code != 0 || out != want {
		t.Errorf("exit %d, stdout:\n%s\nwant:\n%s\nstderr: %s", code, out, want, errOut)
	}
	if out, _, code := gdl(t, bin, "query", tttGame, "terminal"); code != 0 || out != "false\n" {
		t.Errorf("a false 0-ary query: exit %d, %q", code, out)
	}
	if out, _, code := gdl(t, bin, "query", tttGame, "(legal oplayer (mark 1 1))"); code != 0 || out != "false\n" {
		t.Errorf("a false ground query: exit %d, %q", code, out)
	}
	if out, _, code := gdl(t, bin, "query", tttGame, "(legal ?r (mark 9 9))"); code != 0 || out != "" {
		t.Errorf("a query with variables and no answer: exit %d, %q", code, out)
	}
	out, _, code = gdl(t, bin, "query", tttGame, "(role ?r)", "terminal", "--format", "json")
	var js struct {
		Queries []struct {
			Query   string `json:"query"`
			Answers []struct {
				Text string `json:"text"`
			} `json:"answers"`
		} `json:"queries"`
	}
	if err := json.Unmarshal([]byte(out), &js); err != nil || code != 0 {
		t.Fatalf("json: exit %d, %v\n%s", code, err, out)
	}
	if len(js.Queries) != 2 || js.Queries[0].Query != "(role ?r)" || len(js.Queries[0].Answers) != 2 ||
		js.Queries[1].Query != "terminal" || len(js.Queries[1].Answers) != 0 {
		t.Errorf("json: one object per query, got %+v", js.Queries)
	}
}

// A query evaluates a state or two: it does not spend seconds building a network. chess.kif
// (ggp-repository), whose network takes some 4.5 s to build, is answered by the interpreter at
// once; connect four, which builds in milliseconds, by the compiled engine.
func TestQueryGroundsFewStates(t *testing.T) {
	chess := filepath.Join(corpus.Dir(), "ggp-org__ggp-repository/war/root/games/chess/chess.kif")
	if _, err := os.Stat(chess); err != nil {
		corpus.Skipf(t, "SKIPPED: the shared corpus (%s) is not there: %v", corpus.Dir(), err)
	}
	bin := buildGDL(t)
	for _, c := range []struct{ game, engine string }{{chess, "interpreted"}, {"../../testdata/games/connectfour.kif", "compiled"}} {
		stdout, stderr, code := gdl(t, bin, "query", "--format", "json", c.game, "(role ?r)")
		var out struct{ Engine string }
		if err := json.Unmarshal([]byte(stdout), &out); code != 0 || err != nil {
			t.Fatalf("%s: exit %d, %v: %s", c.game, code, err, stderr)
		}
		if out.Engine != c.engine {
			t.Errorf("%s: engine %s, want %s", c.game, out.Engine, c.engine)
		}
	}
}
