package main

import (
	"fmt"
	"io"

	"github.com/gdl-lsp/gdl/game"
)

func init() {
	register("cache", command{
		summary: "show (dir) or empty (clean) the cache of games that do not ground",
		run:     runCache,
	})
}

func runCache(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	usage := func(w io.Writer) {
		fmt.Fprintf(w, "Usage: gdl cache dir|clean\n\n"+
			"gdl remembers the games that do not ground within the limits of size of the compiled engine\n"+
			"(more ground rules or atoms than it allows), so that the next run of the same text goes to\n"+
			"the interpreter at once: one small file per text, limits and build of gdl, in the folder\n"+
			"no-compile of the cache folder. A grounding that ran out of time is never remembered, and a\n"+
			"run that grounds the text (--engine compiled always tries) removes its entry.\n\n"+
			"  dir    prints the cache folder: $%s when set, else gdl in the user's cache folder\n"+
			"         ($XDG_CACHE_HOME or ~/.cache on Linux, ~/Library/Caches on macOS, %%LocalAppData%% on Windows)\n"+
			"  clean  removes the remembered failures\n", game.CacheEnv)
	}
	if len(args) != 1 {
		usage(stderr)
		return 2
	}
	switch args[0] {
	case "-h", "-help", "--help":
		usage(stdout)
		return 0
	case "dir":
		dir, err := game.CacheDir()
		if err != nil {
			fmt.Fprintf(stderr, "gdl cache: %v\n", err)
			return 2
		}
		fmt.Fprintln(stdout, dir)
		return 0
	case "clean":
		n, err := game.CleanCache()
		if err != nil {
			fmt.Fprintf(stderr, "gdl cache: %v\n", err)
			return 2
		}
		dir, _ := game.FailureDir()
		fmt.Fprintf(stdout, "removed %d remembered failures from %s\n", n, dir)
		return 0
	}
	fmt.Fprintf(stderr, "gdl cache: unknown action %q\n\n", args[0])
	usage(stderr)
	return 2
}
