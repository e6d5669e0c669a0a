package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/gdl-lsp/gdl/internal/readfile"
	"github.com/gdl-lsp/gdl/syntax"
)

// parseInput parses a game description in its notation: infix for a .hrf file, else the one
// its content is written in (standard input, "-", goes by content).
func parseInput(path string, data []byte) *syntax.File {
	src := string(data)
	f, _ := syntax.ParseDialect(src, syntax.Detect(path, src))
	return f
}

// readInput reads the file at path, or standard input for "-", and returns the name to show
// for it in messages. Only a regular file is read (a symbolic link is followed to one), and at
// most readfile.GameLimit bytes of it or of standard input: a named pipe or a device is refused
// rather than read without end.
func readInput(path string, stdin io.Reader) ([]byte, string, error) {
	if path == "-" {
		data, err := readfile.Reader(stdin, "<stdin>", readfile.GameLimit)
		return data, "<stdin>", err
	}
	data, err := readfile.Regular(path, readfile.GameLimit)
	if errors.Is(err, readfile.ErrNamedPipe) {
		err = fmt.Errorf("%w (gdl reads a pipe only as standard input, -)", err)
	}
	return data, path, err
}
