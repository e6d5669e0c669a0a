package playground

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/gdl-lsp/gdl/ide"
)

// "explain": why a literal holds or does not hold in the current state (package explain through
// ide.Session.ExplainLiteral), given as text or as the literal at a position of the document
// (ide.LiteralAt); or why a fluent of the state holds (ExplainFluent: the init fact or the next
// rule that gave it), for a square of the board. The rules in the Markdown link to "#L<line>,<column>".

func init() { methods["explain"] = explainCommand }

type explainParams struct {
	Literal string   `json:"literal,omitempty"`
	Fluent  string   `json:"fluent,omitempty"`
	Pos     *Pos     `json:"pos,omitempty"`
	Joint   []string `json:"joint,omitempty"`
}

// explainResult is an explanation (ide.ExplainResult).
type explainResult struct {
	Literal  string   `json:"literal"`
	Holds    bool     `json:"holds"`
	Step     int      `json:"step"`
	Joint    []string `json:"joint,omitempty"`
	Markdown string   `json:"markdown"`
	Text     string   `json:"text"`
	Error    string   `json:"error,omitempty"`
}

// ruleLink is the target of a link to a rule: the page moves the cursor there.
func ruleLink(line, column int) string { return fmt.Sprintf("#L%d,%d", line, column) }

func toExplainResult(r *ide.ExplainResult) *explainResult {
	return &explainResult{Literal: r.Literal, Holds: r.Holds, Step: r.Step, Joint: r.Joint, Markdown: r.MarkdownWith(ruleLink), Text: r.Text, Error: r.Error}
}

func explainCommand(ctx context.Context, b *Bridge, snap *ide.Snapshot, params json.RawMessage) (any, error) {
	p, err := decode[explainParams]("explain", params)
	if err != nil {
		return nil, err
	}
	s := b.session(snap)
	opts := ide.ExplainOptions{Joint: p.Joint, Link: ruleLink}
	switch {
	case p.Literal != "":
		return toExplainResult(s.ExplainLiteral(ctx, p.Literal, opts)), nil
	case p.Fluent != "":
		return toExplainResult(s.ExplainFluent(ctx, p.Fluent, opts)), nil
	case p.Pos != nil:
		t, ok := ide.LiteralAt(snap, offset(snap, *p.Pos))
		if !ok {
			return nil, fmt.Errorf("explain: no literal of a complete rule at line %d, character %d", p.Pos.Line+1, p.Pos.Ch+1)
		}
		return toExplainResult(s.ExplainLiteral(ctx, t.Literal, opts)), nil
	}
	return nil, fmt.Errorf("explain: give a literal, a fluent or a position: {literal}, {fluent} or {pos}")
}
