package lsp

import (
	"context"
	"fmt"
	"sort"

	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/analysis"
)

func handleReferences(ctx context.Context, r *request) (any, error) {
	var p protocol.ReferenceParams
	if err := r.decode(&p); err != nil {
		return nil, err
	}
	snap, err := r.doc(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	locs := references(snap, snap.m.offset(p.Position), p.Context.IncludeDeclaration)
	if len(locs) > maxReferences {
		r.s.notify("window/showMessage", protocol.ShowMessageParams{Type: protocol.MessageTypeInfo,
			Message: fmt.Sprintf("gdl: %d references; showing the %d nearest the cursor.", len(locs), maxReferences)})
		locs = nearest(locs, func(l protocol.Location) protocol.Position { return l.Range.Start }, p.Position, maxReferences)
	}
	return locs, nil
}

// maxReferences bounds a references reply (and a documentHighlight one): a relation used 10,000
// times made 1.4 MB of JSON that editors are slow to show, and a big file can have far more.
const maxReferences = 2000

// nearest keeps the n items (in file order, all in one document) around pos.
func nearest[T any](items []T, start func(T) protocol.Position, pos protocol.Position, n int) []T {
	k := sort.Search(len(items), func(i int) bool {
		s := start(items[i])
		return s.Line > pos.Line || s.Line == pos.Line && s.Character >= pos.Character
	})
	from := min(max(k-n/2, 0), len(items)-n)
	return items[from : from+n]
}

// references lists the uses of the symbol at off. Definitions are the occurrences in clause
// heads (for a variable: its binding occurrence); they are included only when asked.
func references(snap *Snapshot, off int, withDecl bool) []protocol.Location {
	m := snap.Model()
	out := []protocol.Location{}
	o := occurrenceAt(snap, off)
	if o == nil {
		return out
	}
	binding := o
	if o.Kind == analysis.OccVariable {
		binding = bindingOccurrence(m, o)
	}
	for _, x := range occurrencesOf(m, o) {
		decl := x.Def
		if o.Kind == analysis.OccVariable {
			decl = x == binding
		}
		if decl && !withDecl {
			continue
		}
		out = append(out, protocol.Location{URI: snap.URI, Range: snap.m.span(x.Span)})
	}
	return out
}
