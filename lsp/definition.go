package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/ide"
)

func handleDefinition(ctx context.Context, r *request, snap *Snapshot, p *protocol.DefinitionParams) ([]protocol.Location, error) {
	if td, ok := r.s.testDoc(r.view, snap); ok {
		return testDefinition(r, td, snap.m.offset(p.Position)), nil
	}
	return snap.locations(ide.Definition(snap.Snapshot, snap.m.offset(p.Position))), nil
}
