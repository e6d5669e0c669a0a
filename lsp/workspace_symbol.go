package lsp

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/syntax"
)

func handleWorkspaceSymbol(ctx context.Context, r *request) (any, error) {
	var p protocol.WorkspaceSymbolParams
	if err := r.decode(&p); err != nil {
		return nil, err
	}
	return workspaceSymbols(ctx, r.view, r.s.index, p.Query), nil
}

// workspaceSymbols lists the relations (at their first definition) and roles whose name contains
// the query, case-insensitively: of every open document, then of the workspace's game files that
// are not open (from the index, as far as it got within ctx).
func workspaceSymbols(ctx context.Context, v *view, idx *workspaceIndex, query string) []protocol.SymbolInformation {
	q := syntax.Fold(query)
	uris := make([]string, 0, len(v.docs))
	open := map[string]bool{}
	for u := range v.docs {
		uris = append(uris, string(u))
		if p := uriPath(u); p != "" {
			open[p] = true
		}
	}
	sort.Strings(uris)
	out := []protocol.SymbolInformation{}
	for _, u := range uris {
		if ctx.Err() != nil {
			return out
		}
		snap := v.docs[protocol.DocumentURI(u)]
		for _, s := range modelSymbols(snap.Model(), snap.URI, snap.m) {
			if strings.Contains(s.key, q) {
				out = append(out, s.info)
			}
		}
	}
	if idx != nil {
		idx.symbols(ctx, open, func(s symbolEntry) {
			if strings.Contains(s.key, q) {
				out = append(out, s.info)
			}
		})
	}
	return out
}

// symbolEntry is a workspace symbol with its case-folded key, to match queries against.
type symbolEntry struct {
	key  string
	info protocol.SymbolInformation
}

// modelSymbols lists a file's relations, each at its first definition, and its roles.
func modelSymbols(m *analysis.Model, uri protocol.DocumentURI, mp mapper) []symbolEntry {
	var out []symbolEntry
	seen := map[string]bool{}
	for _, c := range m.Clauses {
		key := c.Key()
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, symbolEntry{key: key, info: protocol.SymbolInformation{
			Name:          fmt.Sprintf("%s/%d", m.Relations[key].Name(m), c.Head.Arity()),
			Kind:          relationKind(key),
			Location:      protocol.Location{URI: uri, Range: mp.span(c.Head.Name().Span())},
			ContainerName: uriBase(uri),
		}})
	}
	for _, r := range m.Roles {
		out = append(out, symbolEntry{key: r.Key, info: protocol.SymbolInformation{
			Name: r.Name, Kind: protocol.SymbolKindEnumMember,
			Location:      protocol.Location{URI: uri, Range: mp.span(r.Span)},
			ContainerName: "role in " + uriBase(uri),
		}})
	}
	return out
}

func uriBase(u protocol.DocumentURI) string {
	s := string(u)
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		return s[i+1:]
	}
	return s
}
