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

// maxDocumentSymbols bounds the outline: one entry per relation and one per clause gave a 10 MB
// file an outline of 61 MB. Every relation is listed (up to the bound); the clauses share what
// is left, each relation listing up to the same number (as many as fit) and, when it has more,
// one last entry that counts the others.
const maxDocumentSymbols = 5000

// documentSymbols is the outline: one entry per relation, in the order of its first clause,
// with its rules and facts as children (at most maxDocumentSymbols entries in all; see there).
// Forms that are not clauses (broken ones) do not appear.
func documentSymbols(snap *Snapshot) []protocol.DocumentSymbol {
	m := snap.Model()
	out := []protocol.DocumentSymbol{}
	index := map[string]int{}
	var clauses [][]int // per relation in out, its clauses (indexes in m.Clauses)
	for ci, c := range m.Clauses {
		key := c.Key()
		i, ok := index[key]
		form := c.Form.Span()
		if !ok {
			if len(out) == maxDocumentSymbols {
				continue
			}
			i = len(out)
			index[key] = i
			out = append(out, protocol.DocumentSymbol{
				Name:           m.Relations[key].Name(m),
				Detail:         fmt.Sprintf("/%d", c.Head.Arity()),
				Kind:           relationKind(key),
				Range:          snap.m.span(form),
				SelectionRange: snap.m.span(c.Head.Name().Span()),
			})
			clauses = append(clauses, nil)
		}
		out[i].Range.End = snap.m.position(form.End)
		clauses[i] = append(clauses[i], ci)
	}
	per := childrenPerRelation(clauses, maxDocumentSymbols-len(out))
	for i := range out {
		cs := clauses[i]
		shown := cs
		if len(cs) > per {
			shown = cs[:max(per-1, 0)]
		}
		for _, ci := range shown {
			c := m.Clauses[ci]
			kind, detail := protocol.SymbolKindConstant, "fact"
			if c.IsRule {
				kind, detail = protocol.SymbolKindMethod, plural(len(c.Body), "literal")
			}
			out[i].Children = append(out[i].Children, protocol.DocumentSymbol{
				Name:           shorten(strings.Join(strings.Fields(shorten(c.Head.Text(), 240)), " "), 60),
				Detail:         detail,
				Kind:           kind,
				Range:          snap.m.span(c.Form.Span()),
				SelectionRange: snap.m.span(c.Head.Span()),
			})
		}
		if rest := cs[len(shown):]; len(rest) > 0 && per > 0 {
			first := m.Clauses[rest[0]]
			out[i].Children = append(out[i].Children, protocol.DocumentSymbol{
				Name:           "… " + plural(len(rest), "more clause"),
				Detail:         "not listed",
				Kind:           protocol.SymbolKindNull,
				Range:          protocol.Range{Start: snap.m.position(first.Form.Span().Start), End: out[i].Range.End},
				SelectionRange: snap.m.span(first.Head.Span()),
			})
		}
		out[i].Detail = fmt.Sprintf("%s, %s", out[i].Detail, plural(len(cs), "clause"))
	}
	return out
}

// childrenPerRelation is the largest number of entries each relation may have so that all of
// them together stay within budget (every relation's entries up to that number).
func childrenPerRelation(clauses [][]int, budget int) int {
	total := func(per int) int {
		n := 0
		for _, cs := range clauses {
			n += min(len(cs), per)
		}
		return n
	}
	lo, hi := 0, 0
	for _, cs := range clauses {
		hi = max(hi, len(cs))
	}
	for lo < hi { // the largest per in [lo, hi] with total(per) <= budget
		mid := (lo + hi + 1) / 2
		if total(mid) <= budget {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
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
