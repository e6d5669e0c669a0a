package lsp

import (
	"context"
	"fmt"
	"strings"
	"time"

	"go.lsp.dev/protocol"
)

// lensBudget bounds the evaluation behind all lenses of one document: lenses are asked for on
// every change, so they are best effort.
const lensBudget = 300 * time.Millisecond

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
	if !r.view.settings.CodeLens.Enable {
		return lenses, nil
	}
	m := snap.Model()
	g := snap.Game()
	limits := r.view.settings.Eval
	if limits.TimeoutMs <= 0 || limits.TimeoutMs > int(lensBudget/time.Millisecond) {
		limits.TimeoutMs = int(lensBudget / time.Millisecond)
	}
	ectx, cancel := evalContext(ctx, g, limits)
	defer cancel()
	pos, perr := replay(ectx, g, r.s.games.history(p.TextDocument.URI))
	seen := map[string]bool{}
	for _, c := range m.Clauses {
		key := c.Key()
		if seen[key] || key == "true" || key == "does" {
			continue
		}
		seen[key] = true
		query := queryFor(c.Head.Name().Name(), c.Head.Arity())
		title := key + ": run query"
		if perr == nil && ectx.Err() == nil {
			if answers, err := ask(ectx, g, pos, query); err == nil {
				title = fmt.Sprintf("%s: %s", key, plural(len(answers), "answer"))
				if c.Head.Arity() == 0 {
					title = fmt.Sprintf("%s: %v", key, len(answers) > 0)
				}
			}
		}
		start := snap.m.position(c.Form.Span().Start)
		lenses = append(lenses, protocol.CodeLens{
			Range: protocol.Range{Start: start, End: start},
			Command: &protocol.Command{Title: title, Command: "gdl.runQuery",
				Arguments: []interface{}{commandArgs{URI: p.TextDocument.URI, Query: query}}},
		})
	}
	return lenses, nil
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
