package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"

	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/analysis"
)

// Call hierarchy over the rule dependency graph: a relation "calls" the relations in the bodies
// of its rules. An item carries its relation's key in data, so the follow-up requests need
// nothing else.

type callItemData struct {
	Key string `json:"key"`
}

func handlePrepareCallHierarchy(ctx context.Context, r *request) (any, error) {
	var p protocol.CallHierarchyPrepareParams
	if err := r.decode(&p); err != nil {
		return nil, err
	}
	snap, err := r.doc(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	o := occurrenceAt(snap, snap.m.offset(p.Position))
	if o == nil || o.Kind != analysis.OccRelation {
		return nil, nil
	}
	return []protocol.CallHierarchyItem{callItem(snap, o.Key)}, nil
}

// callItem describes a relation: its first clause, or its first use when it has none.
func callItem(snap *Snapshot, key string) protocol.CallHierarchyItem {
	m := snap.Model()
	sym := m.Relations[key]
	var rng, sel protocol.Range
	if defs := m.Definitions(key); len(defs) > 0 {
		rng, sel = snap.m.span(defs[0].Form.Span()), snap.m.span(defs[0].Head.Name().Span())
	} else if sym != nil && len(sym.Occs) > 0 {
		o := m.Occurrences[sym.Occs[0]]
		rng, sel = snap.m.span(o.Span), snap.m.span(o.Span)
	}
	name, detail := key, ""
	if sym != nil {
		name = sym.Name(m)
		detail = fmt.Sprintf("/%d", mostCommonArity(sym))
	}
	return protocol.CallHierarchyItem{
		Name: name, Kind: relationKind(key), Detail: detail, URI: snap.URI,
		Range: rng, SelectionRange: sel, Data: callItemData{Key: key},
	}
}

func itemKey(item protocol.CallHierarchyItem) string {
	var d callItemData
	if b, err := json.Marshal(item.Data); err == nil && json.Unmarshal(b, &d) == nil && d.Key != "" {
		return d.Key
	}
	return item.Name
}

func handleIncomingCalls(ctx context.Context, r *request) (any, error) {
	var p protocol.CallHierarchyIncomingCallsParams
	if err := r.decode(&p); err != nil {
		return nil, err
	}
	snap, err := r.doc(p.Item.URI)
	if err != nil {
		return nil, err
	}
	return incomingCalls(snap, itemKey(p.Item)), nil
}

func handleOutgoingCalls(ctx context.Context, r *request) (any, error) {
	var p protocol.CallHierarchyOutgoingCallsParams
	if err := r.decode(&p); err != nil {
		return nil, err
	}
	snap, err := r.doc(p.Item.URI)
	if err != nil {
		return nil, err
	}
	return outgoingCalls(snap, itemKey(p.Item)), nil
}

// incomingCalls lists the relations whose rules use key, with the body atoms that do.
func incomingCalls(snap *Snapshot, key string) []protocol.CallHierarchyIncomingCall {
	m := snap.Model()
	from := map[string][]protocol.Range{}
	for _, e := range m.Edges {
		if e.To == key {
			from[e.From] = append(from[e.From], snap.m.span(e.Span))
		}
	}
	out := []protocol.CallHierarchyIncomingCall{}
	for _, k := range sortedMapKeys(from) {
		out = append(out, protocol.CallHierarchyIncomingCall{From: callItem(snap, k), FromRanges: from[k]})
	}
	return out
}

// outgoingCalls lists the relations key's rules use, with the body atoms that use them.
func outgoingCalls(snap *Snapshot, key string) []protocol.CallHierarchyOutgoingCall {
	m := snap.Model()
	to := map[string][]protocol.Range{}
	for _, ei := range m.Out[key] {
		e := m.Edges[ei]
		to[e.To] = append(to[e.To], snap.m.span(e.Span))
	}
	out := []protocol.CallHierarchyOutgoingCall{}
	for _, k := range sortedMapKeys(to) {
		out = append(out, protocol.CallHierarchyOutgoingCall{To: callItem(snap, k), FromRanges: to[k]})
	}
	return out
}

func sortedMapKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
