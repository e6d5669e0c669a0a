package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/explain"
	"github.com/gdl-lsp/gdl/game"
)

func init() {
	register("explain", command{
		summary: "say why a literal holds (a proof) or does not (why not) in a state",
		run:     runExplain,
	})
}

const explainUsage = `Usage: gdl explain GAME LITERAL [--moves 'JOINT...'] [--joint 'JOINT'] [--depth N] [--format text|json|dot]

Explains why LITERAL, one literal in the game's notation such as '(legal white (move e 2 e 4))'
or 'terminal', holds or does not hold in the initial state of GAME, or in the state reached by
the joint moves (--moves, as for gdl query).
  - A literal that holds gets a proof of minimal height: each step the rule used (file:line)
    with its variable bindings and its body literals' own proofs; true and does literals are
    leaves, negations and distinct are shown checked, and a subproof met again is referred to
    (#N) instead of printed twice.
  - A literal that does not hold gets its why-not: for each rule whose head can match it, the
    first body literal that fails under the best partial binding (the one that satisfies the
    most literals), recursively to --depth; and plainly when no rule has this head, when an
    argument never takes the value asked (the analyzer's value sets), when a fluent is not in
    the state (with the state's fluents of that kind).
  - A literal with variables gets every answer with its proof, up to --max-answers.
A literal about a joint move (it mentions does, next or sees, or a relation whose rules read
does) is explained for the joint move given with --joint, which must be legal.
Parts beyond --depth or --max-nodes are marked "cut here". --format json writes the
explanation as a tree of nodes (docs: README, "Explanations"); dot writes a Graphviz digraph.
GAME may be - for standard input. Exit status: 0 the literal was explained (whether it holds or
not), 1 the game or a move is wrong or an evaluation limit was reached, 2 usage or I/O problems.
`

// explainFlags are gdl explain's options.
type explainFlags struct {
	moves      *string
	jointText  *string
	depth      *int
	maxNodes   *int
	maxAnswers *int
	format     *string
	ef         evalFlags
	engine     *string
}

// addExplainFlags defines gdl explain's flags on fs.
func addExplainFlags(fs *flag.FlagSet) explainFlags {
	return explainFlags{
		moves:      fs.String("moves", "", "joint moves to play from the initial state, e.g. '((mark 1 1) noop) (noop (mark 2 2))'"),
		jointText:  fs.String("joint", "", "the joint move a literal about a joint move is explained for"),
		depth:      fs.Int("depth", 0, "levels explained below the literal (0: 3 for a why-not, every level of a proof)"),
		maxNodes:   fs.Int("max-nodes", explain.DefaultMaxNodes, "limit on the nodes of the explanation"),
		maxAnswers: fs.Int("max-answers", explain.DefaultMaxAnswers, "a literal with variables: the answers explained"),
		format:     fs.String("format", "text", "output format: text, json or dot"),
		ef:         addEvalFlags(fs),
		engine:     addEngineFlag(fs),
	}
}

// runExplain is gdl explain: why a literal holds, or does not, in the state --moves reach.
func runExplain(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("explain", flag.ContinueOnError)
	fs.SetOutput(stderr)
	xf := addExplainFlags(fs)
	pos, code, ok := parseCommand(fs, args, stderr, explainUsage, 2)
	if !ok {
		return code
	}
	if !oneOf(stderr, "explain", "format", *xf.format, "text", "json", "dot") {
		return 2
	}
	if *xf.depth < 0 || *xf.maxNodes <= 0 || *xf.maxAnswers <= 0 {
		fmt.Fprintln(stderr, "gdl explain: --depth must not be negative, --max-nodes and --max-answers must be positive")
		return 2
	}
	eng, ok := checkEvalEngine(stderr, "explain", xf.ef, *xf.engine)
	if !ok {
		return 2
	}
	ctx := context.Background()
	g, res, path, code, err := loadGame(ctx, pos[0], stdin, game.Options{Engine: eng, Limits: xf.ef.limits(), RememberFailures: true})
	if err != nil {
		fmt.Fprintf(stderr, "gdl explain: %v\n", err)
		return code
	}
	joints, joint, ok := xf.parse(g, pos[1], stderr)
	if !ok {
		return 2
	}
	p, err := g.Replay(ctx, joints)
	if err != nil {
		reportEvalError(stderr, "explain", path, res, err)
		return 1
	}
	if p.Err != nil {
		reportMoveError(stderr, "explain", path, res, p.Err)
		return 1
	}
	x, err := g.Explain(ctx, p.State(), joint, pos[1], explain.Options{Depth: *xf.depth, MaxNodes: *xf.maxNodes, MaxAnswers: *xf.maxAnswers})
	if err != nil {
		switch {
		case errors.Is(err, explain.ErrNeedsMove):
			fmt.Fprintf(stderr, "gdl explain: %s: %v\n", pos[1], err)
			return 2
		case isMoveRefusal(err):
			fmt.Fprintf(stderr, "gdl explain: --joint %s: %v\n", *xf.jointText, err)
			return 1
		}
		reportEvalError(stderr, "explain", path, res, err)
		return 1
	}
	return xf.write(stdout, stderr, g, path, joints, joint, x)
}

// parse reads the literal, --moves and --joint of gdl explain, or says what is wrong with them.
func (xf explainFlags) parse(g *game.Game, literal string, stderr io.Writer) (joints [][]eval.Term, joint []eval.Term, ok bool) {
	q, err := g.ParseQuery(literal)
	if err == nil && len(q.Literals()) != 1 {
		err = fmt.Errorf("%q: explain takes one literal, not %d", literal, len(q.Literals()))
	}
	if err != nil {
		fmt.Fprintf(stderr, "gdl explain: %v\n", err)
		return nil, nil, false
	}
	joints, err = g.ParseJointMoves(*xf.moves)
	if err != nil {
		fmt.Fprintf(stderr, "gdl explain: --moves: %v\n", err)
		return nil, nil, false
	}
	joint, err = parseJointFlag(g, *xf.jointText)
	if err != nil {
		fmt.Fprintf(stderr, "gdl explain: --joint: %v\n", err)
		return nil, nil, false
	}
	return joints, joint, true
}

// write writes explanation x in the --format asked for and returns the exit status.
func (xf explainFlags) write(stdout, stderr io.Writer, g *game.Game, path string, joints [][]eval.Term, joint []eval.Term, x *explain.Explanation) int {
	switch *xf.format {
	case "json":
		if err := encodeJSON(stdout, struct {
			Engine game.Engine `json:"engine"`
			Moves  []string    `json:"moves"`
			Joint  string      `json:"joint,omitempty"`
			*explain.Explanation
		}{g.Engine(), movesText(g, joints), jointString(g, joint), x}); err != nil {
			fmt.Fprintf(stderr, "gdl explain: %v\n", err)
			return 2
		}
	case "dot":
		fmt.Fprint(stdout, x.DOT(path))
	default:
		fmt.Fprint(stdout, x.Text(path))
	}
	return 0
}

// jointString is the joint move of --joint as the game writes it, "" without one.
func jointString(g *game.Game, joint []eval.Term) string {
	if joint == nil {
		return ""
	}
	return g.FormatJoint(joint)
}
