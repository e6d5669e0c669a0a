package lsp

import (
	"encoding/json"
	"math/rand"
	"reflect"
	"testing"

	segjson "github.com/segmentio/encoding/json"
	"go.lsp.dev/protocol"
)

// TestDiagnosticsNotification checks the hand-written encoding of publishDiagnostics against
// jsonrpc2's (segmentio's encoder) on random diagnostics: the same JSON values.
func TestDiagnosticsNotification(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	texts := []string{"", "plain", `quote " and \ back`, "tab\tnew\nline\r", "ctl \x01\x1f", "é ∀ 🎲",
		"bad \xff utf8", "line\u2028sep\u2029", "<html> & ok", "(cell ?x ?y b)"}
	text := func() string { return texts[rng.Intn(len(texts))] }
	rnge := func() protocol.Range {
		return protocol.Range{Start: protocol.Position{Line: rng.Uint32() % 1000, Character: rng.Uint32() % 80},
			End: protocol.Position{Line: rng.Uint32(), Character: rng.Uint32()}}
	}
	for round := 0; round < 300; round++ {
		p := protocol.PublishDiagnosticsParams{URI: protocol.DocumentURI("file:///a/" + text()), Version: uint32(rng.Intn(3))}
		for i := rng.Intn(6); i > 0; i-- {
			d := protocol.Diagnostic{Range: rnge(), Severity: protocol.DiagnosticSeverity(rng.Intn(5)), Message: text()}
			switch rng.Intn(3) {
			case 0:
				d.Code = text()
			case 1:
				d.Code = rng.Intn(100)
			}
			if rng.Intn(2) == 0 {
				d.Source = text()
			}
			if rng.Intn(3) == 0 {
				d.Tags = []protocol.DiagnosticTag{protocol.DiagnosticTagUnnecessary}
			}
			if rng.Intn(3) == 0 {
				d.CodeDescription = &protocol.CodeDescription{Href: protocol.URI("https://x/" + text())}
			}
			for k := rng.Intn(3); k > 0; k-- {
				d.RelatedInformation = append(d.RelatedInformation, protocol.DiagnosticRelatedInformation{
					Location: protocol.Location{URI: protocol.DocumentURI(text()), Range: rnge()}, Message: text()})
			}
			switch rng.Intn(4) {
			case 0:
				var fd fixData
				for k := rng.Intn(3); k > 0; k-- {
					fe := fixEdit{Title: text()}
					for e := rng.Intn(3); e > 0; e-- {
						fe.Edits = append(fe.Edits, protocol.TextEdit{Range: rnge(), NewText: text()})
					}
					fd.Fixes = append(fd.Fixes, fe)
				}
				for k := rng.Intn(3); k > 0; k-- {
					fd.Witness = append(fd.Witness, []string{text(), text()})
				}
				fd.HasWitness = rng.Intn(2) == 0
				d.Data = fd
			case 1:
				d.Data = map[string]any{"other": text()}
			}
			p.Diagnostics = append(p.Diagnostics, d)
		}
		if p.Diagnostics == nil {
			p.Diagnostics = []protocol.Diagnostic{}
		}
		got, err := diagnosticsNotification(p, nil)
		if err != nil {
			t.Fatal(err)
		}
		params, err := segjson.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		want := append(append([]byte(`{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":`), params...), '}')
		var g, w any
		if err := json.Unmarshal(got, &g); err != nil {
			t.Fatalf("round %d: the hand-written JSON does not parse: %v\n%s", round, err, got)
		}
		if err := json.Unmarshal(want, &w); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(g, w) {
			t.Fatalf("round %d: the hand-written JSON differs\n got %s\nwant %s", round, got, want)
		}
	}
}
