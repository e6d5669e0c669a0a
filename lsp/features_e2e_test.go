package lsp

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/syntax"
)

// positionOf returns the UTF-16 position of the second character of the nth occurrence of
// needle in text (inside the token, not on its edge).
func positionOf(t *testing.T, text, needle string, nth int) protocol.Position {
	t.Helper()
	off := -1
	for i, from := 0, 0; i < nth; i++ {
		j := strings.Index(text[from:], needle)
		if j < 0 {
			t.Fatalf("occurrence %d of %q not found", nth, needle)
		}
		off = from + j
		from = off + len(needle)
	}
	p := syntax.NewLineIndex(text).Position(off+1, syntax.UTF16)
	return pos(uint32(p.Line), uint32(p.Column))
}

// TestFeaturesOverStdio asks every feature once over real stdio, on a game of our testdata.
func TestFeaturesOverStdio(t *testing.T) {
	data, err := os.ReadFile("../testdata/games/tictactoe.kif")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	c := startServer(t)
	caps := c.initialize().Capabilities
	for name, ok := range map[string]bool{
		"hover": caps.HoverProvider, "definition": caps.DefinitionProvider, "references": caps.ReferencesProvider,
		"highlight": caps.DocumentHighlightProvider, "symbols": caps.DocumentSymbolProvider,
		"workspaceSymbols": caps.WorkspaceSymbolProvider, "folding": caps.FoldingRangeProvider,
		"selection": caps.SelectionRangeProvider, "callHierarchy": caps.CallHierarchyProvider,
		"rename":     caps.RenameProvider != nil && caps.RenameProvider.PrepareProvider,
		"completion": caps.CompletionProvider != nil, "codeAction": caps.CodeActionProvider != nil,
		"semanticTokens": caps.SemanticTokensProvider != nil && caps.SemanticTokensProvider.Full,
	} {
		if !ok {
			t.Errorf("capability %s not advertised", name)
		}
	}
	const uri = "file:///w/tictactoe.kif"
	c.open(uri, text)
	c.diagnosticsFor(uri, 1)
	at := func(needle string, nth int) protocol.TextDocumentPositionParams {
		return tdpp(uri, positionOf(t, text, needle, nth))
	}

	var h protocol.Hover
	c.mustCall("textDocument/hover", at("(legal ?player (mark", 1), &h)
	// The needle starts at '(', so ask one character further: on "legal".
	p := at("legal ?player (mark", 1)
	c.mustCall("textDocument/hover", p, &h)
	if !strings.Contains(h.Contents.Value, "legal/2") || !strings.Contains(h.Contents.Value, "rule") {
		t.Errorf("hover on legal: %q", h.Contents.Value)
	}

	var defs []protocol.Location
	c.mustCall("textDocument/definition", at("opponent ?player ?other", 1), &defs)
	if len(defs) != 2 {
		t.Errorf("definition of opponent: %d locations, want its 2 facts", len(defs))
	}

	var refs []protocol.Location
	c.mustCall("textDocument/references", protocol.ReferenceParams{
		TextDocumentPositionParams: at("cell 1 1 b", 1), Context: protocol.ReferenceContext{IncludeDeclaration: true},
	}, &refs)
	if n := strings.Count(strings.ToLower(text), "(cell "); len(refs) != n {
		t.Errorf("references of cell: %d, want %d", len(refs), n)
	}

	var hl []protocol.DocumentHighlight
	c.mustCall("textDocument/documentHighlight", at("?player (mark", 1), &hl)
	if len(hl) < 2 {
		t.Errorf("highlight of ?player: %v", hl)
	}

	var prep struct {
		Range       protocol.Range `json:"range"`
		Placeholder string         `json:"placeholder"`
	}
	c.mustCall("textDocument/prepareRename", at("symbol xplayer x", 1), &prep)
	if prep.Placeholder != "symbol" {
		t.Errorf("prepareRename: %+v", prep)
	}
	if err := c.call("textDocument/prepareRename", at("legal ?player noop", 1), &prep); err == nil {
		t.Error("prepareRename on the keyword legal succeeded")
	}
	var we protocol.WorkspaceEdit
	c.mustCall("textDocument/rename", protocol.RenameParams{TextDocumentPositionParams: at("symbol xplayer x", 1), NewName: "mark_of"}, &we)
	if n := strings.Count(text, "(symbol "); len(we.Changes[uri]) != n {
		t.Errorf("rename symbol: %d edits, want %d", len(we.Changes[uri]), n)
	}

	var syms []protocol.DocumentSymbol
	c.mustCall("textDocument/documentSymbol", protocol.DocumentSymbolParams{TextDocument: docID(uri)}, &syms)
	names := map[string]bool{}
	for _, s := range syms {
		names[s.Name] = true
	}
	for _, want := range []string{"role", "init", "legal", "next", "goal", "terminal"} {
		if !names[want] {
			t.Errorf("document symbols lack %s: %v", want, names)
		}
	}

	var wsyms []protocol.SymbolInformation
	c.mustCall("workspace/symbol", protocol.WorkspaceSymbolParams{Query: "OPPO"}, &wsyms)
	if len(wsyms) != 1 || !strings.HasPrefix(wsyms[0].Name, "opponent") {
		t.Errorf("workspace symbols for OPPO: %+v", wsyms)
	}

	var folds []protocol.FoldingRange
	c.mustCall("textDocument/foldingRange", protocol.FoldingRangeParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: docID(uri)}}, &folds)
	if len(folds) == 0 {
		t.Error("no folding ranges")
	}

	var sel []protocol.SelectionRange
	c.mustCall("textDocument/selectionRange", protocol.SelectionRangeParams{TextDocument: docID(uri), Positions: []protocol.Position{at("?m ?n b)))", 1).Position}}, &sel)
	if len(sel) != 1 || sel[0].Parent == nil || sel[0].Parent.Parent == nil {
		t.Errorf("selection range: %+v", sel)
	}

	var toks protocol.SemanticTokens
	c.mustCall("textDocument/semanticTokens/full", protocol.SemanticTokensParams{TextDocument: docID(uri)}, &toks)
	if len(toks.Data) == 0 || len(toks.Data)%5 != 0 {
		t.Errorf("semantic tokens: %d numbers", len(toks.Data))
	}

	var comp protocol.CompletionList
	c.mustCall("textDocument/completion", protocol.CompletionParams{TextDocumentPositionParams: at("(true (control ?player))", 1)}, &comp)
	if len(comp.Items) == 0 {
		t.Error("no completions in a rule body")
	}

	var items []protocol.CallHierarchyItem
	c.mustCall("textDocument/prepareCallHierarchy", at("legal ?player (mark", 1), &items)
	if len(items) != 1 {
		t.Fatalf("prepareCallHierarchy: %+v", items)
	}
	var out []protocol.CallHierarchyOutgoingCall
	c.mustCall("callHierarchy/outgoingCalls", protocol.CallHierarchyOutgoingCallsParams{Item: items[0]}, &out)
	if len(out) == 0 {
		t.Error("legal calls nothing")
	}
	var in []protocol.CallHierarchyIncomingCall
	c.mustCall("textDocument/prepareCallHierarchy", at("opponent ?player ?other", 1), &items)
	c.mustCall("callHierarchy/incomingCalls", protocol.CallHierarchyIncomingCallsParams{Item: items[0]}, &in)
	if len(in) == 0 {
		t.Error("nothing calls opponent")
	}

	if err := c.shutdown(); err != nil {
		t.Errorf("exit: %v", err)
	}
}

// TestQuickFixOverStdio: a fix attached to a diagnostic comes back as a quick fix whose edit
// repairs the text.
func TestQuickFixOverStdio(t *testing.T) {
	c := startServer(t)
	c.initialize()
	const uri = "file:///w/fix.kif"
	const text = "(role robot))\n(init (p 1))\n"
	c.open(uri, text)
	var fixable *protocol.Diagnostic
	diags := c.diagnosticsFor(uri, 1)
	for i, d := range diags {
		if d.Data != nil {
			fixable = &diags[i]
			break
		}
	}
	if fixable == nil {
		t.Fatalf("no diagnostic with fix data in %+v", diags)
	}
	var actions []protocol.CodeAction
	c.mustCall("textDocument/codeAction", protocol.CodeActionParams{
		TextDocument: docID(uri), Range: fixable.Range,
		Context: protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{*fixable}},
	}, &actions)
	if len(actions) == 0 || actions[0].Edit == nil {
		t.Fatalf("no quick fix: %+v", actions)
	}
	edits := actions[0].Edit.Changes[uri]
	fixed := applyEdits(t, text, edits)
	f, errs := syntax.Parse(fixed)
	if len(errs) != 0 {
		t.Errorf("after %q: %q still has %v", actions[0].Title, fixed, errs)
	}
	_ = f
	raw, _ := json.Marshal(fixable.Data)
	if !strings.Contains(string(raw), "fixes") {
		t.Errorf("data %s", raw)
	}
}

func applyEdits(t *testing.T, text string, edits []protocol.TextEdit) string {
	li := syntax.NewLineIndex(text)
	// Apply from the end so earlier offsets stay valid.
	type span struct {
		a, b int
		s    string
	}
	var ss []span
	for _, e := range edits {
		a := li.Offset(syntax.Position{Line: int(e.Range.Start.Line), Column: int(e.Range.Start.Character)}, syntax.UTF16)
		b := li.Offset(syntax.Position{Line: int(e.Range.End.Line), Column: int(e.Range.End.Character)}, syntax.UTF16)
		ss = append(ss, span{a, b, e.NewText})
	}
	for i := len(ss) - 1; i >= 0; i-- {
		text = text[:ss[i].a] + ss[i].s + text[ss[i].b:]
	}
	return text
}
