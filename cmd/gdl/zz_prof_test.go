package main

import (
	"io"
	"os"
	"strings"
	"testing"
)

func TestProfCheck(t *testing.T) {
	if os.Getenv("PROF_ARGS") == "" {
		t.Skip()
	}
	run(strings.Fields(os.Getenv("PROF_ARGS")), nil, io.Discard, io.Discard)
}
