package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/board"
	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/game"
	"github.com/gdl-lsp/gdl/ide"
)

func init() {
	register("render", command{
		summary: "draw a state as boards: ASCII text, SVG or JSON",
		run:     runRender,
	})
}

const renderUsage = `Usage: gdl render GAME [--moves 'JOINT...'] [--as ROLE] [--format text|svg|json]

Draws the initial state of GAME, or the state reached by the joint moves, the way the editor's
game view does: the boards found among the fluents (a relation with two coordinate arguments
and a content argument, like (cell 1 2 x)) as grids of squares, the other fluents as a table.
A joint move is a KIF list of one move per role in role order, as for 'gdl query':
  --moves '((mark 1 1) noop) (noop (mark 2 2))'
text is an ASCII board ("." on empty squares; for issues and CI logs), svg a standalone image,
json the model (rows, columns, squares with their text and fluents, the other fluents). The
gdl.json found from GAME's folder may say which relation and arguments form a board and how
pieces are shown (its "board" section; see the README). GAME may be - for standard input (the
gdl.json is then looked for from the current folder). In a GDL-II game, --as ROLE draws the
state as ROLE knows it from its own moves and percepts, as the editor's "View as" does: "?" on
each square whose content differs between the states it may be in, and the relations off the
boards it does not know listed as unknown. --timeout bounds the whole command: grounding takes
at most half of it and 1 s, finding the boards at most 2 s and half of what is left.
Exit status: 0 success, 1 the game or a move is wrong, 2 usage or I/O problems.
`

type renderJSON struct {
	Game     string      `json:"game"`
	Step     int         `json:"step"`
	Terminal bool        `json:"terminal"`
	Notes    []string    `json:"notes"`
	View     *board.View `json:"view"`
	// With --as: the state as the role knows it (ide.RoleView); View is then its drawing.
	As *renderAs `json:"as,omitempty"`
}

type renderAs struct {
	Role          string         `json:"role"`
	States        int            `json:"states"`
	Complete      bool           `json:"complete"`
	Unknown       []board.Square `json:"unknown"`
	UnknownOthers []string       `json:"unknown_others"`
	Known         []string       `json:"known"`
}

// runRender is gdl render: the state --moves reach drawn as boards, as a role knows it with
// --as.
func runRender(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("render", flag.ContinueOnError)
	fs.SetOutput(stderr)
	moves := fs.String("moves", "", "joint moves to play from the initial state, e.g. '((mark 1 1) noop) (noop (mark 2 2))'")
	format := fs.String("format", "text", "output format: text, svg or json")
	asRole := fs.String("as", "", "draw the state as this role knows it (GDL-II: \"?\" on the squares it does not know)")
	ef := addCommandEvalFlags(fs)
	engine := addEngineFlag(fs)
	pos, code, ok := parseCommand(fs, args, stderr, renderUsage, 1)
	if !ok {
		return code
	}
	if !oneOf(stderr, "render", "format", *format, "text", "svg", "json") {
		return 2
	}
	eng, ok := checkEvalEngine(stderr, "render", ef, *engine)
	if !ok {
		return 2
	}
	dir := "."
	if pos[0] != "-" {
		dir = filepath.Dir(pos[0])
	}
	cfg, err := analysis.FindConfig(dir)
	if err != nil {
		fmt.Fprintf(stderr, "gdl render: %v\n", err)
		return 2
	}
	ctx, cancel := commandContext(*ef.timeout)
	defer cancel()
	g, res, path, code, err := loadGame(ctx, pos[0], stdin, game.Options{Engine: eng, Limits: ef.limits(), Ground: groundFewStates(*ef.timeout), RememberFailures: true})
	if err != nil {
		fmt.Fprintf(stderr, "gdl render: %v\n", err)
		return code
	}
	r := renderRun{g: g, res: res, path: path, stderr: stderr}
	if code, ok := r.draw(ctx, cfg, *moves, *asRole); !ok {
		return code
	}
	switch *format {
	case "svg":
		fmt.Fprint(stdout, r.view.SVG())
	case "json":
		out := renderJSON{Game: path, Step: r.step, Terminal: r.terminal, Notes: r.notes, View: r.view, As: r.as}
		if out.Notes == nil {
			out.Notes = []string{}
		}
		if err := encodeJSON(stdout, out); err != nil {
			fmt.Fprintf(stderr, "gdl render: %v\n", err)
			return 2
		}
	default:
		r.writeText(stdout)
	}
	return 0
}

// renderRun is one gdl render after its game loaded: the game, and the drawing it makes.
type renderRun struct {
	g      *game.Game
	res    *analysis.Result
	path   string
	stderr io.Writer

	step     int         // joint moves played
	terminal bool        // whether the state drawn is terminal
	notes    []string    // what board detection says of the game
	view     *board.View // the state drawn
	as       *renderAs   // --as: the role whose knowledge is drawn, nil without it
}

// draw plays moves, finds the game's board (with the board section of cfg, which may be nil)
// and draws the state, as role asRole knows it when asRole is not "". When something is wrong
// it says so and returns the exit status with ok false.
func (r *renderRun) draw(ctx context.Context, cfg *analysis.Config, moves, asRole string) (code int, ok bool) {
	joints, err := r.g.ParseJointMoves(moves)
	if err != nil {
		fmt.Fprintf(r.stderr, "gdl render: --moves: %v\n", err)
		return 2, false
	}
	p, err := r.g.Replay(ctx, joints)
	if err != nil {
		reportEvalError(r.stderr, "render", r.path, r.res, err)
		return 1, false
	}
	if p.Err != nil {
		fmt.Fprintf(r.stderr, "gdl render: %s: --moves: %v\n", r.path, p.Err)
		return 1, false
	}
	var bc analysis.BoardConfig
	if cfg != nil {
		bc = cfg.Board
	}
	// Detection samples the game for a moment, at most half the time --timeout leaves, so that
	// drawing the state has the other half; its walks are seeded, so the same game always gets
	// the same boards.
	sampling := 2 * time.Second
	if deadline, ok := ctx.Deadline(); ok {
		sampling = max(min(sampling, time.Until(deadline)/2), time.Millisecond)
	}
	lay, err := board.ForGame(ctx, r.g, bc, board.SampleOptions{Time: sampling})
	if err != nil {
		reportEvalError(r.stderr, "render", r.path, r.res, err)
		return 1, false
	}
	for _, n := range lay.Notes {
		fmt.Fprintf(r.stderr, "gdl render: %s: %s\n", r.path, n)
	}
	s := p.State()
	r.step, r.notes = len(p.Moves), lay.Notes
	if r.terminal, err = r.g.Terminal(ctx, s); err != nil {
		reportEvalError(r.stderr, "render", r.path, r.res, err)
		return 1, false
	}
	r.view = lay.Draw(r.g.Strings(s.Fluents()))
	if asRole == "" {
		return 0, true
	}
	return r.drawAs(ctx, lay, joints, asRole)
}

// drawAs redraws the state as role asRole knows it after joints: "?" where the states it may be
// in differ.
func (r *renderRun) drawAs(ctx context.Context, lay *board.Layout, joints [][]eval.Term, asRole string) (code int, ok bool) {
	role := slices.IndexFunc(r.g.RoleNames(), func(name string) bool { return strings.EqualFold(name, asRole) })
	if role < 0 {
		fmt.Fprintf(r.stderr, "gdl render: --as: %s is not a role of %s (its roles: %s)\n", asRole, r.path, strings.Join(r.g.RoleNames(), ", "))
		return 2, false
	}
	rv := ide.RoleViewOf(ctx, r.g, lay, role, joints)
	if rv.Error != "" {
		fmt.Fprintf(r.stderr, "gdl render: %s: --as %s: %s\n", r.path, asRole, rv.Error)
		return 1, false
	}
	r.view = rv.View
	r.as = &renderAs{Role: rv.Role, States: rv.States, Complete: rv.Complete, Unknown: rv.Unknown, UnknownOthers: rv.UnknownOthers, Known: rv.Known}
	if r.as.Unknown == nil {
		r.as.Unknown = []board.Square{}
	}
	if r.as.UnknownOthers == nil {
		r.as.UnknownOthers = []string{}
	}
	return 0, true
}

// writeText writes the drawing as text: a header with the step, whether the state is terminal
// and what the role of --as knows, then the board.
func (r *renderRun) writeText(stdout io.Writer) {
	status := "not terminal"
	if r.terminal {
		status = "terminal"
	}
	fmt.Fprintf(stdout, "%s: step %d (%s)", r.path, r.step, status)
	as := r.as
	if as != nil {
		fmt.Fprintf(stdout, ", as %s knows it: ", as.Role)
		if as.States == 1 {
			fmt.Fprint(stdout, "it knows the state")
		} else {
			fmt.Fprintf(stdout, "it may be in %d states", as.States)
			if !as.Complete {
				fmt.Fprint(stdout, " (a sample of them)")
			}
			fmt.Fprint(stdout, `; "?" where they differ`)
		}
	}
	fmt.Fprintf(stdout, "\n\n%s", r.view.Text())
	if as != nil && len(as.UnknownOthers) > 0 {
		fmt.Fprintf(stdout, "unknown to %s: %s\n", as.Role, strings.Join(as.UnknownOthers, ", "))
	}
}
