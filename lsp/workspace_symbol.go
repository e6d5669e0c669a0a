package lsp

import (
	"context"
	"strings"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/gdl-lsp/gdl/ide"
)

func handleWorkspaceSymbol(ctx context.Context, r *request, p *protocol.WorkspaceSymbolParams) ([]protocol.SymbolInformation, error) {
	docs := make([]ide.Doc, 0, len(r.view.docs))
	for u, snap := range r.view.docs {
		docs = append(docs, ide.Doc{Name: string(u), Path: uriPath(u), Snap: snap.Snapshot})
	}
	out := []protocol.SymbolInformation{}
	for _, s := range ide.WorkspaceSymbols(ctx, docs, r.s.index, p.Query) {
		var loc protocol.Location
		if s.Doc != "" {
			snap := r.view.docs[protocol.DocumentURI(s.Doc)]
			loc = protocol.Location{URI: snap.URI, Range: snap.m.span(s.Span)}
		} else {
			loc = protocol.Location{URI: protocol.DocumentURI(uri.File(s.Path)), Range: protocol.Range{Start: fromSyntax(s.Start), End: fromSyntax(s.End)}}
		}
		container := uriBase(loc.URI)
		if s.Kind == ide.SymbolRole {
			container = "role in " + container
		}
		out = append(out, protocol.SymbolInformation{Name: s.Name, Kind: symbolKinds[s.Kind], Location: loc, ContainerName: container})
	}
	return out, nil
}

func uriBase(u protocol.DocumentURI) string {
	s := string(u)
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		return s[i+1:]
	}
	return s
}
