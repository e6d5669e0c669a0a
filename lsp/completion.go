package lsp

import (
	"context"
	"strings"

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

// maxCompletionItems bounds a completion reply: a file of 60,000 relations offered them all, 10 MB
// of JSON that took seconds to send and to read. The items whose label starts with the word
// being typed come first; a list cut short is incomplete, so the editor asks again as the user
// types on.
const maxCompletionItems = 1000

func handleCompletion(ctx context.Context, r *request, snap *Snapshot, p *protocol.CompletionParams) (*protocol.CompletionList, error) {
	snippets := r.view.client.snippets
	items := []protocol.CompletionItem{}
	var found []ide.CompletionItem
	if td, ok := r.s.testDoc(r.view, snap); ok {
		found = testCompletion(ctx, r, snap, td, snap.m.offset(p.Position), snippets)
	} else {
		found = ide.Completion(snap.Snapshot, snap.m.offset(p.Position), snippets)
	}
	incomplete := len(found) > maxCompletionItems
	if incomplete {
		found = typedFirst(snap.Text(), found, maxCompletionItems)
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
	return &protocol.CompletionList{IsIncomplete: incomplete, Items: items}, nil
}

// typedFirst keeps n items: those whose label starts with the word they replace in text (case
// blind), then the others, each in their order.
func typedFirst(text string, items []ide.CompletionItem, n int) []ide.CompletionItem {
	out := make([]ide.CompletionItem, 0, n)
	for pass := 0; pass < 2 && len(out) < n; pass++ {
		for _, it := range items {
			typed := text[it.Replace.Start:it.Replace.End]
			starts := len(it.Label) >= len(typed) && strings.EqualFold(it.Label[:len(typed)], typed)
			if starts == (pass == 0) {
				if out = append(out, it); len(out) == n {
					break
				}
			}
		}
	}
	return out
}
