package lsp

import (
	"runtime/debug"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/gdl-lsp/gdl/ide"
)

// Workspace diagnostics (setting diagnostics.workspace, off by default): the diagnostics of the
// game files of the workspace folders that are not open are published too, so that a change of
// a file shows its effect in the Problems list of every file. They are pushed with
// textDocument/publishDiagnostics, which every client takes (VS Code, Neovim 0.7, eglot), rather
// than pulled with LSP 3.17's workspace/diagnostic, which Neovim 0.7 and eglot do not ask for.
//
// One goroutine checks the files the workspace index lists, one at a time: it reads a file,
// analyses it, converts its diagnostics under the file's settings (the editor's, with its
// gdl.json), publishes them when there are any (or when the client has some to clear) and drops
// everything but the file's stamp (modification time and size). Memory stays that of one file
// (the index reads at most 5,000 files of 4 MiB); the goroutine sleeps as long as each file took,
// so that it takes at most half of a core from the editing. The files are checked again when the
// setting is turned on or the settings change (all of them), when the client's file watcher
// reports a change (that file), when a document is closed (its file on disk counts again), and,
// for a client without a file watcher, when a document is saved (the files whose stamp changed).
// Turning the setting off clears what was published.

// workspaceDiags is the state of the checks of the workspace's files. The server's mutex guards
// it.
type workspaceDiags struct {
	on        bool
	pending   map[string]bool // path -> checked even if its stamp is unchanged
	order     []string        // the pending paths, in arrival order
	all       bool            // every listed file is to be checked
	allForce  bool
	running   bool                     // the worker goroutine runs
	checked   map[string]ide.FileStamp // the version of each file whose diagnostics were computed
	published map[string]bool          // files with diagnostics in the client
	gen       uint64                   // incremented when the setting is turned on or off
}

// setWorkspaceDiagnostics applies the setting after the settings changed: on, every file is
// checked again (the severities may have changed); off, the published diagnostics are cleared.
func (s *Server) setWorkspaceDiagnostics(on bool) {
	w := &s.wsDiags
	s.mu.Lock()
	was := w.on
	w.on = on
	if on != was {
		w.gen++ // a check begun before does not publish; from 1 on, so 0 means "clear"
	}
	if !on {
		w.pending, w.order, w.all = nil, nil, false
		paths := make([]string, 0, len(w.published))
		for p := range w.published {
			paths = append(paths, p)
		}
		w.published, w.checked = nil, nil
		s.mu.Unlock()
		if was {
			for _, p := range paths {
				s.publishWorkspaceFile(p, nil, 0)
			}
		}
		return
	}
	s.mu.Unlock()
	s.checkWorkspaceFiles(true)
}

// checkWorkspaceFiles queues every listed file; with force, also those whose stamp is unchanged.
func (s *Server) checkWorkspaceFiles(force bool) {
	w := &s.wsDiags
	s.mu.Lock()
	if !w.on {
		s.mu.Unlock()
		return
	}
	w.all = true
	w.allForce = w.allForce || force
	s.mu.Unlock()
	s.startWorkspaceWorker()
}

// checkWorkspaceFile queues one file (a file event, a closed document).
func (s *Server) checkWorkspaceFile(p string) {
	w := &s.wsDiags
	s.mu.Lock()
	if !w.on {
		s.mu.Unlock()
		return
	}
	w.queue(p, true)
	s.mu.Unlock()
	s.startWorkspaceWorker()
}

func (w *workspaceDiags) queue(p string, force bool) {
	if w.pending == nil {
		w.pending = map[string]bool{}
	}
	if f, ok := w.pending[p]; ok {
		w.pending[p] = f || force
		return
	}
	w.pending[p] = force
	w.order = append(w.order, p)
}

func (s *Server) startWorkspaceWorker() {
	w := &s.wsDiags
	s.mu.Lock()
	defer s.mu.Unlock()
	if w.running {
		return
	}
	w.running = true
	go s.workspaceWorker()
}

// workspaceWorker checks the queued files until there are none.
func (s *Server) workspaceWorker() {
	w := &s.wsDiags
	defer func() {
		if p := recover(); p != nil {
			s.log.Printf("panic checking the workspace's files: %v\n%s", p, debug.Stack())
			s.mu.Lock()
			w.running = false
			s.mu.Unlock()
		}
	}()
	for s.ctx.Err() == nil {
		s.mu.Lock()
		if w.all {
			force := w.allForce
			w.all, w.allForce = false, false
			s.mu.Unlock()
			s.index.Relist(s.ctx)
			paths := s.index.GameFiles(s.ctx) // waits for the listing
			s.mu.Lock()
			if w.on {
				for _, p := range paths {
					w.queue(p, force)
				}
			}
			s.mu.Unlock()
			continue
		}
		if len(w.order) == 0 || !w.on {
			w.running = false
			s.mu.Unlock()
			return
		}
		p := w.order[0]
		w.order = w.order[1:]
		force := w.pending[p]
		delete(w.pending, p)
		gen := w.gen
		s.mu.Unlock()
		start := time.Now()
		s.checkFile(p, force, gen)
		// At most half of a core: rest as long as the file took.
		select {
		case <-time.After(min(time.Since(start), 200*time.Millisecond)):
		case <-s.ctx.Done():
		}
	}
}

// checkFile computes and publishes the diagnostics of the file at p, unless it is open (the
// document's diagnostics are the ones shown) or unchanged since it was last checked (unless
// force). A file that is gone gets its diagnostics cleared.
func (s *Server) checkFile(p string, force bool, gen uint64) {
	w := &s.wsDiags
	if s.openPath(p) {
		return
	}
	stamp, ok := ide.StampOf(p)
	s.mu.Lock()
	same := ok && w.checked[p] == stamp
	s.mu.Unlock()
	if same && !force {
		return
	}
	var snap *ide.Snapshot
	if ok && s.index.Lists(p) {
		var err error
		if snap, err = ide.ReadSnapshot(p); err != nil {
			snap = nil
		}
	}
	if snap == nil { // gone, or no longer a game file of the workspace
		s.mu.Lock()
		delete(w.checked, p)
		s.mu.Unlock()
		s.publishWorkspaceFile(p, nil, gen)
		return
	}
	u := protocol.DocumentURI(uri.File(p))
	v := s.currentView()
	diags, err := s.documentDiagnostics(s.ctx, v, wrapSnapshot(u, snap, v.enc), v.settingsFor(u), nil)
	if err != nil {
		return // the session ended
	}
	s.mu.Lock()
	if w.gen == gen {
		if w.checked == nil {
			w.checked = map[string]ide.FileStamp{}
		}
		w.checked[p] = stamp
	}
	s.mu.Unlock()
	s.publishWorkspaceFile(p, diags, gen)
}

// publishWorkspaceFile publishes the diagnostics of a file that is not open, when there are
// some or the client has some to clear; nothing when the file has been opened meanwhile or the
// setting turned on or off since the check began (gen). Gen 0 clears the file's diagnostics
// whatever the state.
func (s *Server) publishWorkspaceFile(p string, diags []protocol.Diagnostic, gen uint64) {
	w := &s.wsDiags
	if diags == nil {
		diags = []protocol.Diagnostic{}
	}
	s.publishDiagnostics(protocol.PublishDiagnosticsParams{URI: protocol.DocumentURI(uri.File(p)), Diagnostics: diags}, func(v *view) bool {
		if v.openPath(p) {
			return false
		}
		had := w.published[p]
		current := gen == 0 || w.gen == gen
		if current {
			if len(diags) > 0 {
				if w.published == nil {
					w.published = map[string]bool{}
				}
				w.published[p] = true
			} else {
				delete(w.published, p)
			}
		}
		return current && (len(diags) > 0 || had || gen == 0)
	})
}

// openPath reports whether a document for the file at p is open.
func (s *Server) openPath(p string) bool { return s.currentView().openPath(p) }

// openPath reports whether a document for the file at p is open in the view.
func (v *view) openPath(p string) bool {
	for u := range v.docs {
		if uriPath(u) == p {
			return true
		}
	}
	return false
}
