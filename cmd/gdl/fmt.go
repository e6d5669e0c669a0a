package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"

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
	list := fl.Bool("l", false, "list the files whose layout would change instead of printing them")
	diff := fl.Bool("d", false, "print the changes as a unified diff instead of the formatted text")
	check := fl.Bool("check", false, "list the files whose layout would change (or, with -d, their diffs), write nothing, and exit 1 if any")
	fl.Usage = func() {
		fmt.Fprintln(stderr, "Usage: gdl fmt [-l] [-d] [-w] [--check] PATH...\n\n"+
			"Formats game descriptions: each top-level form on its own line, rule bodies one literal per\n"+
			"line indented four spaces, single spaces inside literals (infix: arguments separated by\n"+
			"commas, body literals joined by '&' at the end of their line); comments, spelling and blank\n"+
			"lines between forms are kept. PATH is a file, a directory (every *.kif, *.gdl and *.hrf below\n"+
			"it) or -. A file with syntax errors is left unchanged and reported (exit 1). Without -l, -d\n"+
			"or -w, the formatted text goes to standard output; -l lists the files that would change,\n"+
			"-d prints the changes as a unified diff, -w writes the files (they combine, as in gofmt).\n"+
			"--check is for CI: like -l (or -d), and exit 1 when a file would change.")
		fl.PrintDefaults()
	}
	paths, err := interleaved(fl, args)
	if err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if len(paths) == 0 {
		fl.Usage()
		return 2
	}
	// fmt rewrites files: with a path it cannot read it writes nothing at all. So every file is
	// read and formatted first, and written only when all were read.
	files, errs := expandPaths(paths)
	for _, err := range errs {
		fmt.Fprintf(stderr, "gdl fmt: %v\n", err)
	}
	type formatted struct {
		in                   found
		shown, original, out string
		changed              bool
	}
	var results []formatted
	status := 0
	for _, in := range files {
		path := in.path
		data, shown, err := readInput(path, stdin)
		if err != nil {
			fmt.Fprintf(stderr, "gdl fmt: %v\n", err)
			errs = append(errs, err)
			continue
		}
		f := parseInput(path, data)
		out, err := string(data), error(nil)
		if len(f.Errors()) > 0 {
			err = format.ErrSyntax
		} else {
			out = format.File(f)
		}
		if err != nil {
			fmt.Fprintf(stderr, "gdl fmt: %s: %v\n", shown, err)
			status = 1
			continue
		}
		results = append(results, formatted{in, shown, string(data), out, !bytes.Equal(data, []byte(out))})
	}
	if len(errs) > 0 {
		return 2
	}
	var rewrites []rewrite
	for _, r := range results {
		if *check && r.changed {
			status = 1
		}
		if *diff && r.changed {
			unifiedDiff(stdout, r.shown+".orig", r.shown, r.original, r.out)
		}
		if (*list || *check && !*diff) && r.changed {
			fmt.Fprintln(stdout, r.shown)
		}
		switch {
		case *check:
		case *write && r.in.path != "-":
			if r.changed {
				rewrites = append(rewrites, rewrite{r.in, r.original, r.out})
			}
		case !*list && !*diff:
			io.WriteString(stdout, r.out)
		}
	}
	if err := rewriteAll(rewrites); err != nil {
		fmt.Fprintf(stderr, "gdl fmt: %v\n", err)
		return 2
	}
	return status
}
