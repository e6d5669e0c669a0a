package main

import (
	"flag"
	"io"

	"github.com/gdl-lsp/gdl/lsp"
)

func init() {
	register("lsp", command{
		summary: "serve the Language Server Protocol over stdin/stdout",
		run:     runLSP,
	})
}

func runLSP(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("lsp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Bool("stdio", true, "communicate over stdin/stdout (the only transport; accepted for clients that pass it)")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	return lsp.Run(stdin, stdout, stderr)
}
