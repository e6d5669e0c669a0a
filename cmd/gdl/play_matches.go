package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/gdl-lsp/gdl/game"
	"github.com/gdl-lsp/gdl/player"
)

// The matches of `gdl play --players`: the built-in players against each other.

type matchFlags struct {
	players  *string
	matches  *int
	movetime *time.Duration
	budget   *int
	rotate   *bool
}

func addMatchFlags(fs *flag.FlagSet) matchFlags {
	return matchFlags{
		players:  fs.String("players", "", "play matches between these players, one per role in role order: mcts or random (e.g. mcts,random; GDL-II's random role may be left out)"),
		matches:  fs.Int("matches", 10, "with --players: the number of matches"),
		movetime: durationFlag(fs, "movetime", time.Second, "with --players: each mcts player's time per move"),
		budget:   fs.Int("playouts-per-move", 0, "with --players: each mcts player's playouts per move instead of --movetime (the same result on any machine)"),
		rotate:   fs.Bool("rotate", true, "with --players: rotate the seats from match to match, so that each player plays each role equally often"),
	}
}

// setFlags returns the flags given on the command line.
func setFlags(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}

type matchesJSON struct {
	Game       string         `json:"game"`
	Engine     game.Engine    `json:"engine"`
	EngineWhy  string         `json:"engine_reason,omitempty"`
	Roles      []string       `json:"roles"`
	Players    []string       `json:"players"`
	Matches    int            `json:"matches"`
	MoveTime   float64        `json:"movetime_seconds"`
	Budget     int            `json:"playouts_per_move"`
	Rotate     bool           `json:"rotate"`
	Seed       uint64         `json:"seed"`
	Seconds    float64        `json:"seconds"`
	Results    []playerResult `json:"results"`
	MeanLength float64        `json:"mean_length"`
	MinLength  int            `json:"min_length"`
	MaxLength  int            `json:"max_length"`
	Unfinished int            `json:"unfinished"` // matches stopped at --max-depth
	List       []matchJSON    `json:"match_list"`
}

// playerResult is one player's record: overall and per role.
type playerResult struct {
	Player string `json:"player"`
	record
	WinRate float64  `json:"win_rate"`
	ByRole  []record `json:"by_role"`
}

type record struct {
	Role     string  `json:"role,omitempty"`
	Matches  int     `json:"matches"`
	Wins     int     `json:"wins"`
	Draws    int     `json:"draws"`
	Losses   int     `json:"losses"`
	MeanGoal float64 `json:"mean_goal"`
	goalSum  int
}

func (r *record) add(outcome int, goal int) {
	r.Matches++
	switch {
	case outcome > 0:
		r.Wins++
	case outcome == 0:
		r.Draws++
	default:
		r.Losses++
	}
	r.goalSum += max(goal, 0)
	r.MeanGoal = float64(r.goalSum) / float64(r.Matches)
}

type matchJSON struct {
	Seats    []string `json:"seats"` // the player of each role
	Goals    []int    `json:"goals"`
	Length   int      `json:"length"`
	Terminal bool     `json:"terminal"`
}

// outcome says how role r fared in a match: 1 a win (a goal above every other role's), 0 a
// draw (tied with the best), -1 a loss. GDL-II's random role is not compared. In a game of one
// role (besides random) a win is the goal 100 and anything less a loss.
func outcome(g *game.Game, goals []int, r int) int {
	if solo(g) {
		if goals[r] == 100 {
			return 1
		}
		return -1
	}
	best, tie := true, false
	for o, v := range goals {
		if o == r || g.IsRandom(o) {
			continue
		}
		switch {
		case v > goals[r]:
			best = false
		case v == goals[r]:
			tie = true
		}
	}
	switch {
	case !best:
		return -1
	case tie:
		return 0
	}
	return 1
}

// solo reports whether the game has one role besides GDL-II's random role.
func solo(g *game.Game) bool {
	n := 0
	for r := range g.Roles() {
		if !g.IsRandom(r) {
			n++
		}
	}
	return n == 1
}

func runMatches(fs *flag.FlagSet, mf matchFlags, file, format string, seed uint64, maxDepth int, ef evalFlags, engine string,
	stdin io.Reader, stdout, stderr io.Writer) int {
	names, eng, ok := checkMatchFlags(fs, mf, ef, engine, stderr)
	if !ok {
		return 2
	}
	ctx := context.Background()
	g, res, path, code, err := loadGame(ctx, file, stdin, game.Options{Engine: eng, Limits: ef.limits(), RememberFailures: true})
	if err != nil {
		fmt.Fprintf(stderr, "gdl play: %v\n", err)
		return code
	}
	if refuseUnplayable(stderr, "play", path, res, g) {
		return 1
	}
	ms := &matchSeries{g: g, mf: mf, seed: seed, maxDepth: maxDepth}
	if !ms.seat(names, path, stderr) {
		return 2
	}
	ms.start(path)
	progress := isTerminal(stderr)
	start := time.Now()
	for i := range *mf.matches {
		if progress {
			fmt.Fprintf(stderr, "\r\x1b[Kgdl play: match %d of %d", i+1, *mf.matches)
		}
		if err := ms.play(ctx, i); err != nil {
			if progress {
				fmt.Fprint(stderr, "\r\x1b[K")
			}
			reportEvalError(stderr, "play", path, res, err)
			return 1
		}
	}
	if progress {
		fmt.Fprint(stderr, "\r\x1b[K")
	}
	ms.finish(time.Since(start))
	if format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(ms.out); err != nil {
			fmt.Fprintf(stderr, "gdl play: %v\n", err)
			return 2
		}
		return 0
	}
	ms.writeText(stdout, path)
	return 0
}

// checkMatchFlags checks the flags of --players and returns the players named and the engine;
// what is wrong goes to stderr.
func checkMatchFlags(fs *flag.FlagSet, mf matchFlags, ef evalFlags, engine string, stderr io.Writer) ([]string, game.Engine, bool) {
	if set := setFlags(fs); set["playouts"] || set["time"] {
		fmt.Fprintln(stderr, "gdl play: --playouts and --time are for random playouts; with --players, give --matches and --movetime")
		return nil, "", false
	}
	names := strings.Split(*mf.players, ",")
	for i, n := range names {
		names[i] = strings.TrimSpace(n)
		if names[i] != "mcts" && names[i] != "random" {
			fmt.Fprintf(stderr, "gdl play: --players: %q is not a player: mcts or random\n", names[i])
			return nil, "", false
		}
	}
	if *mf.matches < 1 {
		fmt.Fprintln(stderr, "gdl play: --matches must be at least 1")
		return nil, "", false
	}
	if *mf.budget < 0 || *mf.movetime <= 0 && *mf.budget == 0 {
		fmt.Fprintln(stderr, "gdl play: give mcts a positive --movetime or --playouts-per-move")
		return nil, "", false
	}
	if err := ef.check(); err != nil {
		fmt.Fprintf(stderr, "gdl play: %v\n", err)
		return nil, "", false
	}
	eng, ok := parseEngine(stderr, "play", engine)
	return names, eng, ok
}

// matchSeries is the matches of gdl play --players and their figures.
type matchSeries struct {
	g        *game.Game
	mf       matchFlags
	seed     uint64
	maxDepth int
	names    []string // the player of each seat
	labels   []string // the players as the figures name them
	seated   []int    // the roles with a seat: all but GDL-II's random role
	out      matchesJSON
	total    int // joint moves of all matches
}

// seat takes the players named, one per role, or one per role but GDL-II's random role, which
// is chance and plays at random in every match: --players may name it (as random) or leave it
// out, as gdl match does.
func (ms *matchSeries) seat(names []string, path string, stderr io.Writer) bool {
	roles := ms.g.RoleNames()
	for r := range roles {
		if !ms.g.IsRandom(r) {
			ms.seated = append(ms.seated, r)
		}
	}
	switch {
	case len(names) == len(ms.seated):
	case len(names) == len(roles):
		kept := names[:0:0]
		for r, n := range names {
			if !ms.g.IsRandom(r) {
				kept = append(kept, n)
			} else if n != "random" {
				fmt.Fprintf(stderr, "gdl play: --players: role %s is GDL-II's chance and plays at random: give random for it, or leave it out\n", roles[r])
				return false
			}
		}
		names = kept
	default:
		want := fmt.Sprint(len(roles))
		if len(ms.seated) < len(roles) {
			want = fmt.Sprintf("%d (or %d, leaving out the random role, which plays at random)", len(roles), len(ms.seated))
		}
		fmt.Fprintf(stderr, "gdl play: --players names %d players; %s has %d roles (%s): give %s, one per role in role order\n", len(names), path, len(roles), strings.Join(roles, ", "), want)
		return false
	}
	ms.names, ms.labels = names, playerLabels(names)
	return true
}

// playerLabels names the players for the figures: a name given more than once is numbered
// ("random" twice becomes random#1 and random#2).
func playerLabels(names []string) []string {
	labels := make([]string, len(names))
	for i, n := range names {
		labels[i] = n
		count := 0
		for _, m := range names {
			if m == n {
				count++
			}
		}
		if count > 1 {
			k := 0
			for _, m := range names[:i+1] {
				if m == n {
					k++
				}
			}
			labels[i] = fmt.Sprintf("%s#%d", n, k)
		}
	}
	return labels
}

// start makes the figures' header and a record per player and role.
func (ms *matchSeries) start(path string) {
	mf, roles := ms.mf, ms.g.RoleNames()
	ms.out = matchesJSON{Game: path, Engine: ms.g.Engine(), EngineWhy: ms.g.Why(), Roles: roles, Players: ms.labels, Matches: *mf.matches,
		MoveTime: mf.movetime.Seconds(), Budget: *mf.budget, Rotate: *mf.rotate, Seed: ms.seed, List: []matchJSON{}}
	if ms.out.Budget > 0 {
		ms.out.MoveTime = 0
	}
	for _, l := range ms.labels {
		pr := playerResult{Player: l}
		for _, r := range ms.seated {
			pr.ByRole = append(pr.ByRole, record{Role: roles[r]})
		}
		ms.out.Results = append(ms.out.Results, pr)
	}
}

// play plays match i (the seats rotated by i when --rotate) and counts its figures.
func (ms *matchSeries) play(ctx context.Context, i int) error {
	shift := 0
	if *ms.mf.rotate {
		shift = i % len(ms.seated)
	}
	players := make([]int, len(ms.seated)) // seat (a role but random) -> index into names
	seats := make([]player.Seat, len(ms.seated))
	for k, r := range ms.seated {
		players[k] = (k + len(ms.seated) - shift) % len(ms.seated)
		s := ms.seed*1_000_003 + uint64(i)*31 + uint64(r)
		var pl player.Player = player.NewRandom(ms.g, r, s)
		if ms.names[players[k]] == "mcts" {
			pl = player.NewMCTS(ms.g, r, player.Options{Playouts: *ms.mf.budget, MaxDepth: ms.maxDepth, Seed: s})
		}
		// The beliefs (GDL-II) are seeded per match and role.
		seats[k] = &player.LocalSeat{Label: ms.labels[players[k]], Seed: (ms.seed*1_000_003+uint64(i))*31 + uint64(r),
			NewPlayer: func(*game.Game, int, uint64) player.Player { return pl }}
	}
	mt := *ms.mf.movetime
	if *ms.mf.budget > 0 {
		mt = 0
	}
	rec, err := player.RunMatch(ctx, ms.g, seats, player.MatchOptions{PlayClock: mt, MaxSteps: ms.maxDepth, Seed: ms.seed*1_000_003 + uint64(i),
		InTurn: true, OmitStates: true})
	goals := []int(nil)
	var limit *player.StepLimitError
	switch {
	case err == nil:
		goals = rec.Goals
	case errors.As(err, &limit) && limit.Goals != nil:
		goals = limit.Goals
	default:
		return err
	}
	ms.count(i, players, goals, len(rec.Moves), rec.Completed)
	return nil
}

// count adds a match's outcome to the figures.
func (ms *matchSeries) count(i int, players []int, goals []int, length int, terminal bool) {
	mj := matchJSON{Goals: goals, Length: length, Terminal: terminal}
	for r := range ms.g.RoleNames() {
		k := slices.Index(ms.seated, r)
		if k < 0 {
			mj.Seats = append(mj.Seats, "random (chance)")
			continue
		}
		mj.Seats = append(mj.Seats, ms.labels[players[k]])
		o := outcome(ms.g, goals, r)
		pr := &ms.out.Results[players[k]]
		pr.record.add(o, goals[r])
		pr.ByRole[k].add(o, goals[r])
	}
	if !terminal {
		ms.out.Unfinished++
	}
	ms.total += length
	if i == 0 || length < ms.out.MinLength {
		ms.out.MinLength = length
	}
	ms.out.MaxLength = max(ms.out.MaxLength, length)
	ms.out.List = append(ms.out.List, mj)
}

// finish computes the figures of all matches.
func (ms *matchSeries) finish(elapsed time.Duration) {
	ms.out.Seconds = elapsed.Seconds()
	ms.out.MeanLength = float64(ms.total) / float64(*ms.mf.matches)
	for i := range ms.out.Results {
		pr := &ms.out.Results[i]
		if pr.Matches > 0 {
			pr.WinRate = float64(pr.Wins) / float64(pr.Matches)
		}
	}
}

// writeText writes the figures as text: how the matches were played, then a table of the
// players' results, overall and per role.
func (ms *matchSeries) writeText(stdout io.Writer, path string) {
	out, g, roles := &ms.out, ms.g, ms.g.RoleNames()
	against := strings.Join(ms.labels, " against ")
	if len(ms.labels) == 1 {
		against = ms.labels[0]
	}
	fmt.Fprintf(stdout, "%s: %d matches of %s", path, out.Matches, against)
	if how := ms.how(); len(how) > 0 {
		fmt.Fprintf(stdout, " (%s)", strings.Join(how, "; "))
	}
	fmt.Fprintf(stdout, " in %.1fs\n", out.Seconds)
	if g.Engine() == game.Compiled {
		fmt.Fprintln(stdout, "engine: compiled")
	} else {
		fmt.Fprintf(stdout, "engine: interpreted (%s)\n", g.Why())
	}
	fmt.Fprintf(stdout, "length: mean %.1f, min %d, max %d joint moves", out.MeanLength, out.MinLength, out.MaxLength)
	if out.Unfinished > 0 {
		fmt.Fprintf(stdout, "; %d matches stopped at --max-depth %d", out.Unfinished, ms.maxDepth)
	}
	fmt.Fprintln(stdout)
	w := 6
	for _, l := range ms.labels {
		w = max(w, len(l))
	}
	for _, r := range ms.seated {
		w = max(w, len(roles[r]))
	}
	fmt.Fprintf(stdout, "%-*s  %-*s  %7s  %5s  %5s  %6s  %8s  %9s\n", w, "player", w, "role", "matches", "wins", "draws", "losses", "win rate", "mean goal")
	row := func(p, r string, rec record) {
		rate := math.NaN()
		if rec.Matches > 0 {
			rate = 100 * float64(rec.Wins) / float64(rec.Matches)
		}
		fmt.Fprintf(stdout, "%-*s  %-*s  %7d  %5d  %5d  %6d  %7.1f%%  %9.1f\n", w, p, w, r, rec.Matches, rec.Wins, rec.Draws, rec.Losses, rate, rec.MeanGoal)
	}
	for _, pr := range out.Results {
		row(pr.Player, "(all)", pr.record)
		for _, br := range pr.ByRole {
			if br.Matches > 0 {
				row("", br.Role, br)
			}
		}
	}
}

// how says how the matches were played: the mcts budget, the seats, the random role.
func (ms *matchSeries) how() []string {
	var how []string
	if slices.Contains(ms.names, "mcts") {
		if *ms.mf.budget > 0 {
			how = append(how, fmt.Sprintf("mcts: %d playouts per move", *ms.mf.budget))
		} else {
			how = append(how, fmt.Sprintf("mcts: %v per move", *ms.mf.movetime))
		}
	}
	if len(ms.seated) > 1 {
		if *ms.mf.rotate {
			how = append(how, "seats rotated")
		} else {
			how = append(how, "seats fixed")
		}
	}
	if len(ms.seated) < len(ms.g.RoleNames()) {
		how = append(how, "the random role plays at random")
	}
	if solo(ms.g) {
		how = append(how, "one role: a win is the goal 100")
	}
	return how
}
