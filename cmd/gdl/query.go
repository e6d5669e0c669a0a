package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/syntax"
)

func init() {
	register("query", command{
		summary: "evaluate queries in the initial state or after joint moves",
		run:     runQuery,
	})
}

const queryUsage = `Usage: gdl query GAME QUERY... [--moves 'JOINT...'] [--format text|json]

Evaluates each QUERY, a KIF literal or conjunction of literals such as '(legal ?r ?m)' or
'terminal', in the initial state of GAME, or in the state reached by the joint moves. A joint
move is a KIF list of one move per role in role order, like the GGP PLAY message:
  --moves '((mark 1 1) noop) (noop (mark 2 2))'
Every joint move must be legal, and played in a state that is not terminal.
A query that depends on does (next, sees, ...) is answered for the last joint move, in the state
it was played in; without --moves it has no answers.
Prints every ground answer once, one per line, sorted; a 0-ary query prints its name when true.
A query of a relation the game never mentions, or with an arity it never uses, is an error.
GAME may be - for standard input. Exit status: 0 success, 1 the game or a move is wrong or an
evaluation limit was reached, 2 usage or I/O problems (a malformed query or one naming an
unknown relation or arity included).
`

// evalFlags are the evaluation limits shared by query and play.
type evalFlags struct {
	timeout  *time.Duration
	maxFacts *int
	maxDepth *int
}

func addEvalFlags(fs *flag.FlagSet) evalFlags {
	return evalFlags{
		timeout:  fs.Duration("timeout", eval.DefaultLimits.Timeout, "time limit of one evaluation (every evaluation has one)"),
		maxFacts: fs.Int("max-facts", eval.DefaultLimits.MaxFacts, "limit on the facts one evaluation derives"),
		maxDepth: fs.Int("max-term-depth", eval.DefaultLimits.MaxDepth, "limit on the nesting depth of derived terms"),
	}
}

// check refuses limits that would leave an evaluation unbounded.
func (e evalFlags) check() error {
	if *e.timeout <= 0 {
		return fmt.Errorf("--timeout must be positive, not %v: every evaluation has a time limit", *e.timeout)
	}
	if *e.maxFacts <= 0 || *e.maxDepth <= 0 {
		return fmt.Errorf("--max-facts and --max-term-depth must be positive")
	}
	return nil
}

func (e evalFlags) limits() eval.Limits {
	return eval.Limits{Timeout: *e.timeout, MaxFacts: *e.maxFacts, MaxDepth: *e.maxDepth}
}

// interleaved parses flags that may come before, between or after the positional arguments.
func interleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// loadGame reads, analyses and compiles a game; path "-" reads stdin.
func loadGame(path string, stdin io.Reader) (*eval.Game, *analysis.Result, string, error) {
	data, path, err := readInput(path, stdin)
	if err != nil {
		return nil, nil, path, err
	}
	g, res := eval.Load(string(data))
	return g, res, path, nil
}

// reportEvalError explains an evaluation error; refusals list the diagnostics with positions.
func reportEvalError(stderr io.Writer, cmd, path string, res *analysis.Result, err error) {
	var ref *eval.RefusedError
	if errors.As(err, &ref) {
		printDiagnostics(stderr, path, res.Model.File.Lines(), ref.Diagnostics)
		fmt.Fprintf(stderr, "gdl %s: %s: %s has no defined meaning (unsafe or unstratified rules, or syntax errors); fix the errors above\n", cmd, path, ref.Relation)
		return
	}
	fmt.Fprintf(stderr, "gdl %s: %s: %v\n", cmd, path, err)
}

// printDiagnostics writes diagnostics as `path:line:col: severity: message [code]`, in source
// order.
func printDiagnostics(w io.Writer, path string, lines *syntax.LineIndex, ds []analysis.Diagnostic) {
	ds = slices.Clone(ds)
	slices.SortStableFunc(ds, func(a, b analysis.Diagnostic) int { return a.Span.Start - b.Span.Start })
	for _, d := range ds {
		p := lines.Position(d.Span.Start, syntax.UTF32)
		fmt.Fprintf(w, "%s:%d:%d: %s: %s [%s]\n", path, p.Line+1, p.Column+1, d.Severity, d.Message, d.Code)
	}
}

type queryResult struct {
	Query   string        `json:"query"`
	Vars    []string      `json:"vars"`
	Answers []queryAnswer `json:"answers"`
}

type queryAnswer struct {
	Text     string            `json:"text"`
	Bindings map[string]string `json:"bindings"`
}

func runQuery(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("query", flag.ContinueOnError)
	fs.SetOutput(stderr)
	moves := fs.String("moves", "", "joint moves to play from the initial state, e.g. '((mark 1 1) noop) (noop (mark 2 2))'")
	format := fs.String("format", "text", "output format: text or json")
	ef := addEvalFlags(fs)
	fs.Usage = func() {
		fmt.Fprint(stderr, queryUsage)
		fs.PrintDefaults()
	}
	pos, err := interleaved(fs, args)
	if err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if len(pos) < 2 {
		fs.Usage()
		return 2
	}
	if *format != "text" && *format != "json" {
		fmt.Fprintf(stderr, "gdl query: --format must be text or json, not %q\n", *format)
		return 2
	}
	if err := ef.check(); err != nil {
		fmt.Fprintf(stderr, "gdl query: %v\n", err)
		return 2
	}
	g, res, path, err := loadGame(pos[0], stdin)
	if err != nil {
		fmt.Fprintf(stderr, "gdl query: %v\n", err)
		return 2
	}
	g.SetLimits(ef.limits())
	var queries []*eval.Query
	for _, text := range pos[1:] {
		q, err := g.ParseQuery(text)
		if err != nil {
			fmt.Fprintf(stderr, "gdl query: %v\n", err)
			return 2
		}
		queries = append(queries, q)
	}
	joints, err := g.ParseJointMoves(*moves)
	if err != nil {
		fmt.Fprintf(stderr, "gdl query: --moves: %v\n", err)
		return 2
	}
	ctx := context.Background()
	state, err := g.Initial(ctx)
	if err != nil {
		// Queries that do not depend on the state are still answered without an initial state.
		static := len(joints) == 0
		for _, q := range queries {
			static = static && !q.NeedsState()
		}
		if !static {
			reportEvalError(stderr, "query", path, res, err)
			return 1
		}
		state = g.NewState(nil)
	}
	var prev *eval.State
	var last []eval.Term
	for i, joint := range joints {
		term, err := g.Terminal(ctx, state)
		if err != nil {
			reportEvalError(stderr, "query", path, res, err)
			return 1
		}
		if term {
			after := "the initial state is terminal"
			if i > 0 {
				after = fmt.Sprintf("the state after joint move %d is terminal", i)
			}
			fmt.Fprintf(stderr, "gdl query: joint move %d %s: %s; the game is over, so no move can be played\n", i+1, g.FormatJoint(joint), after)
			return 1
		}
		next, err := g.NextLegal(ctx, state, joint)
		if err != nil {
			var ill *eval.IllegalMoveError
			if errors.As(err, &ill) {
				fmt.Fprintf(stderr, "gdl query: joint move %d %s: %s is not a legal move of role %s\n", i+1, g.FormatJoint(joint), ill.Move, ill.Role)
				return 1
			}
			reportEvalError(stderr, "query", path, res, err)
			return 1
		}
		prev, last, state = state, joint, next
	}
	var results []queryResult
	for _, q := range queries {
		r := queryResult{Query: q.Text(), Vars: q.Vars(), Answers: []queryAnswer{}}
		s, joint := state, []eval.Term(nil)
		if q.NeedsMove() {
			if last == nil {
				results = append(results, r)
				continue
			}
			s, joint = prev, last
		}
		answers, err := g.Ask(ctx, s, joint, q)
		if err != nil {
			reportEvalError(stderr, "query", path, res, err)
			return 1
		}
		for _, a := range answers {
			qa := queryAnswer{Text: q.Format(a), Bindings: map[string]string{}}
			for i, v := range q.Binding(a) {
				qa.Bindings[q.Vars()[i]] = v
			}
			r.Answers = append(r.Answers, qa)
		}
		slices.SortFunc(r.Answers, func(a, b queryAnswer) int { return strings.Compare(a.Text, b.Text) })
		results = append(results, r)
	}
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(struct {
			Moves   []string      `json:"moves"`
			State   []string      `json:"state"`
			Queries []queryResult `json:"queries"`
		}{movesText(g, joints), g.Strings(state.Fluents()), results}); err != nil {
			fmt.Fprintf(stderr, "gdl query: %v\n", err)
			return 2
		}
		return 0
	}
	var lines []string
	for _, r := range results {
		for _, a := range r.Answers {
			lines = append(lines, a.Text)
		}
	}
	slices.Sort(lines)
	lines = slices.Compact(lines)
	for _, l := range lines {
		fmt.Fprintln(stdout, l)
	}
	return 0
}

func movesText(g *eval.Game, joints [][]eval.Term) []string {
	out := []string{}
	for _, j := range joints {
		out = append(out, g.FormatJoint(j))
	}
	return out
}
