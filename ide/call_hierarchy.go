package ide

import (
	"fmt"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/syntax"
)

// Call hierarchy over the rule dependency graph: a relation "calls" the relations in the bodies
// of its rules. An item is named by its relation's key, so the follow-up questions need nothing
// else.

// CallItem describes a relation: its first clause, or its first use when it has none.
type CallItem struct {
	Key          string
	Name, Detail string
	Kind         SymbolKind
	Span         syntax.Span
	Selection    syntax.Span
}

// Call is a relation that calls or is called, with the body atoms of the call.
type Call struct {
	Item  CallItem
	Spans []syntax.Span
}

// PrepareCallHierarchy returns the item of the relation at off, if there is one.
func PrepareCallHierarchy(snap *Snapshot, off int) (CallItem, bool) {
	o := occurrenceAt(snap, off)
	if o == nil || o.Kind != analysis.OccRelation {
		return CallItem{}, false
	}
	return callItem(snap, o.Key), true
}

func callItem(snap *Snapshot, key string) CallItem {
	m := snap.Model()
	sym := m.Relations[key]
	it := CallItem{Key: key, Name: key, Kind: relationKind(key)}
	if defs := m.Definitions(key); len(defs) > 0 {
		it.Span, it.Selection = defs[0].Form.Span(), defs[0].Head.Name().Span()
	} else if sym != nil && len(sym.Occs) > 0 {
		o := m.Occ(sym.Occs[0])
		it.Span, it.Selection = o.Span, o.Span
	}
	if sym != nil {
		it.Name = sym.Name(m)
		it.Detail = fmt.Sprintf("/%d", mostCommonArity(sym))
	}
	return it
}

// IncomingCalls lists the relations whose rules use key, with the body atoms that do.
func IncomingCalls(snap *Snapshot, key string) []Call {
	m := snap.Model()
	from := map[string][]syntax.Span{}
	for _, e := range m.Edges {
		if e.To.Key == key {
			from[e.From.Key] = append(from[e.From.Key], e.Span)
		}
	}
	out := []Call{}
	for _, k := range sortedKeys(from) {
		out = append(out, Call{Item: callItem(snap, k), Spans: from[k]})
	}
	return out
}

// OutgoingCalls lists the relations key's rules use, with the body atoms that use them.
func OutgoingCalls(snap *Snapshot, key string) []Call {
	m := snap.Model()
	to := map[string][]syntax.Span{}
	for _, e := range m.Edges { // every arity of the relation
		if e.From.Key == key {
			to[e.To.Key] = append(to[e.To.Key], e.Span)
		}
	}
	out := []Call{}
	for _, k := range sortedKeys(to) {
		out = append(out, Call{Item: callItem(snap, k), Spans: to[k]})
	}
	return out
}
