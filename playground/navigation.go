package playground

import (
	"context"
	"encoding/json"

	"github.com/gdl-lsp/gdl/ide"
)

// "definition": where the symbol at a position is defined (ide.Definition); "format": the edits
// that put the document in gdl fmt's layout (ide.Format).

func init() {
	methods["definition"] = definition
	methods["format"] = formatDoc
}

func definition(_ context.Context, _ *Bridge, snap *ide.Snapshot, params json.RawMessage) (any, error) {
	p, err := decode[atParams]("definition", params)
	if err != nil {
		return nil, err
	}
	out := []Range{}
	for _, sp := range ide.Definition(snap, offset(snap, p.Pos)) {
		out = append(out, rangeOf(snap, sp))
	}
	return out, nil
}

func formatDoc(_ context.Context, _ *Bridge, snap *ide.Snapshot, _ json.RawMessage) (any, error) {
	es, err := ide.Format(snap) // its error says why a file with syntax errors is not formatted
	if err != nil {
		return nil, err
	}
	return edits(snap, es), nil
}
