package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/eval"
)

// serverCommands are the workspace/executeCommand commands; code lenses run gdl.runQuery.
var serverCommands = []string{"gdl.runQuery", "gdl.showState", "gdl.playMove", "gdl.playRandom", "gdl.resetState"}

type commandArgs struct {
	URI   protocol.DocumentURI `json:"uri"`
	Query string               `json:"query"`
	Moves []string             `json:"moves"`
}

func handleExecuteCommand(ctx context.Context, r *request) (any, error) {
	var p struct {
		Command   string            `json:"command"`
		Arguments []json.RawMessage `json:"arguments"`
	}
	if err := r.decode(&p); err != nil {
		return nil, err
	}
	var args commandArgs
	if len(p.Arguments) > 0 {
		if err := json.Unmarshal(p.Arguments[0], &args); err != nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: %v", p.Command, err)
		}
	}
	snap, err := r.doc(args.URI)
	if err != nil {
		return nil, err
	}
	cg := r.s.gameOf(snap)
	g := cg.g
	ctx, cancel := evalContext(ctx, g, r.view.settingsFor(snap.URI).Eval)
	defer cancel()
	if p.Command == "gdl.runQuery" {
		return runQuery(ctx, r, cg, snap, r.s.games.history(args.URI), args)
	}
	// The state commands read the history, play on it and write it back, in the document's turn.
	release, err := r.s.games.take(ctx, args.URI)
	if err != nil {
		return nil, err
	}
	defer release()
	history := r.s.games.history(args.URI)
	switch p.Command {
	case "gdl.showState":
	case "gdl.resetState":
		history = nil
	case "gdl.playMove", "gdl.playRandom":
		pos, err := replay(ctx, g, history)
		if err != nil {
			return gameState{Roles: []string{}, State: []string{}, History: [][]string{}, Error: err.Error()}, nil
		}
		move := args.Moves
		if p.Command == "gdl.playRandom" {
			if move, err = randomMove(ctx, g, pos); err != nil {
				st := describe(ctx, g, pos)
				st.Error = err.Error()
				return st, nil
			}
		}
		joint, err := parseJoint(g, move)
		if err == nil {
			_, err = g.NextLegal(ctx, pos.state, joint)
		}
		if err != nil {
			st := describe(ctx, g, pos)
			st.Error = err.Error()
			return st, nil
		}
		history = append(pos.played, canonicalMove(g, joint))
	default:
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "unknown command %q; the server runs %s", p.Command, strings.Join(serverCommands, ", "))
	}
	pos, err := replay(ctx, g, history)
	if err != nil {
		return gameState{Roles: []string{}, State: []string{}, History: [][]string{}, Error: err.Error()}, nil
	}
	r.s.games.set(args.URI, pos.played)
	st := describe(ctx, g, pos)
	// Lenses, hints and hovers now show the new state.
	r.s.refreshEvaluations()
	return st, nil
}

func runQuery(ctx context.Context, r *request, cg *compiledGame, snap *Snapshot, history [][]string, args commandArgs) (any, error) {
	g := cg.g
	start := time.Now()
	res := queryResult{Query: args.Query, State: []string{}, Answers: []string{}}
	pos, err := replay(ctx, g, history)
	if err == nil {
		res.State = pos.fluents
		var qa *queryAnswers
		if qa, err = evaluate(ctx, g, pos, args.Query, commandJointMoves, 0); err == nil {
			if qa.answers != nil {
				res.Answers = qa.answers
			}
			res.ByMove, res.JointMoves = qa.byMove, qa.jointMoves
			if qa.needsMove && res.ByMove == nil {
				res.ByMove = []moveAnswers{}
			}
			err = qa.stopped
		}
	}
	if err != nil {
		res.Error = cg.explain(snap, err)
	}
	res.ElapsedMs = float64(time.Since(start).Microseconds()) / 1000
	// A client that cannot show the result still gets it in its log.
	r.s.notify("window/logMessage", protocol.LogMessageParams{Type: protocol.MessageTypeInfo, Message: res.text()})
	return res, nil
}

// text is the result as a log message: a summary line, then the answers, grouped by joint move
// for a query about a joint move.
func (res queryResult) text() string {
	var b strings.Builder
	if res.ByMove != nil {
		fmt.Fprintf(&b, "%s: answered after %d of %d legal joint moves in %.1f ms", res.Query, len(res.ByMove), res.JointMoves, res.ElapsedMs)
	} else {
		fmt.Fprintf(&b, "%s: %d answers in %.1f ms", res.Query, len(res.Answers), res.ElapsedMs)
	}
	if res.Error != "" {
		fmt.Fprintf(&b, " (%s)", res.Error)
	}
	if res.ByMove != nil {
		for _, m := range res.ByMove {
			fmt.Fprintf(&b, "\nafter %s: %s", strings.Join(m.Move, " "), plural(len(m.Answers), "answer"))
			if m.Error != "" {
				fmt.Fprintf(&b, " (%s)", m.Error)
			}
			for _, a := range m.Answers {
				b.WriteString("\n  " + a)
			}
		}
		return b.String()
	}
	for _, a := range res.Answers {
		b.WriteString("\n" + a)
	}
	return b.String()
}

func parseJoint(g *eval.Game, moves []string) ([]eval.Term, error) {
	if len(moves) != len(g.Roles()) {
		return nil, fmt.Errorf("a joint move has one move per role: %d roles, %d moves given", len(g.Roles()), len(moves))
	}
	joint := make([]eval.Term, len(moves))
	for i, m := range moves {
		t, err := g.ParseTerm(m)
		if err != nil {
			return nil, fmt.Errorf("move %q of %s: %v", m, g.String(g.Roles()[i]), err)
		}
		joint[i] = t
	}
	return joint, nil
}

func canonicalMove(g *eval.Game, joint []eval.Term) []string {
	out := make([]string, len(joint))
	for i, t := range joint {
		out[i] = g.String(t)
	}
	return out
}

// randomMove picks a uniformly random legal move for every role.
func randomMove(ctx context.Context, g *eval.Game, pos *position) ([]string, error) {
	if t, err := g.Terminal(ctx, pos.state); err != nil {
		return nil, err
	} else if t {
		return nil, fmt.Errorf("the current state is terminal: no move to play")
	}
	legal, err := g.Legal(ctx, pos.state)
	if err != nil {
		return nil, err
	}
	move := make([]string, len(legal))
	for i, ms := range legal {
		if len(ms) == 0 {
			return nil, fmt.Errorf("role %s has no legal move in the current state", g.String(g.Roles()[i]))
		}
		move[i] = g.String(ms[rand.IntN(len(ms))])
	}
	return move, nil
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
