package lsp

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	segjson "github.com/segmentio/encoding/json"
	"go.lsp.dev/jsonrpc2"

	"github.com/gdl-lsp/gdl/internal/cputime"
)

// sameAsEncodingJSON checks that decodeParams decodes params into a *P exactly as encoding/json
// does, and fails together with it. It returns whether decodeTextSync decoded them itself.
func sameAsEncodingJSON[P any](t *testing.T, params []byte) bool {
	t.Helper()
	var want, got, fast P
	wantErr := json.Unmarshal(params, &want)
	gotErr := decodeParams(params, &got)
	if (wantErr == nil) != (gotErr == nil) {
		t.Fatalf("%.300q: encoding/json's error %v, ours %v", params, wantErr, gotErr)
	}
	if wantErr == nil && !reflect.DeepEqual(want, got) {
		t.Fatalf("%.300q:\nencoding/json %.300v\nours          %.300v", params, want, got)
	}
	took := decodeTextSync(params, &fast)
	if took && wantErr != nil {
		t.Fatalf("%.300q: decoded by the fast path, refused by encoding/json (%v)", params, wantErr)
	}
	return took
}

// quoteJSON writes s as a JSON string: with every escape (\uXXXX for any rune, surrogate pairs
// for those beyond the BMP) chosen at random where JSON allows more than one spelling.
func quoteJSON(rng *rand.Rand, s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		short := map[rune]string{'"': `\"`, '\\': `\\`, '\n': `\n`, '\r': `\r`, '\t': `\t`, '\b': `\b`, '\f': `\f`, '/': `\/`}[r]
		switch {
		case short != "" && (r < 0x20 || r == '"' || r == '\\' || rng.Intn(2) == 0):
			b.WriteString(short)
		case r < 0x20 || rng.Intn(8) == 0:
			if r > 0xFFFF {
				r1, r2 := utf16Pair(r)
				fmt.Fprintf(&b, `\u%04x\u%04X`, r1, r2)
			} else {
				fmt.Fprintf(&b, `\u%04x`, r)
			}
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func utf16Pair(r rune) (rune, rune) {
	r -= 0x10000
	return 0xD800 + r>>10, 0xDC00 + r&0x3FF
}

// randomText is text of the kinds a document holds, and JSON's odd corners: control characters,
// quotes, backslashes, runes of 2, 3 and 4 bytes, U+FFFD itself.
func randomText(rng *rand.Rand, n int) string {
	pieces := []string{"(<= (legal ?r)", "\n", "\t", " ", `"`, `\`, "/", "\x00", "\x1f", "\x7f", "é", "€", "😀", "\uFFFD", "\u2028", "abcdefgh", "; comment\r\n"}
	var b strings.Builder
	for b.Len() < n {
		b.WriteString(pieces[rng.Intn(len(pieces))])
	}
	return b.String()
}

func didOpenJSON(text string) []byte {
	return []byte(`{"textDocument":{"uri":"file:///w/a.kif","languageId":"gdl","version":3,"text":` + text + `}}`)
}

func didChangeJSON(text string) []byte {
	return []byte(`{"textDocument":{"uri":"file:///w/a.kif","version":4},"contentChanges":[{"range":{"start":{"line":1,"character":2},"end":{"line":1,"character":3}},"text":` +
		text + `},{"text":` + text + `}]}`)
}

// TestDecodeTextSync: the parameters of didOpen and didChange decode as encoding/json decodes
// them, on texts with every kind of escape (a property test of random texts, each spelt with
// escapes chosen at random), on hand-picked odd strings (lone and reversed surrogates, invalid
// UTF-8, bad escapes, control characters) and on malformed or unusual parameters, which the
// fast path leaves to encoding/json.
func TestDecodeTextSync(t *testing.T) {
	rng := rand.New(rand.NewSource(21))
	for i := 0; i < 2000; i++ {
		text := quoteJSON(rng, randomText(rng, rng.Intn(200)))
		if !sameAsEncodingJSON[protocol.DidOpenTextDocumentParams](t, didOpenJSON(text)) {
			t.Fatalf("didOpen with %q was not decoded by the fast path", text)
		}
		if !sameAsEncodingJSON[didChangeParams](t, didChangeJSON(text)) {
			t.Fatalf("didChange with %q was not decoded by the fast path", text)
		}
	}
	odd := []string{`""`, `"\ud83d\ude00"`, `"\ud83d"`, `"\ude00"`, `"\ude00\ud83d"`, `"\ud83dx"`, `"\ud83d\u0041"`,
		`"\ud83d\ud83d\ude00"`, `"\uDBFF\uDFFF"`, `"\u00e9\u20AC"`, "\"\xff\xfe\"", "\"\xed\xa0\x80\"", "\"\xc3\"", "\"a\xe2\x82\"",
		`"\x"`, `"\u12"`, `"\u12g4"`, `"\`, `"abc`, "\"\x01\"", "\"\n\"", `"\'"`, `"\U0041"`, `null`, `12`, `"a" `, `{"a":1}`}
	for _, s := range odd {
		sameAsEncodingJSON[protocol.DidOpenTextDocumentParams](t, didOpenJSON(s))
		sameAsEncodingJSON[didChangeParams](t, didChangeJSON(s))
	}
	params := []string{`{}`, ` { } `, `[]`, `null`, `{"textDocument":null}`, `{"textDocument":{}}`, `{"textDocument":{"text":"a","text":"b"}}`,
		`{"textDocument":{"Text":"a"}}`, `{"textDocument":{"TEXT":"a","text":"b"}}`, `{"textDocument":{"verſion":1}}`, `{"textDocument":{"version":1.5}}`,
		`{"textDocument":{"version":"1"}}`, `{"textDocument":{"uri":"x","other":[1,{"a":[]}],"text":"t"},"extra":true}`, `{"textDocument":{"text":"t"}} x`,
		`{"textDocument":{"text":"t"},}`, `{"textDocument":{"text":"t"}`, `{"textDocument" {"text":"t"}}`, `{"textDocument":{"text":"t"}}}`,
		`{"contentChanges":[]}`, `{"contentChanges":null}`, `{"contentChanges":[null]}`, `{"contentChanges":[{"range":null,"text":"x"}]}`,
		`{"contentChanges":[{"text":"x"},]}`, `{"contentChanges":[{"text":"x"}`, `{"contentChanges":[{"rangeLength":3,"text":"x"}]}`,
		`{"contentChanges":[{"range":{"start":{"line":-1}},"text":"x"}]}`, `{"textDocument":{"uri":"a","version":2},"contentChanges":[{"text":"x"}],"contentChanges":[]}`,
		`{"\u0074extDocument":{"text":"a"}}`, `{"textDocument":{"uri":"a\"b","text":"\u0000"}}`, "{\"textDocument\":{\"other\":\"\xff\",\"text\":\"a\"}}",
		`{"textDocument":{"version":01}}`, `{"textDocument":{"version":1 2}}`, `{"textDocument":{"other":tru}}`, `{"textDocument":{"other":[}}`}
	for _, p := range params {
		sameAsEncodingJSON[protocol.DidOpenTextDocumentParams](t, []byte(p))
		sameAsEncodingJSON[didChangeParams](t, []byte(p))
	}
}

// FuzzDecodeTextSync: on any bytes, as the text's JSON string or as the whole parameters, the
// decoding is encoding/json's, and the fast path never takes what encoding/json refuses.
func FuzzDecodeTextSync(f *testing.F) {
	for _, s := range []string{`"a\nb"`, `"\ud83d\ude00"`, `"\ud83d"`, "\"\xff\"", `"\u00"`, `{"textDocument":{"text":"x"}}`, `{"contentChanges":[{"text":"\t"}]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		sameAsEncodingJSON[protocol.DidOpenTextDocumentParams](t, didOpenJSON(string(b)))
		sameAsEncodingJSON[didChangeParams](t, didChangeJSON(string(b)))
		sameAsEncodingJSON[protocol.DidOpenTextDocumentParams](t, b)
		sameAsEncodingJSON[didChangeParams](t, b)
	})
}

// BenchmarkDecodeDidOpen: the parameters of a didOpen of the 3 MB hostile file of
// BenchmarkHoverDuringAnalysis, decoded by decodeTextSync and by encoding/json side by side, in
// CPU time per byte.
//
// Run: go test ./lsp -run '^$' -bench DecodeDidOpen -benchtime 20x
func BenchmarkDecodeDidOpen(b *testing.B) {
	text := hostileRules(60000)
	params, err := json.Marshal(protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: "file:///bench/hostile.kif", LanguageID: "gdl", Version: 1, Text: text}})
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		decode func(*protocol.DidOpenTextDocumentParams) error
	}{
		{"fast", func(p *protocol.DidOpenTextDocumentParams) error { return decodeParams(params, p) }},
		{"encoding-json", func(p *protocol.DidOpenTextDocumentParams) error { return json.Unmarshal(params, p) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(params)))
			var cpu time.Duration
			for b.Loop() {
				var p protocol.DidOpenTextDocumentParams
				c0, _ := cputime.Process()
				err := c.decode(&p)
				c1, _ := cputime.Process()
				cpu += c1 - c0
				if err != nil || p.TextDocument.Text != text {
					b.Fatalf("decoded wrong: %v", err)
				}
			}
			b.ReportMetric(float64(cpu)/float64(b.N)/1e6, "cpu-ms/op")
			b.ReportMetric(float64(cpu)/float64(b.N)/float64(len(params)), "cpu-ns/byte")
		})
	}
}

// BenchmarkReadDidOpen: what the server does to the message of that didOpen until its
// parameters are decoded, in CPU time: in one pass (decodeTextSyncMessage: the envelope, the
// check that it is JSON and the parameters), against the library's way, which messages of any
// other shape still go: the check that it is JSON (segmentio's Valid), jsonrpc2's
// DecodeMessage, which copies the parameters out as a json.RawMessage, and each of those steps
// alone, then decodeParams.
//
// Run: go test ./lsp -run '^$' -bench ReadDidOpen -benchtime 20x
func BenchmarkReadDidOpen(b *testing.B) {
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didOpen",
		"params": protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
			URI: "file:///bench/hostile.kif", LanguageID: "gdl", Version: 1, Text: hostileRules(60000)}}})
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		step func() error
	}{
		{"valid", func() error {
			if !segjson.Valid(body) {
				return fmt.Errorf("not valid")
			}
			return nil
		}},
		{"decode-message", func() error { _, err := jsonrpc2.DecodeMessage(body); return err }},
		{"library-way", func() error {
			if !segjson.Valid(body) {
				return fmt.Errorf("not valid")
			}
			msg, err := jsonrpc2.DecodeMessage(body)
			if err != nil {
				return err
			}
			var p protocol.DidOpenTextDocumentParams
			return decodeParams(msg.(*jsonrpc2.Notification).Params(), &p)
		}},
		{"one-pass", func() error {
			if _, ok := decodeTextSyncMessage(body); !ok {
				return fmt.Errorf("not decoded in one pass")
			}
			return nil
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			var cpu time.Duration
			for b.Loop() {
				c0, _ := cputime.Process()
				err := c.step()
				c1, _ := cputime.Process()
				cpu += c1 - c0
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(cpu)/float64(b.N)/1e6, "cpu-ms/op")
			b.ReportMetric(float64(cpu)/float64(b.N)/float64(len(body)), "cpu-ns/byte")
		})
	}
}
