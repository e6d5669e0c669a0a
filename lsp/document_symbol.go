package lsp

import (
	"context"
	"fmt"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/analysis"
)

func handleDocumentSymbol(ctx context.Context, r *request) (any, error) {
	var p protocol.DocumentSymbolParams
	if err := r.decode(&p); err != nil {
		return nil, err
	}
	snap, err := r.doc(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	return documentSymbols(snap), nil
}

// documentSymbols is the outline: one entry per relation, in the order of its first clause,
// with its rules and facts as children. Forms that are not clauses (broken ones) do not appear.
func documentSymbols(snap *Snapshot) []protocol.DocumentSymbol {
	m := snap.Model()
	out := []protocol.DocumentSymbol{}
	index := map[string]int{}
	for _, c := range m.Clauses {
		key := c.Key()
		i, ok := index[key]
		name := c.Head.Name()
		form := c.Form.Span()
		if !ok {
			i = len(out)
			index[key] = i
			out = append(out, protocol.DocumentSymbol{
				Name:           m.Relations[key].Name(m),
				Detail:         fmt.Sprintf("/%d", c.Head.Arity()),
				Kind:           relationKind(key),
				Range:          snap.m.span(form),
				SelectionRange: snap.m.span(name.Span()),
			})
		}
		s := &out[i]
		s.Range.End = snap.m.position(form.End)
		kind, detail := protocol.SymbolKindConstant, "fact"
		if c.IsRule {
			kind, detail = protocol.SymbolKindMethod, plural(len(c.Body), "literal")
		}
		s.Children = append(s.Children, protocol.DocumentSymbol{
			Name:           shorten(strings.Join(strings.Fields(c.Head.Text()), " "), 60),
			Detail:         detail,
			Kind:           kind,
			Range:          snap.m.span(form),
			SelectionRange: snap.m.span(c.Head.Span()),
		})
	}
	for i := range out {
		out[i].Detail = fmt.Sprintf("%s, %s", out[i].Detail, plural(len(out[i].Children), "clause"))
	}
	return out
}

// relationKind picks an outline icon: keywords of the game as events, the rest as functions.
func relationKind(key string) protocol.SymbolKind {
	if key == "role" {
		return protocol.SymbolKindClass
	}
	if analysis.IsKeyword(key) {
		return protocol.SymbolKindEvent
	}
	return protocol.SymbolKindFunction
}
