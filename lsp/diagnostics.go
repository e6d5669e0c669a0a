package lsp

import (
	"context"
	"errors"
	"runtime/debug"
	"strings"
	"time"

	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/syntax"
)

// problem is a diagnostic in byte offsets, before settings and the mapper apply.
type problem struct {
	span     syntax.Span
	code     string
	message  string
	severity protocol.DiagnosticSeverity
	related  []relatedInfo
	fixes    []syntax.Fix
	unused   bool // the code marks something unused: shown faded
}

type relatedInfo struct {
	span    syntax.Span
	message string
}

// fixData is what a published diagnostic carries in its data field: the fixes ready to apply
// to the version it was computed for.
type fixData struct {
	Fixes []fixEdit `json:"fixes"`
}

type fixEdit struct {
	Title string              `json:"title"`
	Edits []protocol.TextEdit `json:"edits"`
}

func errNotOpen(uri protocol.DocumentURI) error {
	return errors.New("document not open: " + string(uri))
}

// problems returns every problem of the snapshot: the parser's errors and the analyzer's, with
// their default severities. It gives up when ctx is done.
func (s *Snapshot) problems(ctx context.Context) ([]problem, error) {
	res, err := s.analysis(ctx)
	if err != nil {
		return nil, err
	}
	ds := res.Diagnostics
	out := make([]problem, 0, len(ds))
	for _, d := range ds {
		p := problem{span: d.Span, code: d.Code, message: d.Message, severity: lspSeverity(d.Severity), fixes: d.Fixes}
		for _, r := range d.Related {
			p.related = append(p.related, relatedInfo{span: r.Span, message: r.Message})
		}
		p.unused = strings.HasPrefix(d.Code, "unused-")
		out = append(out, p)
	}
	return out, nil
}

func lspSeverity(s analysis.Severity) protocol.DiagnosticSeverity {
	switch s {
	case analysis.Error:
		return protocol.DiagnosticSeverityError
	case analysis.Warning:
		return protocol.DiagnosticSeverityWarning
	case analysis.Info:
		return protocol.DiagnosticSeverityInformation
	}
	return protocol.DiagnosticSeverityHint
}

// diagnostics converts the snapshot's problems to LSP diagnostics under the given settings. It
// gives up when ctx is done.
func diagnostics(ctx context.Context, snap *Snapshot, settings Settings) ([]protocol.Diagnostic, error) {
	probs, err := snap.problems(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]protocol.Diagnostic, 0, len(probs))
	for _, p := range probs {
		if d, ok := toDiagnostic(snap, settings, p); ok {
			out = append(out, d)
		}
	}
	return out, nil
}

func toDiagnostic(snap *Snapshot, settings Settings, p problem) (protocol.Diagnostic, bool) {
	sev, on := settings.severity(p.code, p.severity)
	if !on {
		return protocol.Diagnostic{}, false
	}
	d := protocol.Diagnostic{
		Range:    snap.m.span(p.span),
		Severity: sev,
		Code:     p.code,
		Source:   "gdl",
		Message:  p.message,
	}
	if p.unused {
		d.Tags = []protocol.DiagnosticTag{protocol.DiagnosticTagUnnecessary}
	}
	for _, r := range p.related {
		d.RelatedInformation = append(d.RelatedInformation, protocol.DiagnosticRelatedInformation{
			Location: protocol.Location{URI: snap.URI, Range: snap.m.span(r.span)},
			Message:  r.message,
		})
	}
	if len(p.fixes) > 0 {
		var data fixData
		for _, f := range p.fixes {
			data.Fixes = append(data.Fixes, fixEdit{Title: f.Title, Edits: textEdits(snap, f.Edits)})
		}
		d.Data = data
	}
	return d, true
}

func textEdits(snap *Snapshot, edits []syntax.TextEdit) []protocol.TextEdit {
	out := make([]protocol.TextEdit, len(edits))
	for i, e := range edits {
		out[i] = protocol.TextEdit{Range: snap.m.span(e.Span), NewText: e.NewText}
	}
	return out
}

// scheduleDiagnostics computes and publishes the diagnostics of uri's current snapshot on a
// goroutine, cancelling the computation for an older version. A result is published only if
// its snapshot is still the document's current one, so an old result never follows a new one.
func (s *Server) scheduleDiagnostics(uri protocol.DocumentURI) {
	s.mu.Lock()
	if c := s.diagWorkers[uri]; c != nil {
		c()
	}
	ctx, cancel := context.WithCancel(s.ctx)
	s.diagWorkers[uri] = cancel
	v := s.view
	s.mu.Unlock()
	snap, ok := v.docs[uri]
	if !ok {
		cancel()
		return
	}
	go func() {
		defer func() {
			if p := recover(); p != nil {
				s.log.Printf("panic computing diagnostics of %s: %v\n%s", uri, p, debug.Stack())
			}
		}()
		var diags []protocol.Diagnostic
		if snap.desync != nil {
			diags = []protocol.Diagnostic{{Severity: protocol.DiagnosticSeverityError, Code: "out-of-sync", Source: "gdl",
				Message: outOfSyncMessage(uri, snap.desync)}}
		} else {
			var err error
			if diags, err = diagnostics(ctx, snap, v.settingsFor(uri)); err != nil {
				return // a newer version or a closed document cancelled it
			}
		}
		s.publishMu.Lock()
		defer s.publishMu.Unlock()
		if ctx.Err() != nil || s.currentView().docs[uri] != snap {
			return
		}
		s.notify("textDocument/publishDiagnostics", protocol.PublishDiagnosticsParams{
			URI: uri, Version: uint32(snap.Version), Diagnostics: diags,
		})
		if s.published != nil {
			s.published(uri, snap.Version, time.Since(snap.received))
		}
	}()
}

// closeDocument stops diagnostics work on uri and clears its diagnostics in the client.
func (s *Server) closeDocument(uri protocol.DocumentURI) {
	s.mu.Lock()
	if c := s.diagWorkers[uri]; c != nil {
		c()
		delete(s.diagWorkers, uri)
	}
	s.mu.Unlock()
	s.publishMu.Lock()
	defer s.publishMu.Unlock()
	s.notify("textDocument/publishDiagnostics", protocol.PublishDiagnosticsParams{
		URI: uri, Diagnostics: []protocol.Diagnostic{},
	})
}
