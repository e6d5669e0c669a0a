package lsp

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/syntax"
)

// Snapshot is one version of one open document: its text, its syntax tree and everything
// derived from them. It never changes once built; an edit makes a new Snapshot that shares the
// untouched parts of the tree with the old one. Features are pure functions of a Snapshot.
type Snapshot struct {
	URI      protocol.DocumentURI
	Version  int32
	File     *syntax.File
	m        mapper
	received time.Time // when the notification that made this version arrived

	analyzeMu sync.Mutex // held while the analysis is computed, so it is computed once
	analyzed  atomic.Pointer[analysis.Result]
	// base is the analysis of an earlier version, whose results for the forms this version
	// shares with it are reused; dropped once this version is analysed.
	base    atomic.Pointer[analysis.Result]
	navOnce sync.Once
	nav     *analysis.Model
	graphMu sync.Mutex // Model.DependsOn memoises into a map

	// desync, when set, is the change that the server could not apply to an earlier version:
	// the server no longer knows the client's text, so the document is shown as out of sync
	// and requests on it fail until a full-text change, or closing and reopening it.
	desync error
}

// Analysis returns the semantic model and diagnostics of the snapshot, computed on first use
// with the default severities (settings apply when diagnostics are published).
func (s *Snapshot) Analysis() *analysis.Result {
	res, _ := s.analysis(context.Background())
	return res
}

// analysis is Analysis that gives up when ctx is done (the diagnostics of a version the user has
// already typed past are not worth finishing); a later call computes it again.
func (s *Snapshot) analysis(ctx context.Context) (*analysis.Result, error) {
	if res := s.analyzed.Load(); res != nil {
		return res, nil
	}
	s.analyzeMu.Lock()
	defer s.analyzeMu.Unlock()
	if res := s.analyzed.Load(); res != nil {
		return res, nil
	}
	res, err := analysis.AnalyzeContext(ctx, s.File, nil, s.base.Load())
	if err != nil {
		return nil, err
	}
	s.analyzed.Store(res)
	s.base.Store(nil)
	return res, nil
}

// lastAnalysis returns the newest analysis this snapshot has or builds on, for the next version
// to reuse; nil if there is none yet.
func (s *Snapshot) lastAnalysis() *analysis.Result {
	if res := s.analyzed.Load(); res != nil {
		return res
	}
	return s.base.Load()
}

// Model returns the semantic model for navigation: forms with syntax errors take part as far
// as their shape allows, so hover, definition and completion work in a rule being typed.
func (s *Snapshot) Model() *analysis.Model {
	res := s.Analysis()
	if !res.Model.Incomplete() {
		return res.Model
	}
	s.navOnce.Do(func() { s.nav = analysis.NavigationModel(res) })
	return s.nav
}

// dependsOn reports whether relation from depends on relation to, serialising the model's memo.
func (s *Snapshot) dependsOn(from, to string) bool {
	m := s.Model()
	s.graphMu.Lock()
	defer s.graphMu.Unlock()
	return m.DependsOn(from, to)
}

// newSnapshot parses text from scratch.
func newSnapshot(uri protocol.DocumentURI, version int32, text string, enc syntax.Encoding) *Snapshot {
	f, _ := syntax.Parse(text)
	return snapshotOf(uri, version, f, enc)
}

func snapshotOf(uri protocol.DocumentURI, version int32, f *syntax.File, enc syntax.Encoding) *Snapshot {
	// Lines is built lazily by File; building it here, before the snapshot is shared between
	// goroutines, keeps later calls read-only.
	return &Snapshot{URI: uri, Version: version, File: f, m: mapper{lines: f.Lines(), enc: enc}}
}

// Text returns the document's text.
func (s *Snapshot) Text() string { return s.File.Source() }

// edit applies LSP content changes in order and returns the next version's snapshot. Ranged
// changes go through the incremental parser; a change without a range replaces the text. A
// change that cannot be applied leaves the document out of sync (see desync), as do ranged
// changes to a document that is out of sync already; a full-text change resynchronises it.
func (s *Snapshot) edit(version int32, changes []contentChange) *Snapshot {
	if s.desync != nil {
		last := -1
		for i, ch := range changes {
			if ch.Range == nil {
				last = i
			}
		}
		if last < 0 {
			return s.outOfSync(version, s.desync)
		}
		changes = changes[last:]
	}
	next, err := s.apply(version, changes)
	if err != nil {
		return s.outOfSync(version, err)
	}
	return next
}

// outOfSync returns the snapshot of a version whose text the server does not know: it keeps
// the last text it knew, for nothing but the record.
func (s *Snapshot) outOfSync(version int32, err error) *Snapshot {
	next := snapshotOf(s.URI, version, s.File, s.m.enc)
	next.desync = err
	return next
}

// apply applies the changes to the snapshot's text.
func (s *Snapshot) apply(version int32, changes []contentChange) (*Snapshot, error) {
	f, lines := s.File, s.m.lines
	for i, ch := range changes {
		if ch.Range == nil {
			f, _ = syntax.Parse(ch.Text)
		} else {
			if i > 0 {
				lines = f.Lines()
			}
			m := mapper{lines: lines, enc: s.m.enc}
			start, end := m.offset(ch.Range.Start), m.offset(ch.Range.End)
			if start > end {
				return nil, fmt.Errorf("change %d of version %d: range end %v before start %v", i, version, ch.Range.End, ch.Range.Start)
			}
			f = f.Edit(start, end, ch.Text)
		}
		lines = f.Lines()
	}
	next := snapshotOf(s.URI, version, f, s.m.enc)
	next.base.Store(s.lastAnalysis())
	return next, nil
}
