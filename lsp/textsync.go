package lsp

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/syntax"
)

// Text synchronisation: every notification runs on the read loop, so versions apply in order.
// Each change makes a new snapshot, supersedes the requests still computing on the old one and
// schedules fresh diagnostics.

func handleDidOpen(ctx context.Context, r *request, p *protocol.DidOpenTextDocumentParams) (any, error) {
	d := p.TextDocument
	start := time.Now()
	snap := newSnapshot(d.URI, string(d.LanguageID), d.Version, d.Text, r.view.enc)
	snap.received = start
	if hold := r.s.prepareStarted; hold != nil {
		snap.SetBeforePrepare(func(ctx context.Context) { hold(ctx, d.URI) })
	}
	if hold := r.s.parseStarted; hold != nil {
		snap.SetBeforeParse(func() { hold(d.URI) })
	}
	r.s.updateView(func(docs map[protocol.DocumentURI]*Snapshot, _ *view) { docs[d.URI] = snap })
	r.s.games.Update(string(d.URI), snap.Snapshot)
	r.s.cancelRequests(nil, d.URI, errSuperseded)
	r.s.touch(d.URI)
	r.s.scheduleDiagnostics(d.URI)
	r.s.refreshTestDocuments(d.URI)
	return nil, nil
}

func handleDidChange(ctx context.Context, r *request, p *didChangeParams) (any, error) {
	uri := p.TextDocument.URI
	s := r.s
	start := time.Now()
	var err error
	var lost bool // this change put the document out of sync
	var next *Snapshot
	s.updateView(func(docs map[protocol.DocumentURI]*Snapshot, _ *view) {
		old, ok := docs[uri]
		if !ok {
			err = errNotOpen(uri)
			return
		}
		next = old.edit(p.TextDocument.Version, p.ContentChanges)
		next.received = start
		lost = next.desync != nil && old.desync == nil
		docs[uri] = next
	})
	if err != nil {
		return nil, err
	}
	s.games.Update(string(uri), next.Snapshot)
	if lost {
		snap := r.s.currentView().docs[uri]
		s.log.Printf("%s is out of sync from version %d: %v", uri, p.TextDocument.Version, snap.desync)
		s.notify("window/showMessage", protocol.ShowMessageParams{Type: protocol.MessageTypeError,
			Message: "gdl: " + outOfSyncMessage(uri, snap.desync)})
	}
	s.cancelRequests(nil, uri, errSuperseded)
	s.touch(uri)
	s.scheduleDiagnostics(uri)
	s.refreshTestDocuments(uri)
	return nil, nil
}

func handleDidSave(ctx context.Context, r *request, p *protocol.DidSaveTextDocumentParams) (any, error) {
	uri := p.TextDocument.URI
	if p.Text != "" {
		var next *Snapshot
		r.s.updateView(func(docs map[protocol.DocumentURI]*Snapshot, v *view) {
			if old, ok := docs[uri]; ok && old.Text() != p.Text {
				next = newSnapshot(uri, old.lang, old.Version, p.Text, v.enc)
				next.received = time.Now()
				docs[uri] = next
			}
		})
		if next != nil {
			r.s.games.Update(string(uri), next.Snapshot)
		}
	}
	r.s.scheduleDiagnostics(uri)
	r.s.verifyOnSave(uri)
	return nil, nil
}

func handleDidClose(ctx context.Context, r *request, p *protocol.DidCloseTextDocumentParams) (any, error) {
	uri := p.TextDocument.URI
	s := r.s
	// The document leaves the view first: a request still running then cannot put its game back
	// after Close.
	s.updateView(func(docs map[protocol.DocumentURI]*Snapshot, _ *view) { delete(docs, uri) })
	s.games.Close(string(uri))
	s.testRuns.Forget(string(uri))
	s.forgetVerification(uri)
	s.cancelRequests(nil, uri, errSuperseded)
	s.closeDocument(uri)
	if p := uriPath(uri); p != "" {
		s.checkWorkspaceFile(p) // its file on disk counts again
	}
	return nil, nil
}

// outOfSyncMessage tells the user that the server lost track of a document's text, or left a
// document too large aside, and what to do.
func outOfSyncMessage(uri protocol.DocumentURI, err error) string {
	var large tooLargeError
	if errors.As(err, &large) {
		return fmt.Sprintf("%s is not checked: %v; make it smaller, or close and reopen it when it is", uri.Filename(), err)
	}
	return fmt.Sprintf("lost track of the text of %s (%v); close and reopen it to check it again", uri.Filename(), err)
}

// The synchronisation methods route gdl.json documents to the configuration (config.go) and the
// GDL documents to the handlers below, which see only GDL.

func routeDidOpen(ctx context.Context, r *request, p *protocol.DidOpenTextDocumentParams) (any, error) {
	if !isConfigURI(p.TextDocument.URI) {
		return handleDidOpen(ctx, r, p)
	}
	r.s.setConfigDoc(p.TextDocument.URI, &configDoc{text: p.TextDocument.Text, version: p.TextDocument.Version})
	return nil, nil
}

func routeDidChange(ctx context.Context, r *request, p *didChangeParams) (any, error) {
	if !isConfigURI(p.TextDocument.URI) {
		return handleDidChange(ctx, r, p)
	}
	s := r.s
	d, ok := r.view.configDocs[p.TextDocument.URI]
	if !ok {
		return nil, errNotOpen(p.TextDocument.URI)
	}
	text := d.text
	for i, ch := range p.ContentChanges {
		if ch.Range == nil {
			text = ch.Text
			continue
		}
		m := mapper{lines: syntax.NewLineIndex(text), enc: r.view.enc}
		start, end := m.offset(ch.Range.Start), m.offset(ch.Range.End)
		if start > end {
			return nil, fmt.Errorf("change %d of version %d: range end before start", i, p.TextDocument.Version)
		}
		text = text[:start] + ch.Text + text[end:]
	}
	s.setConfigDoc(p.TextDocument.URI, &configDoc{text: text, version: p.TextDocument.Version})
	return nil, nil
}

func routeDidSave(ctx context.Context, r *request, p *protocol.DidSaveTextDocumentParams) (any, error) {
	if isConfigURI(p.TextDocument.URI) {
		go func() {
			r.s.configChanged()
			r.s.checkWorkspaceFiles(true)
		}()
		return nil, nil
	}
	if !r.s.watchingFiles() {
		// Without file watching, a save is when a changed gdl.json, and a changed game file of
		// the workspace, is noticed.
		go r.s.configChanged()
		r.s.checkWorkspaceFiles(false)
	}
	return handleDidSave(ctx, r, p)
}

func routeDidClose(ctx context.Context, r *request, p *protocol.DidCloseTextDocumentParams) (any, error) {
	u := p.TextDocument.URI
	if !isConfigURI(u) {
		return handleDidClose(ctx, r, p)
	}
	s := r.s
	s.updateConfigDocs(func(docs map[protocol.DocumentURI]*configDoc) { delete(docs, u) })
	// What is on disk counts again.
	if p := uriPath(u); p != "" {
		go s.checkConfigFile(p)
	} else {
		s.publishConfigDiagnostics(u, 0, nil)
	}
	return nil, nil
}
