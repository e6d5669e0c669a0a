package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/format"
	"github.com/gdl-lsp/gdl/prolog"
	"github.com/gdl-lsp/gdl/syntax"
)

func init() {
	register("convert", command{
		summary: "translate a game to the other notation or to Prolog (--to kif|infix|prolog)",
		run:     runConvert,
	})
}

// convertUsage is gdl convert -h.
const convertUsage = "Usage: gdl convert --to kif|infix|prolog [--tabling recursive|none] [--driver walk|playouts] GAME\n\n" +
	"Writes the game on standard output in prefix GDL (KIF), in infix GDL, or as an SWI-Prolog\n" +
	"program. Flags may come before or after GAME. A .hrf GAME is infix; any other is read in the\n" +
	"notation its content is written in.\n\n" +
	"kif and infix keep every comment, blank line and form in order and lay the result out like\n" +
	"gdl fmt. Names are never changed: a name infix cannot write bare (one that starts with an\n" +
	"upper-case letter, or has a character outside letters, digits and _ - + * /) is written in\n" +
	"double quotes, and a name or variable the target cannot write at all is an error naming it\n" +
	"and its position (exit 1). A variable changes only its mark: ?board is Board in infix.\n" +
	"A file with syntax errors is refused with them (exit 1).\n\n" +
	"prolog refuses a game with syntax errors, unsafe rules or negation through recursion, which\n" +
	"has no defined meaning, with its diagnostics (exit 1). For example:\n" +
	"  gdl convert --to infix game.kif > game.hrf\n" +
	"  gdl convert --to prolog --driver playouts game.kif > game.pl\n" +
	"  swipl -q -g 'playouts(1000, 1), halt' game.pl\n"

// runConvert is gdl convert: a game in the other notation or as a Prolog program.
func runConvert(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("convert", flag.ContinueOnError)
	fs.SetOutput(stderr)
	to := fs.String("to", "", "target: kif (prefix GDL), infix (GDL as in the Stanford notes, .hrf) or prolog (SWI-Prolog)")
	driver := fs.String("driver", "", "with --to prolog, append a driver: walk (walk(Seed, MaxSteps) or walk(Seed, MaxSteps, CPUSeconds) prints a random\n"+
		"match step by step: state, legal moves, terminal and goals of every state, and the joint moves)\n"+
		"or playouts (playouts(N, Seed) or playouts(N, Seed, MaxDepth, CPUSeconds) runs random playouts and prints their speed)")
	tabling := fs.String("tabling", "recursive", "which relations are tabled: recursive (every recursive relation, so left recursion\n"+
		"terminates) or none (plain Prolog: the same answers where SWI-Prolog terminates, often faster, sometimes much slower)")
	rest, code, ok := parseCommandArgs(fs, args, stderr, convertUsage, 0, -1)
	if !ok {
		return code
	}
	targets := map[string]bool{"kif": true, "infix": true, "prolog": true}
	if !targets[*to] {
		fmt.Fprintf(stderr, "gdl convert: --to must be kif, infix or prolog, not %q\n", *to)
		return 2
	}
	tab, err := prolog.ParseTabling(*tabling)
	if err != nil {
		fmt.Fprintf(stderr, "gdl convert: --%v\n", err)
		return 2
	}
	drivers := map[string]string{"": "", "walk": prolog.WalkDriver, "playouts": prolog.PlayoutDriver}
	extra, ok := drivers[*driver]
	if !ok {
		fmt.Fprintf(stderr, "gdl convert: --driver must be walk or playouts, not %q\n", *driver)
		return 2
	}
	if *driver != "" && *to != "prolog" {
		fmt.Fprintf(stderr, "gdl convert: --driver goes with --to prolog only\n")
		return 2
	}
	if len(rest) != 1 {
		fs.Usage()
		return 2
	}
	data, path, err := readInput(rest[0], stdin)
	if err != nil {
		fmt.Fprintf(stderr, "gdl convert: %v\n", err)
		return 2
	}
	f := parseInput(rest[0], data)
	if *to == "prolog" {
		return convertToProlog(f, path, tab, extra, stdout, stderr)
	}
	target := syntax.Prefix
	if *to == "infix" {
		target = syntax.Infix
	}
	return convertNotation(f, string(data), path, target, stdout, stderr)
}

// convertNotation writes f (read from path, whose text is src) in the notation target, or
// refuses it with its syntax errors or the name the target cannot write, and returns the exit
// status.
func convertNotation(f *syntax.File, src, path string, target syntax.Dialect, stdout, stderr io.Writer) int {
	if errs := f.Errors(); len(errs) > 0 {
		var ds []analysis.Diagnostic
		for _, e := range errs {
			ds = append(ds, analysis.Diagnostic{Span: e.Span, Severity: analysis.Error, Code: e.Code, Message: e.Message})
		}
		printDiagnostics(stderr, path, f.Lines(), ds)
		fmt.Fprintf(stderr, "gdl convert: %s has syntax errors; fix the errors above\n", path)
		return 1
	}
	// The error's position is found in the text, not in f: the tree of f can go while the
	// converted text is parsed and laid out (two trees of a 15 MB file are 1.2 GB).
	out, cerr := format.Convert(f, target)
	if cerr != nil {
		line, col := pos(syntax.NewLineIndex(src), cerr.Span.Start)
		fmt.Fprintf(stderr, "%s:%d:%d: error: %s\n", path, line, col, cerr.Message)
		fmt.Fprintf(stderr, "gdl convert: %s cannot be written in %s\n", path, target.Title())
		return 1
	}
	io.WriteString(stdout, out)
	return 0
}

// convertToProlog writes f (read from path) as an SWI-Prolog program tabled as tab, followed by
// driver, or refuses a game without a defined meaning with its diagnostics, and returns the exit
// status.
func convertToProlog(f *syntax.File, path string, tab prolog.Tabling, driver string, stdout, stderr io.Writer) int {
	res := analysis.Analyze(f, nil)
	out, blocking := prolog.ConvertWith(res, prolog.Options{Tabling: tab})
	if len(blocking) > 0 {
		printDiagnostics(stderr, path, f.Lines(), blocking)
		fmt.Fprintf(stderr, "gdl convert: %s has no defined meaning (syntax errors, unsafe or unstratified rules, or a keyword that depends on what GDL forbids); fix the errors above\n", path)
		return 1
	}
	io.WriteString(stdout, out+driver)
	return 0
}
