package lsp

import (
	"context"
	"path/filepath"
	"time"

	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/syntax"
)

// File watching: the client tells the server about gdl.json files (the project configuration)
// and game files on disk (the workspace index) that change outside the open documents. The
// server registers the watchers itself after initialized, when the client can register them
// dynamically; otherwise config.go and the workspace index (ide.Index) fall back on checking at
// saves and requests.

// watchedGlobs are the files the server asks the client to watch.
var watchedGlobs = []string{"**/" + analysis.ConfigFileName, "**/*.kif", "**/*.gdl", "**/*" + syntax.InfixExt}

// startIndex starts the workspace index. It runs on initialized, before the file watcher is
// registered (the client may take long to answer that, or never): the index checks its files
// once when the watcher starts.
func (s *Server) startIndex() {
	v := s.currentView()
	s.index.Start(s.ctx, v.folders, v.enc)
}

// registerWatchers registers workspace/didChangeWatchedFiles for watchedGlobs when the client
// supports dynamic registration. It runs off the read loop: the client's answer arrives through
// it.
func (s *Server) registerWatchers() {
	if s.currentView().client.watchFiles {
		watchers := make([]map[string]any, len(watchedGlobs))
		for i, g := range watchedGlobs {
			watchers[i] = map[string]any{"globPattern": g}
		}
		params := map[string]any{"registrations": []map[string]any{{
			"id": "gdl-watched-files", "method": "workspace/didChangeWatchedFiles",
			"registerOptions": map[string]any{"watchers": watchers},
		}}}
		ctx, cancel := context.WithTimeout(s.ctx, 10*time.Second)
		var res any
		_, err := s.conn.Call(ctx, "client/registerCapability", params, &res)
		cancel()
		if err != nil {
			s.log.Printf("client/registerCapability: %v", err)
		} else {
			s.mu.Lock()
			s.watching = true
			s.mu.Unlock()
		}
	}
}

// watchingFiles reports whether the client reports changes of gdl.json and game files.
func (s *Server) watchingFiles() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.watching
}

func handleDidChangeWatchedFiles(ctx context.Context, r *request, p *protocol.DidChangeWatchedFilesParams) (any, error) {
	s := r.s
	var configs []string
	for _, ch := range p.Changes {
		path := uriPath(ch.URI)
		if path == "" {
			continue
		}
		if filepath.Base(path) == analysis.ConfigFileName {
			configs = append(configs, path)
			continue
		}
		s.index.Changed(path, ch.Type == protocol.FileChangeTypeDeleted)
		s.checkWorkspaceFile(path)
	}
	if len(configs) > 0 {
		go func() {
			for _, p := range configs {
				s.checkConfigFile(p)
			}
			s.configChanged()
			s.checkWorkspaceFiles(true) // their severities may have changed
		}()
	}
	return nil, nil
}
