package ide

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/syntax"
)

// Snapshot is one version of a document: its syntax tree and what is derived from it, computed
// on first use. It never changes once built; an edit makes a new Snapshot (Next) that shares the
// untouched parts of the tree with the old one and reuses the old analysis for them. Features
// are functions of a Snapshot.
type Snapshot struct {
	Version int32
	File    *syntax.File
	lines   *syntax.LineIndex

	analyzeMu sync.Mutex // held while the analysis is computed, so it is computed once
	analyzed  atomic.Pointer[analysis.Result]
	// base is the analysis of an earlier version, whose results for the forms this version
	// shares with it are reused; dropped once this version is analysed.
	base    atomic.Pointer[analysis.Result]
	navOnce sync.Once
	nav     *analysis.Model
}

// NewSnapshot parses text from scratch.
func NewSnapshot(version int32, text string) *Snapshot {
	f, _ := syntax.Parse(text)
	return SnapshotOf(version, f)
}

// SnapshotOf makes a snapshot of a parsed file, with nothing to reuse.
func SnapshotOf(version int32, f *syntax.File) *Snapshot {
	// The line table is built here, before the snapshot is shared between goroutines.
	return &Snapshot{Version: version, File: f, lines: f.Lines()}
}

// Next makes the snapshot of the next version, f (usually s.File edited), which reuses this
// version's analysis for the forms it shares with it.
func (s *Snapshot) Next(version int32, f *syntax.File) *Snapshot {
	next := SnapshotOf(version, f)
	next.base.Store(s.lastAnalysis())
	return next
}

// Text returns the document's text.
func (s *Snapshot) Text() string { return s.File.Source() }

// Lines returns the line table of the text.
func (s *Snapshot) Lines() *syntax.LineIndex { return s.lines }

// Line returns the 0-based line of byte offset off.
func (s *Snapshot) Line(off int) int { return s.lines.Position(off, syntax.UTF8).Line }

// Analysis returns the semantic model and diagnostics of the snapshot, computed on first use
// with the default severities.
func (s *Snapshot) Analysis() *analysis.Result {
	res, _ := s.AnalysisContext(context.Background())
	return res
}

// AnalysisContext is Analysis that gives up when ctx is done (the diagnostics of a version the
// user has already typed past are not worth finishing); a later call computes it again.
func (s *Snapshot) AnalysisContext(ctx context.Context) (*analysis.Result, error) {
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

// Diagnostics returns the parser's and the analyzer's diagnostics, with their default
// severities. It gives up when ctx is done.
func (s *Snapshot) Diagnostics(ctx context.Context) ([]analysis.Diagnostic, error) {
	res, err := s.AnalysisContext(ctx)
	if err != nil {
		return nil, err
	}
	return res.Diagnostics, nil
}
