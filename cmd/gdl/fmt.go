package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/gdl-lsp/gdl/format"
)

func init() {
	register("fmt", command{
		summary: "lay out game descriptions in the canonical style",
		run:     runFmt,
	})
}

func runFmt(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("fmt", flag.ContinueOnError)
	fl.SetOutput(stderr)
	write := fl.Bool("w", false, "write the result to the file instead of standard output")
	check := fl.Bool("check", false, "only list the files whose layout would change; exit 1 if any")
	fl.Usage = func() {
		fmt.Fprintln(stderr, "Usage: gdl fmt [-w] [--check] PATH...\n\n"+
			"Formats game descriptions: each top-level form on its own line, rule bodies one literal per\n"+
			"line indented four spaces, single spaces inside literals; comments, spelling and blank lines\n"+
			"between forms are kept. PATH is a file, a directory (every *.kif and *.gdl below it) or -.\n"+
			"A file with syntax errors is left unchanged and reported (exit 1).")
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if fl.NArg() == 0 {
		fl.Usage()
		return 2
	}
	// fmt rewrites files: with a path it cannot read it writes nothing at all.
	files, errs := expandPaths(fl.Args())
	for _, err := range errs {
		fmt.Fprintf(stderr, "gdl fmt: %v\n", err)
	}
	if len(errs) > 0 {
		return 2
	}
	status := 0
	for _, path := range files {
		data, shown, err := readInput(path, stdin)
		if err != nil {
			fmt.Fprintf(stderr, "gdl fmt: %v\n", err)
			return 2
		}
		out, err := format.Source(string(data))
		if err != nil {
			fmt.Fprintf(stderr, "gdl fmt: %s: %v\n", shown, err)
			status = 1
			continue
		}
		changed := !bytes.Equal(data, []byte(out))
		switch {
		case *check:
			if changed {
				fmt.Fprintln(stdout, shown)
				status = 1
			}
		case *write && path != "-":
			if changed {
				info, err := os.Stat(path)
				if err != nil {
					fmt.Fprintf(stderr, "gdl fmt: %v\n", err)
					return 2
				}
				if err := os.WriteFile(path, []byte(out), info.Mode().Perm()); err != nil {
					fmt.Fprintf(stderr, "gdl fmt: %v\n", err)
					return 2
				}
			}
		default:
			io.WriteString(stdout, out)
		}
	}
	return status
}
