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

	"github.com/gdl-lsp/gdl/game"
	"github.com/gdl-lsp/gdl/ggp"
	"github.com/gdl-lsp/gdl/player"
	"github.com/gdl-lsp/gdl/syntax"
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
host:port), or random or mcts for a built-in player run in this process (it is told what a
player at a URL is told, without the network). The random role of a GDL-II game may be left
out: the manager then plays it at random. Every player gets START with the game, then PLAY for every joint move
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

// matchOptions are gdl match's flags.
type matchOptions struct {
	players               playerList
	startclock, playclock *time.Duration
	record, format        *string
	seed                  *uint64
	maxSteps, playouts    *int
	matchID               *string
	ef                    evalFlags
	engine                *string
}

func addMatchOptions(fs *flag.FlagSet) *matchOptions {
	o := &matchOptions{}
	fs.Var(&o.players, "player", "the player of the next role: a player's URL, random or mcts (once per role, in role order)")
	o.startclock = durationFlag(fs, "startclock", 10*time.Second, "the time each player has to answer START, in whole seconds")
	o.playclock = durationFlag(fs, "playclock", 5*time.Second, "the time each player has to answer each PLAY, in whole seconds")
	o.record = fs.String("record", "", "write the match record (JSON) to this file")
	o.format = fs.String("format", "text", "output format: text (a transcript) or json (the record)")
	o.seed = fs.Uint64("seed", 1, "the seed of the random moves that replace bad ones, the random role's and the built-in players'")
	o.maxSteps = fs.Int("max-steps", 1000, "abort the match after this many joint moves")
	o.matchID = fs.String("match-id", "", "the match id sent to the players (default: gdl-<time>-<random>)")
	o.playouts = fs.Int("playouts", 0, "built-in mcts players: at most this many playouts per move (0: search until the clock less the margin)")
	o.ef = addEvalFlags(fs)
	o.engine = addEngineFlag(fs)
	return o
}

func runMatch(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("match", flag.ContinueOnError)
	fs.SetOutput(stderr)
	o := addMatchOptions(fs)
	pos, code, ok := parseCommand(fs, args, stderr, matchUsage, 1)
	if !ok {
		return code
	}
	eng, ok := o.check(stderr)
	if !ok {
		return 2
	}
	seats, err := o.seats()
	if err != nil {
		fmt.Fprintf(stderr, "gdl match: --player: %v\n", err)
		return 2
	}
	data, path, err := readInput(pos[0], stdin)
	if err != nil {
		fmt.Fprintf(stderr, "gdl match: %v\n", err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rec, err := o.run(ctx, parseInput(path, data), path, seats, eng, stderr)
	if rec == nil {
		var ge *player.GameError
		fmt.Fprintf(stderr, "gdl match: %s: %v\n", path, err)
		if errors.As(err, &ge) {
			return 1
		}
		return 2
	}
	return o.report(rec, err, path, stdout, stderr)
}

// check checks the flags and returns the engine; what is wrong goes to stderr.
func (o *matchOptions) check(stderr io.Writer) (game.Engine, bool) {
	if len(o.players) == 0 {
		fmt.Fprintln(stderr, "gdl match: give one --player per role, in role order (a URL, random or mcts)")
		return "", false
	}
	if !oneOf(stderr, "match", "format", *o.format, "text", "json") {
		return "", false
	}
	for _, c := range []struct {
		name  string
		clock time.Duration
	}{{"startclock", *o.startclock}, {"playclock", *o.playclock}} {
		if c.clock < time.Second || c.clock > player.MaxClock || c.clock%time.Second != 0 {
			fmt.Fprintf(stderr, "gdl match: --%s %v: the GGP protocol's clocks are whole seconds, from 1 to %d\n", c.name, c.clock, int(player.MaxClock.Seconds()))
			return "", false
		}
	}
	if *o.maxSteps < 1 || *o.playouts < 0 {
		fmt.Fprintln(stderr, "gdl match: --max-steps must be at least 1, --playouts not negative")
		return "", false
	}
	if *o.matchID != "" {
		if es, err := ggp.ReadExprs(*o.matchID); err != nil || len(es) != 1 || es[0].IsList || es[0].Atom != *o.matchID {
			fmt.Fprintf(stderr, "gdl match: --match-id %q is not a name (letters, digits and the like, no spaces or parentheses)\n", *o.matchID)
			return "", false
		}
	}
	if err := o.ef.check(); err != nil {
		fmt.Fprintf(stderr, "gdl match: %v\n", err)
		return "", false
	}
	return parseEngine(stderr, "match", *o.engine)
}

// seats makes the players' seats.
func (o *matchOptions) seats() ([]player.Seat, error) {
	var seats []player.Seat
	for i, p := range o.players {
		s, err := ggp.NewSeat(p, player.SeatOptions{Playouts: *o.playouts, Seed: *o.seed*1_000_003 + uint64(i)})
		if err != nil {
			return nil, err
		}
		seats = append(seats, s)
	}
	return seats, nil
}

// run loads the game and runs the match, showing its progress on a terminal.
func (o *matchOptions) run(ctx context.Context, f *syntax.File, path string, seats []player.Seat, eng game.Engine, stderr io.Writer) (*player.Record, error) {
	g, err := player.LoadMatch(ctx, f, seats, game.Options{Engine: eng, Limits: o.ef.limits()})
	if err != nil {
		return nil, err
	}
	progress := isTerminal(stderr)
	opts := player.MatchOptions{ID: *o.matchID, Name: path, StartClock: *o.startclock, PlayClock: *o.playclock,
		MaxSteps: *o.maxSteps, Seed: *o.seed}
	if progress {
		opts.Progress = func(s player.Step) {
			fmt.Fprintf(stderr, "\r\x1b[Kgdl match: %d. (%s)", s.Step, strings.Join(s.Joint, " "))
		}
	}
	rec, err := player.RunMatch(ctx, g, seats, opts)
	if progress {
		fmt.Fprint(stderr, "\r\x1b[K")
	}
	return rec, err
}

// report writes the record (--record, and the transcript or the JSON) and returns the exit
// status: 0 when the match reached a terminal state.
func (o *matchOptions) report(rec *player.Record, err error, path string, stdout, stderr io.Writer) int {
	code := 0
	if err != nil || !rec.Completed {
		code = 1
	}
	if *o.record != "" {
		js, _ := json.MarshalIndent(rec, "", "  ")
		if werr := os.WriteFile(*o.record, append(js, '\n'), 0o644); werr != nil {
			fmt.Fprintf(stderr, "gdl match: --record: %v\n", werr)
			code = 2
		}
	}
	if *o.format == "json" {
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
