package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/gdl-lsp/gdl/syntax"
)

func handleInitialize(ctx context.Context, r *request, p *initializeParams) (any, error) {
	s := r.s
	enc := syntax.UTF16
	if p.Capabilities.General != nil {
		enc = negotiateEncoding(p.Capabilities.General.PositionEncodings)
	}
	folders := workspaceFolders(p.InitializeParams)
	s.mu.Lock()
	if s.state != stateNew {
		s.mu.Unlock()
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidRequest, "initialize sent twice")
	}
	s.state = stateRunning
	nv := *s.view
	nv.enc, nv.client, nv.folders = enc, optionsFor(p.Capabilities), folders
	s.view = &nv
	s.mu.Unlock()
	return initializeResult{
		Capabilities: s.capabilities(encodingName(enc)),
		ServerInfo:   &protocol.ServerInfo{Name: "gdl", Version: Version},
	}, nil
}

// Version is the server version reported to clients.
const Version = "0.1.0"

// workspaceFolders returns the directories of the workspace folders, else of the root; none
// is fine (documents find their gdl.json from their own folder).
func workspaceFolders(p protocol.InitializeParams) []string {
	var out []string
	for _, f := range p.WorkspaceFolders {
		if d := uriPath(protocol.DocumentURI(f.URI)); d != "" {
			out = append(out, d)
		}
	}
	if len(out) > 0 {
		return out
	}
	// Clients older than workspace folders send only these.
	//lint:ignore SA1019 the fallback for clients without workspace folders
	if d := uriPath(p.RootURI); d != "" {
		return []string{d}
	}
	//lint:ignore SA1019 the fallback for the oldest clients
	if p.RootPath != "" {
		return []string{p.RootPath} //lint:ignore SA1019 as above
	}
	return nil
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

func handleInitialized(ctx context.Context, r *request) (any, error) {
	seq := r.s.nextSettingsSeq()
	go r.s.refreshSettings(seq)
	r.s.startIndex()
	go r.s.registerWatchers()
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

// refreshSettings rebuilds the session's settings from the client's `gdl` section (pulled with
// workspace/configuration when the client supports it, else taken from a pushed
// didChangeConfiguration), then recomputes the diagnostics of every open document. Each
// document's gdl.json is laid over them by view.settingsFor. It runs off
// the read loop because the client's answer arrives through it. Refreshes may finish out of
// order: one that finishes after a newer one (seq) has been applied is dropped, so older
// settings never overwrite newer ones.
func (s *Server) refreshSettings(seq uint64, pushed ...json.RawMessage) {
	pull := s.currentView().client.pullConfiguration
	settings := defaultSettings()
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
	s.setWorkspaceDiagnostics(settings.Diagnostics.Workspace)
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

// cancelParams are $/cancelRequest's parameters.
type cancelParams struct {
	ID *jsonrpc2.ID `json:"id"`
}

func handleCancelRequest(ctx context.Context, r *request, p *cancelParams) (any, error) {
	if p.ID != nil {
		r.s.cancelRequests(p.ID, "", errCancelled)
	}
	return nil, nil
}
