package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/gdl-lsp/gdl/ggp"
)

func init() {
	register("match", command{
		summary: "run a GGP match between players over HTTP or built in",
		run:     runMatch,
	})
}

const matchUsage = `Usage: gdl match GAME --player P [--player P ...] [--startclock S] [--playclock S] [--record FILE] [--format text|json]

Runs one match of GAME as a General Game Playing game manager. Each --player is the player of
one role, in the order of the game's roles: the URL of a GGP player (http://host:port/, or
host:port), or random or mcts for a built-in player run in this process (it gets the same
messages, without the network). The random role of a GDL-II game may be left out: the manager
then plays it at random. Every player gets START with the game, then PLAY for every joint move
(in GDL-II, its own move and its percepts only), then STOP, or ABORT when the match stops early.
A move that comes later than the play clock, cannot be read or is not legal is replaced by a
random legal move, and the transcript and the record say why.

text prints a readable transcript, json the match record (the game, roles and players, every
joint move with each player's answer, its time and any error, the states, the goals);
--record FILE writes the record as well. Clocks are whole seconds: 5 or 5s.
Exit status: 0 the match reached a terminal state, 1 it did not (interrupted, --max-steps
reached, a state that cannot be evaluated) or the game cannot be played, 2 usage or I/O
problems.
`

// playerList collects repeated --player flags.
type playerList []string

func (p *playerList) String() string     { return strings.Join(*p, ",") }
func (p *playerList) Set(v string) error { *p = append(*p, v); return nil }

func runMatch(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("match", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var players playerList
	fs.Var(&players, "player", "the player of the next role: a player's URL, random or mcts (once per role, in role order)")
	startclock := durationFlag(fs, "startclock", 10*time.Second, "the time each player has to answer START, in whole seconds")
	playclock := durationFlag(fs, "playclock", 5*time.Second, "the time each player has to answer each PLAY, in whole seconds")
	record := fs.String("record", "", "write the match record (JSON) to this file")
	format := fs.String("format", "text", "output format: text (a transcript) or json (the record)")
	seed := fs.Uint64("seed", 1, "the seed of the random moves that replace bad ones, the random role's and the built-in players'")
	maxSteps := fs.Int("max-steps", 1000, "abort the match after this many joint moves")
	matchID := fs.String("match-id", "", "the match id sent to the players (default: gdl-<time>-<random>)")
	playouts := fs.Int("playouts", 0, "built-in mcts players: at most this many playouts per move (0: search until the clock less the margin)")
	ef := addEvalFlags(fs)
	engine := addEngineFlag(fs)
	pos, code, ok := parseCommand(fs, args, stderr, matchUsage, 1)
	if !ok {
		return code
	}
	if len(players) == 0 {
		fmt.Fprintln(stderr, "gdl match: give one --player per role, in role order (a URL, random or mcts)")
		return 2
	}
	if !oneOf(stderr, "match", "format", *format, "text", "json") {
		return 2
	}
	for _, c := range []struct {
		name  string
		clock time.Duration
	}{{"startclock", *startclock}, {"playclock", *playclock}} {
		if c.clock < time.Second || c.clock > ggp.MaxClock || c.clock%time.Second != 0 {
			fmt.Fprintf(stderr, "gdl match: --%s %v: the GGP protocol's clocks are whole seconds, from 1 to %d\n", c.name, c.clock, int(ggp.MaxClock.Seconds()))
			return 2
		}
	}
	if *maxSteps < 1 || *playouts < 0 {
		fmt.Fprintln(stderr, "gdl match: --max-steps must be at least 1, --playouts not negative")
		return 2
	}
	if *matchID != "" {
		if es, err := ggp.ReadExprs(*matchID); err != nil || len(es) != 1 || es[0].IsList || es[0].Atom != *matchID {
			fmt.Fprintf(stderr, "gdl match: --match-id %q is not a name (letters, digits and the like, no spaces or parentheses)\n", *matchID)
			return 2
		}
	}
	if err := ef.check(); err != nil {
		fmt.Fprintf(stderr, "gdl match: %v\n", err)
		return 2
	}
	eng, ok := parseEngine(stderr, "match", *engine)
	if !ok {
		return 2
	}
	var seats []ggp.Seat
	for i, p := range players {
		s, err := ggp.NewSeat(p, ggp.PlayerOptions{Playouts: *playouts, Seed: *seed*1_000_003 + uint64(i), Engine: eng, Limits: ef.limits()})
		if err != nil {
			fmt.Fprintf(stderr, "gdl match: --player: %v\n", err)
			return 2
		}
		seats = append(seats, s)
	}
	data, path, err := readInput(pos[0], stdin)
	if err != nil {
		fmt.Fprintf(stderr, "gdl match: %v\n", err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	progress := isTerminal(stderr)
	opts := ggp.MatchOptions{ID: *matchID, StartClock: *startclock, PlayClock: *playclock,
		MaxSteps: *maxSteps, Seed: *seed, Engine: eng, Limits: ef.limits()}
	if progress {
		opts.Progress = func(s ggp.Step) {
			fmt.Fprintf(stderr, "\r\x1b[Kgdl match: %d. (%s)", s.Step, strings.Join(s.Joint, " "))
		}
	}
	rules, err := ggp.PrepareFile(parseInput(path, data))
	if err != nil {
		fmt.Fprintf(stderr, "gdl match: %s: %v\n", path, err)
		return 1
	}
	rec, err := ggp.RunMatch(ctx, path, rules, seats, opts)
	if progress {
		fmt.Fprint(stderr, "\r\x1b[K")
	}
	if rec == nil {
		var ge *ggp.GameError
		if errors.As(err, &ge) {
			fmt.Fprintf(stderr, "gdl match: %s: %v\n", path, err)
			return 1
		}
		fmt.Fprintf(stderr, "gdl match: %s: %v\n", path, err)
		return 2
	}
	code = 0
	if err != nil || !rec.Completed {
		code = 1
	}
	if *record != "" {
		js, _ := json.MarshalIndent(rec, "", "  ")
		if werr := os.WriteFile(*record, append(js, '\n'), 0o644); werr != nil {
			fmt.Fprintf(stderr, "gdl match: --record: %v\n", werr)
			code = 2
		}
	}
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rec); err != nil {
			fmt.Fprintf(stderr, "gdl match: %v\n", err)
			return 2
		}
	} else {
		rec.WriteText(stdout)
	}
	if err != nil {
		fmt.Fprintf(stderr, "gdl match: %s: the match stopped: %v\n", path, err)
	}
	return code
}
