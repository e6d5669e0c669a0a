package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/gdl-lsp/gdl/game"
	"github.com/gdl-lsp/gdl/gametest"
	"github.com/gdl-lsp/gdl/syntax"
)

// recordTest is gdl test --record NAME GAME: a snapshot test of the state --moves reach,
// printed, or appended to the game's test file with --write.
func recordTest(path string, tf testFlags, opts game.Options, stdout, stderr io.Writer) int {
	gamePath, testPath, code, ok := recordPaths(path, stderr)
	if !ok {
		return code
	}
	ctx := context.Background()
	g, res, shown, code, err := loadGame(ctx, gamePath, nil, opts)
	if err != nil {
		fmt.Fprintf(stderr, "gdl test: %v\n", err)
		return code
	}
	if refuseUnplayable(stderr, "test", shown, res, g) {
		return 1
	}
	moves, err := g.ParseJointMoves(*tf.moves)
	if err != nil {
		fmt.Fprintf(stderr, "gdl test: --moves: %v\n", err)
		return 2
	}
	// The test is written in the notation of the test file it goes to.
	d := syntax.Detect(testPath, "")
	var existing *syntax.File
	if old, err := os.ReadFile(testPath); err == nil {
		existing = parseInput(testPath, old)
		d = existing.Dialect()
	} else if !strings.EqualFold(filepath.Ext(testPath), syntax.InfixExt) {
		d = res.Model.File.Dialect()
	}
	text, err := gametest.Record(ctx, g, *tf.record, moves, d)
	if err != nil {
		fmt.Fprintf(stderr, "gdl test: %v\n", err)
		return 1
	}
	if !*tf.write {
		fmt.Fprint(stdout, text)
		return 0
	}
	return appendTest(testPath, existing, *tf.record, text, stderr)
}

// recordPaths finds the game and the test file of gdl test --record from its argument: a test
// file (its game found as gdl test finds it) or a game (its test file beside it, GAME.test.EXT).
// When the game cannot be found it says so and returns the exit status with ok false.
func recordPaths(path string, stderr io.Writer) (gamePath, testPath string, code int, ok bool) {
	data, _, err := readInput(path, nil)
	if err != nil {
		fmt.Fprintf(stderr, "gdl test: %v\n", err)
		return "", "", 2, false
	}
	f := parseInput(path, data)
	if gametest.IsTestFile(path, f) {
		s, _ := gametest.Read(f)
		found, tried := findGame(path, s)
		if found == "" {
			fmt.Fprintf(stderr, "gdl test: %s\n", gametest.GameMissing(s, tried).Message)
			return "", "", 1, false
		}
		return found, path, 0, true
	}
	ext := filepath.Ext(path)
	if strings.EqualFold(ext, ".gdl") || ext == "" {
		ext = ".kif"
	}
	return path, strings.TrimSuffix(path, filepath.Ext(path)) + ".test" + ext, 0, true
}

// appendTest appends test text, named name, to the test file at testPath (existing is its
// parse, nil when it does not exist yet), refusing a name the file already has, and returns
// the exit status.
func appendTest(testPath string, existing *syntax.File, name, text string, stderr io.Writer) int {
	if existing != nil {
		s, _ := gametest.Read(existing)
		for _, t := range s.Tests {
			if syntax.Fold(t.Name) == syntax.Fold(name) {
				fmt.Fprintf(stderr, "gdl test: %s already has a test named %s\n", testPath, t.Name)
				return 1
			}
		}
	}
	out, err := os.OpenFile(testPath, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		fmt.Fprintf(stderr, "gdl test: %v\n", err)
		return 2
	}
	sep := "\n"
	if existing == nil || existing.Source() == "" {
		sep = ""
	} else if !strings.HasSuffix(existing.Source(), "\n") {
		sep = "\n\n"
	}
	_, werr := io.WriteString(out, sep+text)
	if cerr := out.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		fmt.Fprintf(stderr, "gdl test: %v\n", werr)
		return 2
	}
	fmt.Fprintf(stderr, "gdl test: test %s written to %s\n", name, testPath)
	return 0
}
