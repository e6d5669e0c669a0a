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
	driver := fs.String("driver", "", "append a driver: walk (walk(Seed, MaxSteps) prints a random match step by step)\n"+
		"or playouts (playouts(N, Seed) runs N random playouts and prints their speed)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: gdl convert --to prolog [--driver walk|playouts] GAME\n\n"+
			"Writes the game as an SWI-Prolog program on standard output, for example:\n"+
			"  gdl convert --to prolog --driver playouts game.kif > game.pl\n"+
			"  swipl -q -g 'playouts(1000, 1), halt' game.pl")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *to != "prolog" {
		fmt.Fprintf(stderr, "gdl convert: --to must be prolog, not %q\n", *to)
		return 2
	}
	drivers := map[string]string{"": "", "walk": prolog.WalkDriver, "playouts": prolog.PlayoutDriver}
	extra, ok := drivers[*driver]
	if !ok {
		fmt.Fprintf(stderr, "gdl convert: --driver must be walk or playouts, not %q\n", *driver)
		return 2
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	data, path, err := readInput(fs.Arg(0), stdin)
	if err != nil {
		fmt.Fprintf(stderr, "gdl convert: %v\n", err)
		return 2
	}
	f, _ := syntax.Parse(string(data))
	res := analysis.Analyze(f, nil)
	out, blocking := prolog.Convert(res)
	if len(blocking) > 0 {
		lines := f.Lines()
		for _, d := range blocking {
			p := lines.Position(d.Span.Start, syntax.UTF32)
			fmt.Fprintf(stderr, "%s:%d:%d: %s: %s [%s]\n", path, p.Line+1, p.Column+1, d.Severity, d.Message, d.Code)
		}
		fmt.Fprintf(stderr, "gdl convert: %s has no defined meaning (unsafe or unstratified rules); fix the errors above\n", path)
		return 1
	}
	io.WriteString(stdout, out+extra)
	return 0
}
