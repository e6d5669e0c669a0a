package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/ide"
)

// Code lenses: textDocument/codeLens only lists them (ide.CodeLenses); the title with its live
// count, which needs evaluation, is computed in codeLens/resolve (ide.LensTitle), which clients
// ask for the lenses they show. For a client that never resolves, the setting codeLens.resolve =
// false computes the titles in codeLens itself, all of them within one budget.

// lensData is what an unresolved lens carries to codeLens/resolve.
type lensData struct {
	URI   protocol.DocumentURI `json:"uri"`
	Query string               `json:"query"`
	Key   string               `json:"key"`
	Arity int                  `json:"arity"`
	// NotEvaluated says why the relation cannot be evaluated, known when the lenses are listed.
	NotEvaluated string `json:"notEvaluated,omitempty"`
}

func handleCodeLens(ctx context.Context, r *request, snap *Snapshot, p *protocol.CodeLensParams) ([]protocol.CodeLens, error) {
	lenses := []protocol.CodeLens{}
	settings := r.view.settingsFor(snap.URI)
	if !settings.CodeLens.Enable {
		return lenses, nil
	}
	if td, ok := r.s.testDoc(r.view, snap); ok {
		return testLenses(r, snap, td), nil
	}
	deadline := time.Now().Add(ide.DefaultLensBudget)
	all := ide.CodeLenses(snap.Snapshot)
	for _, l := range all[:min(len(all), maxCodeLenses)] {
		start := snap.m.position(l.Offset)
		lens := protocol.CodeLens{
			Range: protocol.Range{Start: start, End: start},
			Data:  lensData{URI: snap.URI, Query: l.Query, Key: l.Key, Arity: l.Arity, NotEvaluated: l.NotEvaluated},
		}
		if !settings.CodeLens.Resolve {
			lens.Command = lensCommand(ctx, r, snap, l, time.Until(deadline))
		}
		lenses = append(lenses, lens)
	}
	if n := len(all) - maxCodeLenses; n > 0 {
		// The last lens says what was left out; it runs nothing.
		start := snap.m.position(all[maxCodeLenses].Offset)
		lenses = append(lenses, protocol.CodeLens{Range: protocol.Range{Start: start, End: start},
			Command: &protocol.Command{Title: fmt.Sprintf("… %d more groups of clauses without a lens (at most %d lenses per file)", n, maxCodeLenses)}})
	}
	return lenses, nil
}

// maxCodeLenses bounds a codeLens reply: a 10 MB file of alternating facts had a million
// lenses, 94 MB of JSON. The first ones are kept, then a lens that says how many more there are.
const maxCodeLenses = 2000

// handleCodeLensResolve titles a lens listed by handleCodeLens; the prologue finds its document
// in its data (lensURI).
func handleCodeLensResolve(ctx context.Context, r *request, snap *Snapshot, lens *protocol.CodeLens) (*protocol.CodeLens, error) {
	d, _ := lensDataOf(lens)
	lens.Command = lensCommand(ctx, r, snap, ide.Lens{Query: d.Query, Key: d.Key, Arity: d.Arity, NotEvaluated: d.NotEvaluated}, ide.DefaultLensBudget)
	return lens, nil
}

// lensURI is the document of a lens of this server, from its data; any other lens is invalid.
func lensURI(r *request, lens *protocol.CodeLens) (protocol.DocumentURI, error) {
	d, err := lensDataOf(lens)
	return d.URI, err
}

// lensDataOf reads what a lens of this server carries.
func lensDataOf(lens *protocol.CodeLens) (d lensData, err error) {
	raw, _ := json.Marshal(lens.Data)
	if err := json.Unmarshal(raw, &d); err != nil || d.URI == "" || d.Query == "" {
		return d, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "codeLens/resolve: not a lens of this server: %s", raw)
	}
	return d, nil
}

// lensCommand is the command of a resolved lens: gdl.runQuery of the relation's query, titled
// with its count in the document's current state.
func lensCommand(ctx context.Context, r *request, snap *Snapshot, l ide.Lens, budget time.Duration) *protocol.Command {
	return &protocol.Command{Title: ide.LensTitle(ctx, l, r.session(snap), budget), Command: "gdl.runQuery",
		Arguments: []interface{}{commandArgs{URI: snap.URI, Query: l.Query}}}
}
