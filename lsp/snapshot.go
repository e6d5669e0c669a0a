package lsp

import (
	"fmt"
	"sync"

	"go.lsp.dev/protocol"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/syntax"
)

// Snapshot is one version of one open document: its text, its syntax tree and everything
// derived from them. It never changes once built; an edit makes a new Snapshot that shares the
// untouched parts of the tree with the old one. Features are pure functions of a Snapshot.
type Snapshot struct {
	URI     protocol.DocumentURI
	Version int32
	File    *syntax.File
	m       mapper

	analyzeOnce sync.Once
	analyzed    *analysis.Result
	graphMu     sync.Mutex // Model.DependsOn memoises into a map

	gameOnce sync.Once
	game     *eval.Game
}

// Analysis returns the semantic model and diagnostics of the snapshot, computed on first use
// with the default severities (settings apply when diagnostics are published).
func (s *Snapshot) Analysis() *analysis.Result {
	s.analyzeOnce.Do(func() { s.analyzed = analysis.Analyze(s.File, nil) })
	return s.analyzed
}

// Model returns the semantic model.
func (s *Snapshot) Model() *analysis.Model { return s.Analysis().Model }

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
// changes go through the incremental parser; a change without a range replaces the text.
func (s *Snapshot) edit(version int32, changes []contentChange) (*Snapshot, error) {
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
	return snapshotOf(s.URI, version, f, s.m.enc), nil
}
