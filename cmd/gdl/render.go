package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/board"
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
at most half of it, finding the boards at most 2 s and half of what is left.
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
	if err := ef.check(); err != nil {
		fmt.Fprintf(stderr, "gdl render: %v\n", err)
		return 2
	}
	eng, ok := parseEngine(stderr, "render", *engine)
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
	g, res, path, code, err := loadGame(ctx, pos[0], stdin, game.Options{Engine: eng, Limits: ef.limits(), Ground: groundWithin(*ef.timeout), RememberFailures: true})
	if err != nil {
		fmt.Fprintf(stderr, "gdl render: %v\n", err)
		return code
	}
	joints, err := g.ParseJointMoves(*moves)
	if err != nil {
		fmt.Fprintf(stderr, "gdl render: --moves: %v\n", err)
		return 2
	}
	p, err := g.Replay(ctx, joints)
	if err != nil {
		reportEvalError(stderr, "render", path, res, err)
		return 1
	}
	if p.Err != nil {
		fmt.Fprintf(stderr, "gdl render: %s: --moves: %v\n", path, p.Err)
		return 1
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
	lay, err := board.ForGame(ctx, g, bc, board.SampleOptions{Time: sampling})
	if err != nil {
		reportEvalError(stderr, "render", path, res, err)
		return 1
	}
	for _, n := range lay.Notes {
		fmt.Fprintf(stderr, "gdl render: %s: %s\n", path, n)
	}
	s := p.State()
	terminal, err := g.Terminal(ctx, s)
	if err != nil {
		reportEvalError(stderr, "render", path, res, err)
		return 1
	}
	v := lay.Draw(g.Strings(s.Fluents()))
	var as *renderAs
	if *asRole != "" {
		role := slices.IndexFunc(g.RoleNames(), func(r string) bool { return strings.EqualFold(r, *asRole) })
		if role < 0 {
			fmt.Fprintf(stderr, "gdl render: --as: %s is not a role of %s (its roles: %s)\n", *asRole, path, strings.Join(g.RoleNames(), ", "))
			return 2
		}
		rv := ide.RoleViewOf(ctx, g, lay, role, joints)
		if rv.Error != "" {
			fmt.Fprintf(stderr, "gdl render: %s: --as %s: %s\n", path, *asRole, rv.Error)
			return 1
		}
		v = rv.View
		as = &renderAs{Role: rv.Role, States: rv.States, Complete: rv.Complete, Unknown: rv.Unknown, UnknownOthers: rv.UnknownOthers, Known: rv.Known}
		if as.Unknown == nil {
			as.Unknown = []board.Square{}
		}
		if as.UnknownOthers == nil {
			as.UnknownOthers = []string{}
		}
	}
	switch *format {
	case "svg":
		fmt.Fprint(stdout, v.SVG())
	case "json":
		out := renderJSON{Game: path, Step: len(p.Moves), Terminal: terminal, Notes: lay.Notes, View: v, As: as}
		if out.Notes == nil {
			out.Notes = []string{}
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			fmt.Fprintf(stderr, "gdl render: %v\n", err)
			return 2
		}
	default:
		status := "not terminal"
		if terminal {
			status = "terminal"
		}
		fmt.Fprintf(stdout, "%s: step %d (%s)", path, len(p.Moves), status)
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
		fmt.Fprintf(stdout, "\n\n%s", v.Text())
		if as != nil && len(as.UnknownOthers) > 0 {
			fmt.Fprintf(stdout, "unknown to %s: %s\n", as.Role, strings.Join(as.UnknownOthers, ", "))
		}
	}
	return 0
}
