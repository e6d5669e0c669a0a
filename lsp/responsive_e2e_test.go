package lsp

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.lsp.dev/protocol"
)

// hostileRules is issue 21's hostile file: n rules (<= (rI ?x) (role ?x) (not (qI ?x))), every
// qI undefined (n = 60,000 makes 3 MB), after a role and a rule written on three lines (for
// folding). Rule I stands on line I+4 (0-based), its rI at column 5.
func hostileRules(n int) string {
	var b strings.Builder
	b.WriteString("(role a)\n(<= (start ?x)\n    (role ?x)\n    (true (at ?x)))\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "(<= (r%d ?x) (role ?x) (not (q%d ?x)))\n", i, i)
	}
	return b.String()
}

// heldAnalyses holds the whole-file checks of every analysis for diagnostics of an in-process
// server (Server.checksStarted) until released, as a slow check would, and records what
// happened to each: a test controls when an analysis finishes, without a timer.
type heldAnalyses struct {
	started   chan protocol.DocumentURI // one per analysis that reached its checks
	cancelled chan protocol.DocumentURI // one per held analysis that a newer version cancelled
	mu        sync.Mutex
	release   chan struct{} // closed to let the analyses held now, and later ones, finish
}

func holdAnalyses(s *Server) *heldAnalyses {
	h := &heldAnalyses{started: make(chan protocol.DocumentURI, 16), cancelled: make(chan protocol.DocumentURI, 16), release: make(chan struct{})}
	s.checksStarted = func(ctx context.Context, uri protocol.DocumentURI) {
		h.started <- uri
		h.mu.Lock()
		release := h.release
		h.mu.Unlock()
		select {
		case <-release:
		case <-ctx.Done():
			h.cancelled <- uri
		}
	}
	return h
}

// letGo lets the held analyses finish.
func (h *heldAnalyses) letGo() {
	h.mu.Lock()
	defer h.mu.Unlock()
	close(h.release)
}

// waitHeld waits until an analysis of uri is held in its checks.
func (h *heldAnalyses) waitHeld(t testing.TB, uri protocol.DocumentURI) {
	t.Helper()
	select {
	case u := <-h.started:
		if u != uri {
			t.Fatalf("analysis of %s held, want %s", u, uri)
		}
	case <-time.After(60 * time.Second):
		t.Fatalf("the analysis of %s never reached its checks", uri)
	}
}

// openHeld opens text as uri in an in-process server whose analyses are held, and waits until
// its analysis is held in its checks.
func openHeld(t *testing.T, uri protocol.DocumentURI, text string) (*testClient, *heldAnalyses) {
	t.Helper()
	c := startInProcess(t, nil)
	h := holdAnalyses(c.server)
	c.initialize()
	c.open(uri, text)
	h.waitHeld(t, uri)
	return c, h
}

// TestRequestsDuringSlowAnalysis: while the whole-file checks of a document are held (a slow
// analysis), hover, definition, references, highlights, completion, symbols, semantic tokens,
// folding, signature help, code lenses and inlay hints are answered, from the model, before the
// analysis finishes; its diagnostics arrive once it does.
func TestRequestsDuringSlowAnalysis(t *testing.T) {
	const uri = "file:///w/hostile.kif"
	c, h := openHeld(t, uri, hostileRules(500))

	r5 := tdpp(uri, pos(9, 6)) // on r5
	var hover protocol.Hover
	c.mustCall("textDocument/hover", protocol.HoverParams{TextDocumentPositionParams: r5}, &hover)
	if !strings.Contains(hover.Contents.Value, "r5") {
		t.Errorf("hover on r5 during the analysis: %q", hover.Contents.Value)
	}
	var locs []protocol.Location
	c.mustCall("textDocument/definition", protocol.DefinitionParams{TextDocumentPositionParams: r5}, &locs)
	if len(locs) != 1 || locs[0].Range.Start.Line != 9 {
		t.Errorf("definition of r5: %+v", locs)
	}
	role := tdpp(uri, pos(9, 15)) // on role in rule 5's body
	c.mustCall("textDocument/references", protocol.ReferenceParams{TextDocumentPositionParams: role, Context: protocol.ReferenceContext{IncludeDeclaration: true}}, &locs)
	if len(locs) < 500 {
		t.Errorf("references of role: %d, want one per rule at least", len(locs))
	}
	var highlights []protocol.DocumentHighlight
	c.mustCall("textDocument/documentHighlight", protocol.DocumentHighlightParams{TextDocumentPositionParams: tdpp(uri, pos(9, 10))}, &highlights)
	if len(highlights) != 3 { // ?x three times in rule 5
		t.Errorf("highlights of ?x: %+v", highlights)
	}
	var completion protocol.CompletionList
	c.mustCall("textDocument/completion", protocol.CompletionParams{TextDocumentPositionParams: tdpp(uri, pos(9, 6))}, &completion)
	if len(completion.Items) == 0 {
		t.Error("no completion during the analysis")
	}
	var symbols []protocol.DocumentSymbol
	c.mustCall("textDocument/documentSymbol", protocol.DocumentSymbolParams{TextDocument: docID(uri)}, &symbols)
	if len(symbols) < 500 {
		t.Errorf("%d document symbols", len(symbols))
	}
	var tokens protocol.SemanticTokens
	c.mustCall("textDocument/semanticTokens/full", protocol.SemanticTokensParams{TextDocument: docID(uri)}, &tokens)
	if len(tokens.Data) == 0 {
		t.Error("no semantic tokens during the analysis")
	}
	var folds []protocol.FoldingRange
	c.mustCall("textDocument/foldingRange", map[string]any{"textDocument": docID(uri)}, &folds)
	if len(folds) == 0 || folds[0].StartLine != 1 {
		t.Errorf("folding ranges: %+v", folds)
	}
	var help *protocol.SignatureHelp
	c.mustCall("textDocument/signatureHelp", protocol.SignatureHelpParams{TextDocumentPositionParams: tdpp(uri, pos(9, 9))}, &help)
	var lenses []protocol.CodeLens
	c.mustCall("textDocument/codeLens", protocol.CodeLensParams{TextDocument: docID(uri)}, &lenses)
	var hints []any
	c.mustCall("textDocument/inlayHint", map[string]any{"textDocument": docID(uri), "range": rng(0, 0, 20, 0)}, &hints)

	if n := c.publications(uri); n != 0 {
		t.Fatalf("%d publications while the analysis was held", n)
	}
	h.letGo()
	if ds := c.diagnosticsFor(uri, 1); len(ds) == 0 {
		t.Error("no diagnostics once the analysis finished")
	}
	c.shutdown()
}

// TestNewerEditCancelsHeldAnalysis: an edit while the analysis of the previous version is held
// cancels that analysis (its checks see their context done); the new version's diagnostics are
// published, never the old one's.
func TestNewerEditCancelsHeldAnalysis(t *testing.T) {
	const uri = "file:///w/hostile.kif"
	c, h := openHeld(t, uri, hostileRules(200))
	c.change(uri, rng(4, 5, 4, 6), "s") // r0 -> s0
	select {
	case u := <-h.cancelled:
		if u != uri {
			t.Fatalf("cancelled the analysis of %s", u)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the stale analysis was not cancelled by the newer version")
	}
	h.waitHeld(t, uri) // version 2's
	h.letGo()
	c.diagnosticsFor(uri, 2)
	c.mu.Lock()
	for _, p := range c.diags[uri] {
		if p.Version != 2 {
			t.Errorf("diagnostics of version %d published", p.Version)
		}
	}
	c.mu.Unlock()
	c.shutdown()
}

// TestAnalysisProgress: an analysis that runs longer than Server.analysisShownAfter is shown as
// work done progress (created by the server, begun, reporting the checks, ended when it
// finishes) to a client that supports it, and to no other.
func TestAnalysisProgress(t *testing.T) {
	for _, supports := range []bool{true, false} {
		t.Run(fmt.Sprint("workDoneProgress=", supports), func(t *testing.T) {
			c := startInProcess(t, nil)
			h := holdAnalyses(c.server)
			c.server.analysisShownAfter = 50 * time.Millisecond
			c.initializeWith(map[string]any{"window": map[string]any{"workDoneProgress": supports}})
			const uri = "file:///w/hostile.kif"
			c.open(uri, hostileRules(20))
			h.waitHeld(t, uri)
			if supports {
				waitFor(t, "the analysis's progress to begin", func() bool {
					c.mu.Lock()
					defer c.mu.Unlock()
					return len(c.progress) > 0
				})
			} else {
				time.Sleep(200 * time.Millisecond) // four times the delay: it would have begun
			}
			h.letGo()
			c.diagnosticsFor(uri, 1)
			c.mu.Lock()
			notes := append([]progressNote(nil), c.progress...)
			asked := strings.Join(c.requests, " ")
			c.mu.Unlock()
			if !supports {
				if len(notes) > 0 || strings.Contains(asked, "workDoneProgress") {
					t.Errorf("progress shown to a client without the capability: %+v, %s", notes, asked)
				}
				c.shutdown()
				return
			}
			waitFor(t, "the analysis's progress to end", func() bool {
				c.mu.Lock()
				defer c.mu.Unlock()
				return strings.Contains(c.progress[len(c.progress)-1].Value, `"end"`)
			})
			if !strings.Contains(asked, "window/workDoneProgress/create") ||
				!strings.Contains(notes[0].Value, `"begin"`) || !strings.Contains(notes[0].Value, "Checking hostile.kif") ||
				!strings.Contains(notes[0].Value, `"cancellable":false`) || !strings.Contains(notes[1].Value, "0 of ") {
				t.Errorf("progress: requests %s, notes %+v", asked, notes)
			}
			c.shutdown()
		})
	}
}

// TestHoverWhileModelIsBuilt: while the model of a new version is being built (held, as a 3 MB
// file's takes seconds), a hover, a definition and highlights far from the edit answer from the
// previous version's model, with their ranges in the new text; once the model is built, hovers
// answer from it.
func TestHoverWhileModelIsBuilt(t *testing.T) {
	const uri = "file:///w/hostile.kif"
	c := startInProcess(t, nil)
	holding, held, release := holdModels(c.server)
	c.initialize()
	c.open(uri, hostileRules(500))
	c.diagnosticsFor(uri, 1)

	holding.Store(true)
	c.change(uri, rng(4, 5, 4, 6), "ss") // r0 -> ss0 on line 4: version 2, one byte longer
	select {
	case <-held:
	case <-time.After(30 * time.Second):
		t.Fatal("the model of version 2 was never built")
	}
	// Rule 250 is on line 254, after the edit: its offsets moved by one byte, its lines did not.
	var hover protocol.Hover
	c.mustCall("textDocument/hover", protocol.HoverParams{TextDocumentPositionParams: tdpp(uri, pos(254, 6))}, &hover)
	if !strings.Contains(hover.Contents.Value, "r250") || hover.Range == nil || *hover.Range != rng(254, 5, 254, 9) {
		t.Errorf("hover on r250 while the model is built: %q at %+v, want r250 at 254:5-254:9", hover.Contents.Value, hover.Range)
	}
	var locs []protocol.Location
	c.mustCall("textDocument/definition", protocol.DefinitionParams{TextDocumentPositionParams: tdpp(uri, pos(254, 6))}, &locs)
	if len(locs) != 1 || locs[0].Range != rng(254, 5, 254, 9) {
		t.Errorf("definition of r250 while the model is built: %+v", locs)
	}
	var highlights []protocol.DocumentHighlight
	c.mustCall("textDocument/documentHighlight", protocol.DocumentHighlightParams{TextDocumentPositionParams: tdpp(uri, pos(254, 10))}, &highlights)
	if len(highlights) != 3 || highlights[0].Range.Start.Line != 254 {
		t.Errorf("highlights of ?x in rule 250 while the model is built: %+v", highlights)
	}
	close(release)
	c.diagnosticsFor(uri, 2)
	c.mustCall("textDocument/hover", protocol.HoverParams{TextDocumentPositionParams: tdpp(uri, pos(4, 6))}, &hover)
	if !strings.Contains(hover.Contents.Value, "ss0") {
		t.Errorf("hover on the edited rule once the model is built: %q", hover.Contents.Value)
	}
	c.shutdown()
}

// holdModels holds the building of every model (Server.prepareStarted) once holding is set,
// until release is closed: a test controls when a model exists, without a timer. held receives
// one value per model held.
func holdModels(s *Server) (holding *atomic.Bool, held chan struct{}, release chan struct{}) {
	holding, held, release = &atomic.Bool{}, make(chan struct{}, 4), make(chan struct{})
	s.prepareStarted = func(ctx context.Context, u protocol.DocumentURI) {
		if !holding.Load() {
			return
		}
		held <- struct{}{}
		select {
		case <-release:
		case <-ctx.Done():
		}
	}
	return holding, held, release
}

// stagedGame is hostileRules(2000) (80 KB: the size from which requests answer from the syntax
// stage is 64 KB) and, from line 2004, a comment block and a function term (defined by a head,
// used in a body), for every kind of name.
const stagedGame = "; Two comment lines\n; make a block.\n(<= (s ?y) (p (f ?y)))\n(p (f a))\n"

// answers are the answers of a document's requests at fixed places of stagedGame.
type answers struct {
	hover                       string
	defR5, defX, defF, defA     []protocol.Location
	refsRole, refsX, refsF      []protocol.Location
	highlightsX, highlightsRole []protocol.DocumentHighlight
	completion                  []string
	symbols                     []protocol.DocumentSymbol
	tokens, rangeTokens         []uint32
	folds                       []protocol.FoldingRange
}

// askAll asks every request kind of the syntax stage about stagedGame, each within the client's
// 20 s (a request that waits for a held model fails the test).
func askAll(c *testClient, uri protocol.DocumentURI) answers {
	a := askUnparsed(c, uri)
	c.mustCall("textDocument/definition", protocol.DefinitionParams{TextDocumentPositionParams: tdpp(uri, pos(0, 6))}, &a.defA)
	var completion protocol.CompletionList
	c.mustCall("textDocument/completion", protocol.CompletionParams{TextDocumentPositionParams: tdpp(uri, pos(9, 6))}, &completion)
	for _, it := range completion.Items {
		a.completion = append(a.completion, it.Label)
	}
	c.mustCall("textDocument/documentSymbol", protocol.DocumentSymbolParams{TextDocument: docID(uri)}, &a.symbols)
	var tokens protocol.SemanticTokens
	c.mustCall("textDocument/semanticTokens/full", protocol.SemanticTokensParams{TextDocument: docID(uri)}, &tokens)
	a.tokens = tokens.Data
	c.mustCall("textDocument/foldingRange", map[string]any{"textDocument": docID(uri)}, &a.folds)
	return a
}

// TestRequestsBeforeFirstModel: while the model of a document just opened is being built (held:
// a 3 MB file's takes seconds, and no earlier version has one), hover, definition, references,
// highlights, completion, symbols, semantic tokens and folding answer from the syntax stage;
// every answer but the hover's and the completion's is the one the model gives once built.
func TestRequestsBeforeFirstModel(t *testing.T) {
	const uri = "file:///w/staged.kif"
	c := startInProcess(t, nil)
	holding, held, release := holdModels(c.server)
	holding.Store(true)
	c.initialize()
	c.open(uri, hostileRules(2000)+stagedGame)
	select {
	case <-held:
	case <-time.After(30 * time.Second):
		t.Fatal("the model was never built")
	}
	staged := askAll(c, uri)
	if !strings.Contains(staged.hover, "r5/1") || !strings.Contains(staged.hover, "1 rule, 0 facts; defined on line 10") ||
		!strings.Contains(staged.hover, "being analysed") {
		t.Errorf("hover on r5 before the model: %q", staged.hover)
	}
	for _, want := range []string{"r7", "role"} {
		if !slices.Contains(staged.completion, want) {
			t.Errorf("completion before the model lacks %s: %d items", want, len(staged.completion))
		}
	}
	if len(staged.refsRole) != maxReferences || len(staged.highlightsX) != 3 || len(staged.defF) != 1 || len(staged.defA) != 1 || len(staged.tokens) == 0 {
		t.Errorf("before the model: %d references of role, %d highlights of ?x, definitions of f %v and a %v, %d token numbers",
			len(staged.refsRole), len(staged.highlightsX), staged.defF, staged.defA, len(staged.tokens))
	}
	if n := c.publications(uri); n != 0 {
		t.Fatalf("%d publications while the model was held", n)
	}
	close(release)
	c.diagnosticsFor(uri, 1)
	built := askAll(c, uri)
	if strings.Contains(built.hover, "being analysed") {
		t.Errorf("hover on r5 once the model is built: %q", built.hover)
	}
	staged.hover, built.hover, staged.completion, built.completion = "", "", nil, nil
	if !reflect.DeepEqual(staged, built) {
		t.Errorf("the syntax stage's answers differ from the model's:\nstage %s\nmodel %s", fmt.Sprint(staged)[:min(2000, len(fmt.Sprint(staged)))], fmt.Sprint(built)[:min(2000, len(fmt.Sprint(built)))])
	}
	c.shutdown()
}

// TestRequestsWhileEditedModelIsBuilt: while the model of an edited version is being built
// (held), every request kind answers, from the previous version's model with ranges mapped
// (hover, definition, references, highlights far from the edit) or from this version's syntax
// stage (completion, symbols, semantic tokens, and what the edit touches); every answer but the
// completion's is the one the new model gives once built.
func TestRequestsWhileEditedModelIsBuilt(t *testing.T) {
	const uri = "file:///w/staged.kif"
	c := startInProcess(t, nil)
	holding, held, release := holdModels(c.server)
	c.initialize()
	c.open(uri, hostileRules(2000)+stagedGame)
	c.diagnosticsFor(uri, 1)
	holding.Store(true)
	c.change(uri, rng(9, 5, 9, 6), "ss") // r5 -> ss5 on line 9: version 2, one byte longer
	select {
	case <-held:
	case <-time.After(30 * time.Second):
		t.Fatal("the model of version 2 was never built")
	}
	during := askAll(c, uri)
	if !strings.Contains(during.hover, "ss5/1") {
		t.Errorf("hover on the edited ss5 while the model is built: %q", during.hover)
	}
	close(release)
	c.diagnosticsFor(uri, 2)
	after := askAll(c, uri)
	during.hover, after.hover, during.completion, after.completion = "", "", nil, nil
	if !reflect.DeepEqual(during, after) {
		t.Errorf("the answers while the model is built differ from the model's:\nbefore %.2000v\nmodel  %.2000v", during, after)
	}
	c.shutdown()
}

// holdParses holds the whole parse of every document opened (Server.parseStarted) until release
// is called (at the latest when the test ends, so that a test that fails while a parse is held
// ends too): a test controls when a tree exists, without a timer. held receives one value per
// parse held.
func holdParses(t *testing.T, s *Server) (held chan protocol.DocumentURI, release func()) {
	held, let := make(chan protocol.DocumentURI, 4), make(chan struct{})
	var once sync.Once
	release = func() { once.Do(func() { close(let) }) }
	s.parseStarted = func(u protocol.DocumentURI) {
		held <- u
		<-let
	}
	t.Cleanup(release)
	return held, release
}

// askUnparsed asks what the syntax stage answers before the whole parse (each within the
// client's 20 s: a request that waits for the held parse fails the test): what needs the forms
// at an offset and the forms that spell a name, not a list of every form.
func askUnparsed(c *testClient, uri protocol.DocumentURI) answers {
	var a answers
	var hover protocol.Hover
	c.mustCall("textDocument/hover", protocol.HoverParams{TextDocumentPositionParams: tdpp(uri, pos(9, 6))}, &hover)
	a.hover = hover.Contents.Value
	def := func(p protocol.Position) (locs []protocol.Location) {
		c.mustCall("textDocument/definition", protocol.DefinitionParams{TextDocumentPositionParams: tdpp(uri, p)}, &locs)
		return locs
	}
	a.defR5, a.defX, a.defF = def(pos(300, 6)), def(pos(9, 32)), def(pos(2006, 15))
	refs := func(p protocol.Position) (locs []protocol.Location) {
		c.mustCall("textDocument/references", protocol.ReferenceParams{TextDocumentPositionParams: tdpp(uri, p),
			Context: protocol.ReferenceContext{IncludeDeclaration: true}}, &locs)
		return locs
	}
	a.refsRole, a.refsX, a.refsF = refs(pos(9, 15)), refs(pos(9, 10)), refs(pos(2007, 4))
	hl := func(p protocol.Position) (hs []protocol.DocumentHighlight) {
		c.mustCall("textDocument/documentHighlight", protocol.DocumentHighlightParams{TextDocumentPositionParams: tdpp(uri, p)}, &hs)
		return hs
	}
	a.highlightsX, a.highlightsRole = hl(pos(9, 10)), hl(pos(0, 2))
	var tokens protocol.SemanticTokens
	c.mustCall("textDocument/semanticTokens/range", protocol.SemanticTokensRangeParams{TextDocument: docID(uri), Range: rng(250, 3, 2005, 12)}, &tokens)
	a.rangeTokens = tokens.Data
	return a
}

// TestRequestsBeforeParse: while the whole parse of a document just opened is held (a 3 MB
// file's takes about 150 ms of CPU, more on a loaded machine), hover, definition, references,
// highlights and the semantic tokens of a range answer from the syntax stage, which finds the
// forms by a scan of the bytes and parses only those it reads; once the model is built, every
// answer but the hover's is the same.
func TestRequestsBeforeParse(t *testing.T) {
	const uri = "file:///w/unparsed.kif"
	c := startInProcess(t, nil)
	held, release := holdParses(t, c.server)
	c.initialize()
	c.open(uri, hostileRules(2000)+stagedGame)
	if u := <-held; u != uri {
		t.Fatalf("held the parse of %s", u)
	}
	early := askUnparsed(c, uri)
	if !strings.Contains(early.hover, "r5/1") || !strings.Contains(early.hover, "1 rule, 0 facts; defined on line 10") ||
		!strings.Contains(early.hover, "being analysed") {
		t.Errorf("hover on r5 before the parse: %q", early.hover)
	}
	if len(early.refsRole) != maxReferences || len(early.highlightsX) != 3 || len(early.defF) != 1 || len(early.rangeTokens) == 0 {
		t.Errorf("before the parse: %d references of role, %d highlights of ?x, definitions of f %v, %d token numbers",
			len(early.refsRole), len(early.highlightsX), early.defF, len(early.rangeTokens))
	}
	release()
	c.diagnosticsFor(uri, 1)
	built := askUnparsed(c, uri)
	early.hover, built.hover = "", ""
	if !reflect.DeepEqual(early, built) {
		t.Errorf("the answers before the parse differ from the model's:\nbefore %.2000v\nmodel  %.2000v", early, built)
	}
	c.shutdown()
}

// TestSignatureHelpBeforeFirstModel: while the model of a document just opened is being built
// (held), signature help answers from the syntax stage (the model of the forms that spell the
// name), the same as the model once built.
func TestSignatureHelpBeforeFirstModel(t *testing.T) {
	const uri = "file:///w/signatures.kif"
	c := startInProcess(t, nil)
	holding, held, release := holdModels(c.server)
	holding.Store(true)
	c.initialize()
	c.open(uri, hostileRules(2000)+stagedGame)
	<-held
	ask := func() []any {
		var out []any
		for _, p := range []protocol.Position{pos(9, 8), pos(9, 17), pos(2006, 16), pos(2007, 7)} {
			var h any
			c.mustCall("textDocument/signatureHelp", protocol.SignatureHelpParams{TextDocumentPositionParams: tdpp(uri, p)}, &h)
			out = append(out, h)
		}
		return out
	}
	early := ask()
	if early[1] == nil {
		t.Errorf("no signature help in (role ?x) before the model: %v", early)
	}
	close(release)
	c.diagnosticsFor(uri, 1)
	if built := ask(); !reflect.DeepEqual(early, built) {
		t.Errorf("signature help before the model differs from the model's:\nbefore %v\nmodel  %v", early, built)
	}
	c.shutdown()
}

// TestEditBeforeParse: an edit of a document whose parse is still held (a large file just
// opened) does not wait for that parse on the read loop: a hover sent after it answers, about
// the edited text, and once the parses are let go the diagnostics and the model are the edited
// version's.
func TestEditBeforeParse(t *testing.T) {
	const uri = "file:///w/edited-unparsed.kif"
	c := startInProcess(t, nil)
	held, release := holdParses(t, c.server)
	c.initialize()
	c.open(uri, hostileRules(2000)+stagedGame)
	<-held
	c.change(uri, rng(9, 5, 9, 6), "ss") // r5 -> ss5 on line 9: version 2
	var hover protocol.Hover
	c.mustCall("textDocument/hover", protocol.HoverParams{TextDocumentPositionParams: tdpp(uri, pos(9, 6))}, &hover)
	if !strings.Contains(hover.Contents.Value, "ss5/1") || !strings.Contains(hover.Contents.Value, "being analysed") {
		t.Errorf("hover on the edited ss5 before the parse: %q", hover.Contents.Value)
	}
	release()
	c.diagnosticsFor(uri, 2)
	c.mustCall("textDocument/hover", protocol.HoverParams{TextDocumentPositionParams: tdpp(uri, pos(9, 6))}, &hover)
	if !strings.Contains(hover.Contents.Value, "ss5/1") || strings.Contains(hover.Contents.Value, "being analysed") {
		t.Errorf("hover on the edited ss5 once the model is built: %q", hover.Contents.Value)
	}
	c.shutdown()
}

// TestReplaceBeforeParse: a change of the whole text (no range) does not parse the new text on
// the read loop either: with the parses held, a hover sent after it answers from the syntax
// stage about the new text, whose version is not parsed yet; once the parses are let go the
// diagnostics and the model are the new version's.
func TestReplaceBeforeParse(t *testing.T) {
	const uri = "file:///w/replaced-unparsed.kif"
	c := startInProcess(t, nil)
	held, release := holdParses(t, c.server)
	c.initialize()
	text := hostileRules(2000) + stagedGame
	c.open(uri, text)
	<-held
	lines := strings.SplitAfter(text, "\n")
	lines[9] = lines[9][:5] + "ss" + lines[9][6:] // r5 -> ss5 on line 9
	v := c.replace(uri, strings.Join(lines, ""))
	var hover protocol.Hover
	c.mustCall("textDocument/hover", protocol.HoverParams{TextDocumentPositionParams: tdpp(uri, pos(9, 6))}, &hover)
	if !strings.Contains(hover.Contents.Value, "ss5/1") || !strings.Contains(hover.Contents.Value, "being analysed") {
		t.Errorf("hover on the new ss5 before the parse: %q", hover.Contents.Value)
	}
	if snap := c.server.currentView().docs[uri]; snap.Version != v || snap.Parsed() {
		t.Errorf("version %d (of %d) was parsed on the read loop: %v", snap.Version, v, snap.Parsed())
	}
	release()
	c.diagnosticsFor(uri, v)
	c.mustCall("textDocument/hover", protocol.HoverParams{TextDocumentPositionParams: tdpp(uri, pos(9, 6))}, &hover)
	if !strings.Contains(hover.Contents.Value, "ss5/1") || strings.Contains(hover.Contents.Value, "being analysed") {
		t.Errorf("hover on the new ss5 once the model is built: %q", hover.Contents.Value)
	}
	c.shutdown()
}
