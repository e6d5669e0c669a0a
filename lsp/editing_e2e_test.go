package lsp

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// The refactoring and editing features over real stdio: what the protocol adds to the ide
// functions (error codes and messages, label offsets, capabilities).

const editingGame = `(role white)
(role black)
(<= (base (cell ?x ?y ?mark)) (index ?x) (index ?y) (mark ?mark))
(index 1)
(index 2)
(mark x)
(mark b)
(init (cell 1 1 b))
(<= (legal ?r (play ?x ?y)) (role ?r) (true (cell ?x ?y b)))
(<= (next (cell ?x ?y x)) (does ?r (play ?x ?y)))
(<= terminal (true (cell 1 1 x)))
(goal white 100)
(goal black 0)
`

// TestRenameRefusalsOverStdio: prepareRename answers a range and a placeholder, refuses numbers
// and keywords with a message; a rename that would merge two relations or capture a variable
// is refused with RequestFailed and a message that says why.
func TestRenameRefusalsOverStdio(t *testing.T) {
	c := startServer(t)
	caps := c.initialize().Capabilities
	if caps.RenameProvider == nil || !caps.RenameProvider.PrepareProvider {
		t.Fatalf("rename capability: %+v", caps.RenameProvider)
	}
	const uri = "file:///w/editing.kif"
	c.open(uri, editingGame)
	c.diagnosticsFor(uri, 1)
	at := func(needle string, nth int) protocol.TextDocumentPositionParams {
		return tdpp(uri, positionOf(t, editingGame, needle, nth))
	}
	var prep struct {
		Range       protocol.Range `json:"range"`
		Placeholder string         `json:"placeholder"`
	}
	c.mustCall("textDocument/prepareRename", at("index ?x", 1), &prep)
	if prep.Placeholder != "index" || prep.Range != rng(2, 31, 2, 36) {
		t.Errorf("prepareRename on index: %+v", prep)
	}
	for needle, want := range map[string]string{
		"100)":     "100 is a number and cannot be renamed",
		"legal ?r": "legal is a GDL keyword and cannot be renamed",
		"":         "nothing to rename here", // the '(' at the start of line 4
	} {
		p := tdpp(uri, pos(3, 0))
		if needle != "" {
			p = at(needle, 1)
		}
		err := c.call("textDocument/prepareRename", p, &prep)
		if err == nil || rpcCode(err) != codeRequestFailed || !strings.Contains(err.Error(), want) {
			t.Errorf("prepareRename at %q: %v, want RequestFailed saying %q", needle, err, want)
		}
	}
	for _, tc := range []struct{ needle, name, want string }{
		{"index ?x", "mark", "the relation mark/1 already exists (line 6)"},
		{"?x ?y b", "?r", "?r already occurs in this rule (line 9)"},
		{"white)", "black", "the role black already exists (line 2)"},
	} {
		var we protocol.WorkspaceEdit
		err := c.call("textDocument/rename", protocol.RenameParams{TextDocumentPositionParams: at(tc.needle, 1), NewName: tc.name}, &we)
		if err == nil || rpcCode(err) != codeRequestFailed || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("rename %q to %s: %v (%+v), want RequestFailed saying %q", tc.needle, tc.name, err, we, tc.want)
		}
	}
	var we protocol.WorkspaceEdit
	c.mustCall("textDocument/rename", protocol.RenameParams{TextDocumentPositionParams: at("?x ?y b", 1), NewName: "?col"}, &we)
	if len(we.Changes[uri]) != 2 {
		t.Errorf("rename ?x to ?col: %+v", we)
	}
}

// TestSignatureHelpOverStdio: the capability with its trigger characters, and the signature of
// the function term at the cursor with parameter labels as UTF-16 offsets into the label.
func TestSignatureHelpOverStdio(t *testing.T) {
	c := startServer(t)
	caps := c.initialize().Capabilities
	if caps.SignatureHelpProvider == nil || !strings.Contains(strings.Join(caps.SignatureHelpProvider.TriggerCharacters, ""), "(") {
		t.Fatalf("signatureHelp capability: %+v", caps.SignatureHelpProvider)
	}
	const uri = "file:///w/editing.kif"
	text := editingGame + "(<= (goal white 50) (true (cell ü \n"
	c.open(uri, text)
	c.diagnosticsFor(uri, 1)
	var raw json.RawMessage
	c.mustCall("textDocument/signatureHelp", protocol.SignatureHelpParams{TextDocumentPositionParams: tdpp(uri, pos(13, 35))}, &raw)
	var h signatureHelp
	if err := json.Unmarshal(raw, &h); err != nil {
		t.Fatal(err)
	}
	if len(h.Signatures) != 1 || h.Signatures[0].Label != "(cell ?x ?y ?mark)" || h.ActiveParameter != 1 {
		t.Fatalf("signature help: %s", raw)
	}
	if got := h.Signatures[0].Parameters[2].Label; got != [2]uint32{12, 17} {
		t.Errorf("label of ?mark: %v, want [12 17]", got)
	}
	var none *signatureHelp
	c.mustCall("textDocument/signatureHelp", protocol.SignatureHelpParams{TextDocumentPositionParams: tdpp(uri, pos(12, 14))}, &none)
	if none != nil {
		t.Errorf("signature help outside a list: %+v", none)
	}
}

// TestArgumentCompletionOverStdio: inside (does white  the completion offers white's moves as
// snippets of their arguments (kind Event), and inside (true  the fluents (kind Struct).
func TestArgumentCompletionOverStdio(t *testing.T) {
	c := startServer(t)
	c.initialize()
	const uri = "file:///w/editing.kif"
	text := editingGame + "(<= (goal white 50) (does white \n"
	c.open(uri, text)
	c.diagnosticsFor(uri, 1)
	var list protocol.CompletionList
	c.mustCall("textDocument/completion", protocol.CompletionParams{TextDocumentPositionParams: tdpp(uri, pos(13, 32))}, &list)
	if len(list.Items) == 0 || list.Items[0].Label != "play" || list.Items[0].Kind != protocol.CompletionItemKindEvent ||
		list.Items[0].TextEdit == nil || list.Items[0].TextEdit.NewText != "(play ${1:?x} ${2:?y})" ||
		list.Items[0].InsertTextFormat != protocol.InsertTextFormatSnippet {
		t.Errorf("completion of a move: %+v", list.Items)
	}
	c.change(uri, rng(13, 21, 13, 31), "true")
	c.diagnosticsFor(uri, 2)
	c.mustCall("textDocument/completion", protocol.CompletionParams{TextDocumentPositionParams: tdpp(uri, pos(13, 26))}, &list)
	if len(list.Items) == 0 || list.Items[0].Label != "cell" || list.Items[0].Kind != protocol.CompletionItemKindStruct {
		t.Errorf("completion of a fluent: %+v", list.Items)
	}
}

// TestFixAllOverStdio: source.fixAll is advertised; asked for with only [source.fixAll] it
// comes alone, and its edits, applied by the client, give a text whose diagnostics no longer
// have the fixed problems (the spelling), while the unsafe variable and the and (whose splicing
// changes the rule's meaning) stay for a person. A did-you-mean quick fix replaces a typo.
func TestFixAllOverStdio(t *testing.T) {
	c := startServer(t)
	caps := c.initialize().Capabilities
	raw, _ := json.Marshal(caps.CodeActionProvider)
	if !strings.Contains(string(raw), `"source.fixAll"`) {
		t.Errorf("codeActionProvider: %s", raw)
	}
	const uri = "file:///w/fixall.kif"
	text := "(role Robot)\n(init (p 1))\n(<= (legal robot go) (and (true (p 1))))\n" +
		"(<= (next (p 2)) (does robot go) (tru (p 1)))\n(<= terminal (true (p 2)))\n(<= (goal robot 100) (true (p ?x)) (not (q ?y)))\n(q 1)\n"
	c.open(uri, text)
	before := c.diagnosticsFor(uri, 1)
	codes := func(ds []protocol.Diagnostic) map[string]int {
		out := map[string]int{}
		for _, d := range ds {
			out[fmt.Sprint(d.Code)]++
		}
		return out
	}
	if b := codes(before); b["inconsistent-case"] == 0 || b["and-not-gdl"] == 0 || b["unsafe-variable"] == 0 {
		t.Fatalf("diagnostics before: %v", b)
	}
	var actions []protocol.CodeAction
	c.mustCall("textDocument/codeAction", protocol.CodeActionParams{TextDocument: docID(uri), Range: rng(0, 0, 0, 0),
		Context: protocol.CodeActionContext{Only: []protocol.CodeActionKind{"source.fixAll"}}}, &actions)
	if len(actions) != 1 || actions[0].Kind != "source.fixAll" || actions[0].Edit == nil {
		t.Fatalf("source.fixAll: %+v", actions)
	}
	fixed := applyEdits(t, text, actions[0].Edit.Changes[uri])
	c.notify("textDocument/didChange", didChangeParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: docID(uri), Version: 2},
		ContentChanges: []contentChange{{Text: fixed}},
	})
	after := codes(c.diagnosticsFor(uri, 2))
	// Splicing the and changes what the rule means (issue 22, item 6): fix all leaves it.
	if after["inconsistent-case"] != 0 || after["and-not-gdl"] == 0 || after["unsafe-variable"] == 0 {
		t.Errorf("diagnostics after fix all: %v\n%s", after, fixed)
	}
	c.mustCall("textDocument/codeAction", protocol.CodeActionParams{TextDocument: docID(uri), Range: rng(3, 34, 3, 37),
		Context: protocol.CodeActionContext{Only: []protocol.CodeActionKind{"quickfix"}}}, &actions)
	if len(actions) == 0 || actions[0].Title != "Did you mean true? Replace tru with true" || actions[0].Kind != protocol.QuickFix {
		t.Errorf("quick fixes of tru: %+v", actions)
	}
}

// TestLensTitlesSayWhyOverStdio: the resolved lens of a relation with an unsafe rule, and of a
// relation whose clause has a syntax error, say why they are not evaluated.
func TestLensTitlesSayWhyOverStdio(t *testing.T) {
	c := startServer(t)
	c.initialize()
	const uri = "file:///w/lenses.kif"
	text := "(role robot)\n(init (cell 1))\n(<= (legal robot (go ?x)) (true (cell ?x)))\n(<= (next (cell 2)) (does robot (go 1)))\n" +
		"(<= (unsafe ?x) (not (true (cell ?x))))\n(<= terminal (true (cell 2)))\n(goal robot 100)\n(<= (broken ?x (true (cell ?x))\n"
	c.open(uri, text)
	c.diagnosticsFor(uri, 1)
	titles := map[string]string{}
	for _, l := range c.lenses(uri) {
		titles[strings.SplitN(l.Command.Title, ":", 2)[0]] = l.Command.Title
	}
	for key, want := range map[string]string{
		"unsafe": "unsafe: not evaluated: unsafe variable ?x [unsafe-variable]",
		"broken": "broken: not evaluated: a syntax error in its clause on line 8",
		"legal":  "legal: 1 answer",
	} {
		if got := titles[key]; !strings.HasPrefix(got, want) {
			t.Errorf("lens of %s: %q, want %q", key, got, want)
		}
	}
}
