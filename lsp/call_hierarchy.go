package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/ide"
)

// A call hierarchy item carries its relation's key in data, so the follow-up requests need
// nothing else.
type callItemData struct {
	Key string `json:"key"`
}

func handlePrepareCallHierarchy(ctx context.Context, r *request, snap *Snapshot, p *protocol.CallHierarchyPrepareParams) ([]protocol.CallHierarchyItem, error) {
	it, ok := ide.PrepareCallHierarchy(snap.Snapshot, snap.m.offset(p.Position))
	if !ok {
		return nil, nil
	}
	return []protocol.CallHierarchyItem{snap.callItem(it)}, nil
}

func handleIncomingCalls(ctx context.Context, r *request, snap *Snapshot, p *protocol.CallHierarchyIncomingCallsParams) ([]protocol.CallHierarchyIncomingCall, error) {
	out := []protocol.CallHierarchyIncomingCall{}
	for _, c := range ide.IncomingCalls(snap.Snapshot, itemKey(p.Item)) {
		out = append(out, protocol.CallHierarchyIncomingCall{From: snap.callItem(c.Item), FromRanges: snap.m.spans(c.Spans)})
	}
	return out, nil
}

func handleOutgoingCalls(ctx context.Context, r *request, snap *Snapshot, p *protocol.CallHierarchyOutgoingCallsParams) ([]protocol.CallHierarchyOutgoingCall, error) {
	out := []protocol.CallHierarchyOutgoingCall{}
	for _, c := range ide.OutgoingCalls(snap.Snapshot, itemKey(p.Item)) {
		out = append(out, protocol.CallHierarchyOutgoingCall{To: snap.callItem(c.Item), FromRanges: snap.m.spans(c.Spans)})
	}
	return out, nil
}

func (s *Snapshot) callItem(it ide.CallItem) protocol.CallHierarchyItem {
	return protocol.CallHierarchyItem{
		Name: it.Name, Kind: symbolKinds[it.Kind], Detail: it.Detail, URI: s.URI,
		Range: s.m.span(it.Span), SelectionRange: s.m.span(it.Selection), Data: callItemData{Key: it.Key},
	}
}

func itemKey(item protocol.CallHierarchyItem) string {
	var d callItemData
	if b, err := json.Marshal(item.Data); err == nil && json.Unmarshal(b, &d) == nil && d.Key != "" {
		return d.Key
	}
	return item.Name
}
