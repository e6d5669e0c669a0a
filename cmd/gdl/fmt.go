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

// fmtUsage is gdl fmt -h.
const fmtUsage = "Usage: gdl fmt [-l] [-d] [-w] [--check] PATH...\n\n" +
	"Formats game descriptions: each top-level form on its own line, rule bodies one literal per\n" +
	"line indented four spaces, single spaces inside literals (infix: arguments separated by\n" +
	"commas, body literals joined by '&' at the end of their line); comments, spelling and blank\n" +
	"lines between forms are kept. PATH is a file, a directory (every *.kif, *.gdl and *.hrf below\n" +
	"it) or -. A file with syntax errors is left unchanged and reported (exit 1). Without -l, -d\n" +
	"or -w, the formatted text goes to standard output; -l lists the files that would change,\n" +
	"-d prints the changes as a unified diff, -w writes the files (they combine, as in gofmt).\n" +
	"--check is for CI: like -l (or -d), and exit 1 when a file would change.\n"

// fmtFlags are gdl fmt's options.
type fmtFlags struct {
	write, list, diff, check *bool
}

// runFmt is gdl fmt: game descriptions laid out in the canonical style.
func runFmt(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("fmt", flag.ContinueOnError)
	fl.SetOutput(stderr)
	ff := fmtFlags{
		write: fl.Bool("w", false, "write the result to the file instead of standard output"),
		list:  fl.Bool("l", false, "list the files whose layout would change instead of printing them"),
		diff:  fl.Bool("d", false, "print the changes as a unified diff instead of the formatted text"),
		check: fl.Bool("check", false, "list the files whose layout would change (or, with -d, their diffs), write nothing, and exit 1 if any"),
	}
	paths, code, ok := parseCommandArgs(fl, args, stderr, fmtUsage, 1, -1)
	if !ok {
		return code
	}
	// fmt rewrites files: with a path it cannot read it writes nothing at all. So every file is
	// read and formatted first, and written only when all were read.
	results, status, ok := formatPaths(paths, stdin, stderr)
	if !ok {
		return 2
	}
	rewrites, failed := ff.emit(results, stdout)
	if failed {
		status = 1
	}
	if err := rewriteAll(rewrites); err != nil {
		fmt.Fprintf(stderr, "gdl fmt: %v\n", err)
		return 2
	}
	return status
}

// formatted is a file gdl fmt read and formatted.
type formatted struct {
	in                   found
	shown, original, out string
	changed              bool
}

// formatPaths reads and formats the files paths name. A file with syntax errors is reported and
// left out, making status 1; ok is false when a path could not be read (each one reported).
func formatPaths(paths []string, stdin io.Reader, stderr io.Writer) (results []formatted, status int, ok bool) {
	files, errs := expandPaths(paths)
	for _, err := range errs {
		fmt.Fprintf(stderr, "gdl fmt: %v\n", err)
	}
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
	return results, status, len(errs) == 0
}

// emit prints what -l, -d and the default ask for and returns the files -w rewrites; failed is
// true when --check finds a file whose layout would change.
func (ff fmtFlags) emit(results []formatted, stdout io.Writer) (rewrites []rewrite, failed bool) {
	for _, r := range results {
		if *ff.check && r.changed {
			failed = true
		}
		if *ff.diff && r.changed {
			unifiedDiff(stdout, r.shown+".orig", r.shown, r.original, r.out)
		}
		if (*ff.list || *ff.check && !*ff.diff) && r.changed {
			fmt.Fprintln(stdout, r.shown)
		}
		switch {
		case *ff.check:
		case *ff.write && r.in.path != "-":
			if r.changed {
				rewrites = append(rewrites, rewrite{r.in, r.original, r.out})
			}
		case !*ff.list && !*ff.diff:
			io.WriteString(stdout, r.out)
		}
	}
	return rewrites, failed
}
