package lsp

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/syntax"
)

func handleWorkspaceSymbol(ctx context.Context, r *request) (any, error) {
	var p protocol.WorkspaceSymbolParams
	if err := r.decode(&p); err != nil {
		return nil, err
	}
	return workspaceSymbols(ctx, r.view, p.Query), nil
}

// workspaceSymbols lists the relations (at their first definition) and roles of every open
// document whose name contains the query, case-insensitively.
func workspaceSymbols(ctx context.Context, v *view, query string) []protocol.SymbolInformation {
	q := syntax.Fold(query)
	uris := make([]string, 0, len(v.docs))
	for u := range v.docs {
		uris = append(uris, string(u))
	}
	sort.Strings(uris)
	out := []protocol.SymbolInformation{}
	for _, u := range uris {
		if ctx.Err() != nil {
			return out
		}
		snap := v.docs[protocol.DocumentURI(u)]
		m := snap.Model()
		seen := map[string]bool{}
		for _, c := range m.Clauses {
			key := c.Key()
			if seen[key] || !strings.Contains(key, q) {
				continue
			}
			seen[key] = true
			out = append(out, protocol.SymbolInformation{
				Name:          fmt.Sprintf("%s/%d", m.Relations[key].Name(m), c.Head.Arity()),
				Kind:          relationKind(key),
				Location:      protocol.Location{URI: snap.URI, Range: snap.m.span(c.Head.Name().Span())},
				ContainerName: uriBase(snap.URI),
			})
		}
		for _, r := range m.Roles {
			if strings.Contains(r.Key, q) {
				out = append(out, protocol.SymbolInformation{
					Name: r.Name, Kind: protocol.SymbolKindEnumMember,
					Location:      protocol.Location{URI: snap.URI, Range: snap.m.span(r.Span)},
					ContainerName: "role in " + uriBase(snap.URI),
				})
			}
		}
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
