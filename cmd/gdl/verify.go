package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/explain"
	"github.com/gdl-lsp/gdl/game"
	"github.com/gdl-lsp/gdl/verify"
)

func init() {
	register("verify", command{
		summary: "explore every reachable state: termination, playability, goals, winnability, input and base",
		run:     runVerify,
	})
}

const verifyUsage = `Usage: gdl verify GAME [--format text|json] [--max-states N] [--timeout D] [--require-complete] [--explain=false] [--engine E]

Explores the reachable states of GAME breadth-first, with a table of the states visited, and
checks that the game is well-formed:
  termination  no joint moves lead from a state back to itself (so every match ends), and a
               terminal state can be reached from every reachable state
  playability  every role has a legal move in every reachable non-terminal state
  goal         every role has exactly one goal value, an integer from 0 to 100, in every
               reachable terminal state (GDL-II's random role may have none)
  winnability  every role but random reaches goal 100 in some reachable terminal state
  input, base  when the game defines them, input covers every legal move and base every
               fluent of every reachable state
Every finding comes with the joint moves from the initial state to the state where it shows,
the shortest found, which 'gdl query GAME ... --moves' replays, and, indented under it, why
the violation shows in the state reached (as gdl explain says it: why the role has no legal
move, no goal value or several, why the state is not terminal; --explain=false leaves it out).
--timeout bounds the whole command (grounding the game takes at most half of it). When the
budget (--max-states, --timeout) runs out first, the result is incomplete: the findings so far are reported, and a
property without a finding is unknown rather than failed. While it runs, progress goes to
standard error once a second when that is a terminal. Exit status: 0 nothing found, 1 findings
(or a game that cannot be played), 2 usage or I/O problems, and with --require-complete 3 when
nothing was found but the budget ran out before some property was decided (unknown), so that
CI can tell "proved" from "ran out of budget".
`

type verifyJSON struct {
	Game       string            `json:"game"`
	Engine     game.Engine       `json:"engine"`
	EngineWhy  string            `json:"engine_reason,omitempty"`
	Complete   bool              `json:"complete"`
	Stopped    string            `json:"stopped,omitempty"`
	States     int               `json:"states"`
	Terminal   int               `json:"terminal_states"`
	Depth      int               `json:"depth"`
	FullDepth  int               `json:"full_depth"`
	Seconds    float64           `json:"seconds"`
	Properties map[string]string `json:"properties"`
	Roles      []verifyRoleJSON  `json:"roles"`
	Findings   []findingJSON     `json:"findings"`
	Errors     []stateErrorJSON  `json:"errors"`
	Notes      []string          `json:"notes"`
}

type verifyRoleJSON struct {
	Role   string `json:"role"`
	Random bool   `json:"random,omitempty"`
	Weak   string `json:"weak_winnability"`
	Strong string `json:"strong_winnability"`
	Best   int    `json:"best_goal"`
}

type findingJSON struct {
	Property  string   `json:"property"`
	Kind      string   `json:"kind"`
	Role      string   `json:"role,omitempty"`
	Moves     []string `json:"moves"`
	Infix     []string `json:"moves_infix,omitempty"`
	Loop      int      `json:"loop,omitempty"`
	Subject   string   `json:"subject,omitempty"`
	Count     int      `json:"count"`
	Message   string   `json:"message"`
	Relations []string `json:"relations"`
	// Explanation says why the violation shows in the witness's state (gdl explain's JSON).
	Explanation *explain.Explanation `json:"explanation,omitempty"`
}

type stateErrorJSON struct {
	Moves   []string `json:"moves"`
	Infix   []string `json:"moves_infix,omitempty"`
	Message string   `json:"message"`
}

// searchFlags are the budget and evaluation limits of verify and stats. --timeout bounds the
// whole command: grounding the game, the search and (stats) the playouts and the solver share
// it.
type searchFlags struct {
	maxStates *int
	timeout   *time.Duration
	maxFacts  *int
	maxDepth  *int
}

func addSearchFlags(fs *flag.FlagSet) searchFlags {
	return searchFlags{
		maxStates: fs.Int("max-states", verify.DefaultMaxStates, "explore at most this many states"),
		timeout:   durationFlag(fs, "timeout", time.Minute, "time limit of the whole command: grounding, the search (stats: the playouts and the solver too); 0: none"),
		maxFacts:  fs.Int("max-facts", eval.DefaultLimits.MaxFacts, "limit on the facts one evaluation derives"),
		maxDepth:  fs.Int("max-term-depth", eval.DefaultLimits.MaxDepth, "limit on the nesting depth of derived terms"),
	}
}

func (f searchFlags) check() error {
	if *f.maxStates < 1 {
		return fmt.Errorf("--max-states must be at least 1")
	}
	if *f.timeout < 0 {
		return fmt.Errorf("--timeout must not be negative")
	}
	if *f.maxFacts <= 0 || *f.maxDepth <= 0 {
		return fmt.Errorf("--max-facts and --max-term-depth must be positive")
	}
	return nil
}

func (f searchFlags) limits() eval.Limits {
	return eval.Limits{MaxFacts: *f.maxFacts, MaxDepth: *f.maxDepth}
}

// left is what remains of --timeout for a command that started at start (0: no bound).
func (f searchFlags) left(start time.Time) time.Duration {
	if *f.timeout <= 0 {
		return 0
	}
	return max(*f.timeout-time.Since(start), time.Nanosecond)
}

// searchProgress returns a progress callback writing to stderr when it is a terminal, and the
// function that clears its line.
func searchProgress(cmd string, stderr io.Writer, maxStates int) (func(verify.Progress), func()) {
	if !isTerminal(stderr) {
		return nil, func() {}
	}
	return func(p verify.Progress) {
			fmt.Fprintf(stderr, "\r\x1b[Kgdl %s: %d states explored, %d found (of at most %d), depth %d, %s",
				cmd, p.Explored, p.States, maxStates, p.Depth, p.Elapsed.Round(time.Second))
		}, func() {
			fmt.Fprint(stderr, "\r\x1b[K")
		}
}

func runVerify(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	start := time.Now()
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("format", "text", "output format: text or json")
	explainFindings := fs.Bool("explain", true, "text output: under each finding, why the violation shows in its state (false: one line per finding)")
	requireComplete := fs.Bool("require-complete", false, "exit 3 when the budget runs out before every property is decided (nothing found, some unknown)")
	sf := addSearchFlags(fs)
	engine := addEngineFlag(fs)
	pos, code, ok := parseCommand(fs, args, stderr, verifyUsage, 1)
	if !ok {
		return code
	}
	if !oneOf(stderr, "verify", "format", *format, "text", "json") {
		return 2
	}
	if err := sf.check(); err != nil {
		fmt.Fprintf(stderr, "gdl verify: %v\n", err)
		return 2
	}
	g, res, path, code, ok := loadSearchGame("verify", pos[0], *engine, sf, start, stdin, stderr)
	if !ok {
		return code
	}
	progress, clear := searchProgress("verify", stderr, *sf.maxStates)
	r, err := verify.Verify(context.Background(), g, verify.Options{MaxStates: *sf.maxStates, Timeout: sf.left(start), Progress: progress, ProgressEvery: time.Second})
	clear()
	if err != nil {
		reportEvalError(stderr, "verify", path, res, err)
		return 1
	}
	var unknown []string
	for _, p := range verify.Properties {
		if r.Properties[p] == verify.Unknown {
			unknown = append(unknown, string(p))
		}
	}
	status := 0
	switch {
	case r.Found():
		status = 1
	case *requireComplete && len(unknown) > 0:
		// Said after the report, as its last line.
		status = 3
		defer fmt.Fprintf(stderr, "gdl verify: %s: --require-complete: the search stopped (%s) before %s could be decided\n",
			path, stoppedText(r.Stopped), strings.Join(unknown, ", "))
	}
	if *format == "json" {
		if err := encodeJSON(stdout, verifyOutput(path, g, r)); err != nil {
			fmt.Fprintf(stderr, "gdl verify: %v\n", err)
			return 2
		}
		return status
	}
	for _, f := range r.Findings {
		who := ""
		if f.Role != "" {
			who = " (" + f.Role + ")"
		}
		fmt.Fprintf(stdout, "%s: %s%s: %s: --moves '%s'\n", path, f.Property, who, f.Message, strings.Join(verify.Witness(f.Joints, f.Infix), " "))
		if *explainFindings && f.Explanation != nil {
			for _, l := range strings.Split(strings.TrimSuffix(f.Explanation.Text(path), "\n"), "\n") {
				fmt.Fprintf(stdout, "    %s\n", l)
			}
		}
	}
	for _, e := range r.Errors {
		fmt.Fprintf(stdout, "%s: not explored: %s: --moves '%s'\n", path, e.Message, strings.Join(verify.Witness(e.Joints, e.Infix), " "))
	}
	for _, n := range r.Notes {
		fmt.Fprintf(stdout, "%s: note: %s\n", path, n)
	}
	fmt.Fprintf(stdout, "%s: %s\n", path, verifySummary(g, r))
	return status
}

// verifySummary is the last line of the text output.
func verifySummary(g *game.Game, r *verify.Result) string {
	var b strings.Builder
	if r.Complete {
		fmt.Fprintf(&b, "complete: %d states (%d terminal), depth %d", r.States, r.Terminal, r.Depth)
	} else {
		fmt.Fprintf(&b, "incomplete (%s): %d states (%d terminal), every state up to depth %d, deepest %d",
			stoppedText(r.Stopped), r.States, r.Terminal, r.FullDepth, r.Depth)
	}
	fmt.Fprintf(&b, ", %.3fs, %s engine;", r.Elapsed.Seconds(), g.Engine())
	for i, p := range verify.Properties {
		sep := ","
		if i == 0 {
			sep = ""
		}
		fmt.Fprintf(&b, "%s %s %s", sep, p, r.Properties[p])
	}
	for _, rr := range r.Roles {
		if rr.Strong != verify.Skipped && len(r.Roles) > 1 {
			fmt.Fprintf(&b, ", strong winnability of %s %s", rr.Role, rr.Strong)
		}
	}
	switch n := len(r.Findings) + len(r.Errors); n {
	case 0:
		b.WriteString("; nothing found")
	case 1:
		b.WriteString("; 1 finding")
	default:
		fmt.Fprintf(&b, "; %d findings", n)
	}
	return b.String()
}

func stoppedText(s string) string {
	switch s {
	case "max-states":
		return "--max-states reached"
	case "timeout":
		return "--timeout reached"
	case "errors":
		return "states not evaluated"
	}
	return s
}

func verifyOutput(path string, g *game.Game, r *verify.Result) verifyJSON {
	out := verifyJSON{
		Game: path, Engine: g.Engine(), EngineWhy: g.Why(), Complete: r.Complete, Stopped: r.Stopped,
		States: r.States, Terminal: r.Terminal, Depth: r.Depth, FullDepth: r.FullDepth, Seconds: r.Elapsed.Seconds(),
		Properties: map[string]string{}, Roles: []verifyRoleJSON{}, Findings: []findingJSON{}, Errors: []stateErrorJSON{},
		Notes: append([]string{}, r.Notes...),
	}
	for p, s := range r.Properties {
		out.Properties[string(p)] = string(s)
	}
	for _, rr := range r.Roles {
		out.Roles = append(out.Roles, verifyRoleJSON{Role: rr.Role, Random: rr.Random, Weak: string(rr.Weak), Strong: string(rr.Strong), Best: rr.Best})
	}
	for _, f := range r.Findings {
		out.Findings = append(out.Findings, findingJSON{
			Property: string(f.Property), Kind: f.Kind, Role: f.Role, Moves: f.Joints, Infix: f.Infix, Loop: f.Loop,
			Subject: f.Subject, Count: f.Count, Message: f.Message, Relations: f.Relations, Explanation: f.Explanation,
		})
	}
	for _, e := range r.Errors {
		out.Errors = append(out.Errors, stateErrorJSON{Moves: e.Joints, Infix: e.Infix, Message: e.Message})
	}
	return out
}

func encodeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// loadSearchGame loads the game of gdl verify or gdl stats (command, started at start) with the
// engine and the search flags' limits, within --timeout, and refuses a game without a role; when
// ok is false the command exits with code, the reason printed.
func loadSearchGame(command, file, engine string, sf searchFlags, start time.Time, stdin io.Reader, stderr io.Writer) (g *game.Game, res *analysis.Result, path string, code int, ok bool) {
	eng, ok := parseEngine(stderr, command, engine)
	if !ok {
		return nil, nil, "", 2, false
	}
	ctx, cancel := commandContext(sf.left(start))
	defer cancel()
	g, res, path, code, err := loadGame(ctx, file, stdin, game.Options{Engine: eng, Limits: sf.limits(), Ground: groundWithin(*sf.timeout), RememberFailures: true})
	if err != nil {
		fmt.Fprintf(stderr, "gdl %s: %v\n", command, err)
		return nil, nil, "", code, false
	}
	if refuseUnplayable(stderr, command, path, res, g) {
		return nil, nil, "", 1, false
	}
	if len(g.Roles()) == 0 {
		fmt.Fprintf(stderr, "gdl %s: %s: the game has no role\n", command, path)
		return nil, nil, "", 1, false
	}
	return g, res, path, 0, true
}
