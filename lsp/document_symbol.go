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
	syms := documentSymbols(snap)
	if !r.s.hierarchicalSymbols() {
		return flatSymbols(snap.URI, syms), nil
	}
	return syms, nil
}

// hierarchicalSymbols reports whether the client takes DocumentSymbol trees; clients that do not
// say so get the flat SymbolInformation list of LSP 3.0.
func (s *Server) hierarchicalSymbols() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	td := s.clientCaps.TextDocument
	return td != nil && td.DocumentSymbol != nil && td.DocumentSymbol.HierarchicalDocumentSymbolSupport
}

// flatSymbols lists the outline as SymbolInformation: each relation, then its clauses with the
// relation as their container.
func flatSymbols(uri protocol.DocumentURI, syms []protocol.DocumentSymbol) []protocol.SymbolInformation {
	out := []protocol.SymbolInformation{}
	for _, s := range syms {
		out = append(out, protocol.SymbolInformation{Name: s.Name, Kind: s.Kind, Location: protocol.Location{URI: uri, Range: s.Range}})
		for _, c := range s.Children {
			out = append(out, protocol.SymbolInformation{Name: c.Name, Kind: c.Kind,
				Location: protocol.Location{URI: uri, Range: c.Range}, ContainerName: s.Name})
		}
	}
	return out
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
