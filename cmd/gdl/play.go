package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/gdl-lsp/gdl/game"
)

func init() {
	register("play", command{
		summary: "random playouts: speed, lengths, goal values and rule violations",
		run:     runPlay,
	})
}

const playUsage = `Usage: gdl play GAME [--playouts N] [--seed S] [--max-depth D] [--time D] [--engine E] [--moves-out FILE] [--format text|json]
       gdl play GAME --players P1,P2,... [--matches N] [--movetime D] [--playouts-per-move N] [--seed S] [--format text|json]

Plays N random playouts of GAME (every role, random included, picks a uniformly random legal
move) and reports playouts per second (of wall time and of the process's CPU time), playout
lengths, the goal values reached per role, and every violation found: a role without a legal
move in a non-terminal state, a terminal state where a role has no goal value or more than one,
an evaluation stopped by a limit (term depth, facts, time) in a reachable state. Each violation
comes with the shortest joint-move sequence found that reaches it, usable with
'gdl query GAME ... --moves'. Playouts that reach --max-depth without a terminal state are an
outcome of their own, a warning of possible non-termination (gdl verify decides it), not a
violation. A move sequence longer than a screen is not printed: --moves-out FILE writes each
finding's moves to FILE, one line per finding, and the report says which line. --time bounds
the whole run: the playouts done by then are reported. The output names the engine that ran
(compiled, or the interpreter and why). While it runs, progress goes to standard error once a
second when that is a terminal. Exit status: 0 no violation (possible non-termination
included), 1 violations or a game whose rules have no defined meaning (role, init, legal, next,
goal, terminal or sees: refused with the diagnostics before any playout, whether or not one would
ask it), 2 usage or I/O problems. The figures include the distribution of playout lengths and
how the first role fares (wins, draws and losses against the others' goal values).

With --players, plays N matches between players instead, one per role in role order: mcts
(Monte Carlo tree search with --movetime per move, or --playouts-per-move playouts) or random.
GDL-II's random role is chance: it plays at random and may be left out of --players (or given
as random); each player plays from what its role knows (its own moves and percepts). The seats
rotate from match to match (--rotate=false keeps them), so that each player plays each role
equally often, and the report gives each player's wins, draws, losses and mean goal, overall
and per role, the random role left out (in a game of one role, a win is the goal 100):
'gdl play connectFour.kif --players mcts,random --matches 20'.
Exit status 0 unless the game or the options are wrong.
`

// playJSON is gdl play --format json: the report every tool gives of playouts (game.PlayReport)
// and the figures of the command.
type playJSON struct {
	Game string `json:"game"`
	game.PlayReport
	CompileSec float64 `json:"compile_seconds"`
	Seed       uint64  `json:"seed"`
	PerSecond  float64 `json:"playouts_per_second"`
	CPUSeconds float64 `json:"cpu_seconds"`
	PerCPU     float64 `json:"playouts_per_cpu_second"`
}

// playFlags are gdl play's options; mf and the match flags go to gdl play --players.
type playFlags struct {
	playouts *int
	seed     *uint64
	maxDepth *int
	format   *string
	runTime  *time.Duration
	movesOut *string
	ef       evalFlags
	engine   *string
	mf       matchFlags
}

// addPlayFlags defines gdl play's flags on fs.
func addPlayFlags(fs *flag.FlagSet) playFlags {
	return playFlags{
		playouts: fs.Int("playouts", 1000, "number of random playouts"),
		seed:     fs.Uint64("seed", 1, "random seed (the same seed gives the same playouts)"),
		maxDepth: fs.Int("max-depth", 1000, "joint moves per playout before it counts as too long"),
		format:   fs.String("format", "text", "output format: text or json"),
		runTime:  durationFlag(fs, "time", 0, "stop after this long with the playouts done so far (0: no bound)"),
		movesOut: fs.String("moves-out", "", "write each finding's joint moves to this file, one line per finding"),
		ef:       addEvalFlags(fs),
		engine:   addEngineFlag(fs),
		mf:       addMatchFlags(fs),
	}
}

// runPlay is gdl play: random playouts of a game and their report, or with --players,
// matches between players (runMatches).
func runPlay(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("play", flag.ContinueOnError)
	fs.SetOutput(stderr)
	pf := addPlayFlags(fs)
	pos, code, ok := parseCommand(fs, args, stderr, playUsage, 1)
	if !ok {
		return code
	}
	if !oneOf(stderr, "play", "format", *pf.format, "text", "json") {
		return 2
	}
	if *pf.mf.players != "" {
		return runMatches(fs, pf.mf, pos[0], *pf.format, *pf.seed, *pf.maxDepth, pf.ef, *pf.engine, stdin, stdout, stderr)
	}
	if !pf.check(fs, stderr) {
		return 2
	}
	eng, ok := checkEvalEngine(stderr, "play", pf.ef, *pf.engine)
	if !ok {
		return 2
	}
	// --time bounds the whole run: compiling the game (grounding, under auto) included.
	ctx := context.Background()
	if *pf.runTime > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *pf.runTime)
		defer cancel()
	}
	g, res, path, code, err := loadGame(ctx, pos[0], stdin, game.Options{Engine: eng, Limits: pf.ef.limits(), RememberFailures: true})
	if err != nil {
		fmt.Fprintf(stderr, "gdl play: %v\n", err)
		return code
	}
	if refuseUnplayable(stderr, "play", path, res, g) {
		return 1
	}
	if len(g.Roles()) == 0 {
		fmt.Fprintf(stderr, "gdl play: %s: the game has no role\n", path)
		return 1
	}
	opts, progress := pf.options(ctx, stderr)
	st, err := g.Playouts(context.Background(), opts)
	if progress {
		fmt.Fprint(stderr, "\r\x1b[K")
	}
	if err != nil {
		reportEvalError(stderr, "play", path, res, err)
		return 1
	}
	return pf.report(g, st, path, stdout, stderr)
}

// check refuses the options of gdl play that are wrong together or out of range, saying why.
func (pf playFlags) check(fs *flag.FlagSet, stderr io.Writer) bool {
	if set := setFlags(fs); set["matches"] || set["movetime"] || set["playouts-per-move"] || set["rotate"] {
		fmt.Fprintln(stderr, "gdl play: --matches, --movetime, --playouts-per-move and --rotate are for matches between players: give --players")
		return false
	}
	if *pf.playouts < 1 || *pf.maxDepth < 1 {
		fmt.Fprintln(stderr, "gdl play: --playouts and --max-depth must be at least 1")
		return false
	}
	if *pf.runTime < 0 {
		fmt.Fprintln(stderr, "gdl play: --time must not be negative")
		return false
	}
	return true
}

// options are the playouts' options: the time left of ctx's deadline (set by --time), and
// progress lines on stderr when it is a terminal (then progress is true: the caller clears
// the line).
func (pf playFlags) options(ctx context.Context, stderr io.Writer) (opts game.PlayOptions, progress bool) {
	opts = game.PlayOptions{Playouts: *pf.playouts, Seed: *pf.seed, MaxDepth: *pf.maxDepth, Time: *pf.runTime}
	progress = isTerminal(stderr)
	if progress {
		opts.Progress = func(done int, elapsed time.Duration) {
			rate := float64(done) / elapsed.Seconds()
			left := ""
			if rate > 0 {
				rest := time.Duration(float64(*pf.playouts-done) / rate * float64(time.Second))
				if *pf.runTime > 0 {
					rest = min(rest, *pf.runTime-elapsed)
				}
				left = fmt.Sprintf(", about %s left", rest.Round(time.Second))
			}
			fmt.Fprintf(stderr, "\r\x1b[Kgdl play: %d of %d playouts, %.1f/s%s", done, *pf.playouts, rate, left)
		}
	}
	if *pf.runTime > 0 {
		deadline, _ := ctx.Deadline()
		opts.Time = time.Until(deadline)
		if opts.Time <= 0 {
			opts.Time = time.Nanosecond
		}
	}
	return opts, progress
}

// report writes the playouts' report (and the --moves-out file) and returns the exit status:
// 1 when a violation was found.
func (pf playFlags) report(g *game.Game, st *game.PlayStats, path string, stdout, stderr io.Writer) int {
	out := playJSON{Game: path, PlayReport: g.Report(st, *pf.maxDepth), CompileSec: g.CompileTime().Seconds(), Seed: *pf.seed,
		PerSecond: st.PerSecond, CPUSeconds: st.CPU.Seconds(), PerCPU: st.PerCPUSecond}
	if *pf.movesOut != "" {
		if err := writeMovesOut(*pf.movesOut, numberFindings(&out.PlayReport)); err != nil {
			fmt.Fprintf(stderr, "gdl play: --moves-out: %v\n", err)
			return 2
		}
	}
	status := 0
	if len(out.Violations) > 0 {
		status = 1
	}
	if *pf.format == "json" {
		if err := encodeJSON(stdout, out); err != nil {
			fmt.Fprintf(stderr, "gdl play: %v\n", err)
			return 2
		}
		return status
	}
	pf.writeText(stdout, g, out, st.TimeUp)
	return status
}

// numberFindings gives each finding of r its line of the --moves-out file and returns the
// file's lines: each finding's joint moves.
func numberFindings(r *game.PlayReport) []string {
	var lines []string
	for i := range r.Violations {
		v := &r.Violations[i]
		lines = append(lines, strings.Join(v.Moves, " "))
		v.MovesOut = len(lines)
	}
	if d := r.DepthLimit; d != nil {
		lines = append(lines, strings.Join(d.Moves, " "))
		d.MovesOut = len(lines)
	}
	return lines
}

// writeText writes gdl play's text report: speed, engine, lengths, goal values, the first
// role's outcomes, violations and possible non-termination.
func (pf playFlags) writeText(stdout io.Writer, g *game.Game, out playJSON, timeUp bool) {
	fmt.Fprintf(stdout, "%s: %d playouts in %.3fs wall, %.3fs CPU: %.1f playouts/s, %.1f per CPU second (seed %d)\n",
		out.Game, out.Playouts, out.Seconds, out.CPUSeconds, out.PerSecond, out.PerCPU, *pf.seed)
	if g.Engine() == game.Compiled {
		fmt.Fprintf(stdout, "engine: compiled (grounded and built in %.3fs: %s)\n", out.CompileSec, g.NetStats())
	} else {
		fmt.Fprintf(stdout, "engine: interpreted (%s)\n", g.Why())
	}
	if timeUp {
		fmt.Fprintf(stdout, "stopped by --time %v after %d of %d playouts\n", *pf.runTime, out.Playouts, *pf.playouts)
	}
	fmt.Fprintf(stdout, "length: mean %.2f, min %d, max %d joint moves; %d of %d ended in a terminal state\n",
		out.MeanLength, out.MinLength, out.MaxLength, out.Terminal, out.Playouts)
	writeGoalValues(stdout, &out.PlayReport)
	if f := out.First; f != nil {
		n := float64(f.Wins + f.Draws + f.Losses)
		fmt.Fprintf(stdout, "first role %s: %d wins (%.1f%%), %d draws (%.1f%%), %d losses (%.1f%%) of %d decided playouts\n",
			f.Role, f.Wins, 100*float64(f.Wins)/n, f.Draws, 100*float64(f.Draws)/n, f.Losses, 100*float64(f.Losses)/n, int(n))
	}
	writeFindings(stdout, &out.PlayReport, *pf.movesOut)
}

// writeGoalValues writes the goal values the terminal playouts reached, per role.
func writeGoalValues(stdout io.Writer, r *game.PlayReport) {
	if r.Terminal == 0 {
		fmt.Fprintln(stdout, "goal values: none (no playout reached a terminal state)")
		return
	}
	fmt.Fprintln(stdout, "goal values (value: playouts):")
	for _, role := range r.Roles {
		var parts []string
		for _, gn := range r.Goals[role] {
			parts = append(parts, fmt.Sprintf("%s: %d", gn.Value, gn.Count))
		}
		if len(parts) == 0 {
			parts = append(parts, "none")
		}
		fmt.Fprintf(stdout, "  %s  %s\n", role, strings.Join(parts, ", "))
	}
}

// writeFindings writes the violations found and the playouts cut by --max-depth, each with its
// shortest joint moves (or where they are: movesOut is the --moves-out file).
func writeFindings(stdout io.Writer, r *game.PlayReport, movesOut string) {
	if len(r.Violations) == 0 {
		fmt.Fprintln(stdout, "violations: none")
	} else {
		fmt.Fprintf(stdout, "violations: %d\n", len(r.Violations))
	}
	for _, v := range r.Violations {
		who := ""
		if v.Role != "" {
			who = " (role " + v.Role + ")"
		}
		fmt.Fprintf(stdout, "  %s%s: %s, in %d playouts; shortest: %s\n", v.Kind, who, v.Detail, v.Count, movesRef(v.Moves, v.MovesOut, movesOut))
	}
	if d := r.DepthLimit; d != nil {
		fmt.Fprintf(stdout, "possible non-termination: %d of %d playouts reached --max-depth %d without a terminal state; "+
			"the game may never end, or need more moves (gdl verify decides: it explores every reachable state); first: %s\n",
			d.Playouts, r.Playouts, d.MaxDepth, movesRef(d.Moves, d.MovesOut, movesOut))
	}
}

// screenMoves is the most joint moves a report prints (and at most screenChars characters of
// them): longer sequences go to the --moves-out file.
const (
	screenMoves = 20
	screenChars = 1000
)

// movesRef writes a finding's joint moves for the text report: inline when they fit on a screen,
// else the line of the --moves-out file that has them, or how to get them.
func movesRef(moves []string, line int, file string) string {
	text := strings.Join(moves, " ")
	switch {
	case len(moves) <= screenMoves && len(text) <= screenChars:
		return "\n    --moves '" + text + "'"
	case line > 0:
		return fmt.Sprintf("%d joint moves, written to line %d of %s", len(moves), line, file)
	}
	return fmt.Sprintf("%d joint moves (give --moves-out FILE to have them written)", len(moves))
}

// writeMovesOut writes the findings' joint moves, one finding per line, each usable as
// gdl query --moves.
func writeMovesOut(path string, lines []string) error {
	text := strings.Join(lines, "\n")
	if len(lines) > 0 {
		text += "\n"
	}
	return os.WriteFile(path, []byte(text), 0o644)
}

// isTerminal reports whether w is a terminal (a character device), where progress lines go.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
