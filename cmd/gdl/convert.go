package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/prolog"
	"github.com/gdl-lsp/gdl/syntax"
)

func init() {
	register("convert", command{
		summary: "translate a game to another language (--to prolog)",
		run:     runConvert,
	})
}

func runConvert(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("convert", flag.ContinueOnError)
	fs.SetOutput(stderr)
	to := fs.String("to", "", "target language: prolog (SWI-Prolog)")
	driver := fs.String("driver", "", "append a driver: walk (walk(Seed, MaxSteps) or walk(Seed, MaxSteps, CPUSeconds) prints a random\n"+
		"match step by step: state, legal moves, terminal and goals of every state, and the joint moves)\n"+
		"or playouts (playouts(N, Seed) or playouts(N, Seed, MaxDepth, CPUSeconds) runs random playouts and prints their speed)")
	tabling := fs.String("tabling", "recursive", "which relations are tabled: recursive (every recursive relation, so left recursion\n"+
		"terminates) or none (plain Prolog: the same answers where SWI-Prolog terminates, often faster, sometimes much slower)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: gdl convert --to prolog [--tabling recursive|none] [--driver walk|playouts] GAME\n\n"+
			"Writes the game as an SWI-Prolog program on standard output. Flags may come before or\n"+
			"after GAME. A game with syntax errors, unsafe rules or negation through recursion has no\n"+
			"defined meaning: it is refused with its diagnostics (exit status 1). For example:\n"+
			"  gdl convert --to prolog --driver playouts game.kif > game.pl\n"+
			"  swipl -q -g 'playouts(1000, 1), halt' game.pl")
		fs.PrintDefaults()
	}
	pos, err := interleaved(fs, args)
	if err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if *to != "prolog" {
		fmt.Fprintf(stderr, "gdl convert: --to must be prolog, not %q\n", *to)
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
	if len(pos) != 1 {
		fs.Usage()
		return 2
	}
	data, path, err := readInput(pos[0], stdin)
	if err != nil {
		fmt.Fprintf(stderr, "gdl convert: %v\n", err)
		return 2
	}
	f, _ := syntax.Parse(string(data))
	res := analysis.Analyze(f, nil)
	out, blocking := prolog.ConvertWith(res, prolog.Options{Tabling: tab})
	if len(blocking) > 0 {
		printDiagnostics(stderr, path, f.Lines(), blocking)
		fmt.Fprintf(stderr, "gdl convert: %s has no defined meaning (syntax errors, or unsafe or unstratified rules); fix the errors above\n", path)
		return 1
	}
	io.WriteString(stdout, out+extra)
	return 0
}
