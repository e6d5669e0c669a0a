package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	fastjson "github.com/segmentio/encoding/json"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/game"
)

// This file is the test client: it drives the real gdl binary over real stdio with
// go.lsp.dev/jsonrpc2 framing and go.lsp.dev/protocol types.

var gdlBinary string // built once by TestMain

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "gdl-lsp-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	gdlBinary = filepath.Join(dir, "gdl")
	// The tests never write into the user's cache (game.CacheDir): the binaries they run
	// and the commands they call in this process use a temporary one.
	os.Setenv(game.CacheEnv, filepath.Join(dir, "cache"))
	args := []string{"build", "-o", gdlBinary}
	if raceBuild {
		args = append(args, "-race")
	}
	build := exec.Command("go", append(args, "github.com/gdl-lsp/gdl/cmd/gdl")...)
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building gdl:", err)
		os.RemoveAll(dir)
		os.Exit(2)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

type testClient struct {
	t      testing.TB
	cmd    *exec.Cmd
	conn   jsonrpc2.Conn
	stdin  io.WriteCloser
	stderr *syncBuffer
	done   chan error
	server *Server // the server, when it runs in this process (startInProcess)

	mu               sync.Mutex
	settings         any           // answer to workspace/configuration, as it is when the request arrives
	configDelay      time.Duration // delays the answer to the next workspace/configuration request
	configAsked      chan struct{} // signalled when a workspace/configuration request arrives
	diags            map[protocol.DocumentURI][]protocol.PublishDiagnosticsParams
	messages         []string          // window/showMessage and window/logMessage texts
	requests         []string          // the methods of the server\'s other requests (refresh, registerCapability)
	registrations    []json.RawMessage // client/registerCapability params
	holdRegistration chan struct{}     // when set, client/registerCapability is answered once it is closed
	progress         []progressNote    // $/progress notifications, in order
	notified         chan struct{}
	version          map[protocol.DocumentURI]int32

	// lastRead is when the last bytes from the server arrived (UnixNano): the benchmarks time
	// a response's arrival with it, apart from the client's own decoding.
	lastRead atomic.Int64
	// lastDiag is when the last publishDiagnostics arrived (UnixNano, from lastRead: jsonrpc2
	// hands a message to the client's handler as soon as it is read).
	lastDiag atomic.Int64
}

// timedReader records when each read from the server returns data.
type timedReader struct {
	io.ReadCloser
	last *atomic.Int64
}

func (r timedReader) Read(p []byte) (int, error) {
	n, err := r.ReadCloser.Read(p)
	if n > 0 {
		r.last.Store(time.Now().UnixNano())
	}
	return n, err
}

// arrived is the time from start until the last bytes from the server arrived.
func (c *testClient) arrived(start time.Time) time.Duration {
	return time.Unix(0, c.lastRead.Load()).Sub(start)
}

// progressNote is a $/progress notification: its token and its value as JSON.
type progressNote struct {
	Token, Value string
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

type pipeRWC struct {
	io.ReadCloser
	io.WriteCloser
}

func (p pipeRWC) Close() error {
	p.WriteCloser.Close()
	return p.ReadCloser.Close()
}

// startServer starts `gdl lsp --stdio` and connects a client to it.
// serverProfiles counts the servers started with a CPU profile (GDL_TEST_SERVER_CPUPROFILE).
var serverProfiles int

func startServer(t testing.TB) *testClient {
	t.Helper()
	return startServerCmd(t, false)
}

// startBoundedServer starts the server under a limit of 4 GB of address space (ulimit -v), so
// that a document or request that takes all the memory fails the test instead of the machine.
// The race detector reserves far more address space than that: under it, the limit is left out.
func startBoundedServer(t testing.TB) *testClient {
	t.Helper()
	return startServerCmd(t, !raceBuild)
}

func startServerCmd(t testing.TB, bounded bool) *testClient {
	t.Helper()
	args := []string{"lsp", "--stdio"}
	if prof := os.Getenv("GDL_TEST_SERVER_CPUPROFILE"); prof != "" {
		// A CPU profile of the server, for looking into a benchmark: one file per server.
		serverProfiles++
		args = append(args, "--cpuprofile", fmt.Sprintf("%s.%d", prof, serverProfiles))
	}
	cmd := exec.Command(gdlBinary, args...)
	if bounded {
		cmd = exec.Command("sh", append([]string{"-c", `ulimit -v 4000000 && exec "$0" "$@"`, gdlBinary}, args...)...)
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	c := &testClient{
		t: t, cmd: cmd, stdin: stdin, stderr: &syncBuffer{}, done: make(chan error, 1),
		diags:       map[protocol.DocumentURI][]protocol.PublishDiagnosticsParams{},
		notified:    make(chan struct{}, 1),
		version:     map[protocol.DocumentURI]int32{},
		configAsked: make(chan struct{}, 1),
	}
	cmd.Stderr = c.stderr
	if raceBuild {
		cmd.Env = append(os.Environ(), "GORACE=halt_on_error=1")
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { c.done <- cmd.Wait() }()
	c.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(pipeRWC{timedReader{stdout, &c.lastRead}, stdin}))
	c.conn.Go(context.Background(), c.handle)
	t.Cleanup(func() {
		c.conn.Close()
		select {
		case <-c.done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-c.done
		}
		if t.Failed() {
			t.Logf("server stderr:\n%s", c.stderr.String())
		}
	})
	return c
}

// startInProcess runs a Server in this process over an in-memory pipe, with extra methods added
// to its table; the framing and the dispatcher are the real ones. Benchmarks and the dispatcher
// tests that need methods which block or panic on purpose use it.
func startInProcess(t testing.TB, extra map[string]method) *testClient {
	t.Helper()
	srvEnd, cliEnd := net.Pipe()
	s := NewServer(io.Discard)
	if testing.Verbose() {
		s = NewServer(os.Stderr)
	}
	for k, m := range extra {
		s.methods[k] = m
	}
	c := &testClient{
		t: t, stderr: &syncBuffer{}, done: make(chan error, 1), server: s,
		diags:       map[protocol.DocumentURI][]protocol.PublishDiagnosticsParams{},
		notified:    make(chan struct{}, 1),
		version:     map[protocol.DocumentURI]int32{},
		configAsked: make(chan struct{}, 1),
	}
	go func() {
		code := s.Serve(context.Background(), srvEnd)
		srvEnd.Close()
		if code != 0 {
			c.done <- fmt.Errorf("exit status %d", code)
		} else {
			c.done <- nil
		}
	}()
	c.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(cliEnd))
	c.conn.Go(context.Background(), c.handle)
	t.Cleanup(func() { c.conn.Close() })
	return c
}

// handle answers the server's requests and records its notifications.
func (c *testClient) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	switch req.Method() {
	case "textDocument/publishDiagnostics":
		c.lastDiag.Store(c.lastRead.Load())
		var p protocol.PublishDiagnosticsParams
		// segmentio's decoder (as jsonrpc2's): the benchmarks time the client's decoding of
		// large publications too, and a real client's JSON.parse is as fast.
		if err := fastjson.Unmarshal(req.Params(), &p); err != nil {
			c.t.Errorf("bad publishDiagnostics: %v", err)
		}
		c.mu.Lock()
		c.diags[p.URI] = append(c.diags[p.URI], p)
		c.mu.Unlock()
	case "window/showMessage", "window/logMessage":
		var p protocol.ShowMessageParams
		json.Unmarshal(req.Params(), &p)
		c.mu.Lock()
		c.messages = append(c.messages, p.Message)
		c.mu.Unlock()
	case "workspace/configuration":
		var p protocol.ConfigurationParams
		json.Unmarshal(req.Params(), &p)
		c.mu.Lock()
		res := make([]any, len(p.Items))
		for i := range res {
			res[i] = c.settings
		}
		delay := c.configDelay
		c.configDelay = 0
		c.mu.Unlock()
		select {
		case c.configAsked <- struct{}{}:
		default:
		}
		if delay > 0 {
			go func() {
				time.Sleep(delay)
				reply(ctx, res, nil)
			}()
			return nil
		}
		return reply(ctx, res, nil)
	case "$/progress":
		var p struct {
			Token any             `json:"token"`
			Value json.RawMessage `json:"value"`
		}
		json.Unmarshal(req.Params(), &p)
		c.mu.Lock()
		c.progress = append(c.progress, progressNote{Token: fmt.Sprint(p.Token), Value: string(p.Value)})
		c.mu.Unlock()
	case "workspace/codeLens/refresh", "workspace/inlayHint/refresh", "client/registerCapability", "window/workDoneProgress/create":
		c.mu.Lock()
		c.requests = append(c.requests, req.Method())
		hold := c.holdRegistration
		if req.Method() == "client/registerCapability" {
			c.registrations = append(c.registrations, append(json.RawMessage(nil), req.Params()...))
		} else {
			hold = nil
		}
		c.mu.Unlock()
		if hold != nil {
			go func() {
				<-hold
				reply(ctx, nil, nil)
			}()
			return nil
		}
	default:
		if _, isCall := req.(*jsonrpc2.Call); isCall {
			return reply(ctx, nil, jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "client: %s", req.Method()))
		}
		return nil
	}
	select {
	case c.notified <- struct{}{}:
	default:
	}
	return reply(ctx, nil, nil)
}

// call sends a request and decodes its result; it fails the test after 20 s.
func (c *testClient) call(method string, params, result any) error {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err := c.conn.Call(ctx, method, params, result)
	if errors.Is(err, context.DeadlineExceeded) {
		c.t.Fatalf("%s: no answer in 20 s", method)
	}
	return err
}

func (c *testClient) mustCall(method string, params, result any) {
	c.t.Helper()
	if err := c.call(method, params, result); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

func (c *testClient) notify(method string, params any) {
	c.t.Helper()
	if err := c.conn.Notify(context.Background(), method, params); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

// initialize runs the handshake, offering the given position encodings (none: the default),
// with the capabilities of a modern client (configuration pull, hierarchical symbols, snippets).
func (c *testClient) initialize(encodings ...string) initializeResult {
	c.t.Helper()
	return c.initializeWith(map[string]any{
		"general":   map[string]any{"positionEncodings": encodings},
		"workspace": map[string]any{"configuration": true},
		"textDocument": map[string]any{
			"documentSymbol": map[string]any{"hierarchicalDocumentSymbolSupport": true},
			"completion":     map[string]any{"completionItem": map[string]any{"snippetSupport": true}},
		},
	})
}

// initializeWith runs the handshake with the given client capabilities and no workspace.
func (c *testClient) initializeWith(caps map[string]any) initializeResult {
	c.t.Helper()
	return c.initializeParams(map[string]any{"processId": os.Getpid(), "rootUri": nil, "capabilities": caps})
}

// initializeParams runs the handshake with the given initialize parameters.
func (c *testClient) initializeParams(params map[string]any) initializeResult {
	c.t.Helper()
	var res initializeResult
	c.mustCall("initialize", params, &res)
	c.notify("initialized", struct{}{})
	return res
}

func (c *testClient) open(uri protocol.DocumentURI, text string) {
	c.t.Helper()
	c.openAs(uri, "gdl", text)
}

// openAs opens a document with the given languageId.
func (c *testClient) openAs(uri protocol.DocumentURI, lang, text string) {
	c.t.Helper()
	c.mu.Lock()
	c.version[uri] = 1
	c.mu.Unlock()
	c.notify("textDocument/didOpen", protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: uri, LanguageID: protocol.LanguageIdentifier(lang), Version: 1, Text: text,
	}})
}

// change sends one incremental edit and returns the new version.
func (c *testClient) change(uri protocol.DocumentURI, r protocol.Range, text string) int32 {
	c.t.Helper()
	return c.sendChange(uri, contentChange{Range: &r, Text: text})
}

// replace sends a change of the whole text (no range) and returns the new version.
func (c *testClient) replace(uri protocol.DocumentURI, text string) int32 {
	c.t.Helper()
	return c.sendChange(uri, contentChange{Text: text})
}

// sendChange sends one didChange of the next version and returns it.
func (c *testClient) sendChange(uri protocol.DocumentURI, ch contentChange) int32 {
	c.t.Helper()
	c.mu.Lock()
	c.version[uri]++
	v := c.version[uri]
	c.mu.Unlock()
	c.notify("textDocument/didChange", didChangeParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: uri}, Version: v},
		ContentChanges: []contentChange{ch},
	})
	return v
}

// diagnosticsFor waits for the diagnostics published for the given version of uri (version 0:
// for the publication that clears a closed document).
func (c *testClient) diagnosticsFor(uri protocol.DocumentURI, version int32) []protocol.Diagnostic {
	c.t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		c.mu.Lock()
		ps := c.diags[uri]
		for i := len(ps) - 1; i >= 0; i-- {
			if int32(ps[i].Version) == version {
				c.mu.Unlock()
				return ps[i].Diagnostics
			}
		}
		c.mu.Unlock()
		select {
		case <-c.notified:
		case <-time.After(50 * time.Millisecond):
		case <-deadline:
			c.t.Fatalf("no diagnostics for %s version %d (got %d publications)", uri, version, len(ps))
		}
	}
}

// shutdown sends shutdown and exit and returns the server's exit error.
func (c *testClient) shutdown() error {
	c.t.Helper()
	c.mustCall("shutdown", nil, nil)
	c.notify("exit", nil)
	select {
	case err := <-c.done:
		c.done <- err
		return err
	case <-time.After(10 * time.Second):
		c.t.Fatal("server did not exit")
	}
	return nil
}

func rpcCode(err error) jsonrpc2.Code {
	var e *jsonrpc2.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return 0
}

func pos(line, char uint32) protocol.Position { return protocol.Position{Line: line, Character: char} }

func rng(l1, c1, l2, c2 uint32) protocol.Range {
	return protocol.Range{Start: pos(l1, c1), End: pos(l2, c2)}
}

func docID(uri protocol.DocumentURI) protocol.TextDocumentIdentifier {
	return protocol.TextDocumentIdentifier{URI: uri}
}

func tdpp(uri protocol.DocumentURI, p protocol.Position) protocol.TextDocumentPositionParams {
	return protocol.TextDocumentPositionParams{TextDocument: docID(uri), Position: p}
}

// lenses asks for the code lenses of uri and resolves each, as VS Code and Neovim do.
func (c *testClient) lenses(uri protocol.DocumentURI) []protocol.CodeLens {
	c.t.Helper()
	var lenses []protocol.CodeLens
	c.mustCall("textDocument/codeLens", protocol.CodeLensParams{TextDocument: docID(uri)}, &lenses)
	for i, l := range lenses {
		if l.Command != nil {
			c.t.Fatalf("lens %d resolved before codeLens/resolve: %+v", i, l.Command)
		}
		c.mustCall("codeLens/resolve", l, &lenses[i])
		if lenses[i].Command == nil {
			c.t.Fatalf("codeLens/resolve left lens %d without a command", i)
		}
	}
	return lenses
}

// count returns how many requests of the given method the server sent.
func (c *testClient) count(method string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, m := range c.requests {
		if m == method {
			n++
		}
	}
	return n
}

// waitStderr waits until the server's log contains text (it fails the test after 30 s).
func (c *testClient) waitStderr(text string) {
	c.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(c.stderr.String(), text) {
		if time.Now().After(deadline) {
			c.t.Fatalf("the server never logged %q; its log:\n%s", text, c.stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// settingsApplied waits until the client's settings apply to the open document uri (version 1):
// the server pulls them after initialized, concurrently with the first diagnostics, so a
// didChangeConfiguration after the open makes it read them again and republish.
func (c *testClient) settingsApplied(uri protocol.DocumentURI) {
	c.t.Helper()
	c.diagnosticsFor(uri, 1)
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": nil})
	c.waitPublication(uri, "a publication after the settings refresh", func(protocol.PublishDiagnosticsParams) bool {
		return c.publications(uri) >= 2
	})
}
