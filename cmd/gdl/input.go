package main

import (
	"io"
	"os"
)

// readInput reads the file at path, or standard input for "-", and returns the name to show
// for it in messages.
func readInput(path string, stdin io.Reader) ([]byte, string, error) {
	if path == "-" {
		data, err := io.ReadAll(stdin)
		return data, "<stdin>", err
	}
	data, err := os.ReadFile(path)
	return data, path, err
}
