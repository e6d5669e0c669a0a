package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log"
	"runtime/debug"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/ide"
	"github.com/gdl-lsp/gdl/syntax"
)

// Server is one language-server session on one connection.
//
// Concurrency: the jsonrpc2 read loop calls handle for every message in arrival order.
// Notifications and the lifecycle requests run right there, so document updates apply in order.
// Every other request takes the current view (immutable snapshots of all open documents) on the
// read loop and computes its answer on a goroutine of its own, with a context that
// $/cancelRequest cancels and that a newer version of the request's document supersedes.
type Server struct {
	opts   Options
	conn   jsonrpc2.Conn
	stream *messageStream
	log    *log.Logger
	ctx    context.Context // cancelled when the session ends
	cancel context.CancelFunc

	// mu guards the server's state: the fields that follow, up to the next blank line, and
	// the state of progress reports, slow analyses and workspace checks (progress.go,
	// diagnostics.go, workspace_diagnostics.go). What a request reads of the session is in the
	// view, which is immutable; the critical sections update a few fields or maps and enqueue a
	// message (never a blocking call), so one mutex is enough.
	mu              sync.Mutex
	state           lifecycle
	view            *view                     // replaced, never mutated, on every change
	inflight        map[jsonrpc2.ID]*inflight // requests being computed
	requests        requestGate               // counts them for the analyses, which yield to them (yield.go)
	exitCode        int
	watching        bool // the client watches gdl.json and game files for us
	diagWorkers     map[protocol.DocumentURI]context.CancelFunc
	settingsSeq     uint64            // refreshes of the settings started, in arrival order
	settingsApplied uint64            // the newest refresh applied
	configShown     map[string]string // gdl.json path -> the problem last shown with window/showMessage
	wsDiags         workspaceDiags    // the diagnostics of the workspace's files that are not open
	hot             hotSet            // the open documents by last use; the others' trees are released
	progress        progresses        // progress reports in flight (progress.go)
	verifications   verifications     // the last verification of each document (verify.go)

	diagMemos map[protocol.DocumentURI]*diagMemo // the open documents' (diagnostics_memo.go)

	exited   chan struct{} // closed by the exit notification
	index    *ide.Index    // the game files of the workspace folders, for workspace/symbol
	slots    *slots        // bounds the analyses for diagnostics that run at once
	games    *ide.Games    // each open document's game, evaluated results and joint moves played
	testRuns *ide.TestRuns // the games and last results of game test documents (game_tests.go)

	// methods is the dispatch table; tests may extend a copy of it.
	methods map[string]method

	// maxMessage, when set (by tests, before the session starts), replaces maxMessageSize.
	maxMessage int64

	// analysisShownAfter, when set (by tests, before the session starts), replaces
	// analysisShownAfter: how long an analysis runs before its progress is shown.
	analysisShownAfter time.Duration
	// checksStarted, when set (by tests, before the session starts), is called when the
	// whole-file checks of an analysis for diagnostics start, on the analysis's goroutine, with
	// the analysis's context: a test holds the analysis there, as a slow check would.
	checksStarted func(ctx context.Context, uri protocol.DocumentURI)
	// prepareStarted, when set (by tests, before the session starts), is called before the model
	// of a version of a document opened in the session is built, with the context of whoever
	// builds it: a test holds the building of a model there, as a large file would.
	prepareStarted func(ctx context.Context, uri protocol.DocumentURI)
	// parseStarted, when set (by tests, before the session starts), is called before the whole
	// text of a document opened in the session is parsed: a test holds the parse there, as the
	// parse of a large file would take its time.
	parseStarted func(uri protocol.DocumentURI)

	// published, when set (by benchmarks, before the session starts), is told each time
	// diagnostics are published: the document's version and the server's time from the
	// notification that made that version to the end of writing the diagnostics.
	published func(uri protocol.DocumentURI, version int32, elapsed time.Duration)
}

type lifecycle int

const (
	stateNew lifecycle = iota
	stateRunning
	stateShutdown
)

// view is what a request sees: the open documents and the session settings at the moment the
// request arrived. It is immutable.
type view struct {
	docs     map[protocol.DocumentURI]*Snapshot
	enc      syntax.Encoding
	client   clientOptions // what the client's capabilities allow (initialize)
	folders  []string      // workspace folder directories the client named (may be none)
	settings Settings      // defaults and the client's settings; see settingsFor
	configs  *configCache  // the project configuration (gdl.json) per folder, replaced when one changes
	// configDocs are the open gdl.json documents, checked as typed (config.go).
	configDocs map[protocol.DocumentURI]*configDoc
}

type inflight struct {
	cancel context.CancelCauseFunc
	uri    protocol.DocumentURI
}

var (
	errCancelled  = errors.New("request cancelled")
	errSuperseded = errors.New("document changed")
)

// method describes how one LSP method is served.
type method struct {
	// inline handlers run on the read loop, in order with the notifications; they may change the
	// server's state. The others run on their own goroutine against the view taken on arrival.
	inline bool
	handle func(ctx context.Context, r *request) (any, error)
}

// request is one incoming call or notification as a handler sees it.
type request struct {
	s      *Server
	method string
	params json.RawMessage
	view   *view
	// decoded is the parameters already decoded by the read loop (message_decode.go), or nil.
	decoded *textSyncMessage
}

// decode unmarshals the parameters into v; failures become InvalidParams.
func (r *request) decode(v any) error {
	if len(r.params) == 0 {
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: missing params", r.method)
	}
	if r.decoded != nil && r.decoded.assign(v) {
		return nil
	}
	if err := decodeParams(r.params, v); err != nil {
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: %v", r.method, err)
	}
	return nil
}

// doc returns the snapshot of an open document or an error naming it.
func (r *request) doc(uri protocol.DocumentURI) (*Snapshot, error) {
	if s, ok := r.view.docs[uri]; ok {
		if s.desync != nil {
			return nil, jsonrpc2.Errorf(codeRequestFailed, "%s: %s", r.method, outOfSyncMessage(uri, s.desync))
		}
		r.s.touch(uri)
		return s, nil
	}
	return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: document not open: %s", r.method, uri)
}

// NewServer makes a server that logs to logw (stderr; never stdout).
func NewServer(logw io.Writer) *Server {
	s := &Server{
		log:         log.New(logw, "gdl lsp: ", log.Ltime|log.Lmicroseconds),
		inflight:    map[jsonrpc2.ID]*inflight{},
		diagWorkers: map[protocol.DocumentURI]context.CancelFunc{},
		diagMemos:   map[protocol.DocumentURI]*diagMemo{},
		slots:       newSlots(),
		exited:      make(chan struct{}),
		view:        &view{docs: map[protocol.DocumentURI]*Snapshot{}, enc: syntax.UTF16, settings: defaultSettings()},
		methods:     methodTable(),
		exitCode:    1,
		configShown: map[string]string{},
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.games = ide.NewGames(s.ctx, ide.GamesOptions{Refresh: s.refreshEvaluations})
	s.testRuns = ide.NewTestRuns(s.ctx)
	s.index = ide.NewIndex(s.watchingFiles)
	s.view.configs = newConfigCache(s.reportBrokenConfig)
	return s
}

// Serve runs the session over rwc until the client sends exit or closes the stream. It returns
// the process exit status: 0 after shutdown then exit, 1 otherwise.
func (s *Server) Serve(ctx context.Context, rwc io.ReadWriteCloser) int {
	stream := newMessageStream(rwc, s.log)
	s.stream = stream
	if s.maxMessage > 0 {
		stream.in.max = s.maxMessage
	}
	s.conn = jsonrpc2.NewConn(stream)
	stream.note = func(text string) {
		s.notify("window/showMessage", protocol.ShowMessageParams{Type: protocol.MessageTypeWarning, Message: text})
	}
	s.conn.Go(ctx, s.handle)
	select {
	case <-s.conn.Done():
		if err := s.conn.Err(); err != nil && !errors.Is(err, io.EOF) {
			s.log.Printf("%v", err)
		}
	case <-s.exited:
		// Stdin cannot be closed under a blocked read; the process ends instead.
	case <-ctx.Done():
		s.conn.Close()
		<-s.conn.Done()
	}
	s.cancel()
	stream.flush(5 * time.Second)
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.exitCode
}

// handle is the jsonrpc2 handler. It never returns an error: that would close the connection.
func (s *Server) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	call, isCall := req.(*jsonrpc2.Call)
	name := req.Method()
	r := &request{s: s, method: name, params: json.RawMessage(req.Params())}
	if s.stream != nil {
		if m, ok := s.stream.takeDecoded(req); ok {
			r.params, r.decoded = m.params, &m
		}
	}

	s.mu.Lock()
	state := s.state
	r.view = s.view
	s.mu.Unlock()

	m, known := s.methods[name]
	switch {
	case !isCall && name == "exit":
		// handled below like any inline notification
	case state == stateNew && name != "initialize":
		if isCall {
			s.replyErr(ctx, reply, name, jsonrpc2.Errorf(jsonrpc2.ServerNotInitialized, "%s before initialize", name))
		}
		return nil
	case state == stateShutdown:
		if isCall {
			s.replyErr(ctx, reply, name, jsonrpc2.Errorf(jsonrpc2.InvalidRequest, "%s after shutdown", name))
		}
		return nil
	case !known:
		if isCall {
			s.replyErr(ctx, reply, name, jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "method not found: %s", name))
		} else if len(name) < 2 || name[:2] != "$/" {
			s.log.Printf("ignoring unknown notification %s", name)
		}
		return nil
	}

	var uri protocol.DocumentURI
	if isCall && !m.inline {
		uri = requestURI(r.params)
	}
	if isCall && !m.inline && name != "workspace/executeCommand" && r.view.isConfigDoc(uri) {
		// A gdl.json document is synchronised for its diagnostics only; it is not GDL.
		s.send(ctx, reply, name, nil, nil)
		return nil
	}

	if m.inline || !isCall {
		res, err := s.safely(ctx, m, r)
		if isCall {
			s.send(ctx, reply, name, res, err)
		} else if err != nil {
			s.log.Printf("%s: %v", name, err)
		}
		return nil
	}

	s.answerApart(call, m, r, uri, reply)
	return nil
}

// answerApart answers a request on its own goroutine, with a context that $/cancelRequest and a
// newer version of its document cancel, counted as running for the analyses (yield.go).
func (s *Server) answerApart(call *jsonrpc2.Call, m method, r *request, uri protocol.DocumentURI, reply jsonrpc2.Replier) {
	name := r.method
	rctx, cancel := context.WithCancelCause(s.ctx)
	s.mu.Lock()
	s.inflight[call.ID()] = &inflight{cancel: cancel, uri: uri}
	s.mu.Unlock()
	s.requests.enter()
	go func() {
		start := time.Now()
		res, err := s.safely(rctx, m, r)
		s.requests.leave()
		s.mu.Lock()
		delete(s.inflight, call.ID())
		s.mu.Unlock()
		switch context.Cause(rctx) {
		case errCancelled:
			res, err = nil, jsonrpc2.Errorf(codeRequestCancelled, "%s cancelled", name)
		case errSuperseded:
			res, err = nil, jsonrpc2.Errorf(codeContentModified, "%s: document changed", name)
		}
		cancel(nil)
		if d := time.Since(start); d > time.Second {
			s.log.Printf("%s took %v", name, d.Round(time.Millisecond))
		}
		s.send(s.ctx, reply, name, res, err)
	}()
}

// safely runs a handler, turning a panic into an error answer and a log entry with the stack.
func (s *Server) safely(ctx context.Context, m method, r *request) (res any, err error) {
	defer func() {
		if p := recover(); p != nil {
			s.log.Printf("panic in %s: %v\n%s", r.method, p, debug.Stack())
			res, err = nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "internal error in %s: %v", r.method, p)
		}
	}()
	return m.handle(ctx, r)
}

func (s *Server) send(ctx context.Context, reply jsonrpc2.Replier, name string, res any, err error) {
	if err != nil {
		s.replyErr(ctx, reply, name, err)
		return
	}
	if e := reply(ctx, res, nil); e != nil {
		s.log.Printf("%s: reply: %v", name, e)
	}
}

func (s *Server) replyErr(ctx context.Context, reply jsonrpc2.Replier, name string, err error) {
	var werr *jsonrpc2.Error
	if !errors.As(err, &werr) {
		err = jsonrpc2.Errorf(codeRequestFailed, "%v", err)
	}
	if e := reply(ctx, nil, err); e != nil {
		s.log.Printf("%s: reply: %v", name, e)
	}
}

// cancelRequests cancels in-flight requests with the given cause: the one with id, or, when id
// is nil, every request about uri.
func (s *Server) cancelRequests(id *jsonrpc2.ID, uri protocol.DocumentURI, cause error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if id != nil {
		if f, ok := s.inflight[*id]; ok {
			f.cancel(cause)
		}
		return
	}
	for _, f := range s.inflight {
		if f.uri == uri && uri != "" {
			f.cancel(cause)
		}
	}
}

// requestURI finds the document a request is about, so that a newer version can supersede it:
// textDocument.uri, a call hierarchy item's uri, the uri of a command's argument object, or the
// uri in a code lens's data.
func requestURI(params json.RawMessage) protocol.DocumentURI {
	var p struct {
		TextDocument struct {
			URI protocol.DocumentURI `json:"uri"`
		} `json:"textDocument"`
		Item struct {
			URI protocol.DocumentURI `json:"uri"`
		} `json:"item"`
		Arguments []json.RawMessage `json:"arguments"`
		Data      struct {
			URI protocol.DocumentURI `json:"uri"`
		} `json:"data"`
	}
	if json.Unmarshal(params, &p) != nil {
		return ""
	}
	if p.TextDocument.URI != "" {
		return p.TextDocument.URI
	}
	if p.Item.URI != "" {
		return p.Item.URI
	}
	if len(p.Arguments) > 0 {
		var a struct {
			URI protocol.DocumentURI `json:"uri"`
		}
		if json.Unmarshal(p.Arguments[0], &a) == nil {
			return a.URI
		}
	}
	return p.Data.URI
}

// notify sends a notification to the client; failures are logged.
func (s *Server) notify(method string, params any) {
	if err := s.conn.Notify(s.ctx, method, params); err != nil {
		s.log.Printf("notify %s: %v", method, err)
	}
}

// publishDiagnostics sends textDocument/publishDiagnostics, encoded by hand (see
// diagnosticsNotification), when still, if given, holds of the current view. still is asked
// under the server's mutex and the message joins the outgoing queue under it, so that neither a
// document change nor another publication comes in between: a result checked to be of the
// current version is sent before the diagnostics of a later one, or the clearing at a close.
// still must not take the mutex. It reports whether the message was sent.
func (s *Server) publishDiagnostics(p protocol.PublishDiagnosticsParams, still func(v *view) bool) bool {
	var raw []byte
	if s.stream != nil {
		var err error
		if raw, err = diagnosticsNotification(p, s.diagMemo(p.URI)); err != nil {
			s.log.Printf("notify textDocument/publishDiagnostics: %v", err)
			return false
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if still != nil && !still(s.view) {
		return false
	}
	if s.stream == nil {
		s.notify("textDocument/publishDiagnostics", p)
	} else if err := s.stream.enqueue(outgoing{raw: raw}); err != nil {
		s.log.Printf("notify textDocument/publishDiagnostics: %v", err)
	}
	return true
}

// updateView replaces the view with the result of f applied to a copy of the document map.
func (s *Server) updateView(f func(docs map[protocol.DocumentURI]*Snapshot, v *view)) *view {
	s.mu.Lock()
	defer s.mu.Unlock()
	nv := *s.view
	nv.docs = make(map[protocol.DocumentURI]*Snapshot, len(s.view.docs)+1)
	for k, d := range s.view.docs {
		nv.docs[k] = d
	}
	f(nv.docs, &nv)
	s.view = &nv
	return &nv
}

func (s *Server) currentView() *view {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.view
}

// Run serves one session on stdin/stdout and returns the exit status.
func Run(stdin io.Reader, stdout io.Writer, stderr io.Writer, opts Options) int {
	s := NewServer(stderr)
	s.opts = opts
	return s.Serve(context.Background(), stdio{stdin, stdout})
}

// Options configure a server with what lsp does not know itself.
type Options struct {
	// Seats makes the seats of gdl.runMatch's players (nil: built-in players only); the
	// command's knows players at URLs (ggp.NewSeat).
	Seats ide.Seats
}

type stdio struct {
	io.Reader
	io.Writer
}

func (stdio) Close() error { return nil }
