package lsp

import (
	"context"
	"runtime"
	"slices"
	"sync"

	"go.lsp.dev/protocol"
)

// Memory with many documents open. A document's tree and analysis take about 60 times its text
// (a 50 KB game, 3 MB), so a server with a whole folder of games open (the corpus: 685 files,
// 5.8 MB of text) would hold 350 MB. Only the documents in use keep them: the most recently used
// ones (opened, edited or asked about), up to hotDocs documents and hotText bytes of text (and
// always the last one used, whatever its size). The others keep their text, line table,
// diagnostics and symbols; their tree and analysis are dropped (ide.Snapshot.Release) and
// computed again from the text when a request needs them (a few ms for a corpus game), after
// which the document is in use again.
//
// A document is parsed when its diagnostics are computed, not when it is opened, and at most
// as many diagnostics are computed at once as there are processors (slots), the newest
// first: a client that opens a whole folder at once holds the trees of a few documents at a
// time, and the document being edited does not wait behind the folder.

const (
	hotDocs = 16
	hotText = 512 << 10
)

// hotSet orders the open documents by last use. The server's mutex guards it, with the view
// whose documents it orders.
type hotSet struct {
	order []protocol.DocumentURI // most recently used first
}

// touch records that uri is in use, and releases what the documents no longer in use hold.
func (s *Server) touch(uri protocol.DocumentURI) {
	h := &s.hot
	s.mu.Lock()
	i := slices.Index(h.order, uri)
	if i < 0 {
		h.order = append(h.order, "")
		i = len(h.order) - 1
	}
	copy(h.order[1:i+1], h.order[:i])
	h.order[0] = uri
	s.mu.Unlock()
	s.cool()
}

// cool releases the trees and analyses of the open documents that are not among the most
// recently used, except those still waiting for their first diagnostics (their analysis is
// being computed; they are cooled once it is published).
func (s *Server) cool() {
	h := &s.hot
	s.mu.Lock()
	v := s.view
	keep := map[protocol.DocumentURI]bool{}
	text := 0
	order := h.order[:0]
	for _, u := range h.order {
		snap, open := v.docs[u]
		if !open {
			continue // closed
		}
		order = append(order, u)
		if n := len(snap.Text()); len(keep) == 0 || len(keep) < hotDocs && text+n <= hotText {
			keep[u] = true
			text += n
		}
	}
	h.order = order
	s.mu.Unlock()
	for u, snap := range v.docs {
		if !keep[u] && snap.Analysed() {
			snap.Release()
		}
	}
}

// slots bounds the number of analyses that run at once. Waiting analyses get a slot newest
// first, so that the last change (the one the user waits for) does not queue behind a burst of
// opened documents.
type slots struct {
	mu      sync.Mutex
	free    int
	waiting []chan struct{} // oldest first
}

func newSlots() *slots { return &slots{free: max(1, runtime.GOMAXPROCS(0))} }

// acquire waits for a slot; it returns false, holding none, when ctx is done first.
func (s *slots) acquire(ctx context.Context) bool {
	s.mu.Lock()
	if s.free > 0 {
		s.free--
		s.mu.Unlock()
		return true
	}
	ch := make(chan struct{})
	s.waiting = append(s.waiting, ch)
	s.mu.Unlock()
	select {
	case <-ch:
		return true
	case <-ctx.Done():
		s.mu.Lock()
		for i, w := range s.waiting {
			if w == ch {
				s.waiting = append(s.waiting[:i], s.waiting[i+1:]...)
				s.mu.Unlock()
				return false
			}
		}
		s.mu.Unlock()
		s.release() // granted meanwhile: pass it on
		return false
	}
}

// release gives a slot back, to the newest waiter if there is one.
func (s *slots) release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if n := len(s.waiting); n > 0 {
		close(s.waiting[n-1])
		s.waiting = s.waiting[:n-1]
		return
	}
	s.free++
}
