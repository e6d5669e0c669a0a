package lsp

import (
	"bytes"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	segjson "github.com/segmentio/encoding/json"
	"go.lsp.dev/jsonrpc2"
)

// sameAsLibrary checks that when decodeTextSyncMessage takes body, the way it would otherwise
// go (the validity check, jsonrpc2.DecodeMessage, then decodeParams, whose own differential
// test is against encoding/json) gives the same notification: the same method, the same
// parameters' bytes and the same decoded parameters. It returns whether it took the body.
func sameAsLibrary(t *testing.T, body []byte) bool {
	t.Helper()
	m, ok := decodeTextSyncMessage(body)
	if !ok {
		return false
	}
	if !segjson.Valid(body) {
		t.Fatalf("%.300q: decoded, but the library's check finds it not JSON", body)
	}
	msg, err := jsonrpc2.DecodeMessage(body)
	if err != nil {
		t.Fatalf("%.300q: decoded, but jsonrpc2 refuses it: %v", body, err)
	}
	n, isNote := msg.(*jsonrpc2.Notification)
	if !isNote || n.Method() != m.msg.Method() || !bytes.Equal(n.Params(), m.params) {
		t.Fatalf("%.300q: jsonrpc2 decodes %T %+v, we %q with params %.100q", body, msg, msg, m.msg.Method(), m.params)
	}
	want := reflect.New(reflect.TypeOf(m.value).Elem()).Interface()
	if err := decodeParams(n.Params(), want); err != nil {
		t.Fatalf("%.300q: decoded, but its params do not decode: %v", body, err)
	}
	if !reflect.DeepEqual(want, m.value) {
		t.Fatalf("%.300q:\nlibrary %.300v\nours    %.300v", body, want, m.value)
	}
	return true
}

// envelope writes a message of members in order; each is "name": value, written as given.
func envelope(rng *rand.Rand, members ...string) []byte {
	ws := []string{"", "", " ", "\n", "\r\n\t"}
	var b strings.Builder
	b.WriteString(ws[rng.Intn(len(ws))] + "{")
	for i, m := range members {
		if i > 0 {
			b.WriteString(ws[rng.Intn(len(ws))] + ",")
		}
		b.WriteString(ws[rng.Intn(len(ws))] + m + ws[rng.Intn(len(ws))])
	}
	b.WriteString("}" + ws[rng.Intn(len(ws))])
	return []byte(b.String())
}

// randomMessage is a didOpen or didChange message, of the plain shape or not: members in any
// order, unknown ones, names in another case, duplicates, an id, a result or an error, another
// version, escapes in the method, other methods, parameters of the wrong kind.
func randomMessage(rng *rand.Rand) []byte {
	text := quoteJSON(rng, randomText(rng, rng.Intn(100)))
	params := [][]byte{didOpenJSON(text), didChangeJSON(text), []byte(`null`), []byte(`[]`), []byte(`{"textDocument":{"text":1}}`)}
	methods := []string{`"textDocument/didOpen"`, `"textDocument/didChange"`, `"textDocument\/didOpen"`, `"textDocument/did\u004fpen"`,
		`"textDocument/didSave"`, `"textdocument/didOpen"`, `""`, `null`, `1`}
	p := params[rng.Intn(2)]
	if rng.Intn(4) == 0 {
		p = params[rng.Intn(len(params))]
	}
	method := methods[rng.Intn(2)]
	if rng.Intn(4) == 0 {
		method = methods[rng.Intn(len(methods))]
	}
	if bytes.Contains(p, []byte("contentChanges")) != strings.Contains(method, "Change") && rng.Intn(2) == 0 {
		method = methods[1-rng.Intn(2)]
	}
	members := []string{`"jsonrpc":"2.0"`, `"method":` + method, `"params":` + string(p)}
	extra := []string{`"jsonrpc":"1.0"`, `"jsonrpc":2`, `"id":1`, `"id":"a"`, `"id":null`, `"result":null`, `"error":{"code":1,"message":"m"}`,
		`"error":5`, `"Method":"textDocument/didSave"`, `"PARAMS":{}`, `"other":[1,{"a":null}]`, `"other":"\u00e9"`, `"méthod":1`,
		`"method":"textDocument/didClose"`, `"params":{}`, `"jsonrpc":"2.0"`}
	for k := rng.Intn(3); k > 0; k-- {
		members = append(members, extra[rng.Intn(len(extra))])
	}
	if rng.Intn(3) == 0 {
		rng.Shuffle(len(members), func(i, j int) { members[i], members[j] = members[j], members[i] })
	}
	if rng.Intn(5) == 0 {
		members = members[1:] // no jsonrpc, or no method
	}
	body := envelope(rng, members...)
	switch rng.Intn(8) {
	case 0: // cut short
		body = body[:rng.Intn(len(body)+1)]
	case 1: // one byte changed
		if len(body) > 0 {
			const set = "{}[]\":,\\ x0\x00\xff"
			body[rng.Intn(len(body))] = set[rng.Intn(len(set))]
		}
	case 2: // something after it
		body = append(body, []string{"x", "{}", " 1", ","}[rng.Intn(4)]...)
	}
	return body
}

// TestDecodeTextSyncMessage: on random and malformed didOpen and didChange messages, what
// decodeTextSyncMessage takes, the library's path decodes to the same notification and
// parameters; it takes the plain messages clients send, and leaves the rest to the library.
func TestDecodeTextSyncMessage(t *testing.T) {
	rng := rand.New(rand.NewSource(21))
	took := 0
	const n = 20000
	for i := 0; i < n; i++ {
		if sameAsLibrary(t, randomMessage(rng)) {
			took++
		}
	}
	t.Logf("decoded %d of %d random messages itself", took, n)
	if took < n/10 || took > n*9/10 {
		t.Errorf("decoded %d of %d random messages itself, want a share between a tenth and nine tenths", took, n)
	}
	text := quoteJSON(rng, randomText(rng, 300))
	plain := []string{
		`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":` + string(didOpenJSON(text)) + `}`,
		`{"jsonrpc":"2.0","method":"textDocument/didChange","params":` + string(didChangeJSON(text)) + "}\r\n",
		` { "method" : "textDocument/didOpen" , "jsonrpc" : "2.0" , "params" : ` + string(didOpenJSON(text)) + ` } `,
		`{"method":"textDocument/didOpen","params":` + string(didOpenJSON(text)) + `,"extra":{"a":[1,2]}}`,
	}
	for _, b := range plain {
		if !sameAsLibrary(t, []byte(b)) {
			t.Errorf("%.120q: left to the library", b)
		}
	}
	left := []string{
		`{"jsonrpc":"2.0","params":` + string(didOpenJSON(text)) + `,"method":"textDocument/didOpen"}`, // params first
		`{"jsonrpc":"2.0","id":1,"method":"textDocument/didOpen","params":` + string(didOpenJSON(text)) + `}`,
		`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":` + string(didOpenJSON(text)) + `,"method":"textDocument/didSave"}`,
		`{"jsonrpc":"2.0","method":"textDocument/didOpen","Params":` + string(didOpenJSON(text)) + `}`,
		`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":` + string(didOpenJSON(text)) + `,"error":1}`,
		`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":` + string(didOpenJSON(text)) + `,"result":1}`,
		`{"jsonrpc":"2.1","method":"textDocument/didOpen","params":` + string(didOpenJSON(text)) + `}`,
		`{"jsonrpc":"2.0","method":"textDocument/didOpen"}`,
		`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":` + string(didOpenJSON(text)) + `}}`,
		`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":` + string(didOpenJSON(`"a\x"`)) + `}`,
		`[{"jsonrpc":"2.0","method":"textDocument/didOpen","params":` + string(didOpenJSON(text)) + `}]`,
	}
	for _, b := range left {
		if sameAsLibrary(t, []byte(b)) {
			t.Errorf("%.120q: decoded, want it left to the library", b)
		}
	}
}

// FuzzDecodeTextSyncMessage: on any bytes, whole or as the text of a didOpen, what
// decodeTextSyncMessage takes decodes as the library's path decodes it.
func FuzzDecodeTextSyncMessage(f *testing.F) {
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 8; i++ {
		f.Add(randomMessage(rng))
	}
	f.Add([]byte(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"text":"a"}}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		sameAsLibrary(t, b)
		sameAsLibrary(t, []byte(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":`+string(didOpenJSON(string(b)))+`}`))
	})
}
