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
	data, _, err := readInput(path, nil)
	if err != nil {
		fmt.Fprintf(stderr, "gdl test: %v\n", err)
		return 2
	}
	f := parseInput(path, data)
	gamePath, testPath := path, ""
	if gametest.IsTestFile(path, f) {
		s, _ := gametest.Read(f)
		found, tried := findGame(path, s)
		if found == "" {
			fmt.Fprintf(stderr, "gdl test: %s\n", gametest.GameMissing(s, tried).Message)
			return 1
		}
		gamePath, testPath = found, path
	} else {
		ext := filepath.Ext(path)
		if strings.EqualFold(ext, ".gdl") || ext == "" {
			ext = ".kif"
		}
		testPath = strings.TrimSuffix(path, filepath.Ext(path)) + ".test" + ext
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
	if existing != nil {
		s, _ := gametest.Read(existing)
		for _, t := range s.Tests {
			if syntax.Fold(t.Name) == syntax.Fold(*tf.record) {
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
	fmt.Fprintf(stderr, "gdl test: test %s written to %s\n", *tf.record, testPath)
	return 0
}
