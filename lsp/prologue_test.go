package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"testing"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/syntax"
)

// The prologue decodes, finds the document, stops a cancelled request before its work and
// hands over the snapshot of the view the request arrived with.
func TestPrologue(t *testing.T) {
	s := NewServer(io.Discard)
	defer s.cancel()
	const uri = "file:///w/a.kif"
	snap := newSnapshot(uri, "gdl", 1, "(role robot)\n", syntax.UTF16)
	s.view.docs[uri] = snap
	var called bool
	hover := onDocument(func(ctx context.Context, r *request, got *Snapshot, p *protocol.HoverParams) (string, error) {
		called = true
		if got != snap || p.Position.Character != 3 {
			t.Errorf("handler got snapshot %p (want %p), position %v", got, snap, p.Position)
		}
		return "answer", nil
	})
	call := func(m method, ctx context.Context, method, params string) (any, error) {
		called = false
		return m.handle(ctx, &request{s: s, method: method, params: json.RawMessage(params), view: s.view})
	}
	code := func(err error) jsonrpc2.Code {
		var e *jsonrpc2.Error
		if errors.As(err, &e) {
			return e.Code
		}
		return 0
	}

	res, err := call(hover, context.Background(), "textDocument/hover", `{"textDocument":{"uri":"`+uri+`"},"position":{"line":0,"character":3}}`)
	if res != "answer" || err != nil || !called {
		t.Errorf("hover: %v, %v (called %v); want the handler's answer", res, err, called)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := call(hover, ctx, "textDocument/hover", `{"textDocument":{"uri":"`+uri+`"},"position":{"line":0,"character":3}}`); !errors.Is(err, context.Canceled) || called {
		t.Errorf("cancelled hover: %v (called %v); want context.Canceled before the handler", err, called)
	}
	if _, err := call(hover, context.Background(), "textDocument/hover", `{"textDocument":{"uri":"file:///w/b.kif"},"position":{"line":0,"character":3}}`); code(err) != jsonrpc2.InvalidParams || called {
		t.Errorf("hover of a document not open: %v (called %v); want InvalidParams", err, called)
	}
	if _, err := call(hover, context.Background(), "textDocument/hover", `{"textDocument":7}`); code(err) != jsonrpc2.InvalidParams || called {
		t.Errorf("hover with bad params: %v (called %v); want InvalidParams", err, called)
	}

	incoming := onCallItem(func(ctx context.Context, r *request, got *Snapshot, p *protocol.CallHierarchyIncomingCallsParams) (string, error) {
		called = true
		return p.Item.Name, nil
	})
	if res, err := call(incoming, context.Background(), "callHierarchy/incomingCalls", `{"item":{"uri":"`+uri+`","name":"cell"}}`); res != "cell" || err != nil {
		t.Errorf("incoming calls: %v, %v; want the item's document", res, err)
	}

	resolve := onDocumentOf(lensURI, func(ctx context.Context, r *request, got *Snapshot, l *protocol.CodeLens) (string, error) {
		called = true
		return "resolved", nil
	})
	if _, err := call(resolve, context.Background(), "codeLens/resolve", `{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"data":{"uri":"`+uri+`"}}`); code(err) != jsonrpc2.InvalidParams || called {
		t.Errorf("resolve of a foreign lens: %v (called %v); want InvalidParams", err, called)
	}
	if res, err := call(resolve, context.Background(), "codeLens/resolve", `{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"data":{"uri":"`+uri+`","query":"(role ?r)"}}`); res != "resolved" || err != nil {
		t.Errorf("resolve: %v, %v", res, err)
	}
}

// Client options are read from the capabilities once; without them, hovers and signatures are
// Markdown and nothing else is assumed.
func TestClientOptions(t *testing.T) {
	var none clientCapabilities
	if o := optionsFor(none); o != (clientOptions{hoverMarkdown: true, signatureMarkdown: true}) {
		t.Errorf("no capabilities: %+v", o)
	}
	var c clientCapabilities
	if err := json.Unmarshal([]byte(`{"textDocument":{"hover":{"contentFormat":["plaintext","markdown"]},
		"completion":{"completionItem":{"snippetSupport":true}},"documentSymbol":{"hierarchicalDocumentSymbolSupport":true},
		"signatureHelp":{"signatureInformation":{"documentationFormat":["plaintext"]}}},
		"window":{"workDoneProgress":true},"workspace":{"configuration":true,"didChangeWatchedFiles":{"dynamicRegistration":true},
		"codeLens":{"refreshSupport":true},"inlayHint":{"refreshSupport":true}}}`), &c); err != nil {
		t.Fatal(err)
	}
	want := clientOptions{snippets: true, hierarchicalSymbols: true, workDoneProgress: true, pullConfiguration: true,
		watchFiles: true, codeLensRefresh: true, inlayHintRefresh: true}
	if o := optionsFor(c); o != want {
		t.Errorf("got %+v, want %+v", o, want)
	}
}
