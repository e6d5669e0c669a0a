package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/ide"
	"github.com/gdl-lsp/gdl/syntax"
)

func handleDefinition(ctx context.Context, r *request, snap *Snapshot, p *protocol.DefinitionParams) ([]protocol.Location, error) {
	if td, ok := r.s.testDoc(r.view, snap); ok {
		return testDefinition(r, td, snap.m.offset(p.Position)), nil
	}
	spans := answered(snap, snap.m.offset(p.Position), func(sp *syntax.Span) *syntax.Span { return sp }, ide.Definition)
	return snap.locations(spans), nil
}
