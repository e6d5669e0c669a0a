package ide

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/syntax"
)

// Symbol is a relation (at the name of its first clause's head) or a role of a file.
type Symbol struct {
	Key  string // case-folded, to match queries against
	Name string // a relation's name/arity, a role's name
	Kind SymbolKind
	Span syntax.Span
}

// WorkspaceSymbol is a symbol of an open document or of a game file of the workspace (Index).
type WorkspaceSymbol struct {
	Symbol
	Doc  string // the open document's name (Doc.Name), or "" for a file of the index
	Path string // the file of the index
	// Start and End are the symbol's position in a file of the index, in the index's encoding
	// (the index keeps no text to map Span with).
	Start, End syntax.Position
}

// Doc is an open document, for workspace symbols.
type Doc struct {
	Name string // how the caller names it (a URI)
	Path string // its file, "" if it is not one; the index leaves that file out
	Snap *Snapshot
}

// WorkspaceSymbols lists the relations (at their first definition) and roles whose name contains
// the query, case-insensitively: of every open document (in the order of their names), then of
// the workspace's game files that are not open (from idx, as far as it got within ctx; idx may
// be nil).
func WorkspaceSymbols(ctx context.Context, docs []Doc, idx *Index, query string) []WorkspaceSymbol {
	q := syntax.Fold(query)
	docs = append([]Doc(nil), docs...)
	sort.Slice(docs, func(i, j int) bool { return docs[i].Name < docs[j].Name })
	open := map[string]bool{}
	for _, d := range docs {
		if d.Path != "" {
			open[d.Path] = true
		}
	}
	out := []WorkspaceSymbol{}
	for _, d := range docs {
		if ctx.Err() != nil {
			return out
		}
		for _, s := range d.Snap.Symbols() {
			if strings.Contains(s.Key, q) {
				out = append(out, WorkspaceSymbol{Symbol: s, Doc: d.Name})
			}
		}
	}
	if idx != nil {
		idx.symbols(ctx, open, func(s WorkspaceSymbol) {
			if strings.Contains(s.Key, q) {
				out = append(out, s)
			}
		})
	}
	return out
}

// fileSymbols lists a file's relations, each at its first definition, and its roles.
func fileSymbols(m *analysis.Model) []Symbol {
	var out []Symbol
	seen := map[string]bool{}
	for _, c := range m.Clauses {
		key := c.Key()
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, Symbol{Key: key, Name: fmt.Sprintf("%s/%d", m.Relations[key].Name(m), c.Head.Arity()),
			Kind: relationKind(key), Span: c.Head.Name().Span()})
	}
	for _, r := range m.Roles {
		out = append(out, Symbol{Key: r.Key, Name: r.Name, Kind: SymbolRole, Span: r.Span})
	}
	return out
}
