package lsp

import (
	"encoding/json"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// The messages that carry a document's whole text, didOpen and didChange, are the only large
// ones: a 3 MB file is a 3 MB message, read on the read loop before any request behind it. Left
// to jsonrpc2, it is parsed four times before the handler sees its parameters: a validity check,
// then jsonrpc2.DecodeMessage (which parses the body twice, once to find its end and once to
// decode it), then decodeParams. A hover sent with the opening of a 3 MB file waited about 30 ms
// of CPU for that. decodeTextSyncMessage decodes such a message in one pass instead, the
// validity check included: the envelope here, the parameters by textScan (decodeTextSync's),
// which validates every byte it passes. It takes only the plain shape clients send (the members
// jsonrpc, method and params, once each, method before params, no id) and gives up on anything
// else, which then goes the library's way as before, so that every message it does not take
// (malformed JSON, an invalid request, a member spelt in another case, a duplicate) is answered
// exactly as it always was.

// textSyncMessage is a didOpen or didChange notification decoded by decodeTextSyncMessage.
type textSyncMessage struct {
	msg    *jsonrpc2.Notification // what the connection hands the dispatcher; its params are null
	params json.RawMessage        // the parameters' JSON, a part of the body
	value  any                    // *protocol.DidOpenTextDocumentParams or *didChangeParams
}

// decodeTextSyncMessage decodes body when it is a didOpen or didChange notification of the plain
// shape, and reports whether it could. When it could, the library would have decoded the same
// notification (its method and parameters) from body, and decodeParams the same parameters.
func decodeTextSyncMessage(body []byte) (textSyncMessage, bool) {
	d := &textScan{b: body}
	var out textSyncMessage
	var method string
	// The members of jsonrpc2's message envelope: id, result and error (or a member whose name
	// only matches one of them without regard to case, which the library would take for it)
	// make it give up.
	ok := d.object([]string{"jsonrpc", "method", "params", "id", "result", "error"}, func(key string) bool {
		d.space()
		switch key {
		case "jsonrpc":
			var version string
			return d.text(&version, false) && version == "2.0"
		case "method":
			if !d.text(&method, false) {
				return false
			}
			switch method {
			case "textDocument/didOpen":
				out.value = &protocol.DidOpenTextDocumentParams{}
			case "textDocument/didChange":
				out.value = &didChangeParams{}
			default:
				return false
			}
			return true
		case "params":
			if out.value == nil { // before the method, or a second time
				return false
			}
			start := d.i
			if !d.params(out.value) {
				return false
			}
			out.params = body[start:d.i]
			return true
		}
		return false // an id (a call, which these methods are not), a result or an error
	})
	d.space()
	if !ok || d.i != len(body) || out.params == nil {
		return textSyncMessage{}, false
	}
	msg, err := jsonrpc2.NewNotification(method, nil)
	if err != nil {
		return textSyncMessage{}, false
	}
	out.msg = msg
	return out, true
}

// assign copies the decoded parameters into v when v is of their type, and reports whether it
// did.
func (m *textSyncMessage) assign(v any) bool {
	switch src := m.value.(type) {
	case *protocol.DidOpenTextDocumentParams:
		if dst, ok := v.(*protocol.DidOpenTextDocumentParams); ok {
			*dst = *src
			return true
		}
	case *didChangeParams:
		if dst, ok := v.(*didChangeParams); ok {
			*dst = *src
			return true
		}
	}
	return false
}
