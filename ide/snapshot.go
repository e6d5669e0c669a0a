package ide

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/syntax"
)

// Snapshot is one version of a document: its text, and what is derived from it (the syntax
// tree, the analysis, the navigation model), computed on first use. Its content never changes
// once built; an edit makes a new Snapshot (Next) that shares the untouched parts of the tree
// with the old one and reuses the old analysis for them. Features are functions of a Snapshot.
//
// The analysis comes in two stages, each computed once and each waited for only by what needs
// it: the model (analysis.Prepare: symbols, occurrences, graph, the per-clause checks), which
// navigation needs (Model), then the whole-file checks (analysis.CheckModel), which only the
// diagnostics and what reads them need (Diagnostics, Analysis). A hover never waits for a
// slow check.
//
// What is derived can be dropped (Release) and is then computed again from the text when asked
// for: a server with hundreds of documents open keeps the trees and analyses of the few in use
// (a tree and its analysis take about 60 times the text). The diagnostics and the symbols stay,
// so that settings changes and workspace symbols need no new analysis.
type Snapshot struct {
	Version int32
	text    string
	dialect syntax.Dialect
	lines   *syntax.LineIndex

	mu sync.Mutex // guards what follows
	// parsing, preparing and checking are closed when the parse, the model or the whole-file
	// checks that a caller is computing end (nil: none is): see compute.
	parsing, preparing, checking chan struct{}

	file     *syntax.File
	prepared *analysis.Model // the model the checks run on (analysis.Prepare's)
	analyzed *analysis.Result
	// base is the model of an earlier version, whose parts for the forms this version shares
	// with it are reused; dropped once this version's model is built.
	base     *analysis.Model
	nav      *analysis.Model
	diags    []analysis.Diagnostic // kept when released
	hasDiags bool
	symbols  []Symbol // kept when released
	hasSyms  bool
	// checked is closed once the analysis has been computed (made on first need).
	checked chan struct{}
	// older is the newest earlier version whose model was built, with what changed since,
	// while this version's model is not: requests answer from it (Answering). Dropped once this
	// version's model is built.
	older *olderVersion
	// beforePrepare, when set (by tests, through SetBeforePrepare), is called before the model
	// is built; it is handed to the next versions.
	beforePrepare func(ctx context.Context)
	// beforeParse, when set (by tests, through SetBeforeParse), is called before the whole text
	// is parsed.
	beforeParse func()
	// apart counts the analyses of this version being run apart from the requests
	// (AnalyseApart). stage is the syntax stage the requests answered from meanwhile (syntax_stage.go),
	// dropped once the model is built.
	apart int
	stage *syntaxStage

	// waiters counts the callers of compute waiting for another's computation (Awaited).
	waiters atomic.Int32

	boundsOnce sync.Once
	bounds     []syntax.Span // the forms' spans by a scan of the bytes (formBounds)
	boundsOK   bool
}

// olderVersion is an earlier version of a document and the part of its text that differs from
// a later one's: [lo, hi) of the earlier text became a text delta bytes longer.
type olderVersion struct {
	snap   *Snapshot
	lo, hi int
	delta  int
}

// NewSnapshot makes the snapshot of text in the notation its content is written in
// (syntax.DetectContent).
func NewSnapshot(version int32, text string) *Snapshot {
	return NewSnapshotIn(version, text, syntax.DetectContent(text))
}

// NewSnapshotIn makes the snapshot of text in dialect d, with nothing to reuse. The text is
// parsed on first use (a server opening many documents at once parses each when its turn comes).
func NewSnapshotIn(version int32, text string, d syntax.Dialect) *Snapshot {
	// The line table is built here, before the snapshot is shared between goroutines.
	return &Snapshot{Version: version, text: text, dialect: d, lines: syntax.NewLineIndex(text)}
}

// SnapshotOf makes a snapshot of a parsed file, with nothing to reuse.
func SnapshotOf(version int32, f *syntax.File) *Snapshot {
	return &Snapshot{Version: version, text: f.Source(), dialect: f.Dialect(), file: f, lines: f.Lines()}
}

// Next makes the snapshot of the next version, f (usually s.File() edited), which reuses this
// version's model for the forms it shares with it.
func (s *Snapshot) Next(version int32, f *syntax.File) *Snapshot {
	return s.follow(SnapshotOf(version, f))
}

// NextText makes the snapshot of the next version from its whole text, in dialect d, parsed on
// first use: a language server edits a version whose text is not parsed yet (a large file just
// opened) this way rather than wait for its parse. It takes over what Next does but the tree:
// nothing of this version's is there to share.
func (s *Snapshot) NextText(version int32, text string, d syntax.Dialect) *Snapshot {
	return s.follow(NewSnapshotIn(version, text, d))
}

// Parsed reports whether the text is parsed already; it never waits.
func (s *Snapshot) Parsed() bool { return s.parsedFile() != nil }

// follow makes next, a snapshot of the next version, follow this one: the newest model to reuse,
// the hooks of the tests, and the earlier version to answer from while next's model is built.
func (s *Snapshot) follow(next *Snapshot) *Snapshot {
	next.base = s.lastModel()
	s.mu.Lock()
	ready, older := s.prepared != nil, s.older
	next.beforePrepare, next.beforeParse = s.beforePrepare, s.beforeParse
	s.mu.Unlock()
	lo, hi := changedRegion(s.text, next.text)
	switch {
	case ready:
		next.older = &olderVersion{snap: s, lo: lo, hi: hi, delta: len(next.text) - len(s.text)}
	case older != nil:
		// What changed since the older version: its change and this one, taken back to its text.
		next.older = &olderVersion{snap: older.snap, lo: min(older.lo, older.back(lo, false)),
			hi: max(older.hi, older.back(hi, true)), delta: older.delta + len(next.text) - len(s.text)}
	}
	return next
}

// back returns the offset in the older text of offset off of the later one: the same before the
// change, moved after it, and the start (end, with end) of the changed part inside it.
func (o *olderVersion) back(off int, end bool) int {
	switch {
	case off <= o.lo:
		return off
	case off >= o.hi+o.delta:
		return off - o.delta
	case end:
		return o.hi
	}
	return o.lo
}

// changedRegion returns the part [lo, hi) of a that b replaces: a and b share a[:lo] and a[hi:]
// (as long a prefix as they share, then as long a suffix of the rest). 64 bytes a step: the
// language server compares every version of a document with the one before.
func changedRegion(a, b string) (lo, hi int) {
	n := min(len(a), len(b))
	for lo+64 <= n && a[lo:lo+64] == b[lo:lo+64] {
		lo += 64
	}
	for lo < n && a[lo] == b[lo] {
		lo++
	}
	k := 0 // the length of the common suffix of a[lo:] and b[lo:]
	for m := n - lo; k+64 <= m && a[len(a)-k-64:len(a)-k] == b[len(b)-k-64:len(b)-k]; {
		k += 64
	}
	for k < n-lo && a[len(a)-k-1] == b[len(b)-k-1] {
		k++
	}
	return lo, len(a) - k
}

// Answering returns the snapshot that a request at offset off answers from without waiting for
// a model: this one when its model is built (or being built only because nothing older can
// serve), else the newest earlier version whose model is built, when off lies outside what
// changed since; with off in that version's text, and a function that takes a span of that
// version to this one's (false when the span overlaps the change: then the request waits for
// this version after all). An answer from an earlier version is that version's: a hover far from
// an edit of a 3 MB file answers at once instead of after the new model (seconds).
func (s *Snapshot) Answering(off int) (*Snapshot, int, func(syntax.Span) (syntax.Span, bool)) {
	same := func(sp syntax.Span) (syntax.Span, bool) { return sp, true }
	s.mu.Lock()
	o := s.older
	if s.prepared != nil {
		o, s.older = nil, nil
	}
	s.mu.Unlock()
	if o == nil || !o.snap.hasModel() {
		return s, off, same
	}
	var old int
	switch {
	case off < o.lo:
		old = off
	case off > o.hi+o.delta:
		old = off - o.delta
	default:
		return s, off, same
	}
	return o.snap, old, func(sp syntax.Span) (syntax.Span, bool) {
		switch {
		case sp.End < o.lo:
			return sp, true
		case sp.Start > o.hi:
			return syntax.Span{Start: sp.Start + o.delta, End: sp.End + o.delta}, true
		}
		return sp, false
	}
}

// hasModel reports whether the snapshot's model is built (and not released).
func (s *Snapshot) hasModel() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.prepared != nil
}

// SetBeforePrepare sets a function called before the model of this version, and of the versions
// made from it by Next, is built: tests hold the building of a model with it. Call it before the
// snapshot is shared.
func (s *Snapshot) SetBeforePrepare(f func(ctx context.Context)) { s.beforePrepare = f }

// SetBeforeParse sets a function called before the whole text of this version is parsed: tests
// hold the parse with it, as the parse of a large file would take its time. Call it before the
// snapshot is shared.
func (s *Snapshot) SetBeforeParse(f func()) { s.beforeParse = f }

// Text returns the document's text.
func (s *Snapshot) Text() string { return s.text }

// Dialect returns the notation the document is written in.
func (s *Snapshot) Dialect() syntax.Dialect { return s.dialect }

// File returns the syntax tree of the text, parsed on first use (again if it was released).
func (s *Snapshot) File() *syntax.File {
	f, _ := s.fileContext(context.Background())
	return f
}

// fileContext is File for a computation that ctx cancels: the parse looks at ctx as it goes
// (syntax.ParseContext), and gives up, or yields to requests, there.
func (s *Snapshot) fileContext(ctx context.Context) (*syntax.File, error) {
	var f *syntax.File
	err := s.compute(ctx, &s.parsing, func() bool { f = s.file; return f != nil }, func() error {
		if s.beforeParse != nil {
			s.beforeParse()
		}
		parsed, err := syntax.ParseContext(ctx, s.text, s.dialect)
		if err != nil {
			return err
		}
		f = parsed
		s.mu.Lock()
		s.file = f
		s.mu.Unlock()
		return nil
	})
	return f, err
}

// compute makes sure that a derived value is computed by one caller at a time: unless known
// reports it there (asked under s.mu), the first caller runs f and the others wait for it to
// end, or for their own ctx, and then look again (f may have given up, or the value have been
// released meanwhile). running is the value's channel (parsing, preparing, checking).
func (s *Snapshot) compute(ctx context.Context, running *chan struct{}, known func() bool, f func() error) error {
	for {
		s.mu.Lock()
		if known() {
			s.mu.Unlock()
			return nil
		}
		wait := *running
		if wait == nil {
			*running = make(chan struct{})
			s.mu.Unlock()
			return s.run(running, f)
		}
		s.mu.Unlock()
		s.waiters.Add(1)
		select {
		case <-wait:
		case <-ctx.Done():
			s.waiters.Add(-1)
			return ctx.Err()
		}
		s.waiters.Add(-1)
	}
}

// Awaited reports whether a caller is waiting for a value of this snapshot that another is
// computing (its parse, model or analysis): a language server's analysis, which otherwise
// yields to the requests being answered, does not yield to one that waits for it.
func (s *Snapshot) Awaited() bool { return s.waiters.Load() > 0 }

// run runs f as the caller computing a value, then lets the others look again.
func (s *Snapshot) run(running *chan struct{}, f func() error) error {
	defer func() {
		s.mu.Lock()
		close(*running)
		*running = nil
		s.mu.Unlock()
	}()
	return f()
}

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
	return s.analysisProgress(ctx, nil)
}

// analysisProgress is AnalysisContext telling progress how far the whole-file checks have come
// (analysis.CheckModel), when it runs them.
func (s *Snapshot) analysisProgress(ctx context.Context, progress func(done, total int)) (*analysis.Result, error) {
	if res := s.analysis(); res != nil {
		return res, nil
	}
	m, err := s.PrepareContext(ctx)
	if err != nil {
		return nil, err
	}
	var res *analysis.Result
	err = s.compute(ctx, &s.checking, func() bool { res = s.analyzed; return res != nil }, func() error {
		var err error
		if res, err = analysis.CheckModel(ctx, m, nil, progress); err != nil {
			return err
		}
		s.mu.Lock()
		// The tree, the model and the analysis go together (a release meanwhile may have
		// dropped the first two).
		s.file, s.prepared, s.analyzed = m.File, m, res
		if !s.hasDiags && s.checked != nil {
			close(s.checked)
		}
		s.diags, s.hasDiags = res.Diagnostics, true
		s.mu.Unlock()
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// analysisDone returns a channel closed once the snapshot's analysis has been computed.
func (s *Snapshot) analysisDone() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.checked == nil {
		s.checked = make(chan struct{})
		if s.hasDiags {
			close(s.checked)
		}
	}
	return s.checked
}

func (s *Snapshot) analysis() *analysis.Result {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.analyzed
}

// PrepareContext returns the model the whole-file checks run on (analysis.Prepare: the model of
// the complete forms, with the per-clause checks), built on first use from this version's base;
// it gives up when ctx is done, and a later call builds it again.
func (s *Snapshot) PrepareContext(ctx context.Context) (*analysis.Model, error) {
	var m *analysis.Model
	err := s.compute(ctx, &s.preparing, func() bool { m = s.prepared; return m != nil }, func() error {
		s.mu.Lock()
		base, hold := s.base, s.beforePrepare
		s.mu.Unlock()
		if hold != nil {
			hold(ctx)
		}
		f, err := s.fileContext(ctx)
		if err != nil {
			return err
		}
		if m, err = analysis.Prepare(ctx, f, base); err != nil {
			return err
		}
		s.mu.Lock()
		s.file, s.prepared, s.base, s.older, s.stage = m.File, m, nil, nil, nil
		s.mu.Unlock()
		return nil
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// lastModel returns the newest model this snapshot has or builds on, for the next version to
// reuse; nil if there is none (yet, or any more).
func (s *Snapshot) lastModel() *analysis.Model {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.prepared != nil {
		return s.prepared
	}
	return s.base
}

// Model returns the semantic model for navigation: forms with syntax errors take part as far
// as their shape allows, so hover, definition and completion work in a rule being typed. It
// needs the model only, never the whole-file checks.
func (s *Snapshot) Model() *analysis.Model {
	m, _ := s.PrepareContext(context.Background())
	if !m.Incomplete() {
		return m
	}
	s.mu.Lock()
	nav := s.nav
	s.mu.Unlock()
	if nav != nil && nav.File == m.File {
		return nav
	}
	nav = analysis.NavigationModel(m)
	s.mu.Lock()
	if s.prepared == m {
		s.nav = nav
	}
	s.mu.Unlock()
	return nav
}

// Diagnostics returns the parser's and the analyzer's diagnostics, with their default
// severities. It gives up when ctx is done.
func (s *Snapshot) Diagnostics(ctx context.Context) ([]analysis.Diagnostic, error) {
	return s.DiagnosticsProgress(ctx, nil)
}

// DiagnosticsProgress is Diagnostics telling progress, when it is not nil, how far the
// whole-file checks have come (analysis.CheckModel's progress) if this call runs them.
func (s *Snapshot) DiagnosticsProgress(ctx context.Context, progress func(done, total int)) ([]analysis.Diagnostic, error) {
	s.mu.Lock()
	ds, ok := s.diags, s.hasDiags
	s.mu.Unlock()
	if ok {
		return ds, nil
	}
	res, err := s.analysisProgress(ctx, progress)
	if err != nil {
		return nil, err
	}
	return res.Diagnostics, nil
}

// Analysed reports whether the diagnostics of the snapshot are known.
func (s *Snapshot) Analysed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hasDiags
}

// Symbols returns the document's relations, each at its first definition, and its roles.
func (s *Snapshot) Symbols() []Symbol {
	s.mu.Lock()
	syms, ok := s.symbols, s.hasSyms
	s.mu.Unlock()
	if ok {
		return syms
	}
	syms = fileSymbols(s.Model())
	s.mu.Lock()
	s.symbols, s.hasSyms = syms, true
	s.mu.Unlock()
	return syms
}

// Release drops the tree, the model, the analysis and the navigation model (and the model of an
// earlier version kept for reuse); they are computed again from the text when asked for. The
// diagnostics and symbols already computed stay. It returns whether there was anything to drop.
func (s *Snapshot) Release() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	had := s.file != nil || s.prepared != nil || s.analyzed != nil || s.base != nil || s.older != nil || s.stage != nil
	s.file, s.prepared, s.analyzed, s.base, s.nav, s.older, s.stage = nil, nil, nil, nil, nil, nil, nil
	return had
}

// parsedFile returns the syntax tree when it is parsed already, else nil: it never waits.
func (s *Snapshot) parsedFile() *syntax.File {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.file
}

// formBounds returns the spans of the forms found by a scan of the bytes (syntax.FormBounds),
// made on first need; ok is false where the scan cannot tell them (an infix text, a form never
// closed, a word at the top level): then they are the parsed tree's.
func (s *Snapshot) formBounds() ([]syntax.Span, bool) {
	s.boundsOnce.Do(func() {
		if s.dialect == syntax.Prefix {
			s.bounds, s.boundsOK = syntax.FormBounds(s.text)
		}
	})
	return s.bounds, s.boundsOK
}
