package playground

import (
	"context"
	"encoding/json"

	"github.com/gdl-lsp/gdl/ide"
)

// "complete": the proposals at a position (ide.Completion): keywords where the grammar allows
// them, the relations, roles, constants, fluents and moves of the game, variables of the rule.

func init() { methods["complete"] = complete }

// completionItem is one proposal: Text replaces the range (a snippet with ${n:name} fields
// when Snippet is set).
type completionItem struct {
	Range
	Label   string `json:"label"`
	Detail  string `json:"detail,omitempty"`
	Kind    string `json:"kind"`
	Text    string `json:"text"`
	Snippet bool   `json:"snippet,omitempty"`
	Doc     string `json:"doc,omitempty"` // Markdown
	Sort    string `json:"sort,omitempty"`
}

// completionKinds name ide.CompletionKind for the page.
var completionKinds = map[ide.CompletionKind]string{
	ide.CompletionRelation: "relation",
	ide.CompletionKeyword:  "keyword",
	ide.CompletionFunction: "function",
	ide.CompletionVariable: "variable",
	ide.CompletionRole:     "role",
	ide.CompletionConstant: "constant",
	ide.CompletionFluent:   "fluent",
	ide.CompletionMove:     "move",
}

func complete(_ context.Context, _ *Bridge, snap *ide.Snapshot, params json.RawMessage) (any, error) {
	p, err := decode[atParams]("complete", params)
	if err != nil {
		return nil, err
	}
	items := ide.Completion(snap, offset(snap, p.Pos), true)
	out := make([]completionItem, 0, len(items))
	for _, it := range items {
		out = append(out, completionItem{Range: rangeOf(snap, it.Replace), Label: it.Label, Detail: it.Detail, Kind: completionKinds[it.Kind],
			Text: it.Text, Snippet: it.Snippet, Doc: it.Doc, Sort: it.SortText})
	}
	return out, nil
}
