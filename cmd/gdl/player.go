package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/gdl-lsp/gdl/ggp"
)

func init() {
	register("player", command{
		summary: "a GGP player: plays matches a game manager sends over HTTP",
		run:     runPlayer,
	})
}

const playerUsage = `Usage: gdl player [--addr 127.0.0.1] [--port 9147] [--strategy random|mcts] [--log FILE] [--allow-origin ORIGIN]

Runs a General Game Playing player: an HTTP server that a game manager (gdl match, or any GGP
server) posts the protocol's messages to (INFO, PREVIEW, START, PLAY, STOP, ABORT; GDL-II
included; also GET /(INFO)). It plays one match at a time (a START while it plays is answered
busy) and answers every PLAY within the play clock less a margin, with a random legal move
(random) or the move Monte Carlo tree search finds in that time (mcts). A match no message comes
for within its start clock plus three play clocks is dropped. A malformed message is answered
with HTTP status 400 and the reason, and the player goes on. It prints the URL it listens on,
then serves until interrupted (SIGINT or SIGTERM).

It listens on the loopback address only, unless --addr says otherwise: any machine that can
reach a player listening elsewhere can start matches on it. It answers at most 8 requests at
once. It refuses messages that a browser sends for a web page unless --allow-origin names the
page's origin (* for any: then any web page open in a browser on this machine can make it play).
--port 0 picks a free port. Each message (its text, up to 2,000 bytes) and its answer are
logged to standard error, or appended to --log FILE.
Exit status: 0 after an interrupt, 2 usage problems or an address that cannot be listened on.
`

func runPlayer(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("player", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1", "the address to listen on (loopback by default; 0.0.0.0 or :: for every interface)")
	port := fs.Int("port", 9147, "the port to listen on (0: a free one)")
	strategy := fs.String("strategy", "random", "how moves are chosen: random or mcts")
	logFile := fs.String("log", "", "append the log of messages and answers to this file (default: standard error)")
	margin := durationFlag(fs, "margin", 0, "the time kept back from each clock for the network (default: a tenth of the clock, from 300ms to 2s)")
	playouts := fs.Int("playouts", 0, "mcts: at most this many playouts per move, answering sooner (0: search until the clock less the margin)")
	seed := fs.Uint64("seed", 1, "the seed of the random choices")
	origin := fs.String("allow-origin", "", "let scripts of web pages of this origin send messages (Access-Control-Allow-Origin; * for any page, e.g. a game manager running in a browser)")
	engine := addEngineFlag(fs)
	_, code, ok := parseCommand(fs, args, stderr, playerUsage, 0)
	if !ok {
		return code
	}
	st, err := ggp.ParseStrategy(*strategy)
	if err != nil {
		fmt.Fprintf(stderr, "gdl player: --strategy: %v\n", err)
		return 2
	}
	eng, ok := parseEngine(stderr, "player", *engine)
	if !ok {
		return 2
	}
	if *port < 0 || *port > 65535 {
		fmt.Fprintf(stderr, "gdl player: --port must be from 0 to 65535, not %d\n", *port)
		return 2
	}
	if *margin < 0 || *playouts < 0 {
		fmt.Fprintln(stderr, "gdl player: --margin and --playouts cannot be negative")
		return 2
	}
	logw := stderr
	if *logFile != "" {
		f, err := os.OpenFile(*logFile, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err != nil {
			fmt.Fprintf(stderr, "gdl player: --log: %v\n", err)
			return 2
		}
		defer f.Close()
		logw = f
	}
	logger := log.New(logw, "", log.LstdFlags|log.Lmicroseconds)
	ln, err := net.Listen("tcp", net.JoinHostPort(*addr, strconv.Itoa(*port)))
	if err != nil {
		fmt.Fprintf(stderr, "gdl player: %v\n", err)
		return 2
	}
	url := "http://" + ln.Addr().String() + "/"
	if ip := ln.Addr().(*net.TCPAddr).IP; !ip.IsLoopback() {
		fmt.Fprintf(stderr, "gdl player: listening on %s, not only on loopback: any machine that reaches this one can send it matches\n", ln.Addr())
	}
	p := ggp.NewPlayer(ggp.PlayerOptions{Strategy: st, Margin: *margin, Playouts: *playouts, Seed: *seed, Engine: eng, Log: logger, AllowOrigin: *origin})
	srv := ggp.NewServer("", p)
	srv.ErrorLog = logger
	fmt.Fprintf(stdout, "gdl player: listening on %s (strategy %s)\n", url, st)
	logger.Printf("listening on %s (strategy %s)", url, st)

	return serveUntilInterrupted(srv, ln, "gdl player", stderr, func() { logger.Printf("interrupted: stopping") })
}

// serveUntilInterrupted serves on ln until an interrupt or SIGTERM, then shuts the server down
// (5 s for the requests under way) and returns 0; a failure to serve is reported on stderr
// under the command's name, exit status 2. interrupted, when not nil, runs on the interrupt.
func serveUntilInterrupted(srv *http.Server, ln net.Listener, name string, stderr io.Writer, interrupted func()) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return 2
	case <-ctx.Done():
	}
	if interrupted != nil {
		interrupted()
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		srv.Close()
	}
	return 0
}
