package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/ide"
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
	if td, ok := r.s.testDoc(r.view, snap); ok {
		return testDefinition(r, td, snap.m.offset(p.Position)), nil
	}
	return snap.locations(ide.Definition(snap.Snapshot, snap.m.offset(p.Position))), nil
}
