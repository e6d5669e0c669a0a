package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/game"
	"github.com/gdl-lsp/gdl/syntax"
)

func init() {
	register("query", command{
		summary: "evaluate queries in the initial state or after joint moves",
		run:     runQuery,
	})
}

const queryUsage = `Usage: gdl query GAME QUERY... [--moves 'JOINT...'] [--joint 'JOINT'] [--format text|json]

Evaluates each QUERY, a KIF literal or conjunction of literals such as '(legal ?r ?m)' or
'terminal', in the initial state of GAME, or in the state reached by the joint moves. A joint
move is a KIF list of one move per role in role order, like the GGP PLAY message:
  --moves '((mark 1 1) noop) (noop (mark 2 2))'
Every joint move must be legal, and played in a state that is not terminal.
A query about a joint move (one that mentions does, next or sees, or a relation whose rules
read does) is answered for each legal joint move of the state reached, or for the one given
with --joint: '(next ?f)' lists the fluents of the next states, '(sees ?r ?p)' the percepts.
Prints every ground answer of each query once, one per line, sorted; a query without variables
prints itself when it holds and false when it does not. Several queries are printed one after
the other, each under a header '; QUERY'; the JSON output has one object per query.
A query of a relation the game never mentions, or with an arity it never uses, is an error.
--timeout bounds the whole command (grounding the game takes at most half of it, and 1 s).
GAME may be - for standard input. Exit status: 0 success, 1 the game or a move is wrong or an
evaluation limit was reached, 2 usage or I/O problems (a malformed query or one naming an
unknown relation or arity included).
`

// evalFlags are the evaluation limits shared by query, render, play and match.
type evalFlags struct {
	timeout  *time.Duration
	maxFacts *int
	maxDepth *int
}

// addEvalFlags adds the limits of one evaluation (play and match, whose runs have bounds of
// their own).
func addEvalFlags(fs *flag.FlagSet) evalFlags {
	return newEvalFlags(fs, "time limit of one evaluation (every evaluation has one)")
}

// addCommandEvalFlags adds the evaluation limits of a command whose --timeout bounds the whole
// command (query and render; see commandContext).
func addCommandEvalFlags(fs *flag.FlagSet) evalFlags {
	return newEvalFlags(fs, "time limit of the whole command: reading and grounding the game and every evaluation")
}

func newEvalFlags(fs *flag.FlagSet, timeoutUsage string) evalFlags {
	return evalFlags{
		timeout:  durationFlag(fs, "timeout", eval.DefaultLimits.Timeout, timeoutUsage),
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

// commandContext returns the context of a command whose --timeout is d (0: none): it ends d
// after the command started, so that every phase (grounding, each evaluation, a search, the
// playouts) shares the one budget.
func commandContext(d time.Duration) (context.Context, context.CancelFunc) {
	if d <= 0 {
		return context.WithCancel(context.Background())
	}
	return context.WithTimeout(context.Background(), d)
}

// groundWithin is the grounding budget of a command with --timeout d: at most half of d, so
// that a game that does not ground in time leaves the interpreter the other half (0: the
// default budget).
func groundWithin(d time.Duration) eval.GroundLimits {
	if d <= 0 || d/2 >= eval.DefaultGroundLimits.Timeout {
		return eval.GroundLimits{}
	}
	return eval.GroundLimits{Timeout: max(d/2, time.Millisecond)}
}

// fewStatesGround bounds the grounding of a command that evaluates a few states (query,
// render): a network that takes longer than that to build costs more than the interpreter
// spends on those states (chess: 4.5 s to build, 0.07 s to answer a query interpreted), so
// Auto interprets a game expected to take longer (eval.GroundEstimate.FarOver) and stops one
// that does.
const fewStatesGround = time.Second

// groundFewStates is groundWithin(d) for a command that evaluates a few states: at most
// fewStatesGround.
func groundFewStates(d time.Duration) eval.GroundLimits {
	lim := groundWithin(d)
	if lim.Timeout <= 0 || lim.Timeout > fewStatesGround {
		lim.Timeout = fewStatesGround
	}
	return lim
}

// loadGame reads, analyses and makes a game ready to play; path "-" reads stdin. A game that
// the compiled engine cannot run with --engine compiled is an error (status 1).
func loadGame(ctx context.Context, path string, stdin io.Reader, opts game.Options) (*game.Game, *analysis.Result, string, int, error) {
	data, path, err := readInput(path, stdin)
	if err != nil {
		return nil, nil, path, 2, err
	}
	res := analysis.Analyze(parseInput(path, data), nil)
	g, err := game.New(ctx, res, opts)
	if err != nil {
		return nil, res, path, 1, fmt.Errorf("%s: %w", path, err)
	}
	return g, res, path, 0, nil
}

// reportEvalError explains an evaluation error; refusals list the diagnostics with positions.
func reportEvalError(stderr io.Writer, cmd, path string, res *analysis.Result, err error) {
	if errors.Is(err, context.DeadlineExceeded) {
		fmt.Fprintf(stderr, "gdl %s: %s: the command's --timeout was reached: %v\n", cmd, path, err)
		return
	}
	var ref *eval.RefusedError
	if errors.As(err, &ref) {
		printDiagnostics(stderr, path, res.Model.File.Lines(), ref.Diagnostics)
		fmt.Fprintf(stderr, "gdl %s: %s: %s has no defined meaning (syntax errors, unsafe or unstratified rules, or a keyword that depends on what GDL forbids); fix the errors above\n", cmd, path, ref.Relation)
		return
	}
	fmt.Fprintf(stderr, "gdl %s: %s: %v\n", cmd, path, err)
}

// refuseUnplayable reports a game one of whose relations role, init, legal, next, goal,
// terminal and sees has no defined meaning, with the diagnostics: such a game is not played
// (or searched) at all, not even when its initial state is terminal and so no legal move would
// be asked.
func refuseUnplayable(stderr io.Writer, cmd, path string, res *analysis.Result, g *game.Game) bool {
	err := g.Refused()
	if err != nil {
		reportEvalError(stderr, cmd, path, res, err)
	}
	return err != nil
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
	// A query about a joint move: the answers after each joint move evaluated.
	ByMove []moveResult `json:"by_move,omitempty"`
}

type moveResult struct {
	Move    string        `json:"move"`
	Answers []queryAnswer `json:"answers"`
}

type queryAnswer struct {
	Text     string            `json:"text"`
	Bindings map[string]string `json:"bindings"`
}

// queryFlags are gdl query's options.
type queryFlags struct {
	moves     *string
	jointText *string
	format    *string
	ef        evalFlags
	engine    *string
}

// runQuery is gdl query: the answers of queries in the state --moves reach.
func runQuery(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("query", flag.ContinueOnError)
	fs.SetOutput(stderr)
	qf := queryFlags{
		moves:     fs.String("moves", "", "joint moves to play from the initial state, e.g. '((mark 1 1) noop) (noop (mark 2 2))'"),
		jointText: fs.String("joint", "", "the joint move that queries about a joint move are answered for (default: every legal one)"),
		format:    fs.String("format", "text", "output format: text or json"),
		ef:        addCommandEvalFlags(fs),
		engine:    addEngineFlag(fs),
	}
	pos, code, ok := parseCommandArgs(fs, args, stderr, queryUsage, 2, -1)
	if !ok {
		return code
	}
	if !oneOf(stderr, "query", "format", *qf.format, "text", "json") {
		return 2
	}
	eng, ok := checkEvalEngine(stderr, "query", qf.ef, *qf.engine)
	if !ok {
		return 2
	}
	ctx, cancel := commandContext(*qf.ef.timeout)
	defer cancel()
	g, res, path, code, err := loadGame(ctx, pos[0], stdin, game.Options{Engine: eng, Limits: qf.ef.limits(), Ground: groundFewStates(*qf.ef.timeout), RememberFailures: true})
	if err != nil {
		fmt.Fprintf(stderr, "gdl query: %v\n", err)
		return code
	}
	qr := queryRun{g: g, res: res, path: path, jointText: *qf.jointText, stderr: stderr}
	if code, ok := qr.parse(pos[1:], *qf.moves); !ok {
		return code
	}
	state, ok := qr.replay(ctx)
	if !ok {
		return 1
	}
	results, ok := qr.answer(ctx, state)
	if !ok {
		return 1
	}
	if *qf.format == "json" {
		if err := encodeJSON(stdout, struct {
			Engine  game.Engine   `json:"engine"`
			Moves   []string      `json:"moves"`
			State   []string      `json:"state"`
			Queries []queryResult `json:"queries"`
		}{g.Engine(), movesText(g, qr.joints), g.Strings(state.Fluents()), results}); err != nil {
			fmt.Fprintf(stderr, "gdl query: %v\n", err)
			return 2
		}
		return 0
	}
	writeQueryText(stdout, results)
	return 0
}

// queryRun is one gdl query after its game loaded: the queries, the moves and the joint move it
// asks about, and where its errors go.
type queryRun struct {
	g         *game.Game
	res       *analysis.Result
	path      string
	jointText string // --joint as given
	stderr    io.Writer

	queries []*eval.Query
	joints  [][]eval.Term // --moves
	only    []eval.Term   // --joint, nil for every legal joint move
}

// parse reads the queries, --moves and --joint; when one is wrong it says so and returns the
// exit status with ok false.
func (qr *queryRun) parse(texts []string, moves string) (code int, ok bool) {
	for _, text := range texts {
		q, err := qr.g.ParseQuery(text)
		if err != nil {
			fmt.Fprintf(qr.stderr, "gdl query: %v\n", err)
			return 2, false
		}
		qr.queries = append(qr.queries, q)
	}
	var err error
	if qr.joints, err = qr.g.ParseJointMoves(moves); err != nil {
		fmt.Fprintf(qr.stderr, "gdl query: --moves: %v\n", err)
		return 2, false
	}
	if qr.only, err = parseJointFlag(qr.g, qr.jointText); err != nil {
		fmt.Fprintf(qr.stderr, "gdl query: --joint: %v\n", err)
		return 2, false
	}
	return 0, true
}

// replay plays --moves and returns the state the queries are asked in. When the game has no
// initial state, queries that do not depend on the state are still answered, in an empty one.
func (qr *queryRun) replay(ctx context.Context) (*game.State, bool) {
	p, err := qr.g.Replay(ctx, qr.joints)
	switch {
	case err == nil && p.Err != nil:
		reportMoveError(qr.stderr, "query", qr.path, qr.res, p.Err)
		return nil, false
	case err == nil:
		return p.State(), true
	}
	static := len(qr.joints) == 0
	for _, q := range qr.queries {
		static = static && !q.NeedsState()
	}
	if !static {
		reportEvalError(qr.stderr, "query", qr.path, qr.res, err)
		return nil, false
	}
	return qr.g.StateOf(nil), true
}

// answer evaluates each query in state (per joint move for those about one), or says why it
// could not.
func (qr *queryRun) answer(ctx context.Context, state *game.State) ([]queryResult, bool) {
	var results []queryResult
	for _, q := range qr.queries {
		ans, err := qr.g.Evaluate(ctx, state, q, game.QueryOptions{Joint: qr.only, MaxMoves: 1 << 20})
		if err != nil {
			var me *game.IllegalMoveError
			var over *game.GameOverError
			var je *game.JointError
			if errors.As(err, &me) || errors.As(err, &over) || errors.As(err, &je) {
				fmt.Fprintf(qr.stderr, "gdl query: --joint %s: %v\n", qr.jointText, err)
				return nil, false
			}
			reportEvalError(qr.stderr, "query", qr.path, qr.res, err)
			return nil, false
		}
		for _, ma := range ans.ByMove {
			if ma.Err != nil {
				reportEvalError(qr.stderr, "query", qr.path, qr.res, ma.Err)
				return nil, false
			}
		}
		results = append(results, qr.result(q, ans))
	}
	return results, true
}

// result is a query's answers as gdl query reports them, with each answer's bindings.
func (qr *queryRun) result(q *eval.Query, ans *game.Answers) queryResult {
	r := queryResult{Query: q.Text(), Vars: q.Vars(), Answers: []queryAnswer{}}
	bind := func(text string) queryAnswer {
		qa := queryAnswer{Text: text, Bindings: map[string]string{}}
		for i, v := range ans.Bindings[text] {
			qa.Bindings[q.Vars()[i]] = v
		}
		return qa
	}
	for _, a := range ans.Answers {
		r.Answers = append(r.Answers, bind(a))
	}
	for _, ma := range ans.ByMove {
		mr := moveResult{Move: qr.g.FormatJoint(ma.Move), Answers: []queryAnswer{}}
		for _, a := range ma.Answers {
			mr.Answers = append(mr.Answers, bind(a))
		}
		r.ByMove = append(r.ByMove, mr)
	}
	return r
}

// writeQueryText prints each query's answers, sorted, one per line; a query without variables
// that does not hold prints false. Several queries get a header each, "; QUERY", and a blank
// line between them.
func writeQueryText(w io.Writer, results []queryResult) {
	for i, r := range results {
		if len(results) > 1 {
			if i > 0 {
				fmt.Fprintln(w)
			}
			fmt.Fprintf(w, "; %s\n", r.Query)
		}
		lines := make([]string, 0, len(r.Answers))
		for _, a := range r.Answers {
			lines = append(lines, a.Text)
		}
		slices.Sort(lines)
		for _, l := range slices.Compact(lines) {
			fmt.Fprintln(w, l)
		}
		if len(lines) == 0 && len(r.Vars) == 0 {
			fmt.Fprintln(w, "false")
		}
	}
}

// parseJointFlag reads the value of --joint: one joint move, or nil for "".
func parseJointFlag(g *game.Game, text string) ([]eval.Term, error) {
	if text == "" {
		return nil, nil
	}
	js, err := g.ParseJointMoves(text)
	if err == nil && len(js) != 1 {
		err = fmt.Errorf("%q: expected one joint move, found %d", text, len(js))
	}
	if err != nil {
		return nil, err
	}
	return js[0], nil
}

// isMoveRefusal reports the errors of a joint move itself (not of evaluating the game).
func isMoveRefusal(err error) bool {
	var ill *game.IllegalMoveError
	var over *game.GameOverError
	var je *game.JointError
	return errors.As(err, &ill) || errors.As(err, &over) || errors.As(err, &je)
}

func movesText(g *game.Game, joints [][]eval.Term) []string {
	out := []string{}
	for _, j := range joints {
		out = append(out, g.FormatJoint(j))
	}
	return out
}

// oneOf checks that a flag's value is one of the allowed ones, else says so ("gdl play: --format
// must be text or json, not "xml"").
func oneOf(stderr io.Writer, command, flagName, value string, allowed ...string) bool {
	if slices.Contains(allowed, value) {
		return true
	}
	list := allowed[0]
	if n := len(allowed); n > 1 {
		list = strings.Join(allowed[:n-1], ", ") + " or " + allowed[n-1]
	}
	fmt.Fprintf(stderr, "gdl %s: --%s must be %s, not %q\n", command, flagName, list, value)
	return false
}

// parseEngine reads the value of --engine, or says what is wrong with it.
func parseEngine(stderr io.Writer, command, value string) (game.Engine, bool) {
	eng, err := game.ParseEngine(value)
	if err != nil {
		fmt.Fprintf(stderr, "gdl %s: --engine: %v\n", command, err)
		return "", false
	}
	return eng, true
}

// checkEvalEngine checks a command's evaluation limits and reads its --engine, or says what is
// wrong with them (limits first).
func checkEvalEngine(stderr io.Writer, command string, ef evalFlags, engine string) (game.Engine, bool) {
	if err := ef.check(); err != nil {
		fmt.Fprintf(stderr, "gdl %s: %v\n", command, err)
		return "", false
	}
	return parseEngine(stderr, command, engine)
}

// reportMoveError says why a move of --moves could not be played (p.Err of a replay), with the
// diagnostics behind it when evaluating the game failed rather than the move being refused.
func reportMoveError(stderr io.Writer, command, path string, res *analysis.Result, err error) {
	fmt.Fprintf(stderr, "gdl %s: %v\n", command, err)
	var me *game.MoveError
	if errors.As(err, &me) && !isMoveRefusal(me.Err) {
		reportEvalError(stderr, command, path, res, me.Err)
	}
}

// addEngineFlag adds --engine to the commands that play.
func addEngineFlag(fs *flag.FlagSet) *string {
	return fs.String("engine", string(game.Auto), "the engine that plays: auto (compiled when the game grounds within a budget), compiled or interpreted")
}

// parseCommand sets a command's usage text and reads its arguments, flags before or after the
// positional ones, of which there must be npos. When it returns ok false, the command exits
// with code: 0 after -h (the usage was printed), 2 for bad flags or arguments (the usage or the
// flag's error was printed).
func parseCommand(fs *flag.FlagSet, args []string, stderr io.Writer, usage string, npos int) (pos []string, code int, ok bool) {
	return parseCommandArgs(fs, args, stderr, usage, npos, npos)
}

// parseCommandArgs is parseCommand for a command of at least least and at most most positional
// arguments (most < 0: no upper bound).
func parseCommandArgs(fs *flag.FlagSet, args []string, stderr io.Writer, usage string, least, most int) (pos []string, code int, ok bool) {
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fs.PrintDefaults()
	}
	pos, err := interleaved(fs, args)
	if err != nil {
		if err == flag.ErrHelp {
			return nil, 0, false
		}
		return nil, 2, false
	}
	if len(pos) < least || (most >= 0 && len(pos) > most) {
		fs.Usage()
		return nil, 2, false
	}
	return pos, 0, true
}
