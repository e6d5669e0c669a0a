package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gdl-lsp/gdl/game"
	"github.com/gdl-lsp/gdl/verify"
)

func init() {
	register("stats", command{
		summary: "state-space statistics, random play and, for small two-player games, the solved value",
		run:     runStats,
	})
}

const statsUsage = `Usage: gdl stats GAME [--max-states N] [--timeout D] [--playouts N] [--seed S] [--solve-states N] [--engine E] [--format text|json]

Explores the reachable states of GAME breadth-first (as gdl verify does, within the same
budget) and reports: the number of reachable states and of terminal states, the depth range
(the shortest match, the longest match when the space has no cycle and was explored whole),
the joint moves and each role's legal moves per state (mean and max), the goal values of the
terminal states per role; then N random playouts (as gdl play) with the goal distribution per
role and the first player's advantage (its mean goal under random play minus the others'). For
a two-player zero-sum game (goals summing to 100) where the roles take turns and whose space was
explored whole, it solves the game by alpha-beta search with a table of positions (at most
--solve-states): the value of the initial state under perfect play, and the value of each first
move of the role that moves first, the best ones marked. Exit status: 0 success, 1 a game that
cannot be played, 2 usage or I/O problems.
`

type statsJSON struct {
	Game           string          `json:"game"`
	Engine         game.Engine     `json:"engine"`
	EngineWhy      string          `json:"engine_reason,omitempty"`
	Complete       bool            `json:"complete"`
	Stopped        string          `json:"stopped,omitempty"`
	States         int             `json:"states"`
	Terminal       int             `json:"terminal_states"`
	Depth          int             `json:"depth"`
	FullDepth      int             `json:"full_depth"`
	ShortestMatch  int             `json:"shortest_match"`
	LongestMatch   int             `json:"longest_match"`
	JointMean      float64         `json:"joint_moves_mean"`
	JointMax       int             `json:"joint_moves_max"`
	TurnTaking     bool            `json:"turn_taking"`
	Roles          []roleStatsJSON `json:"roles"`
	Playouts       int             `json:"playouts"`
	PlayMeanLength float64         `json:"playout_mean_length"`
	FirstRole      string          `json:"first_role"`
	FirstAdvantage float64         `json:"first_advantage"`
	Solution       *solutionJSON   `json:"solution,omitempty"`
	Seconds        float64         `json:"seconds"`
}

type roleStatsJSON struct {
	Role          string            `json:"role"`
	Random        bool              `json:"random,omitempty"`
	BranchMean    float64           `json:"legal_moves_mean"`
	BranchMax     int               `json:"legal_moves_max"`
	TerminalGoals []game.ValueCount `json:"terminal_goals"`
	PlayGoals     []game.ValueCount `json:"playout_goals"`
	MeanGoal      float64           `json:"playout_mean_goal"`
}

type solutionJSON struct {
	Solved  bool            `json:"solved"`
	Why     string          `json:"reason,omitempty"`
	Values  map[string]int  `json:"values,omitempty"`
	Mover   string          `json:"mover,omitempty"`
	Moves   []moveValueJSON `json:"moves,omitempty"`
	Best    []string        `json:"best,omitempty"`
	States  int             `json:"positions"`
	Seconds float64         `json:"seconds"`
}

type moveValueJSON struct {
	Move  string `json:"move"`
	Value int    `json:"value"`
}

func runStats(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	start := time.Now()
	fs := flag.NewFlagSet("stats", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("format", "text", "output format: text or json")
	sf := addSearchFlags(fs)
	playouts := fs.Int("playouts", 1000, "number of random playouts")
	seed := fs.Uint64("seed", 1, "random seed of the playouts")
	solveStates := fs.Int("solve-states", verify.DefaultMaxStates, "positions the solver may keep (0: do not solve)")
	engine := addEngineFlag(fs)
	pos, code, ok := parseCommand(fs, args, stderr, statsUsage, 1)
	if !ok {
		return code
	}
	if !oneOf(stderr, "stats", "format", *format, "text", "json") {
		return 2
	}
	if err := sf.check(); err != nil {
		fmt.Fprintf(stderr, "gdl stats: %v\n", err)
		return 2
	}
	if *playouts < 1 || *solveStates < 0 {
		fmt.Fprintln(stderr, "gdl stats: --playouts must be at least 1 and --solve-states not negative")
		return 2
	}
	g, res, path, code, ok := loadSearchGame("stats", pos[0], *engine, sf, start, stdin, stderr)
	if !ok {
		return code
	}
	progress, clear := searchProgress("stats", stderr, *sf.maxStates)
	opts := verify.StatsOptions{
		Options:  verify.Options{MaxStates: *sf.maxStates, Timeout: sf.left(start), Progress: progress, ProgressEvery: time.Second},
		Playouts: *playouts, Seed: *seed, SolveStates: *solveStates,
	}
	if *solveStates == 0 {
		opts.SolveStates = -1
	}
	st, err := verify.Stats(context.Background(), g, opts)
	clear()
	if err != nil {
		reportEvalError(stderr, "stats", path, res, err)
		return 1
	}
	out := statsOutput(path, g, st)
	if *format == "json" {
		if err := encodeJSON(stdout, out); err != nil {
			fmt.Fprintf(stderr, "gdl stats: %v\n", err)
			return 2
		}
		return 0
	}
	writeStatsText(stdout, out)
	return 0
}

// goalCounts lists counts by goal value, in numeric order.
func goalCounts[K comparable](m map[K]int, text func(K) string) []game.ValueCount {
	out := []game.ValueCount{}
	for v, n := range m {
		out = append(out, game.ValueCount{Value: text(v), Count: n})
	}
	slices.SortFunc(out, func(a, b game.ValueCount) int { return game.CompareValues(a.Value, b.Value) })
	return out
}

func statsOutput(path string, g *game.Game, st *verify.Statistics) statsJSON {
	out := statsJSON{
		Game: path, Engine: g.Engine(), EngineWhy: g.Why(), Complete: st.Complete, Stopped: st.Stopped,
		States: st.States, Terminal: st.Terminal, Depth: st.Depth, FullDepth: st.FullDepth,
		ShortestMatch: st.ShortestMatch, LongestMatch: st.LongestMatch, JointMean: st.JointMean, JointMax: st.JointMax,
		TurnTaking: st.TurnTaking, Roles: []roleStatsJSON{}, Playouts: st.Play.Playouts, PlayMeanLength: st.Play.MeanLength,
		FirstRole: st.FirstRole, FirstAdvantage: st.FirstAdvantage, Seconds: st.Elapsed.Seconds(),
	}
	for _, rs := range st.Roles {
		out.Roles = append(out.Roles, roleStatsJSON{
			Role: rs.Role, Random: rs.Random, BranchMean: rs.BranchMean, BranchMax: rs.BranchMax,
			TerminalGoals: goalCounts(rs.TerminalGoals, func(v int) string {
				if v < 0 {
					return "none"
				}
				return strconv.Itoa(v)
			}),
			PlayGoals: goalCounts(rs.PlayGoals, func(v string) string { return v }),
			MeanGoal:  rs.MeanGoal,
		})
	}
	if st.Solution == nil {
		out.Solution = &solutionJSON{Why: "--solve-states 0 turns the solver off"}
	}
	if s := st.Solution; s != nil {
		sj := &solutionJSON{Solved: s.Solved, Why: s.Why, States: s.States, Seconds: s.Elapsed.Seconds()}
		if s.Solved {
			sj.Values = map[string]int{}
			for r, name := range g.RoleNames() {
				sj.Values[name] = s.Values[r]
			}
			if s.Mover >= 0 {
				sj.Mover = g.RoleNames()[s.Mover]
			}
			for _, mv := range s.Moves {
				sj.Moves = append(sj.Moves, moveValueJSON{mv.Text, mv.Value})
			}
			for _, mv := range s.Best {
				sj.Best = append(sj.Best, mv.Text)
			}
		}
		out.Solution = sj
	}
	return out
}

func writeStatsText(w io.Writer, out statsJSON) {
	if out.Complete {
		fmt.Fprintf(w, "%s: complete: %d states (%d terminal), depth %d; %s engine, %.3fs\n", out.Game, out.States, out.Terminal, out.Depth, out.Engine, out.Seconds)
	} else {
		fmt.Fprintf(w, "%s: incomplete (%s): %d states (%d terminal), every state up to depth %d, deepest %d; %s engine, %.3fs\n",
			out.Game, stoppedText(out.Stopped), out.States, out.Terminal, out.FullDepth, out.Depth, out.Engine, out.Seconds)
	}
	shortest, longest := "none found", "unknown"
	if out.ShortestMatch >= 0 {
		shortest = strconv.Itoa(out.ShortestMatch)
	}
	if out.LongestMatch >= 0 {
		longest = strconv.Itoa(out.LongestMatch)
	}
	fmt.Fprintf(w, "matches: shortest %s, longest %s joint moves; %d random playouts: mean length %.2f\n", shortest, longest, out.Playouts, out.PlayMeanLength)
	turns := "roles take turns"
	if !out.TurnTaking {
		turns = "roles move at the same time"
	}
	fmt.Fprintf(w, "joint moves per state: mean %.2f, max %d; %s\n", out.JointMean, out.JointMax, turns)
	for _, rs := range out.Roles {
		if rs.Random {
			fmt.Fprintf(w, "role %s (GDL-II's random, needs no goal): legal moves mean %.2f, max %d\n", rs.Role, rs.BranchMean, rs.BranchMax)
			continue
		}
		fmt.Fprintf(w, "role %s: legal moves mean %.2f, max %d; terminal states by goal: %s; random play: %s (mean %.1f)\n",
			rs.Role, rs.BranchMean, rs.BranchMax, goalText(rs.TerminalGoals), goalText(rs.PlayGoals), rs.MeanGoal)
	}
	if players := len(out.Roles) - randomRoles(out.Roles); players > 1 {
		fmt.Fprintf(w, "first role: %s, advantage under random play %+.1f\n", out.FirstRole, out.FirstAdvantage)
	}
	s := out.Solution
	switch {
	case !s.Solved:
		fmt.Fprintf(w, "not solved: %s\n", s.Why)
	default:
		var vals []string
		for _, rs := range out.Roles {
			vals = append(vals, fmt.Sprintf("%s %d", rs.Role, s.Values[rs.Role]))
		}
		fmt.Fprintf(w, "solved: under perfect play %s (%d positions, %.3fs)\n", strings.Join(vals, ", "), s.States, s.Seconds)
		if s.Mover != "" {
			var moves []string
			for _, mv := range s.Moves {
				mark := ""
				if slices.Contains(s.Best, mv.Move) {
					mark = " (best)"
				}
				moves = append(moves, fmt.Sprintf("%s %d%s", mv.Move, mv.Value, mark))
			}
			fmt.Fprintf(w, "first moves of %s: %s\n", s.Mover, strings.Join(moves, ", "))
		}
	}
}

func randomRoles(rs []roleStatsJSON) int {
	n := 0
	for _, r := range rs {
		if r.Random {
			n++
		}
	}
	return n
}

func goalText(gs []game.ValueCount) string {
	if len(gs) == 0 {
		return "none"
	}
	var parts []string
	for _, g := range gs {
		parts = append(parts, fmt.Sprintf("%s: %d", g.Value, g.Count))
	}
	return strings.Join(parts, ", ")
}
