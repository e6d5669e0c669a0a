package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/pprof"

	"github.com/gdl-lsp/gdl/internal/gctune"
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
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the whole session to `file` when the server exits (for `go tool pprof`)")
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
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			fmt.Fprintf(stderr, "gdl lsp: %v\n", err)
			return 2
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintf(stderr, "gdl lsp: cpu profile: %v\n", err)
			return 2
		}
		defer pprof.StopCPUProfile()
	}
	gctune.Server()
	return lsp.Run(stdin, stdout, stderr)
}
