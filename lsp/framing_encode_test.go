package lsp

import (
	"testing"

	segjson "github.com/segmentio/encoding/json"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// TestEncodeMessageAsJSONRPC2: the writer's own encoding of notifications and responses gives
// the very bytes jsonrpc2's stream writes for them (HTML characters, as in `<=`, escaped alike),
// and leaves the messages it does not encode to jsonrpc2.
func TestEncodeMessageAsJSONRPC2(t *testing.T) {
	diags := protocol.PublishDiagnosticsParams{URI: "file:///a%20b/g.kif", Version: 3, Diagnostics: []protocol.Diagnostic{{
		Range:    protocol.Range{Start: protocol.Position{Line: 1, Character: 2}, End: protocol.Position{Line: 1, Character: 4}},
		Severity: protocol.DiagnosticSeverityWarning, Code: "unsafe-variable", Source: "gdl",
		Message: "in (<= (p ?x) (not (q ?x))) & \"quoted\" é \u2028",
		Data:    fixData{Fixes: []fixEdit{{Title: "rename ?who to ?player", Edits: []protocol.TextEdit{{NewText: "?player"}}}}},
	}}}
	var msgs []jsonrpc2.Message
	for _, params := range []any{diags, nil, map[string]any{}, []int{1, 2}} {
		n, err := jsonrpc2.NewNotification("textDocument/publishDiagnostics", params)
		if err != nil {
			t.Fatal(err)
		}
		msgs = append(msgs, n)
	}
	for _, id := range []jsonrpc2.ID{jsonrpc2.NewNumberID(7), jsonrpc2.NewStringID("a\"<b>")} {
		for _, result := range []any{diags, nil, []protocol.Location{}, "text <>&"} {
			r, err := jsonrpc2.NewResponse(id, result, nil)
			if err != nil {
				t.Fatal(err)
			}
			msgs = append(msgs, r)
		}
	}
	encoded := 0
	for _, m := range msgs {
		want, err := segjson.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := encodeMessage(m)
		if !ok {
			continue
		}
		encoded++
		if string(got) != string(want) {
			t.Errorf("encodeMessage:\n got %s\nwant %s", got, want)
		}
	}
	if encoded < 6 {
		t.Errorf("encodeMessage encoded only %d of the %d messages", encoded, len(msgs))
	}
	errResp, _ := jsonrpc2.NewResponse(jsonrpc2.NewNumberID(1), nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "boom"))
	call, _ := jsonrpc2.NewCall(jsonrpc2.NewNumberID(2), "workspace/configuration", nil)
	for _, m := range []jsonrpc2.Message{errResp, call} {
		if _, ok := encodeMessage(m); ok {
			t.Errorf("encodeMessage took %T, which it leaves to jsonrpc2", m)
		}
	}
}
