package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/pprof"

	"github.com/gdl-lsp/gdl/ggp"
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
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: gdl lsp [--stdio] [--cpuprofile FILE]\n\n"+
			"Serves the Language Server Protocol on standard input and output, for an editor to start\n"+
			"(README.md has the setups of VS Code, Neovim and Emacs); logs go to standard error.")
		fs.PrintDefaults()
	}
	rest, err := interleaved(fs, args)
	if err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if len(rest) > 0 {
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
	return lsp.Run(stdin, stdout, stderr, lsp.Options{Seats: ggp.NewSeat})
}
