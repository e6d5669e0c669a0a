package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/syntax"
)

func handleInitialize(ctx context.Context, r *request) (any, error) {
	var p initializeParams
	if err := r.decode(&p); err != nil {
		return nil, err
	}
	s := r.s
	enc := syntax.UTF16
	if p.Capabilities.General != nil {
		enc = negotiateEncoding(p.Capabilities.General.PositionEncodings)
	}
	root := rootDir(p.InitializeParams)
	settings := defaultSettings()
	if root != "" {
		settings = s.readProjectConfig(root, settings)
	}
	s.mu.Lock()
	if s.state != stateNew {
		s.mu.Unlock()
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidRequest, "initialize sent twice")
	}
	s.state = stateRunning
	s.clientCaps = p.Capabilities
	s.root = root
	nv := *s.view
	nv.enc = enc
	nv.settings = settings
	s.view = &nv
	s.mu.Unlock()
	return initializeResult{
		Capabilities: s.capabilities(encodingName(enc)),
		ServerInfo:   &protocol.ServerInfo{Name: "gdl", Version: Version},
	}, nil
}

// Version is the server version reported to clients.
const Version = "0.1.0"

func rootDir(p protocol.InitializeParams) string {
	u := p.RootURI
	if len(p.WorkspaceFolders) > 0 {
		u = protocol.DocumentURI(p.WorkspaceFolders[0].URI)
	}
	if u == "" {
		return p.RootPath
	}
	return uriPath(u)
}

// uriPath returns the file path of a file: URI, or "" for other schemes.
func uriPath(u protocol.DocumentURI) (path string) {
	defer func() {
		if recover() != nil { // uri.Filename panics on non-file schemes
			path = ""
		}
	}()
	if len(u) < 5 || u[:5] != "file:" {
		return ""
	}
	return uri.URI(u).Filename()
}

// readProjectConfig overlays the project's gdl.json (looked up from root upwards, as the CLI
// does) on base.
func (s *Server) readProjectConfig(root string, base Settings) Settings {
	cfg, err := analysis.FindConfig(root)
	if err != nil {
		s.log.Printf("project config: %v", err)
		return base
	}
	if cfg == nil {
		return base
	}
	out := base
	out.Severity = make(map[string]string, len(base.Severity)+len(cfg.Severity))
	for k, v := range base.Severity {
		out.Severity[k] = v
	}
	for code, sev := range cfg.Severity {
		out.Severity[code] = sev.String()
	}
	pos := func(dst *int, v int) {
		if v > 0 {
			*dst = v
		}
	}
	pos(&out.Eval.TimeoutMs, cfg.Eval.TimeoutMs)
	pos(&out.Eval.MaxFacts, cfg.Eval.MaxFacts)
	pos(&out.Eval.MaxTermDepth, cfg.Eval.MaxTermDepth)
	return out
}

func handleInitialized(ctx context.Context, r *request) (any, error) {
	seq := r.s.nextSettingsSeq()
	go r.s.refreshSettings(seq)
	return nil, nil
}

func handleDidChangeConfiguration(ctx context.Context, r *request) (any, error) {
	// Clients differ in what they send here; pulling the section is the one reliable way.
	var p struct {
		Settings json.RawMessage `json:"settings"`
	}
	_ = json.Unmarshal(r.params, &p)
	seq := r.s.nextSettingsSeq()
	go r.s.refreshSettings(seq, p.Settings)
	return nil, nil
}

// nextSettingsSeq numbers a settings refresh in arrival order (it runs on the read loop).
func (s *Server) nextSettingsSeq() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.settingsSeq++
	return s.settingsSeq
}

// refreshSettings rebuilds the settings from the project file and the client's `gdl` section
// (pulled with workspace/configuration when the client supports it, else taken from a pushed
// didChangeConfiguration), then recomputes the diagnostics of every open document. It runs off
// the read loop because the client's answer arrives through it. Refreshes may finish out of
// order: one that finishes after a newer one (seq) has been applied is dropped, so older
// settings never overwrite newer ones.
func (s *Server) refreshSettings(seq uint64, pushed ...json.RawMessage) {
	s.mu.Lock()
	root := s.root
	pull := s.clientCaps.Workspace != nil && s.clientCaps.Workspace.Configuration
	s.mu.Unlock()
	settings := defaultSettings()
	if root != "" {
		settings = s.readProjectConfig(root, settings)
	}
	var section json.RawMessage
	if pull {
		var res []json.RawMessage
		params := map[string]any{"items": []map[string]string{{"section": "gdl"}}}
		if _, err := s.conn.Call(s.ctx, "workspace/configuration", params, &res); err != nil {
			s.log.Printf("workspace/configuration: %v", err)
		} else if len(res) > 0 {
			section = res[0]
		}
	} else if len(pushed) > 0 && len(pushed[0]) > 0 {
		var wrapper struct {
			GDL json.RawMessage `json:"gdl"`
		}
		if json.Unmarshal(pushed[0], &wrapper) == nil {
			section = wrapper.GDL
		}
	}
	if merged, err := settings.merge(section); err != nil {
		s.log.Printf("gdl settings: %v", err)
	} else {
		settings = merged
	}
	stale := false
	v := s.updateView(func(_ map[protocol.DocumentURI]*Snapshot, v *view) {
		if seq < s.settingsApplied {
			stale = true
			return
		}
		s.settingsApplied = seq
		v.settings = settings
	})
	if stale {
		s.log.Printf("dropping settings refresh %d: a newer one was applied", seq)
		return
	}
	for uri := range v.docs {
		s.scheduleDiagnostics(uri)
	}
}

func handleShutdown(ctx context.Context, r *request) (any, error) {
	s := r.s
	s.mu.Lock()
	s.state = stateShutdown
	s.exitCode = 0
	for _, f := range s.inflight {
		f.cancel(errCancelled)
	}
	s.mu.Unlock()
	return nil, nil
}

func handleExit(ctx context.Context, r *request) (any, error) {
	s := r.s
	s.mu.Lock()
	select {
	case <-s.exited:
	default:
		close(s.exited)
	}
	s.mu.Unlock()
	return nil, nil
}

func handleCancelRequest(ctx context.Context, r *request) (any, error) {
	var p struct {
		ID *jsonrpc2.ID `json:"id"`
	}
	if err := r.decode(&p); err != nil {
		return nil, err
	}
	if p.ID != nil {
		r.s.cancelRequests(p.ID, "", errCancelled)
	}
	return nil, nil
}
