package main

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gdl-lsp/gdl/game"
	"github.com/gdl-lsp/gdl/player"
)

// startPlayer runs `gdl player` on a free port of 127.0.0.1, under the memory limit of the
// bounded commands (bounds_test.go), and returns the URL it prints. The player is interrupted
// (SIGTERM) at the end of the test, and must then exit with status 0.
func startPlayer(t *testing.T, args ...string) string {
	t.Helper()
	return startPlayerCommand(t, buildGDL(t), append([]string{"player", "--port", "0"}, args...)...)
}

// startPlayerCommand is startPlayer of a command line that execs `gdl player --port 0`.
func startPlayerCommand(t *testing.T, name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), runLimit)
	cmd := exec.CommandContext(ctx, "sh", append([]string{"-c", boundedScript, name}, args...)...)
	cmd.WaitDelay = 5 * time.Second
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		defer cancel()
		cmd.Process.Signal(syscall.SIGTERM)
		if err := cmd.Wait(); err != nil {
			t.Errorf("gdl player after SIGTERM: %v\nstderr: %s", err, stderr.String())
		}
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("gdl player printed no address: %v\nstderr: %s", err, stderr.String())
	}
	// gdl player: listening on http://127.0.0.1:PORT/ (strategy S)
	fields := strings.Fields(line)
	if len(fields) < 5 || !strings.HasPrefix(fields[4], "http://127.0.0.1:") {
		t.Fatalf("gdl player printed %q", line)
	}
	return fields[4]
}

// TestPlayerAndMatch: two `gdl player` processes play tic-tac-toe under `gdl match`; the record
// replays through the game API to the goals it gives.
func TestPlayerAndMatch(t *testing.T) {
	bin := buildGDL(t)
	dir := t.TempDir()
	logFile := filepath.Join(dir, "x.log")
	x := startPlayer(t, "--strategy", "mcts", "--playouts", "300", "--log", logFile)
	o := startPlayer(t)
	recFile := filepath.Join(dir, "match.json")
	game := "../../testdata/games/tictactoe.kif"
	out, errOut, code := gdl(t, bin, "match", game, "--player", x, "--player", o, "--startclock", "30", "--playclock", "30",
		"--record", recFile, "--match-id", "cli.1")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{"match cli.1 of " + game, "xplayer: " + x, "oplayer: " + o, "start: xplayer ready", "terminal after"} {
		if !strings.Contains(out, want) {
			t.Errorf("the transcript has no %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "instead") {
		t.Errorf("a move was replaced:\n%s", out)
	}
	rec := readRecord(t, recFile)
	replayRecord(t, game, rec)
	logText, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"listening on " + x, "START cli.1: 200 ready", "PLAY cli.1: 200 ", "STOP cli.1: 200 done"} {
		if !strings.Contains(string(logText), want) {
			t.Errorf("the player's log has no %q:\n%s", want, logText)
		}
	}
}

// TestMatchBuiltIn: built-in players, JSON output, a GDL-II game with the random role left to
// the manager, an infix game.
func TestMatchBuiltIn(t *testing.T) {
	bin := buildGDL(t)
	for _, c := range []struct {
		game    string
		players []string
		gdlII   bool
	}{
		{"../../testdata/games/montyhall.kif", []string{"mcts"}, true},
		{"../../testdata/games/noughts.hrf", []string{"random", "mcts"}, false},
	} {
		args := []string{"match", c.game, "--format", "json", "--playouts", "200", "--playclock", "30"}
		for _, p := range c.players {
			args = append(args, "--player", p)
		}
		out, errOut, code := gdl(t, bin, args...)
		if code != 0 {
			t.Fatalf("%s: exit %d\n%s", c.game, code, errOut)
		}
		var rec player.Record
		if err := json.Unmarshal([]byte(out), &rec); err != nil {
			t.Fatalf("%s: %v\n%s", c.game, err, out)
		}
		if !rec.Completed || rec.GDLII != c.gdlII || rec.Errors != 0 {
			t.Errorf("%s: completed %v, GDL-II %v, %d errors", c.game, rec.Completed, rec.GDLII, rec.Errors)
		}
		replayRecord(t, c.game, &rec)
	}
}

// TestMatchMontyHallSwitches: gdl match's built-in mcts contestant plays from its own moves and
// percepts, so whatever the seed (wherever the car is) it switches doors; one that saw the
// state would keep its door when the car is behind it.
func TestMatchMontyHallSwitches(t *testing.T) {
	bin := buildGDL(t)
	for seed := 1; seed <= 6; seed++ {
		out, errOut, code := gdl(t, bin, "match", "../../testdata/games/montyhall.kif", "--player", "mcts", "--playouts", "300",
			"--seed", strconv.Itoa(seed), "--format", "json")
		var rec player.Record
		if err := json.Unmarshal([]byte(out), &rec); err != nil || code != 0 {
			t.Fatalf("seed %d: exit %d, %v\n%s", seed, code, err, errOut)
		}
		if last := rec.Moves[len(rec.Moves)-1].Joint[0]; last != "switch" {
			t.Errorf("seed %d: the contestant played %s (the car behind %v)", seed, last, rec.Moves[0].Joint[1])
		}
	}
}

// TestMatchUnreachablePlayer: a player nobody listens for gets every move replaced, and the
// match still ends (exit 0).
func TestMatchUnreachablePlayer(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	out, errOut, code := gdl(t, buildGDL(t), "match", "../../ggp/testdata/pennies.kif", "--player", addr, "--player", "random", "--playclock", "1", "--startclock", "1")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if strings.Count(out, "connection refused; played") != 2 || !strings.Contains(out, "2 moves replaced") {
		t.Errorf("transcript:\n%s", out)
	}
}

// TestMatchUsage: what is wrong with the command line or the game is said, with the exit status.
func TestMatchUsage(t *testing.T) {
	bin := buildGDL(t)
	dir := t.TempDir()
	broken := filepath.Join(dir, "broken.kif")
	os.WriteFile(broken, []byte("(role a)\n(init (p)\n"), 0o644)
	ttt := "../../testdata/games/tictactoe.kif"
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"match", ttt}, 2, "give one --player per role"},
		{[]string{"match", ttt, "--player", "random"}, 2, "1 players for 2 roles (xplayer, oplayer): give 2, one per role in role order"},
		{[]string{"match", ttt, "--player", "random", "--player", "ftp://host/"}, 2, `"ftp://host/": a player's address is http or https, not ftp`},
		{[]string{"match", ttt, "--player", "random", "--player", "random", "--format", "xml"}, 2, "--format must be text or json"},
		{[]string{"match", ttt, "--player", "random", "--player", "random", "--playclock", "0"}, 2, "whole seconds, from 1"},
		{[]string{"match", ttt, "--player", "random", "--player", "random", "--match-id", "a b"}, 2, "is not a name"},
		{[]string{"match", filepath.Join(dir, "missing.kif"), "--player", "random"}, 2, "missing.kif"},
		{[]string{"match", broken, "--player", "random"}, 1, "broken.kif: 2:1:"},
		{[]string{"player", "--strategy", "minimax"}, 2, `the strategy is random or mcts, not "minimax"`},
		{[]string{"player", "--port", "70000"}, 2, "--port must be from 0 to 65535"},
		{[]string{"player", "extra"}, 2, "Usage: gdl player"},
	}
	for _, c := range cases {
		out, errOut, code := gdl(t, bin, c.args...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("gdl %s: exit %d, stderr %q, stdout %q; want %d and %q", strings.Join(c.args, " "), code, errOut, out, c.code, c.want)
		}
	}
	// A port already taken.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	if _, errOut, code := gdl(t, bin, "player", "--port", port); code != 2 || !strings.Contains(errOut, "address already in use") {
		t.Errorf("a port in use: exit %d, %q", code, errOut)
	}
}

func readRecord(t *testing.T, path string) *player.Record {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rec player.Record
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatal(err)
	}
	return &rec
}

// replayRecord plays the record's joint moves through the game API: a terminal state with the
// record's goals.
func replayRecord(t *testing.T, path string, rec *player.Record) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	kif, err := player.MatchFile(parseInput(path, data))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	g, _, err := game.Load(ctx, kif.Source(), game.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var joints []string
	for _, j := range rec.JointMoves() {
		joints = append(joints, "("+strings.Join(j, " ")+")")
	}
	moves, err := g.ParseJointMoves(strings.Join(joints, " "))
	if err != nil {
		t.Fatal(err)
	}
	pos, err := g.Replay(ctx, moves)
	if err != nil || pos.Err != nil {
		t.Fatalf("replay: %v %v", err, pos.Err)
	}
	if term, _ := g.Terminal(ctx, pos.State()); !term {
		t.Errorf("the record's last state is not terminal")
	}
	if goals, _ := g.GoalValues(ctx, pos.State()); !slices.Equal(goals, rec.Goals) {
		t.Errorf("goals: replay %v, record %v", goals, rec.Goals)
	}
}
