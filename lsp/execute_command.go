package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/board"
	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/ide"
)

// serverCommands are the workspace/executeCommand commands; code lenses run gdl.runQuery.
var serverCommands = []string{"gdl.runQuery", "gdl.showState", "gdl.playMove", "gdl.playRandom", "gdl.undoMove", "gdl.resetState",
	"gdl.verify", "gdl.replayMoves", "gdl.gotoStep", "gdl.computerMove", "gdl.playouts", "gdl.runMatch", "gdl.explain",
	"gdl.listTests", "gdl.runTests", "gdl.recordTest"}

type commandArgs struct {
	URI     protocol.DocumentURI `json:"uri"`
	Query   string               `json:"query"`
	Moves   []string             `json:"moves"`
	History [][]string           `json:"history"` // gdl.replayMoves: the joint moves to play from the initial state
	// The game view's commands (game_view.go).
	Step       *int   `json:"step"`
	MoveTimeMs int    `json:"moveTimeMs"`
	Playouts   int    `json:"playouts"`
	Seed       uint64 `json:"seed"`
	TimeMs     int    `json:"timeMs"`
	// ViewAs names a role of a GDL-II game: the state commands' results then say what it
	// knows (viewAs, game_view.go).
	ViewAs string `json:"viewAs"`
}

// queryResult is the result of gdl.runQuery (ide.QueryResult).
type queryResult struct {
	Query      string        `json:"query"`
	State      []string      `json:"state"`
	Answers    []string      `json:"answers"`
	ElapsedMs  float64       `json:"elapsedMs"`
	ByMove     []moveAnswers `json:"byMove,omitempty"`
	JointMoves int           `json:"jointMoves,omitempty"`
	Error      string        `json:"error,omitempty"`
	Notation   string        `json:"notation"`            // the game's: "prefix" or "infix", as the terms are written
	Truncated  []string      `json:"truncated,omitempty"` // what the lists leave out (see maxAnswers)
}

// What the commands' results list at most: a state of 100,000 fluents, a role with as many
// legal moves or a query with as many answers made replies of megabytes (a 10 MB game, 4.5 MB
// for gdl.showState). The first ones are listed, and truncated says what was left out.
const (
	maxStateFluents = 10_000
	maxLegalMoves   = 1000
	maxAnswers      = 10_000
)

// moveAnswers are the answers of a query about a joint move after one joint move.
type moveAnswers struct {
	Move    []string `json:"move"` // one move per role, in role order
	Answers []string `json:"answers"`
	Error   string   `json:"error,omitempty"`
}

// gameState is the result of the state commands (ide.GameState); the fields after Error are the
// game view's (game_view.go).
type gameState struct {
	Roles    []string            `json:"roles"`
	State    []string            `json:"state"`
	Step     int                 `json:"step"`
	History  [][]string          `json:"history"`
	Terminal bool                `json:"terminal"`
	Legal    map[string][]string `json:"legal"`
	Goals    map[string][]int    `json:"goals"`
	Error    string              `json:"error,omitempty"`
	Notation string              `json:"notation"` // the game's: "prefix" or "infix", as the terms are written
	// Truncated says what the lists leave out: a state's fluents beyond maxStateFluents, a
	// role's legal moves beyond maxLegalMoves (and their squares).
	Truncated []string `json:"truncated,omitempty"`
	// Why explains a move refused as not legal (gdl.explain's result for (legal role move)).
	Why *explainResult `json:"why,omitempty"`
	viewFields
}

// executeCommandParams are workspace/executeCommand's parameters.
type executeCommandParams struct {
	Command       string            `json:"command"`
	Arguments     []json.RawMessage `json:"arguments"`
	WorkDoneToken json.RawMessage   `json:"workDoneToken"`
}

// commandCall is one run of a command on an open document: the request, the document's
// snapshot and game session, and the arguments.
type commandCall struct {
	r       *request
	snap    *Snapshot
	session *ide.Session
	args    commandArgs     // the first argument, as the state commands read it
	arg     json.RawMessage // the first argument as sent (none: null)
	p       *executeCommandParams
}

// commands are the commands run on an open document, by name; gdl.listTests and gdl.runTests
// (game_tests.go) also read a test file from disk. serverCommands lists them all.
var commands = map[string]func(ctx context.Context, c *commandCall) (any, error){
	"gdl.runQuery": runQuery,
	"gdl.showState": onState(func(ctx context.Context, c *commandCall) (*ide.GameState, error) {
		return c.session.ShowState(ctx)
	}),
	"gdl.playMove": onState(func(ctx context.Context, c *commandCall) (*ide.GameState, error) {
		return c.session.Play(ctx, c.args.Moves)
	}),
	"gdl.playRandom": onState(func(ctx context.Context, c *commandCall) (*ide.GameState, error) {
		return c.session.PlayRandom(ctx)
	}),
	"gdl.undoMove": onState(func(ctx context.Context, c *commandCall) (*ide.GameState, error) {
		return c.session.Undo(ctx)
	}),
	"gdl.resetState": onState(func(ctx context.Context, c *commandCall) (*ide.GameState, error) {
		return c.session.Reset(ctx)
	}),
	"gdl.replayMoves": onState(func(ctx context.Context, c *commandCall) (*ide.GameState, error) {
		return c.session.SetHistory(ctx, c.args.History)
	}),
	"gdl.gotoStep": onState(func(ctx context.Context, c *commandCall) (*ide.GameState, error) {
		if c.args.Step == nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "gdl.gotoStep: give the step to go to: {uri, step}")
		}
		return c.session.GotoStep(ctx, *c.args.Step)
	}),
	"gdl.computerMove": onState(func(ctx context.Context, c *commandCall) (*ide.GameState, error) {
		return c.session.ComputerMove(ctx, computerOptions(c.args))
	}),
	"gdl.verify": func(ctx context.Context, c *commandCall) (any, error) {
		var va verifyArgs
		if err := c.decode(&va); err != nil {
			return nil, err
		}
		return c.r.s.verifyDocument(ctx, c.r.view, c.snap, va, c.p.WorkDoneToken)
	},
	"gdl.playouts": func(ctx context.Context, c *commandCall) (any, error) {
		return handlePlayouts(ctx, c.session, c.args), nil
	},
	"gdl.explain": func(ctx context.Context, c *commandCall) (any, error) {
		return explainCommand(ctx, c.snap, c.session, c.arg)
	},
	"gdl.recordTest": func(ctx context.Context, c *commandCall) (any, error) {
		return c.r.s.recordTest(ctx, c.r, c.snap, c.session, c.p.Arguments)
	},
	"gdl.runMatch": func(ctx context.Context, c *commandCall) (any, error) {
		m, err := c.r.s.runMatch(ctx, c.session, string(c.snap.URI), c.arg, c.p.WorkDoneToken)
		if err != nil {
			return nil, err
		}
		m.Notation = c.snap.Dialect().String()
		return m, nil
	},
}

func handleExecuteCommand(ctx context.Context, r *request, p *executeCommandParams) (any, error) {
	if p.Command == "gdl.listTests" || p.Command == "gdl.runTests" {
		return r.s.testCommand(ctx, r, p.Command, p.Arguments)
	}
	c := &commandCall{r: r, p: p}
	if len(p.Arguments) > 0 {
		c.arg = p.Arguments[0]
	}
	if err := c.decode(&c.args); err != nil {
		return nil, err
	}
	var err error
	if c.snap, err = r.doc(c.args.URI); err != nil {
		return nil, err
	}
	run := commands[p.Command]
	if run == nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "unknown command %q; the server runs %s", p.Command, strings.Join(serverCommands, ", "))
	}
	c.session = r.session(c.snap)
	return run(ctx, c)
}

// decode reads the command's first argument into v; none leaves v as it is.
func (c *commandCall) decode(v any) error {
	if len(c.arg) == 0 {
		return nil
	}
	if err := json.Unmarshal(c.arg, v); err != nil {
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: %v", c.p.Command, err)
	}
	return nil
}

// runQuery runs gdl.runQuery: the answers of a query in the document's current state.
func runQuery(ctx context.Context, c *commandCall) (any, error) {
	res := c.session.RunQuery(ctx, c.args.Query)
	// A client that cannot show the result still gets it in its log.
	c.r.s.notify("window/logMessage", protocol.LogMessageParams{Type: protocol.MessageTypeInfo, Message: res.Text()})
	q := toQueryResult(res)
	q.Notation = c.snap.Dialect().String()
	return q, nil
}

// onState makes a command of a function that changes or shows the document's state: its
// result is the state (gameState), with why a refused move is not legal and, for a GDL-II game,
// the state as the role the argument viewAs names knows it.
func onState(f func(ctx context.Context, c *commandCall) (*ide.GameState, error)) func(context.Context, *commandCall) (any, error) {
	return func(ctx context.Context, c *commandCall) (any, error) {
		st, err := f(ctx, c)
		if err != nil {
			return nil, err
		}
		gs := toGameState(st)
		gs.Notation = c.snap.Dialect().String()
		if st.Why != nil {
			why := toExplainResult(st.Why, c.snap)
			gs.Why = &why
		}
		if c.args.ViewAs != "" && st.Percepts != nil {
			gs.ViewAs = toRoleView(c.session.ViewAs(ctx, st, c.args.ViewAs))
		}
		return gs, nil
	}
}

// session is the game session of a document for the features and the commands, under the
// document's limits.
func (r *request) session(snap *Snapshot) *ide.Session {
	st := r.view.settingsFor(snap.URI).Eval
	limits := eval.Limits{Timeout: time.Duration(st.TimeoutMs) * time.Millisecond, MaxFacts: st.MaxFacts, MaxDepth: st.MaxTermDepth}
	return r.s.games.Session(string(snap.URI), snap.Snapshot, limits, r.view.boardsFor(snap.URI))
}

func toQueryResult(res *ide.QueryResult) queryResult {
	out := queryResult{Query: res.Query, Error: res.Error, ElapsedMs: float64(res.Elapsed.Microseconds()) / 1000}
	out.State = cut(res.State, maxStateFluents, "the state's fluents", &out.Truncated)
	out.Answers = cut(res.Answers, maxAnswers, "the answers", &out.Truncated)
	if res.NeedsMove {
		out.JointMoves = res.JointMoves
		out.ByMove = []moveAnswers{}
		room := maxAnswers
		for _, m := range res.ByMove {
			ma := moveAnswers{Move: m.Move, Answers: m.Answers}
			if m.Err != nil {
				ma.Error = m.Err.Error()
			}
			if len(ma.Answers) > room {
				out.Truncated = append(out.Truncated, fmt.Sprintf("the answers after %s: %d, the first %d listed (%d at most over all the joint moves)",
					strings.Join(m.Move, " "), len(ma.Answers), room, maxAnswers))
				ma.Answers = ma.Answers[:room]
			}
			room -= len(ma.Answers)
			out.ByMove = append(out.ByMove, ma)
		}
	}
	return out
}

// cut returns the first max elements of list, what it lists; when it leaves some out, it says
// so in notes.
func cut[T any](list []T, max int, what string, notes *[]string) []T {
	if len(list) <= max {
		return list
	}
	*notes = append(*notes, fmt.Sprintf("%s: %d, the first %d listed", what, len(list), max))
	return list[:max]
}

func toGameState(st *ide.GameState) gameState {
	var truncated []string
	// A copy whose lists are cut, so that the view's fields (the squares of each legal move)
	// are cut alike.
	cst := *st
	cst.State = cut(st.State, maxStateFluents, "the state's fluents", &truncated)
	if st.Legal != nil {
		cst.Legal = make([][]string, len(st.Legal))
		for i, ms := range st.Legal {
			cst.Legal[i] = cut(ms, maxLegalMoves, "the legal moves of "+st.Roles[i], &truncated)
		}
	}
	if st.Squares != nil {
		cst.Squares = make([][][]board.Square, len(st.Squares))
		for i, sq := range st.Squares {
			cst.Squares[i] = sq[:min(len(sq), maxLegalMoves)]
		}
	}
	st = &cst
	out := gameState{Roles: st.Roles, State: st.State, Step: st.Step, History: st.History, Terminal: st.Terminal, Error: st.Error,
		Truncated: truncated, viewFields: toViewFields(st)}
	if out.Roles == nil {
		out.Roles = []string{}
	}
	if out.State == nil {
		out.State = []string{}
	}
	if out.History == nil {
		out.History = [][]string{}
	}
	if st.Legal != nil {
		out.Legal = map[string][]string{}
		for i, ms := range st.Legal {
			out.Legal[st.Roles[i]] = ms
		}
	}
	if st.Goals != nil {
		out.Goals = map[string][]int{}
		for i, vs := range st.Goals {
			out.Goals[st.Roles[i]] = vs
		}
	}
	return out
}

// refreshEvaluations asks the client to fetch code lenses and inlay hints again (the current
// state changed, an evaluation finished, the settings changed), when the client said it can.
func (s *Server) refreshEvaluations() {
	client := s.currentView().client
	var methods []string
	if client.codeLensRefresh {
		methods = append(methods, "workspace/codeLens/refresh")
	}
	if client.inlayHintRefresh {
		methods = append(methods, "workspace/inlayHint/refresh")
	}
	for _, method := range methods {
		go func(method string) {
			ctx, cancel := context.WithTimeout(s.ctx, 5*time.Second)
			defer cancel()
			var res any
			if _, err := s.conn.Call(ctx, method, nil, &res); err != nil {
				s.log.Printf("%s: %v", method, err)
			}
		}(method)
	}
}
