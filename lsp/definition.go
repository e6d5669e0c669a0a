package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/analysis"
)

func handleDefinition(ctx context.Context, r *request) (any, error) {
	var p protocol.DefinitionParams
	if err := r.decode(&p); err != nil {
		return nil, err
	}
	snap, err := r.doc(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	return definition(snap, snap.m.offset(p.Position)), nil
}

// definition finds where the symbol at off is defined: a relation's rule heads and facts, a
// role's `role` fact, a variable's binding occurrence, the heads that build a function term.
func definition(snap *Snapshot, off int) []protocol.Location {
	m := snap.Model()
	o := occurrenceAt(snap, off)
	if o == nil {
		return []protocol.Location{}
	}
	out := []protocol.Location{}
	add := func(o *analysis.Occurrence) {
		out = append(out, protocol.Location{URI: snap.URI, Range: snap.m.span(o.Span)})
	}
	switch o.Kind {
	case analysis.OccVariable:
		add(bindingOccurrence(m, o))
	case analysis.OccConstant:
		for _, role := range m.Roles {
			if role.Key == o.Key {
				out = append(out, protocol.Location{URI: snap.URI, Range: snap.m.span(role.Span)})
			}
		}
	case analysis.OccRelation, analysis.OccFunction:
		for _, x := range occurrencesOf(m, o) {
			if x.Def {
				add(x)
			}
		}
	}
	return out
}
