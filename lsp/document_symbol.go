package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/ide"
)

// maxDocumentSymbols bounds the outline (see ide.DocumentSymbols): one entry per relation and
// one per clause gave a 10 MB file an outline of 61 MB.
const maxDocumentSymbols = 5000

// symbolKinds are the outline icons: relations as functions, keywords of the game as events,
// the role relation as a class.
var symbolKinds = map[ide.SymbolKind]protocol.SymbolKind{
	ide.SymbolRelation:        protocol.SymbolKindFunction,
	ide.SymbolKeywordRelation: protocol.SymbolKindEvent,
	ide.SymbolRoleRelation:    protocol.SymbolKindClass,
	ide.SymbolRule:            protocol.SymbolKindMethod,
	ide.SymbolFact:            protocol.SymbolKindConstant,
	ide.SymbolMore:            protocol.SymbolKindNull,
	ide.SymbolRole:            protocol.SymbolKindEnumMember,
}

func handleDocumentSymbol(ctx context.Context, r *request, snap *Snapshot, p *protocol.DocumentSymbolParams) (any, error) {
	var syms []protocol.DocumentSymbol
	if td, ok := r.s.testDoc(r.view, snap); ok {
		syms = testSymbols(snap, td)
	} else {
		syms = snap.documentSymbols(ide.DocumentSymbols(snap.Snapshot, maxDocumentSymbols))
	}
	if !r.view.client.hierarchicalSymbols {
		return flatSymbols(snap.URI, syms), nil
	}
	return syms, nil
}

func (s *Snapshot) documentSymbols(syms []ide.DocumentSymbol) []protocol.DocumentSymbol {
	out := make([]protocol.DocumentSymbol, len(syms))
	for i, sym := range syms {
		out[i] = protocol.DocumentSymbol{Name: sym.Name, Detail: sym.Detail, Kind: symbolKinds[sym.Kind],
			Range: s.m.span(sym.Span), SelectionRange: s.m.span(sym.Selection)}
		if len(sym.Children) > 0 {
			out[i].Children = s.documentSymbols(sym.Children)
		}
	}
	return out
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
