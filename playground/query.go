package playground

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/gdl-lsp/gdl/ide"
)

// "query": the answers of a query in the current state (ide.Session.RunQuery), as the editor's
// "run query" shows them; "lenses": above each group of clauses of a relation, how many answers
// it has in the current state (ide.CodeLenses and LensTitle): an evaluation not done within the
// lenses' budget says "evaluating…", and the bridge's "refresh" notification asks for the
// lenses again when it is done.

func init() {
	methods["query"] = query
	methods["lenses"] = lenses
}

type queryResult struct {
	Query     string  `json:"query"`
	Answers   int     `json:"answers"`
	Text      string  `json:"text"` // the result as the editor shows it
	Error     string  `json:"error,omitempty"`
	ElapsedMs float64 `json:"elapsedMs"`
}

func query(ctx context.Context, b *Bridge, snap *ide.Snapshot, params json.RawMessage) (any, error) {
	p, err := decode[struct {
		Query string `json:"query"`
	}]("query", params)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(p.Query) == "" {
		d := snap.Dialect()
		r, _ := d.Var("r")
		m, _ := d.Var("m")
		return nil, fmt.Errorf("query: give a query, such as %s", d.Atom("legal", r, m))
	}
	res := b.session(snap).RunQuery(ctx, p.Query)
	return queryResult{Query: res.Query, Answers: len(res.Answers), Text: res.Text(), Error: res.Error, ElapsedMs: float64(res.Elapsed.Microseconds()) / 1000}, nil
}

// lens is a lens's title at the line of the group's first clause.
type lens struct {
	Line  int    `json:"line"`
	Title string `json:"title"`
}

func lenses(ctx context.Context, b *Bridge, snap *ide.Snapshot, _ json.RawMessage) (any, error) {
	s := b.session(snap)
	out := []lens{}
	// The lenses share one budget: past it, each says "evaluating…" at once.
	deadline := time.Now().Add(ide.DefaultLensBudget)
	for _, l := range ide.CodeLenses(snap) {
		out = append(out, lens{Line: snap.Line(l.Offset), Title: ide.LensTitle(ctx, l, s, time.Until(deadline))})
	}
	return out, nil
}
