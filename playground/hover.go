package playground

import (
	"context"
	"encoding/json"

	"github.com/gdl-lsp/gdl/ide"
)

// "hover": what the editor says of the symbol at a position (ide.Hover, in Markdown): a
// keyword's documentation, a relation's definitions and uses, a variable's binding.

func init() { methods["hover"] = hover }

// atParams name a position of the document.
type atParams struct {
	Pos Pos `json:"pos"`
}

// hoverResult is a hover's text and the span it is about.
type hoverResult struct {
	Range
	Markdown string `json:"markdown"`
}

func hover(ctx context.Context, _ *Bridge, snap *ide.Snapshot, params json.RawMessage) (any, error) {
	p, err := decode[atParams]("hover", params)
	if err != nil {
		return nil, err
	}
	h := ide.Hover(ctx, snap, offset(snap, p.Pos), ide.HoverOptions{Markdown: true})
	if h == nil {
		return nil, nil
	}
	return hoverResult{rangeOf(snap, h.Span), h.Text}, nil
}
