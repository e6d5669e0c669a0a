package main

import (
	"context"
	"encoding/json"
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
	if set := setFlags(fs); set["playouts"] || set["time"] {
		fmt.Fprintln(stderr, "gdl play: --playouts and --time are for random playouts; with --players, give --matches and --movetime")
		return 2
	}
	names := strings.Split(*mf.players, ",")
	for i, n := range names {
		names[i] = strings.TrimSpace(n)
		if names[i] != "mcts" && names[i] != "random" {
			fmt.Fprintf(stderr, "gdl play: --players: %q is not a player: mcts or random\n", names[i])
			return 2
		}
	}
	if *mf.matches < 1 {
		fmt.Fprintln(stderr, "gdl play: --matches must be at least 1")
		return 2
	}
	if *mf.budget < 0 || *mf.movetime <= 0 && *mf.budget == 0 {
		fmt.Fprintln(stderr, "gdl play: give mcts a positive --movetime or --playouts-per-move")
		return 2
	}
	if err := ef.check(); err != nil {
		fmt.Fprintf(stderr, "gdl play: %v\n", err)
		return 2
	}
	eng, ok := parseEngine(stderr, "play", engine)
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
	roles := g.RoleNames()
	// The seats: the roles but GDL-II's random role, which is chance and plays at random in
	// every match; --players may name it (as random) or leave it out, as gdl match does.
	var seated []int
	for r := range roles {
		if !g.IsRandom(r) {
			seated = append(seated, r)
		}
	}
	switch {
	case len(names) == len(seated):
	case len(names) == len(roles):
		kept := names[:0:0]
		for r, n := range names {
			if !g.IsRandom(r) {
				kept = append(kept, n)
			} else if n != "random" {
				fmt.Fprintf(stderr, "gdl play: --players: role %s is GDL-II's chance and plays at random: give random for it, or leave it out\n", roles[r])
				return 2
			}
		}
		names = kept
	default:
		want := fmt.Sprint(len(roles))
		if len(seated) < len(roles) {
			want = fmt.Sprintf("%d (or %d, leaving out the random role, which plays at random)", len(roles), len(seated))
		}
		fmt.Fprintf(stderr, "gdl play: --players names %d players; %s has %d roles (%s): give %s, one per role in role order\n", len(names), path, len(roles), strings.Join(roles, ", "), want)
		return 2
	}
	labels := make([]string, len(names)) // "random" twice becomes random#1 and random#2
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
	out := matchesJSON{Game: path, Engine: g.Engine(), EngineWhy: g.Why(), Roles: roles, Players: labels, Matches: *mf.matches,
		MoveTime: mf.movetime.Seconds(), Budget: *mf.budget, Rotate: *mf.rotate, Seed: seed, List: []matchJSON{}}
	if out.Budget > 0 {
		out.MoveTime = 0
	}
	for _, l := range labels {
		pr := playerResult{Player: l}
		for _, r := range seated {
			pr.ByRole = append(pr.ByRole, record{Role: roles[r]})
		}
		out.Results = append(out.Results, pr)
	}
	progress := isTerminal(stderr)
	start := time.Now()
	total := 0
	for i := range *mf.matches {
		shift := 0
		if *mf.rotate {
			shift = i % len(seated)
		}
		seats := make([]int, len(seated)) // seat (a role but random) -> index into labels
		players := make([]player.Player, len(roles))
		for k, r := range seated {
			seats[k] = (k + len(seated) - shift) % len(seated)
			s := seed*1_000_003 + uint64(i)*31 + uint64(r)
			if names[seats[k]] == "mcts" {
				players[r] = player.NewMCTS(g, r, player.Options{Playouts: *mf.budget, MaxDepth: maxDepth, Seed: s})
			} else {
				players[r] = player.NewRandom(g, r, s)
			}
		}
		if progress {
			fmt.Fprintf(stderr, "\r\x1b[Kgdl play: match %d of %d", i+1, *mf.matches)
		}
		mt := *mf.movetime
		if *mf.budget > 0 {
			mt = 0
		}
		m, err := player.PlayMatch(ctx, g, players, player.MatchOptions{MoveTime: mt, MaxSteps: maxDepth, Seed: seed*1_000_003 + uint64(i)})
		if err != nil {
			if progress {
				fmt.Fprint(stderr, "\r\x1b[K")
			}
			reportEvalError(stderr, "play", path, res, err)
			return 1
		}
		mj := matchJSON{Goals: m.Goals, Length: len(m.Moves), Terminal: m.Terminal}
		for r := range roles {
			k := slices.Index(seated, r)
			if k < 0 {
				mj.Seats = append(mj.Seats, "random (chance)")
				continue
			}
			mj.Seats = append(mj.Seats, labels[seats[k]])
			o := outcome(g, m.Goals, r)
			pr := &out.Results[seats[k]]
			pr.record.add(o, m.Goals[r])
			pr.ByRole[k].add(o, m.Goals[r])
		}
		if !m.Terminal {
			out.Unfinished++
		}
		n := len(m.Moves)
		total += n
		if i == 0 || n < out.MinLength {
			out.MinLength = n
		}
		out.MaxLength = max(out.MaxLength, n)
		out.List = append(out.List, mj)
	}
	if progress {
		fmt.Fprint(stderr, "\r\x1b[K")
	}
	out.Seconds = time.Since(start).Seconds()
	out.MeanLength = float64(total) / float64(*mf.matches)
	for i := range out.Results {
		pr := &out.Results[i]
		if pr.Matches > 0 {
			pr.WinRate = float64(pr.Wins) / float64(pr.Matches)
		}
	}
	if format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			fmt.Fprintf(stderr, "gdl play: %v\n", err)
			return 2
		}
		return 0
	}
	var how []string
	if slices.Contains(names, "mcts") {
		if *mf.budget > 0 {
			how = append(how, fmt.Sprintf("mcts: %d playouts per move", *mf.budget))
		} else {
			how = append(how, fmt.Sprintf("mcts: %v per move", *mf.movetime))
		}
	}
	if len(seated) > 1 {
		if *mf.rotate {
			how = append(how, "seats rotated")
		} else {
			how = append(how, "seats fixed")
		}
	}
	if len(seated) < len(roles) {
		how = append(how, "the random role plays at random")
	}
	if solo(g) {
		how = append(how, "one role: a win is the goal 100")
	}
	against := strings.Join(labels, " against ")
	if len(labels) == 1 {
		against = labels[0]
	}
	fmt.Fprintf(stdout, "%s: %d matches of %s", path, out.Matches, against)
	if len(how) > 0 {
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
		fmt.Fprintf(stdout, "; %d matches stopped at --max-depth %d", out.Unfinished, maxDepth)
	}
	fmt.Fprintln(stdout)
	w := 6
	for _, l := range labels {
		w = max(w, len(l))
	}
	for _, r := range seated {
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
	return 0
}
