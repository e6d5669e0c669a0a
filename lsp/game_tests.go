package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/gametest"
	"github.com/gdl-lsp/gdl/ide"
	"github.com/gdl-lsp/gdl/syntax"
)

// Game test documents (docs/testing.md): a document that is a test file gets the test
// features (ide.TestDiagnostics and the failures of a background run, ide.TestHover,
// ide.TestCompletion, ide.TestDefinition into the game, ide.TestLenses) instead of a game's,
// and the commands gdl.listTests and gdl.runTests list and run its tests (for the VS Code
// Testing view and the lenses). The game is the open document of its path, else its file.

// testDoc returns the test document of an open document that is a game test file.
func (s *Server) testDoc(v *view, snap *Snapshot) (*ide.TestDoc, bool) {
	p := uriPath(snap.URI)
	if p == "" || !ide.IsTestDocument(p, snap.Snapshot) {
		return nil, false
	}
	return ide.NewTestDoc(p, snap.Snapshot, func(path string) (*ide.Snapshot, error) { return s.gameSnapshot(v, path) }), true
}

// gameSnapshot returns the snapshot of the game file at path: the open document's, else the
// file's.
func (s *Server) gameSnapshot(v *view, path string) (*ide.Snapshot, error) {
	for u, d := range v.docs {
		if uriPath(u) == path && d.desync == nil {
			return d.Snapshot, nil
		}
	}
	return s.testRuns.GameFile(path)
}

// gameURI returns the URI of a test document's game: the open document's, else its file's.
func gameURI(v *view, path string) protocol.DocumentURI {
	for u := range v.docs {
		if uriPath(u) == path {
			return u
		}
	}
	return protocol.DocumentURI(uri.File(path))
}

// testOptions are the budgets of a document's test runs under its settings.
func testOptions(v *view, u protocol.DocumentURI) ide.TestOptions {
	st := v.settingsFor(u)
	opts := ide.TestOptions{
		Limits:  eval.Limits{Timeout: time.Duration(st.Eval.TimeoutMs) * time.Millisecond, MaxFacts: st.Eval.MaxFacts, MaxDepth: st.Eval.MaxTermDepth},
		Bounded: ide.DefaultTestBounded,
	}
	if st.Tests.MaxStates > 0 {
		opts.Bounded.MaxStates = st.Tests.MaxStates
	}
	if st.Tests.TimeoutMs > 0 {
		opts.Bounded.Timeout = time.Duration(st.Tests.TimeoutMs) * time.Millisecond
	}
	return opts
}

// limitsOf are the evaluation limits of a document.
func limitsOf(v *view, u protocol.DocumentURI) eval.Limits { return testOptions(v, u).Limits }

// documentDiagnostics converts a document's diagnostics under the settings: a game's, or a test
// file's that need no evaluation.
func (s *Server) documentDiagnostics(ctx context.Context, v *view, snap *Snapshot, settings Settings, progress func(done, total int)) ([]protocol.Diagnostic, error) {
	td, ok := s.testDoc(v, snap)
	if !ok {
		return diagnostics(ctx, snap, settings, s.diagMemo(snap.URI), progress)
	}
	ds, err := ide.TestDiagnostics(ctx, td)
	if err != nil {
		return nil, err
	}
	return snap.convertDiagnostics(settings, ds), nil
}

// convertDiagnostics converts diagnostics of the snapshot under the settings.
func (s *Snapshot) convertDiagnostics(settings Settings, ds []analysis.Diagnostic) []protocol.Diagnostic {
	out := make([]protocol.Diagnostic, 0, len(ds))
	for _, d := range ds {
		if pd, ok := s.diagnostic(settings, d); ok {
			out = append(out, pd)
		}
	}
	return out
}

// runTestsInBackground runs the tests of an open test document after its static diagnostics
// were published, and publishes them again with the failures, unless a newer version or a
// change of its game came meanwhile (ctx).
func (s *Server) runTestsInBackground(ctx context.Context, v *view, snap *Snapshot, static []protocol.Diagnostic) {
	td, ok := s.testDoc(v, snap)
	if !ok || !v.settingsFor(snap.URI).Tests.RunInBackground {
		return
	}
	results, err := s.testRuns.Run(ctx, string(snap.URI), td, nil, testOptions(v, snap.URI))
	if err != nil {
		return // cancelled, or no game to run on: the static diagnostics say why
	}
	s.publishTestResults(ctx, v, snap, td, static, results)
}

// publishTestResults publishes a test document's static diagnostics with the failures of
// results, when snap is still the document's current version.
func (s *Server) publishTestResults(ctx context.Context, v *view, snap *Snapshot, td *ide.TestDoc, static []protocol.Diagnostic, results []gametest.Result) {
	settings := v.settingsFor(snap.URI)
	sds, err := ide.TestDiagnostics(ctx, td)
	if err != nil {
		return
	}
	if static == nil {
		static = snap.convertDiagnostics(settings, sds)
	}
	diags := append(append([]protocol.Diagnostic{}, static...), snap.convertDiagnostics(settings, ide.FailureDiagnostics(results, sds))...)
	if s.publishDiagnostics(protocol.PublishDiagnosticsParams{URI: snap.URI, Version: uint32(snap.Version), Diagnostics: diags},
		func(v *view) bool { return ctx.Err() == nil && v.docs[snap.URI] == snap }) {
		s.refreshEvaluations() // the lenses' titles say the results
	}
}

// refreshTestDocuments checks the open test documents again after a change of another
// document (their game may be the one that changed).
func (s *Server) refreshTestDocuments(changed protocol.DocumentURI) {
	v := s.currentView()
	if snap, ok := v.docs[changed]; !ok || isTestURI(changed, snap) {
		return
	}
	for u, snap := range v.docs {
		if u != changed && isTestURI(u, snap) {
			s.scheduleDiagnostics(u)
		}
	}
}

// isTestURI reports whether an open document is a game test file.
func isTestURI(u protocol.DocumentURI, snap *Snapshot) bool {
	p := uriPath(u)
	return p != "" && snap.desync == nil && ide.IsTestDocument(p, snap.Snapshot)
}

// The commands.

type testCommandArgs struct {
	URI   protocol.DocumentURI `json:"uri"`
	Tests []string             `json:"tests"` // gdl.runTests: the tests to run (none: all)
}

// testItem describes a test for gdl.listTests.
type testItem struct {
	Name      string         `json:"name"`
	Range     protocol.Range `json:"range"`
	NameRange protocol.Range `json:"nameRange"`
	Doc       string         `json:"description,omitempty"`
}

type testList struct {
	URI   protocol.DocumentURI `json:"uri"`
	Game  string               `json:"game"` // the game's URI, "" when it is not found
	Tests []testItem           `json:"tests"`
}

type testFailure struct {
	Step     int            `json:"step"`
	Range    protocol.Range `json:"range"`
	Code     string         `json:"code"`
	Message  string         `json:"message"` // the whole story, as the diagnostic says it
	Expected string         `json:"expected"`
	Found    string         `json:"found,omitempty"`
	Moves    []string       `json:"moves"`
	State    []string       `json:"state"`
}

type testResult struct {
	Name      string        `json:"name"`
	Status    string        `json:"status"` // passed, failed or errored
	ElapsedMs float64       `json:"elapsedMs"`
	Failures  []testFailure `json:"failures"`
}

type testRun struct {
	URI     protocol.DocumentURI `json:"uri"`
	Results []testResult         `json:"results"`
	Error   string               `json:"error,omitempty"` // why nothing ran (no game, a game that cannot be played)
}

// testCommand runs gdl.listTests and gdl.runTests. The document need not be open: a file of
// the workspace is read from disk (the Testing view lists the tests of every test file).
func (s *Server) testCommand(ctx context.Context, r *request, command string, raw []json.RawMessage) (any, error) {
	var args testCommandArgs
	if len(raw) > 0 {
		if err := json.Unmarshal(raw[0], &args); err != nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: %v", command, err)
		}
	}
	snap, err := s.testSnapshot(r, args.URI)
	if err != nil {
		return nil, err
	}
	td, ok := s.testDoc(r.view, snap)
	if !ok {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: %s is not a game test file (docs/testing.md)", command, args.URI)
	}
	if command == "gdl.listTests" {
		out := testList{URI: snap.URI, Tests: []testItem{}}
		if td.Game != nil {
			out.Game = string(gameURI(r.view, td.GamePath))
		}
		for _, t := range td.Suite().Tests {
			out.Tests = append(out.Tests, testItem{Name: t.Name, Range: snap.m.span(t.Span), NameRange: snap.m.span(t.NameSpan), Doc: t.Doc})
		}
		return out, nil
	}
	out := testRun{URI: snap.URI, Results: []testResult{}}
	results, err := s.testRuns.Run(ctx, string(snap.URI), td, args.Tests, testOptions(r.view, snap.URI))
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		out.Error = err.Error()
		return out, nil
	}
	for _, res := range results {
		tr := testResult{Name: res.Test.Name, Status: string(res.Status), ElapsedMs: float64(res.Elapsed.Microseconds()) / 1000, Failures: []testFailure{}}
		for _, f := range res.Failures {
			tr.Failures = append(tr.Failures, testFailure{Step: f.Step, Range: snap.m.span(f.Span), Code: f.Code,
				Message: ide.FailureText(res.Test.Name, &f), Expected: f.Expected, Found: f.Found, Moves: nonNilStrings(f.Moves), State: nonNilStrings(f.State)})
		}
		out.Results = append(out.Results, tr)
	}
	if _, open := r.view.docs[snap.URI]; open && len(args.Tests) == 0 {
		// An open document shows the failures where they are.
		go s.publishTestResults(s.ctx, r.view, snap, td, nil, results)
	} else if open {
		s.refreshEvaluations()
	}
	return out, nil
}

func nonNilStrings(ss []string) []string {
	if ss == nil {
		return []string{}
	}
	return ss
}

// testSnapshot returns the open document of u, else a snapshot of its file.
func (s *Server) testSnapshot(r *request, u protocol.DocumentURI) (*Snapshot, error) {
	if _, open := r.view.docs[u]; open {
		return r.doc(u)
	}
	p := uriPath(u)
	if p == "" {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: not open and not a file: %s", r.method, u)
	}
	snap, err := ide.ReadSnapshot(p)
	if err != nil {
		return nil, jsonrpc2.Errorf(codeRequestFailed, "%s: %v", r.method, err)
	}
	return wrapSnapshot(u, snap, r.view.enc), nil
}

// The features.

// testHover is the hover of a test document.
func testHover(ctx context.Context, r *request, snap *Snapshot, td *ide.TestDoc, off int) *protocol.Hover {
	return toHover(snap, ide.TestHover(ctx, td, off, ide.TestHoverOptions{Markdown: r.view.client.hoverMarkdown, Runs: r.s.testRuns,
		Name: string(snap.URI), Limits: limitsOf(r.view, snap.URI)}))
}

// testDefinition is the definition in the game of a name of a test document.
func testDefinition(r *request, td *ide.TestDoc, off int) []protocol.Location {
	out := []protocol.Location{}
	spans := ide.TestDefinition(td, off)
	if len(spans) == 0 {
		return out
	}
	m := mapper{lines: td.Game.Lines(), enc: r.view.enc}
	u := gameURI(r.view, td.GamePath)
	for _, sp := range spans {
		out = append(out, protocol.Location{URI: u, Range: m.span(sp)})
	}
	return out
}

// testCompletion is the completion of a test document.
func testCompletion(ctx context.Context, r *request, snap *Snapshot, td *ide.TestDoc, off int, snippets bool) []ide.CompletionItem {
	return ide.TestCompletion(ctx, td, off, ide.TestCompletionOptions{Snippets: snippets, Runs: r.s.testRuns, Limits: limitsOf(r.view, snap.URI)})
}

// testLenses are the lenses of a test document: run all, run each (titled with its last
// result); their command is gdl.runTests.
func testLenses(r *request, snap *Snapshot, td *ide.TestDoc) []protocol.CodeLens {
	out := []protocol.CodeLens{}
	for _, l := range ide.TestLenses(td, r.s.testRuns, string(snap.URI)) {
		pos := snap.m.position(l.Offset)
		args := testCommandArgs{URI: snap.URI}
		if l.Test != "" {
			args.Tests = []string{l.Test}
		}
		out = append(out, protocol.CodeLens{Range: protocol.Range{Start: pos, End: pos},
			Command: &protocol.Command{Title: l.Title, Command: "gdl.runTests", Arguments: []interface{}{args}}})
	}
	return out
}

// testSymbols are the document symbols of a test document: its tests.
func testSymbols(snap *Snapshot, td *ide.TestDoc) []protocol.DocumentSymbol {
	out := []protocol.DocumentSymbol{}
	for _, t := range td.Suite().Tests {
		out = append(out, protocol.DocumentSymbol{Name: t.Name, Detail: fmt.Sprintf("%d steps", len(t.Steps)), Kind: protocol.SymbolKindMethod,
			Range: snap.m.span(t.Span), SelectionRange: snap.m.span(t.NameSpan)})
	}
	return out
}

// recoverTests logs a panic of a background test run.
func (s *Server) recoverTests(uri protocol.DocumentURI) {
	if p := recover(); p != nil {
		s.log.Printf("panic running the tests of %s: %v\n%s", uri, p, debug.Stack())
	}
}

// recordedTest is the result of gdl.recordTest: a test pinning the document's current state,
// and the test file it goes to (GAME.test.kif beside the game, in the game's notation).
type recordedTest struct {
	Text     string `json:"text"`
	TestFile string `json:"testFile"` // a URI
	Notation string `json:"notation"`
}

// recordTest runs gdl.recordTest {uri, name}: the state of the game's session (its joint moves
// played) as a new test.
func (s *Server) recordTest(ctx context.Context, r *request, snap *Snapshot, session *ide.Session, raw []json.RawMessage) (any, error) {
	var args struct {
		Name string `json:"name"`
	}
	if len(raw) > 0 {
		if err := json.Unmarshal(raw[0], &args); err != nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "gdl.recordTest: %v", err)
		}
	}
	if args.Name == "" {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "gdl.recordTest: give the test's name: {uri, name}")
	}
	p := uriPath(snap.URI)
	if p == "" {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "gdl.recordTest: %s is not a file: its test file would have no place", snap.URI)
	}
	ext := strings.ToLower(filepath.Ext(p))
	if ext != syntax.InfixExt {
		ext = ".kif"
	}
	testPath := strings.TrimSuffix(p, filepath.Ext(p)) + ".test" + ext
	text, err := ide.RecordTest(ctx, snap.Snapshot, session.History(), args.Name, snap.Dialect(), limitsOf(r.view, snap.URI))
	if err != nil {
		return nil, jsonrpc2.Errorf(codeRequestFailed, "gdl.recordTest: %v", err)
	}
	return recordedTest{Text: text, TestFile: string(uri.File(testPath)), Notation: snap.Dialect().String()}, nil
}
