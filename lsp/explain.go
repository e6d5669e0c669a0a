package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/explain"
	"github.com/gdl-lsp/gdl/ide"
)

// Explanations (ide/explain.go): the command gdl.explain, the code action that runs it on the
// literal at the cursor, and the command links of the evaluated hovers.

// explainArgs are gdl.explain's arguments: the literal (in the document's notation), and the
// joint move for a literal about a joint move (one move per role; none: the first legal one).
type explainArgs struct {
	URI     protocol.DocumentURI `json:"uri"`
	Literal string               `json:"literal,omitempty"`
	// Fluent, instead of Literal: why this fluent holds in the current state (the init or next
	// rule that gave it), as the game view asks for a square.
	Fluent string   `json:"fluent,omitempty"`
	Joint  []string `json:"joint,omitempty"`
	Depth  int      `json:"depth,omitempty"`
}

// explainResult is gdl.explain's result (ide.ExplainResult).
type explainResult struct {
	Literal     string               `json:"literal"`
	Holds       bool                 `json:"holds"`
	Step        int                  `json:"step"`
	Joint       []string             `json:"joint,omitempty"`
	Markdown    string               `json:"markdown"`
	Text        string               `json:"text"`
	Explanation *explain.Explanation `json:"explanation,omitempty"`
	Error       string               `json:"error,omitempty"`
	Notation    string               `json:"notation"`
}

// explainCommand runs gdl.explain.
func explainCommand(ctx context.Context, snap *Snapshot, session *ide.Session, raw json.RawMessage) (any, error) {
	var a explainArgs
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &a); err != nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "gdl.explain: %v", err)
		}
	}
	opts := ide.ExplainOptions{Joint: a.Joint, Depth: a.Depth, Link: ruleLink(snap.URI)}
	var res *ide.ExplainResult
	switch {
	case a.Literal != "":
		res = session.ExplainLiteral(ctx, a.Literal, opts)
	case a.Fluent != "":
		res = session.ExplainFluent(ctx, a.Fluent, opts)
	default:
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "gdl.explain: give the literal to explain, or a fluent: {uri, literal} or {uri, fluent}")
	}
	return toExplainResult(res, snap), nil
}

func toExplainResult(res *ide.ExplainResult, snap *Snapshot) explainResult {
	return explainResult{Literal: res.Literal, Holds: res.Holds, Step: res.Step, Joint: res.Joint, Markdown: res.MarkdownWith(ruleLink(snap.URI)),
		Text: res.Text, Explanation: res.Tree, Error: res.Error, Notation: snap.Dialect().String()}
}

// ruleLink links a rule of the document: its URI with the line and column as a fragment, which
// VS Code's Markdown preview opens at that place.
func ruleLink(uri protocol.DocumentURI) func(line, column int) string {
	return func(line, column int) string { return fmt.Sprintf("%s#L%d,%d", uri, line, column) }
}

// explainLink is the target of a hover's "Why?" link: a command URI running gdl.explain on the
// literal.
func explainLink(uri protocol.DocumentURI) func(literal string) string {
	return func(literal string) string { return explainCommandLink(explainArgs{URI: uri, Literal: literal}) }
}

// explainCommandLink is a command URI running gdl.explain with a.
func explainCommandLink(a explainArgs) string {
	arg, _ := json.Marshal([]explainArgs{a})
	return "command:gdl.explain?" + url.QueryEscape(string(arg))
}

// explainActions are the code actions that explain the literal at the start of rg in the
// current state (no kind: they are neither fixes nor refactorings).
func explainActions(snap *Snapshot, rg protocol.Range) []protocol.CodeAction {
	var out []protocol.CodeAction
	for _, a := range ide.ExplainActions(snap.Snapshot, snap.m.offset(rg.Start)) {
		out = append(out, protocol.CodeAction{Title: a.Title, Command: &protocol.Command{Title: a.Title, Command: "gdl.explain",
			Arguments: []interface{}{explainArgs{URI: snap.URI, Literal: a.Literal}}}})
	}
	return out
}
