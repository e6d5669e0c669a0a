package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// Progress of long work (window/workDoneProgress): a verification reports how far it has come
// and the user can cancel it from the notification. The token is the one the client sent with
// the request (workDoneToken), or one the server creates when the client says it can show
// progress; without either the work runs without progress.

// progress is one piece of long work being reported. The server's mutex guards last and ended,
// and orders the notifications of one report.
type progress struct {
	s     *Server
	token any
	last  time.Time
	ended bool
}

// progresses are the reports in flight, by token, with the cancel function of their work. The
// server's mutex guards them.
type progresses struct {
	seq    int
	cancel map[string]context.CancelCauseFunc
}

func tokenKey(token any) string { return fmt.Sprint(token) }

// beginProgress starts reporting work titled title. It returns the context the work runs
// under, which the client's cancel (window/workDoneProgress/cancel) ends, and the report (nil:
// the client shows no progress).
func (s *Server) beginProgress(ctx context.Context, token json.RawMessage, title string) (context.Context, *progress) {
	return s.startProgress(ctx, token, title, true)
}

// startProgress is beginProgress for work the user can cancel from its report or not.
func (s *Server) startProgress(ctx context.Context, token json.RawMessage, title string, cancellable bool) (context.Context, *progress) {
	var tok any
	if len(token) > 0 && string(token) != "null" {
		if err := json.Unmarshal(token, &tok); err != nil {
			tok = nil
		}
	}
	if tok == nil {
		if !s.currentView().client.workDoneProgress {
			return ctx, nil
		}
		s.mu.Lock()
		s.progress.seq++
		tok = fmt.Sprintf("gdl-progress-%d", s.progress.seq)
		s.mu.Unlock()
		cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		_, err := s.conn.Call(cctx, "window/workDoneProgress/create", map[string]any{"token": tok}, nil)
		cancel()
		if err != nil {
			s.log.Printf("window/workDoneProgress/create: %v", err)
			return ctx, nil
		}
	}
	ctx, cancel := context.WithCancelCause(ctx)
	s.mu.Lock()
	if s.progress.cancel == nil {
		s.progress.cancel = map[string]context.CancelCauseFunc{}
	}
	s.progress.cancel[tokenKey(tok)] = cancel
	s.mu.Unlock()
	p := &progress{s: s, token: tok}
	s.notify("$/progress", map[string]any{"token": tok, "value": map[string]any{
		"kind": "begin", "title": title, "cancellable": cancellable}})
	return ctx, p
}

// report says how far the work has come (at most four times a second).
func (p *progress) report(message string) {
	if p == nil {
		return
	}
	p.s.mu.Lock()
	defer p.s.mu.Unlock()
	if p.ended || time.Since(p.last) < 250*time.Millisecond {
		return
	}
	p.last = time.Now()
	p.s.notify("$/progress", map[string]any{"token": p.token, "value": map[string]any{"kind": "report", "message": message}})
}

// end closes the report with a last message.
func (p *progress) end(message string) {
	if p == nil {
		return
	}
	p.s.mu.Lock()
	defer p.s.mu.Unlock()
	if p.ended {
		return
	}
	p.ended = true
	delete(p.s.progress.cancel, tokenKey(p.token))
	p.s.notify("$/progress", map[string]any{"token": p.token, "value": map[string]any{"kind": "end", "message": message}})
}

// errProgressCancelled is the cause of work the user cancelled from its progress report.
var errProgressCancelled = fmt.Errorf("cancelled by the user")

// progressCancelParams are window/workDoneProgress/cancel's parameters.
type progressCancelParams struct {
	Token any `json:"token"`
}

func handleWorkDoneProgressCancel(ctx context.Context, r *request, p *progressCancelParams) (any, error) {
	s := r.s
	s.mu.Lock()
	cancel := s.progress.cancel[tokenKey(p.Token)]
	s.mu.Unlock()
	if cancel != nil {
		cancel(errProgressCancelled)
	}
	return nil, nil
}
