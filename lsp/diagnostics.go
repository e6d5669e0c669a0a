package lsp

import (
	"context"
	"errors"
	"fmt"
	"path"
	"runtime/debug"
	"strings"
	"time"

	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/analysis"
)

// fixData is what a published diagnostic carries in its data field: the fixes ready to apply
// to the version it was computed for.
type fixData struct {
	Fixes []fixEdit `json:"fixes,omitempty"`
	// A verification finding: the joint moves that show it (gdl.replayMoves replays them).
	Witness    [][]string `json:"witness,omitempty"`
	HasWitness bool       `json:"hasWitness,omitempty"`
}

type fixEdit struct {
	Title string              `json:"title"`
	Edits []protocol.TextEdit `json:"edits"`
}

func errNotOpen(uri protocol.DocumentURI) error {
	return errors.New("document not open: " + string(uri))
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

// diagnostics converts the snapshot's diagnostics to LSP under the given settings, through the
// document's memo (nil: none), telling progress (when not nil) how far the whole-file checks
// have come. It gives up when ctx is done.
func diagnostics(ctx context.Context, snap *Snapshot, settings Settings, memo *diagMemo, progress func(done, total int)) ([]protocol.Diagnostic, error) {
	ds, err := snap.DiagnosticsProgress(ctx, progress)
	if err != nil {
		return nil, err
	}
	// The codes the settings turn off first, then at most analysis.MaxShown and a note.
	on := make([]analysis.Diagnostic, 0, len(ds))
	for _, d := range ds {
		if _, ok := settings.severity(d.Code, lspSeverity(d.Severity)); ok {
			on = append(on, d)
		}
	}
	return memo.convert(snap, settings, analysis.Shown(snap.File(), on)), nil
}

// diagnostic converts one diagnostic under the settings; ok is false when its code is off.
func (s *Snapshot) diagnostic(settings Settings, d analysis.Diagnostic) (protocol.Diagnostic, bool) {
	sev, on := settings.severity(d.Code, lspSeverity(d.Severity))
	if !on {
		return protocol.Diagnostic{}, false
	}
	pd := protocol.Diagnostic{
		Range:    s.m.span(d.Span),
		Severity: sev,
		Code:     d.Code,
		Source:   "gdl",
		Message:  d.Message,
	}
	if strings.HasPrefix(d.Code, "unused-") {
		pd.Tags = []protocol.DiagnosticTag{protocol.DiagnosticTagUnnecessary} // shown faded
	}
	for _, r := range d.Related {
		pd.RelatedInformation = append(pd.RelatedInformation, protocol.DiagnosticRelatedInformation{
			Location: protocol.Location{URI: s.URI, Range: s.m.span(r.Span)},
			Message:  r.Message,
		})
	}
	if len(d.Fixes) > 0 {
		var data fixData
		for _, f := range d.Fixes {
			data.Fixes = append(data.Fixes, fixEdit{Title: f.Title, Edits: s.m.edits(f.Edits)})
		}
		pd.Data = data
	}
	return pd, true
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
	if s.diagMemos[uri] == nil {
		s.diagMemos[uri] = &diagMemo{}
	}
	v := s.view
	s.mu.Unlock()
	snap, ok := v.docs[uri]
	if !ok {
		cancel()
		return
	}
	// Until this analysis ends, requests answer from an earlier version's model or from the
	// syntax stage instead of waiting for this version's (ide.Snapshot.AnalyseApart).
	snap.AnalyseApart()
	go func() {
		defer snap.EndApart()
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
			if !s.slots.acquire(ctx) {
				return // a newer version or a closed document cancelled it
			}
			var err error
			settings := v.settingsFor(uri)
			func() {
				defer s.slots.release()
				ap := s.analysisProgress(ctx, uri)
				defer ap.finish()
				// The analysis yields to the requests answered meanwhile (yield.go).
				actx := yieldingContext{Context: ctx, gate: &s.requests, awaited: snap.Awaited}
				diags, err = s.documentDiagnostics(actx, v, snap, settings, ap.checked)
			}()
			if err != nil {
				return // a newer version or a closed document cancelled it
			}
			diags = append(diags, snap.verifyDiagnostics(s.verification(uri, snap.Snapshot), settings)...)
			// A test document's tests run after its static diagnostics are published.
			defer func() { go func() { defer s.recoverTests(uri); s.runTestsInBackground(ctx, v, snap, diags) }() }()
		}
		sent := s.publishDiagnostics(protocol.PublishDiagnosticsParams{URI: uri, Version: uint32(snap.Version), Diagnostics: diags},
			func(v *view) bool { return ctx.Err() == nil && v.docs[uri] == snap })
		if !sent {
			return
		}
		if s.published != nil {
			s.published(uri, snap.Version, time.Since(snap.received))
		}
		go s.cool() // its analysis is known now: release it unless it is in use
	}()
}

// analysisShownAfter is how long an analysis for diagnostics runs before the client is shown its
// progress (window/workDoneProgress, when the client supports it): a big or hostile file.
const analysisShownAfter = time.Second

// shownAnalysis is the progress report of one analysis for diagnostics: begun once the analysis
// has run for analysisShownAfter (Server.analysisShownAfter), ended when it finishes. The
// server's mutex guards the fields after timer.
type shownAnalysis struct {
	s       *Server
	ctx     context.Context
	uri     protocol.DocumentURI
	timer   *time.Timer
	p       *progress // the report, once begun
	message string    // how far the checks have come
	done    bool      // the analysis finished (or was cancelled)
}

// analysisProgress starts the clock of the analysis of uri's diagnostics under ctx.
func (s *Server) analysisProgress(ctx context.Context, uri protocol.DocumentURI) *shownAnalysis {
	a := &shownAnalysis{s: s, ctx: ctx, uri: uri}
	after := s.analysisShownAfter
	if after == 0 {
		after = analysisShownAfter
	}
	a.timer = time.AfterFunc(after, a.begin)
	return a
}

// begin shows the report, unless the analysis finished meanwhile; if it finishes while the
// client is asked to create the report, the report ends at once.
func (a *shownAnalysis) begin() {
	mu := &a.s.mu
	mu.Lock()
	done := a.done
	mu.Unlock()
	if done {
		return
	}
	_, p := a.s.startProgress(a.s.ctx, nil, "Checking "+path.Base(string(a.uri)), false)
	if p == nil {
		return
	}
	mu.Lock()
	done, message := a.done, a.message
	if !done {
		a.p = p
	}
	mu.Unlock()
	if done {
		p.end("")
	} else if message != "" {
		p.report(message)
	}
}

// checked is the whole-file checks' progress (analysis.CheckModel's): done of total.
func (a *shownAnalysis) checked(done, total int) {
	if done == 0 && a.s.checksStarted != nil {
		a.s.checksStarted(a.ctx, a.uri)
	}
	message := fmt.Sprintf("%d of %d checks", done, total)
	a.s.mu.Lock()
	a.message = message
	p := a.p
	a.s.mu.Unlock()
	p.report(message)
}

// finish ends the report.
func (a *shownAnalysis) finish() {
	a.timer.Stop()
	a.s.mu.Lock()
	a.done = true
	p := a.p
	a.s.mu.Unlock()
	p.end("")
}

// closeDocument stops diagnostics work on uri and clears its diagnostics in the client.
func (s *Server) closeDocument(uri protocol.DocumentURI) {
	s.mu.Lock()
	if c := s.diagWorkers[uri]; c != nil {
		c()
		delete(s.diagWorkers, uri)
	}
	delete(s.diagMemos, uri)
	s.mu.Unlock()
	s.publishDiagnostics(protocol.PublishDiagnosticsParams{URI: uri, Diagnostics: []protocol.Diagnostic{}}, nil)
}

// diagMemo returns the memo of uri's diagnostics: an open document's, else nil.
func (s *Server) diagMemo(uri protocol.DocumentURI) *diagMemo {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.diagMemos[uri]
}
