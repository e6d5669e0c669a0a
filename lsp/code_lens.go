package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// Code lenses: one "run query" lens above each contiguous group of clauses of a relation (a
// relation defined in two places gets a lens at each). textDocument/codeLens only lists them,
// from the syntax and the analysis; the title with its live count, which needs evaluation, is
// computed in codeLens/resolve, which clients ask for the lenses they show. For a client that
// never resolves, the setting codeLens.resolve = false computes the titles in codeLens itself.

// lensBudget bounds how long one lens waits for its evaluation (and, without resolve, all the
// lenses of a document together): lenses are asked for on every change, so they are best effort.
// An evaluation that takes longer goes on in the background; the lens says "evaluating…" and
// the client is asked to refresh its lenses when it is done.
const lensBudget = 300 * time.Millisecond

// lensEvalLimit bounds each lens's evaluation in the background (the user's time limit applies
// if it is lower). A relation that takes longer, like chess's queen_move_ig with 300,000 facts
// (1.6 s), gets no count; running the lens evaluates it under the user's limit. A lens about a
// joint move counts what the joint moves evaluated in time give.
const lensEvalLimit = time.Second

// lensData is what an unresolved lens carries to codeLens/resolve.
type lensData struct {
	URI   protocol.DocumentURI `json:"uri"`
	Query string               `json:"query"`
	Key   string               `json:"key"`
	Arity int                  `json:"arity"`
}

func handleCodeLens(ctx context.Context, r *request) (any, error) {
	var p protocol.CodeLensParams
	if err := r.decode(&p); err != nil {
		return nil, err
	}
	snap, err := r.doc(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	lenses := []protocol.CodeLens{}
	settings := r.view.settingsFor(snap.URI)
	if !settings.CodeLens.Enable {
		return lenses, nil
	}
	prev := ""
	for _, c := range snap.Model().Clauses {
		key := c.Key()
		if key == prev {
			continue // the same group
		}
		prev = key
		if key == "true" || key == "does" {
			continue
		}
		start := snap.m.position(c.Form.Span().Start)
		lenses = append(lenses, protocol.CodeLens{
			Range: protocol.Range{Start: start, End: start},
			Data:  lensData{URI: snap.URI, Query: queryFor(c.Head.Name().Name(), c.Head.Arity()), Key: key, Arity: c.Head.Arity()},
		})
	}
	if settings.CodeLens.Resolve {
		return lenses, nil
	}
	deadline := time.Now().Add(lensBudget)
	for i := range lenses {
		d := lenses[i].Data.(lensData)
		lenses[i].Command = r.s.lensCommand(ctx, r.view, snap, d, time.Until(deadline))
	}
	return lenses, nil
}

func handleCodeLensResolve(ctx context.Context, r *request) (any, error) {
	var lens protocol.CodeLens
	if err := r.decode(&lens); err != nil {
		return nil, err
	}
	raw, _ := json.Marshal(lens.Data)
	var d lensData
	if err := json.Unmarshal(raw, &d); err != nil || d.URI == "" || d.Query == "" {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "codeLens/resolve: not a lens of this server: %s", raw)
	}
	snap, err := r.doc(d.URI)
	if err != nil {
		return nil, err
	}
	lens.Command = r.s.lensCommand(ctx, r.view, snap, d, lensBudget)
	return lens, nil
}

// lensCommand is the command of a resolved lens: gdl.runQuery of the relation's query, titled
// with its count in the document's current state (evaluated within budget).
func (s *Server) lensCommand(ctx context.Context, v *view, snap *Snapshot, d lensData, budget time.Duration) *protocol.Command {
	history := s.games.history(snap.URI)
	cg := s.gameOf(snap)
	limits := v.settingsFor(snap.URI).Eval
	limits.TimeoutMs = min(limits.TimeoutMs, int(lensEvalLimit/time.Millisecond))
	res := cg.answers(history, limits, d.Query, background)
	val, err := res.wait(ctx, max(budget, 0))
	var title string
	switch {
	case errors.Is(err, errStillRunning):
		title = d.Key + ": evaluating…"
		s.refreshWhenDone(res)
	case errors.Is(err, context.DeadlineExceeded):
		title = fmt.Sprintf("%s: not counted (over %v)", d.Key, time.Duration(limits.TimeoutMs)*time.Millisecond)
	case err != nil:
		title = d.Key + ": run query"
	default:
		qa := val.(*queryAnswers)
		title = lensTitle(d, qa)
		if qa.needsMove && len(qa.byMove) == 0 && errors.Is(qa.stopped, context.DeadlineExceeded) {
			title = fmt.Sprintf("%s: not counted (over %v)", d.Key, time.Duration(limits.TimeoutMs)*time.Millisecond)
		}
	}
	return &protocol.Command{Title: title, Command: "gdl.runQuery",
		Arguments: []interface{}{commandArgs{URI: snap.URI, Query: d.Query}}}
}

// lensTitle words a relation's answers: "legal: 10 answers", "terminal: false"; for a relation
// about a joint move (next, sees, ...), the answers after the legal joint moves of the state:
// "next: 10 answers after (mark 1 1) noop", "next: 9–10 answers after each of 9 joint moves".
func lensTitle(d lensData, qa *queryAnswers) string {
	if !qa.needsMove {
		if d.Arity == 0 {
			return fmt.Sprintf("%s: %v", d.Key, qa.count > 0)
		}
		return fmt.Sprintf("%s: %s", d.Key, plural(qa.count, "answer"))
	}
	n := len(qa.byMove)
	if qa.jointMoves == 0 {
		return d.Key + ": no legal joint move here"
	}
	if n == 0 {
		return d.Key + ": run query"
	}
	lo, hi, holds := -1, 0, 0
	for _, k := range qa.moveCounts {
		if lo < 0 || k < lo {
			lo = k
		}
		hi = max(hi, k)
		if k > 0 {
			holds++
		}
	}
	moves := fmt.Sprintf("each of %d joint moves", n)
	switch {
	case qa.jointMoves == 1:
		moves = strings.Join(qa.byMove[0].Move, " ")
	case n < qa.jointMoves:
		moves = fmt.Sprintf("each of the first %d of %d joint moves", n, qa.jointMoves)
	}
	if d.Arity == 0 {
		if qa.jointMoves == 1 {
			return fmt.Sprintf("%s: %v after %s", d.Key, holds > 0, moves)
		}
		return fmt.Sprintf("%s: true after %d of %d joint moves", d.Key, holds, n)
	}
	count := plural(lo, "answer")
	if lo != hi {
		count = fmt.Sprintf("%d–%d answers", lo, hi)
	}
	return fmt.Sprintf("%s: %s after %s", d.Key, count, moves)
}

// queryFor builds the query that asks for every fact of a relation: (name ?a1 ... ?an).
func queryFor(name string, arity int) string {
	if arity == 0 {
		return name
	}
	vars := make([]string, arity)
	for i := range vars {
		vars[i] = fmt.Sprintf("?a%d", i+1)
	}
	return "(" + name + " " + strings.Join(vars, " ") + ")"
}
