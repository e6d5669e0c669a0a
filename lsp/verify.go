package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/ide"
)

// "Verify game" (gdl.verify): ide.Verify on the document, with progress and cancellation; its
// findings are published with the document's diagnostics for as long as the document stays at
// the version verified, each with a quick fix that replays its witness (gdl.replayMoves).

// verifications keeps the last verification of each open document. The server's mutex guards
// it.
type verifications struct {
	reports map[protocol.DocumentURI]verified
	running map[protocol.DocumentURI]context.CancelFunc // a verification on save in progress
}

// verified is a verification and the snapshot it was of: its findings' places are in that text.
type verified struct {
	snap *ide.Snapshot
	rep  *ide.VerifyReport
}

// get returns the verification of the document's snapshot, nil when the last one was of
// another version.
func (s *Server) verification(uri protocol.DocumentURI, snap *ide.Snapshot) *ide.VerifyReport {
	s.mu.Lock()
	defer s.mu.Unlock()
	v := &s.verifications
	if e, ok := v.reports[uri]; ok && e.snap == snap {
		return e.rep
	}
	return nil
}

func (s *Server) setVerification(uri protocol.DocumentURI, snap *ide.Snapshot, rep *ide.VerifyReport) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v := &s.verifications
	if v.reports == nil {
		v.reports = map[protocol.DocumentURI]verified{}
	}
	v.reports[uri] = verified{snap, rep}
}

// forget drops what is kept for a closed document, stopping a verification on save.
func (s *Server) forgetVerification(uri protocol.DocumentURI) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v := &s.verifications
	delete(v.reports, uri)
	if c := v.running[uri]; c != nil {
		c()
		delete(v.running, uri)
	}
}

// verifyResult is the result of gdl.verify.
type verifyResult struct {
	Summary  string          `json:"summary"`
	Complete bool            `json:"complete"`
	States   int             `json:"states"`
	Depth    int             `json:"depth"`
	Engine   string          `json:"engine"`
	Findings []verifyFinding `json:"findings"`
}

type verifyFinding struct {
	Property string     `json:"property"`
	Role     string     `json:"role,omitempty"`
	Message  string     `json:"message"`
	Moves    [][]string `json:"moves"` // the witness, one move per role per joint move
}

type verifyArgs struct {
	URI       protocol.DocumentURI `json:"uri"`
	MaxStates int                  `json:"maxStates"`
	TimeoutMs int                  `json:"timeoutMs"`
}

// verifyDocument verifies a document under its settings (args may narrow the budget) and
// publishes the findings.
func (s *Server) verifyDocument(ctx context.Context, v *view, snap *Snapshot, args verifyArgs, token json.RawMessage) (*verifyResult, error) {
	st := v.settingsFor(snap.URI)
	opts := ide.VerifyOptions{MaxStates: st.Verify.MaxStates, Timeout: time.Duration(st.Verify.TimeoutMs) * time.Millisecond,
		Limits: eval.Limits{Timeout: time.Duration(st.Eval.TimeoutMs) * time.Millisecond, MaxFacts: st.Eval.MaxFacts, MaxDepth: st.Eval.MaxTermDepth},
		Cache:  s.games.Cache()}
	if args.MaxStates > 0 {
		opts.MaxStates = args.MaxStates
	}
	if args.TimeoutMs > 0 {
		opts.Timeout = time.Duration(args.TimeoutMs) * time.Millisecond
	}
	ctx, p := s.beginProgress(ctx, token, "Verifying "+path.Base(string(snap.URI)))
	opts.Progress = func(explored, depth int, elapsed time.Duration) {
		p.report(fmt.Sprintf("%d states explored, depth %d, %s", explored, depth, elapsed.Round(time.Second)))
	}
	rep, err := ide.Verify(ctx, snap.Snapshot, opts)
	if err != nil {
		if cause := context.Cause(ctx); errors.Is(cause, errProgressCancelled) {
			err = cause
		}
		p.end("verification stopped: " + err.Error())
		return nil, jsonrpc2.Errorf(codeRequestFailed, "gdl.verify: %v", err)
	}
	p.end(rep.Summary)
	s.setVerification(snap.URI, snap.Snapshot, rep)
	s.scheduleDiagnostics(snap.URI)
	out := &verifyResult{Summary: rep.Summary, Complete: rep.Result.Complete, States: rep.Result.States,
		Depth: rep.Result.Depth, Engine: string(rep.Engine), Findings: []verifyFinding{}}
	for i, f := range rep.Result.Findings {
		out.Findings = append(out.Findings, verifyFinding{Property: string(f.Property), Role: f.Role,
			Message: f.Message, Moves: rep.Diagnostics[i].Witness})
	}
	return out, nil
}

// verifyOnSave verifies a saved document in the background when the setting asks for it; a
// newer save or a close stops the one in progress.
func (s *Server) verifyOnSave(uri protocol.DocumentURI) {
	v := s.currentView()
	snap, ok := v.docs[uri]
	if !ok || snap.desync != nil || !v.settingsFor(uri).Verify.OnSave {
		return
	}
	ctx, cancel := context.WithCancel(s.ctx)
	vs := &s.verifications
	s.mu.Lock()
	if c := vs.running[uri]; c != nil {
		c()
	}
	if vs.running == nil {
		vs.running = map[protocol.DocumentURI]context.CancelFunc{}
	}
	vs.running[uri] = cancel
	s.mu.Unlock()
	go func() {
		defer cancel()
		if _, err := s.verifyDocument(ctx, v, snap, verifyArgs{}, nil); err != nil && ctx.Err() == nil {
			s.log.Printf("verify on save %s: %v", uri, err)
		}
	}()
}

// verifyDiagnostics converts the findings of the document's last verification, when it was of
// this version.
func (snap *Snapshot) verifyDiagnostics(rep *ide.VerifyReport, settings Settings) []protocol.Diagnostic {
	if rep == nil {
		return nil
	}
	var out []protocol.Diagnostic
	for _, d := range rep.Diagnostics {
		sev, on := settings.severity(d.Code, lspSeverity(d.Severity))
		if !on {
			continue
		}
		pd := protocol.Diagnostic{Range: snap.m.span(d.Span), Severity: sev, Code: d.Code, Source: "gdl verify", Message: d.Message,
			Data: fixData{Witness: d.Witness, HasWitness: true}}
		for _, r := range d.Related {
			pd.RelatedInformation = append(pd.RelatedInformation, protocol.DiagnosticRelatedInformation{
				Location: protocol.Location{URI: snap.URI, Range: snap.m.span(r.Span)}, Message: r.Message})
		}
		out = append(out, pd)
	}
	return out
}

// witnessActions are the quick fixes that replay the witnesses of the verification findings
// among the diagnostics the client sends with a code action request.
func witnessActions(uri protocol.DocumentURI, diags []protocol.Diagnostic) []protocol.CodeAction {
	var out []protocol.CodeAction
	for _, d := range diags {
		raw, err := json.Marshal(d.Data)
		if err != nil {
			continue
		}
		var data fixData
		if json.Unmarshal(raw, &data) != nil || !data.HasWitness {
			continue
		}
		out = append(out, protocol.CodeAction{
			Title:       fmt.Sprintf("Replay the %d joint moves that show it in the game's state", len(data.Witness)),
			Kind:        protocol.QuickFix,
			Diagnostics: []protocol.Diagnostic{d},
			Command: &protocol.Command{Title: "Replay the witness", Command: "gdl.replayMoves",
				Arguments: []any{map[string]any{"uri": uri, "history": data.Witness}}},
		})
	}
	return out
}
