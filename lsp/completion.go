package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/ide"
)

var completionKinds = map[ide.CompletionKind]protocol.CompletionItemKind{
	ide.CompletionRelation: protocol.CompletionItemKindFunction,
	ide.CompletionKeyword:  protocol.CompletionItemKindKeyword,
	ide.CompletionFunction: protocol.CompletionItemKindConstructor,
	ide.CompletionVariable: protocol.CompletionItemKindVariable,
	ide.CompletionRole:     protocol.CompletionItemKindEnumMember,
	ide.CompletionConstant: protocol.CompletionItemKindConstant,
	ide.CompletionFluent:   protocol.CompletionItemKindStruct,
	ide.CompletionMove:     protocol.CompletionItemKindEvent,
}

func handleCompletion(ctx context.Context, r *request, snap *Snapshot, p *protocol.CompletionParams) (*protocol.CompletionList, error) {
	snippets := r.view.client.snippets
	items := []protocol.CompletionItem{}
	var found []ide.CompletionItem
	if td, ok := r.s.testDoc(r.view, snap); ok {
		found = testCompletion(ctx, r, snap, td, snap.m.offset(p.Position), snippets)
	} else {
		found = ide.Completion(snap.Snapshot, snap.m.offset(p.Position), snippets)
	}
	for _, it := range found {
		ci := protocol.CompletionItem{Label: it.Label, Kind: completionKinds[it.Kind], Detail: it.Detail, SortText: it.SortText,
			TextEdit: &protocol.TextEdit{Range: snap.m.span(it.Replace), NewText: it.Text}}
		if it.Snippet {
			ci.InsertTextFormat = protocol.InsertTextFormatSnippet
		}
		if it.Doc != "" {
			ci.Documentation = protocol.MarkupContent{Kind: protocol.Markdown, Value: it.Doc}
		}
		items = append(items, ci)
	}
	return &protocol.CompletionList{Items: items}, nil
}
