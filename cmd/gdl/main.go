// Command gdl is the command-line face of the GDL tooling: it checks, evaluates, plays, formats and
// converts game descriptions, and serves the language server.
package main

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/internal/gctune"
)

// command is one subcommand. run gets the arguments after the subcommand name and returns the
// process exit status: 0 success, 1 the input has errors, 2 usage or I/O problems.
type command struct {
	summary string
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

// commands is the registry of subcommands; each lives in its own file and registers itself here
// from an init function.
var commands = map[string]command{}

func register(name string, c command) {
	if _, dup := commands[name]; dup {
		panic("gdl: command registered twice: " + name)
	}
	commands[name] = c
}

func main() {
	// The language server sets its own policy (runLSP); every other command runs and exits, and
	// check keeps what it allocates until it exits.
	switch {
	case len(os.Args) >= 2 && os.Args[1] == "check":
		gctune.Check()
	case len(os.Args) < 2 || os.Args[1] != "lsp":
		gctune.Batch()
	}
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	switch args[0] {
	case "-h", "-help", "--help":
		usage(stdout)
		return 0
	case "help":
		return help(args[1:], stdin, stdout, stderr)
	case "-version", "--version", "version":
		fmt.Fprintln(stdout, versionString())
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "gdl: unknown command %q%s\n\n", args[0], didYouMean(args[0]))
		usage(stderr)
		return 2
	}
	return c.run(args[1:], stdin, stdout, stderr)
}

// help is `gdl help [CMD]`: the general usage, or a command's (what 'gdl CMD -h' prints), on
// standard output.
func help(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stdout)
		return 0
	}
	c, ok := commands[args[0]]
	if len(args) > 1 || !ok {
		if !ok {
			fmt.Fprintf(stderr, "gdl help: unknown command %q%s\n", args[0], didYouMean(args[0]))
		}
		fmt.Fprintln(stderr, "Usage: gdl help [COMMAND]")
		return 2
	}
	return c.run([]string{"-h"}, stdin, stdout, stdout)
}

// didYouMean names the commands closest to a misspelt one: "; did you mean check?".
func didYouMean(name string) string {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	if near := analysis.Closest(name, names); len(near) > 0 {
		return "; did you mean " + strings.Join(near, " or ") + "?"
	}
	return ""
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "gdl: tools for the Game Description Language (GDL)")
	fmt.Fprintln(w, "\nUsage: gdl <command> [arguments]\n\nCommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-9s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'gdl help <command>' (or 'gdl <command> -h') for the options of a command, 'gdl --version'\nfor the version.")
}
