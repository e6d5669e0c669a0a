package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/syntax"
)

// TestInfixOverStdio asks the features of the editor on infix GDL documents over real stdio:
// a .hrf file of our testdata, documents told apart by their languageId, and .hrf files of the
// workspace on disk. Everything the server writes into a document or shows is in infix.
func TestInfixOverStdio(t *testing.T) {
	data, err := os.ReadFile("../testdata/games/noughts.hrf")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "lib", "extra.hrf"), "% on disk only\nfar_away(X) :- index(X)\nindex(1)\n")
	c := startServer(t)
	res := c.initializeParams(map[string]any{
		"processId": os.Getpid(), "rootUri": fileURI(dir),
		"workspaceFolders": []map[string]any{{"uri": fileURI(dir), "name": "w"}},
		"capabilities": map[string]any{
			"textDocument": map[string]any{"completion": map[string]any{"completionItem": map[string]any{"snippetSupport": true}}},
		},
	})
	uri := fileURI(filepath.Join(dir, "noughts.hrf"))
	c.openAs(uri, "gdl-infix", text)
	if ds := c.diagnosticsFor(uri, 1); len(ds) != 0 {
		t.Errorf("diagnostics of noughts.hrf: %+v", ds)
	}
	at := func(needle string, nth int) protocol.TextDocumentPositionParams {
		return tdpp(uri, positionOf(t, text, needle, nth))
	}

	var h protocol.Hover
	c.mustCall("textDocument/hover", at("legal(P,play", 1), &h)
	if !strings.Contains(h.Contents.Value, "legal/2") || !strings.Contains(h.Contents.Value, "`legal(R,M)`") || strings.Contains(h.Contents.Value, "(legal") {
		t.Errorf("hover on legal, in infix: %q", h.Contents.Value)
	}
	c.mustCall("textDocument/hover", at("~changed", 1), &h)
	if !strings.Contains(h.Contents.Value, "`~lit`") {
		t.Errorf("hover on ~: %q", h.Contents.Value)
	}

	var defs []protocol.Location
	c.mustCall("textDocument/definition", at("three(M)\nopen", 1), &defs) // won(P) :- mark(P,M) & three(M)
	if len(defs) != 4 {
		t.Errorf("definition of three: %d locations, want its 4 rules", len(defs))
	}

	var refs []protocol.Location
	c.mustCall("textDocument/references", protocol.ReferenceParams{TextDocumentPositionParams: at("cell(R,C,b)) :-", 1),
		Context: protocol.ReferenceContext{IncludeDeclaration: true}}, &refs)
	if n := strings.Count(text, "cell("); len(refs) != n {
		t.Errorf("references of cell: %d, want %d", len(refs), n)
	}

	// Renaming a variable writes it as infix writes variables, whichever notation it was given in.
	for _, name := range []string{"Row", "?row", "row"} {
		var we protocol.WorkspaceEdit
		c.mustCall("textDocument/rename", protocol.RenameParams{TextDocumentPositionParams: at("R,C)) :- true(control", 1), NewName: name}, &we)
		edits := we.Changes[uri]
		if len(edits) != 2 || edits[0].NewText != "Row" || edits[1].NewText != "Row" {
			t.Errorf("rename R to %s: %+v", name, edits)
		}
	}
	var we protocol.WorkspaceEdit
	c.mustCall("textDocument/rename", protocol.RenameParams{TextDocumentPositionParams: at("three(M) :-", 1), NewName: "Line"}, &we)
	if edits := we.Changes[uri]; len(edits) != 5 || edits[0].NewText != `"Line"` { // 4 rules and a use
		t.Errorf("rename three to Line (a name infix quotes): %+v", edits)
	}
	if err := c.call("textDocument/rename", protocol.RenameParams{TextDocumentPositionParams: at("R,C)) :- true(control", 1), NewName: "C"}, &we); err == nil || !strings.Contains(err.Error(), "C already occurs") {
		t.Errorf("rename R to C, a variable of the rule: %v", err)
	}

	// Completion inside true( offers the fluents, with infix snippets.
	lines := syntax.NewLineIndex(text)
	eof := lines.Position(len(text), syntax.UTF16)
	endOfText := pos(uint32(eof.Line), uint32(eof.Column))
	typed := "legal(P,noop) :- true("
	c.change(uri, protocol.Range{Start: endOfText, End: endOfText}, typed)
	end := pos(endOfText.Line, endOfText.Character+uint32(len(typed)))
	var list protocol.CompletionList
	c.mustCall("textDocument/completion", protocol.CompletionParams{TextDocumentPositionParams: tdpp(uri, end)}, &list)
	var cell *protocol.CompletionItem
	for i, it := range list.Items {
		if it.Label == "cell" {
			cell = &list.Items[i]
		}
	}
	if cell == nil || !strings.HasPrefix(cell.InsertText+cell.TextEdit.NewText, "cell(${1:") || cell.InsertTextFormat != protocol.InsertTextFormatSnippet {
		t.Errorf("completion in true(: cell item %+v", cell)
	}
	c.diagnosticsFor(uri, c.change(uri, protocol.Range{Start: endOfText, End: end}, "")) // typed no further

	var sig signatureHelp
	c.mustCall("textDocument/signatureHelp", protocol.SignatureHelpParams{TextDocumentPositionParams: at("C,b)) :-", 1)}, &sig)
	if len(sig.Signatures) != 1 || sig.Signatures[0].Label != "cell(R,C,M)" || sig.ActiveParameter != 1 || sig.Signatures[0].Parameters[1].Label != [2]uint32{7, 8} {
		t.Errorf("signature help in cell(R,: %+v", sig)
	}

	// Semantic tokens: the operators are typed as such.
	legend := res.Capabilities.SemanticTokensProvider
	raw, _ := json.Marshal(legend)
	var opts struct {
		Legend protocol.SemanticTokensLegend `json:"legend"`
	}
	json.Unmarshal(raw, &opts)
	op := slices.Index(opts.Legend.TokenTypes, "operator")
	if op < 0 {
		t.Fatalf("no operator token type in the legend %v", opts.Legend.TokenTypes)
	}
	var toks protocol.SemanticTokens
	c.mustCall("textDocument/semanticTokens/full", protocol.SemanticTokensParams{TextDocument: docID(uri)}, &toks)
	ops := 0
	for i := 3; i < len(toks.Data); i += 5 {
		if int(toks.Data[i]) == op {
			ops++
		}
	}
	var code strings.Builder // the text without its comments
	for _, l := range strings.Split(text, "\n") {
		code.WriteString(strings.SplitN(l, "%", 2)[0])
	}
	if want := strings.Count(code.String(), ":-") + strings.Count(code.String(), "&") + strings.Count(code.String(), "~") + strings.Count(code.String(), "|"); ops != want {
		t.Errorf("%d operator tokens, want %d", ops, want)
	}

	// Code lenses ask their queries in infix, and the answers come in infix.
	lenses := c.lenses(uri)
	var legal *protocol.CodeLens
	for i, l := range lenses {
		if strings.HasPrefix(l.Command.Title, "legal:") {
			legal = &lenses[i]
		}
	}
	if legal == nil {
		t.Fatalf("no legal lens in %+v", lenses)
	}
	args, _ := json.Marshal(legal.Command.Arguments)
	if !strings.Contains(string(args), `"legal(A1,A2)"`) || legal.Command.Title != "legal: 10 answers" {
		t.Errorf("legal lens: %q, arguments %s", legal.Command.Title, args)
	}
	var qr queryResult
	c.mustCall("workspace/executeCommand", protocol.ExecuteCommandParams{Command: "gdl.runQuery", Arguments: legal.Command.Arguments}, &qr)
	if qr.Error != "" || qr.Notation != "infix" || !contains(qr.Answers, "legal(crosses,play(1,1))") || !contains(qr.State, "control(crosses)") {
		t.Errorf("running the legal lens: %+v", qr)
	}

	var st gameState
	c.mustCall("workspace/executeCommand", protocol.ExecuteCommandParams{Command: "gdl.playMove",
		Arguments: []any{map[string]any{"uri": uri, "moves": []string{"play(1,1)", "wait"}}}}, &st)
	if st.Error != "" || st.Notation != "infix" || !contains(st.State, "cell(1,1,x)") || !contains(st.Legal["noughts"], "play(1,2)") {
		t.Errorf("playing play(1,1) in infix: %+v", st)
	}

	// Formatting lays an infix document out as gdl fmt does.
	messy := fileURI(filepath.Join(dir, "messy.hrf"))
	c.openAs(messy, "gdl-infix", "role(a)   p(X):-q(X)&~r(X)\nq(1) r(2)\n")
	c.diagnosticsFor(messy, 1)
	var fmtEdits []protocol.TextEdit
	c.mustCall("textDocument/formatting", protocol.DocumentFormattingParams{TextDocument: docID(messy)}, &fmtEdits)
	if len(fmtEdits) != 1 || fmtEdits[0].NewText != "role(a)\np(X) :- q(X) & ~r(X)\nq(1)\nr(2)\n" {
		t.Errorf("formatting: %+v", fmtEdits)
	}

	// A quick fix writes the file's notation: a prefix variable becomes an infix one.
	mixed := fileURI(filepath.Join(dir, "mixed.hrf"))
	mtext := "role(a)\np(X) :- q(X) & r(?y)\nq(1)\nr(1)\n"
	c.openAs(mixed, "gdl-infix", mtext)
	diags := c.diagnosticsFor(mixed, 1)
	var actions []protocol.CodeAction
	c.mustCall("textDocument/codeAction", protocol.CodeActionParams{TextDocument: docID(mixed),
		Range: protocol.Range{Start: positionOf(t, mtext, "?y", 1), End: positionOf(t, mtext, "?y", 1)}, Context: protocol.CodeActionContext{Diagnostics: diags}}, &actions)
	fixed := false
	for _, a := range actions {
		if a.Edit != nil {
			for _, e := range a.Edit.Changes[mixed] {
				fixed = fixed || e.NewText == "Y"
			}
		}
	}
	if !fixed {
		t.Errorf("no quick fix writing Y for ?y: %+v", actions)
	}

	// The languageId decides: text whose content says prefix (its only comment is a ';' one)
	// opened as infix GDL is infix, where ';' starts no comment.
	note := "; a note\nterminal\n"
	asInfix, asPrefix := protocol.DocumentURI("untitled:Untitled-1"), protocol.DocumentURI("untitled:Untitled-2")
	c.openAs(asInfix, "gdl-infix", note)
	c.openAs(asPrefix, "gdl", note)
	if ds := c.diagnosticsFor(asInfix, 1); !slices.ContainsFunc(ds, func(d protocol.Diagnostic) bool { return d.Code == "mixed-notation" }) {
		t.Errorf("opened as gdl-infix, a ';' comment is not reported as prefix notation: %+v", ds)
	}
	if ds := c.diagnosticsFor(asPrefix, 1); slices.ContainsFunc(ds, func(d protocol.Diagnostic) bool { return d.Code == "mixed-notation" }) {
		t.Errorf("opened as gdl, a ';' comment is reported: %+v", ds)
	}

	// The workspace index reads the .hrf files on disk.
	var syms []protocol.SymbolInformation
	c.mustCall("workspace/symbol", protocol.WorkspaceSymbolParams{Query: "far_away"}, &syms)
	if got := symbolNames(syms); len(got) != 1 || got[0] != "far_away/1@extra.hrf" {
		t.Errorf("workspace symbols of far_away: %v", got)
	}
}
