package ide

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/game"
	"github.com/gdl-lsp/gdl/gametest"
	"github.com/gdl-lsp/gdl/syntax"
	"github.com/gdl-lsp/gdl/verify"
)

// Game test documents (docs/testing.md): a test file with the game it tests, and the features
// that need both (TestDiagnostics, TestHover, TestCompletion, TestDefinition, TestLenses).
// TestRuns runs their tests.

// TestDoc is one version of a test file with its game.
type TestDoc struct {
	Path string    // the test file's path
	Snap *Snapshot // the test file
	// Game is the game's snapshot (nil when it is not found or cannot be read), GamePath its
	// path; Tried lists the paths looked at, GameErr why the game could not be read.
	Game     *Snapshot
	GamePath string
	Tried    []string
	GameErr  error

	suiteOnce sync.Once
	suite     *gametest.Suite
	readDiags []analysis.Diagnostic
}

// IsTestDocument reports whether the document at path is a game test file (by its name, or its
// first form (game PATH) followed by tests).
func IsTestDocument(path string, snap *Snapshot) bool {
	if gametest.IsTestPath(path) {
		return true
	}
	if !strings.Contains(snap.Text(), "game") {
		return false
	}
	// The first form tells most files apart without the whole parse (a request on a large
	// file just opened does not wait for it), read from the bytes up to its end only (each edit
	// of a large file asks).
	if snap.Dialect() == syntax.Prefix && snap.parsedFile() == nil {
		if span, found, ok := syntax.FirstFormBounds(snap.Text()); ok {
			if !found {
				return false
			}
			first := syntax.ParseForms(snap.Text(), snap.Dialect(), 0, span.End)
			if len(first) == 0 || gametest.HeadKey(first[len(first)-1].Cursor) != "game" {
				return false
			}
		}
	}
	return gametest.IsTestFile(path, snap.File())
}

// NewTestDoc makes the test document of snap at path, with the game found by open: the
// snapshot of the file at a path (the open document's, else the file's on disk), an error
// satisfying errors.Is(err, fs.ErrNotExist) when there is none.
func NewTestDoc(path string, snap *Snapshot, open func(path string) (*Snapshot, error)) *TestDoc {
	d := &TestDoc{Path: path, Snap: snap}
	for _, p := range gametest.GameCandidates(path, d.Suite()) {
		d.Tried = append(d.Tried, p)
		g, err := open(p)
		if err == nil {
			d.Game, d.GamePath = g, p
			return d
		}
		if !errors.Is(err, fs.ErrNotExist) {
			d.GamePath, d.GameErr = p, err
			return d
		}
	}
	return d
}

// Suite returns the structure of the test file.
func (d *TestDoc) Suite() *gametest.Suite {
	d.suiteOnce.Do(func() { d.suite, d.readDiags = gametest.Read(d.Snap.File()) })
	return d.suite
}

// TestDiagnostics returns the diagnostics of a test document that need no evaluation: the
// parser's, the format's, and those of its comparison with the game's analysis (or why there
// is no game). It gives up when ctx is done.
func TestDiagnostics(ctx context.Context, d *TestDoc) ([]analysis.Diagnostic, error) {
	var res *analysis.Result
	if d.Game != nil {
		var err error
		if res, err = d.Game.AnalysisContext(ctx); err != nil {
			return nil, err
		}
	}
	_, ds := gametest.Static(d.Snap.File(), res)
	switch {
	case d.GameErr != nil:
		ds = append(ds, gametest.GameUnreadable(d.Suite(), d.GamePath, d.GameErr))
	case d.Game == nil:
		ds = append(ds, gametest.GameMissing(d.Suite(), d.Tried))
	}
	gametest.SortDiagnostics(ds)
	return ds, nil
}

// FailureDiagnostics turns the failures of test results into diagnostics at their steps: what
// was expected, what was found, the moves that lead there and the state. A failure whose step
// holds an error of static (a role the game does not have, a joint move without a move per
// role) is left out: that error says it already.
func FailureDiagnostics(results []gametest.Result, static []analysis.Diagnostic) []analysis.Diagnostic {
	var out []analysis.Diagnostic
	for _, r := range results {
		for _, f := range r.Failures {
			if f.Code == gametest.CodeStep && f.Step == 0 {
				continue // a test with errors: its diagnostics say why
			}
			if coveredBy(f.Span, static) {
				continue
			}
			out = append(out, analysis.Diagnostic{Span: f.Span, Severity: codeSeverity(f.Code), Code: f.Code,
				Category: "test", Message: FailureText(r.Test.Name, &f)})
		}
	}
	return out
}

// coveredBy reports whether an error diagnostic lies within span.
func coveredBy(span syntax.Span, ds []analysis.Diagnostic) bool {
	for _, d := range ds {
		if d.Severity == analysis.Error && span.Start <= d.Span.Start && d.Span.End <= span.End {
			return true
		}
	}
	return false
}

func codeSeverity(code string) analysis.Severity {
	for _, c := range gametest.Codes {
		if c.Code == code {
			return c.Severity
		}
	}
	return analysis.Error
}

// FailureText writes a failure for people, in a few lines: the test, the expectation and the
// finding, the moves that lead to the state, and the context (the state, its legal moves).
func FailureText(test string, f *gametest.Failure) string {
	var b strings.Builder
	fmt.Fprintf(&b, "test %s: expected %s", test, f.Expected)
	if f.Found != "" {
		fmt.Fprintf(&b, "; %s", f.Found)
	}
	if f.Step > 0 {
		switch {
		case len(f.Moves) > 0 && f.FromState:
			fmt.Fprintf(&b, "\nafter %s from the state written", strings.Join(f.Moves, " "))
		case len(f.Moves) > 0:
			fmt.Fprintf(&b, "\nafter %s", strings.Join(f.Moves, " "))
		case f.FromState:
			b.WriteString("\nin the state written")
		default:
			b.WriteString("\nin the initial state")
		}
	}
	if c := strings.TrimSpace(f.Context); c != "" {
		b.WriteString("\n" + c)
	}
	return b.String()
}

// TestOptions bound the runs of a document's tests.
type TestOptions struct {
	Limits  eval.Limits           // each evaluation's
	Bounded verify.BoundedOptions // each can-force and ends-within
}

// DefaultTestBounded is the budget of the bounded expectations in the editor: an answer it
// cuts short is reported as undecided, and gdl test with a larger budget decides it.
var DefaultTestBounded = verify.BoundedOptions{MaxStates: 200_000, Timeout: 10 * time.Second}

// TestRuns runs the tests of test documents. It keeps the game it made of each game file (by
// its path; made again when the text or the limits change: the tests of several files of one
// game share it, and an edit of a test file does not make it again) and the last results of
// each document.
type TestRuns struct {
	ctx   context.Context // the server's: a game is made for every request that waits for it
	mu    sync.Mutex
	games map[string]*testGame // by the game's path
	order []string             // the paths, least recently used first
	last  map[string]lastRun
	files gameFiles // the game files read from disk
}

// gameFiles keeps the snapshots of game files read from disk for test documents, by path and
// stamp, so that an edit of a test file does not analyse its game again. TestRuns.mu guards it.
type gameFiles struct {
	snaps map[string]gameFile
	order []string // the paths, oldest first
}

type gameFile struct {
	stamp FileStamp
	snap  *Snapshot
}

// maxGameFiles bounds the game files kept.
const maxGameFiles = 8

// GameFile returns the snapshot of the game file at p as it is on disk, read again when its
// stamp (modification time and size) changed.
func (tr *TestRuns) GameFile(p string) (*Snapshot, error) {
	stamp, ok := StampOf(p)
	tr.mu.Lock()
	if e, hit := tr.files.snaps[p]; hit && ok && e.stamp == stamp {
		tr.mu.Unlock()
		return e.snap, nil
	}
	tr.mu.Unlock()
	snap, err := ReadSnapshot(p)
	if err != nil {
		return nil, err
	}
	tr.mu.Lock()
	defer tr.mu.Unlock()
	fs := &tr.files
	if fs.snaps == nil {
		fs.snaps = map[string]gameFile{}
	}
	if _, had := fs.snaps[p]; !had {
		fs.order = append(fs.order, p)
		if len(fs.order) > maxGameFiles {
			delete(fs.snaps, fs.order[0])
			fs.order = fs.order[1:]
		}
	}
	fs.snaps[p] = gameFile{stamp, snap}
	return snap, nil
}

// maxTestGames bounds the games kept.
const maxTestGames = 4

// testGame is a game being made, or made, of one version of a game file.
type testGame struct {
	key    [sha256.Size]byte // the text and limits it is made of
	cancel context.CancelFunc
	done   chan struct{}
	g      *game.Game
	err    error
}

// lastRun is the last results of a document's tests, for the version of the test file and of
// the game they ran on.
type lastRun struct {
	key     [sha256.Size]byte
	results map[string]gametest.Result // by test name
}

// NewTestRuns makes the runner of a server whose work ends with ctx.
func NewTestRuns(ctx context.Context) *TestRuns {
	return &TestRuns{ctx: ctx, games: map[string]*testGame{}, last: map[string]lastRun{}}
}

// Game returns the game of a test document, made once per version of the game file and limits
// (in the background: a caller that stops waiting leaves it to the next). A newer version of
// the file stops the making of an older one (an edit of a large game while its tests run makes
// one game, not one per keystroke). The error is ctx's, or why there is no game.
func (tr *TestRuns) Game(ctx context.Context, d *TestDoc, limits eval.Limits) (*game.Game, error) {
	if d.Game == nil {
		if d.GameErr != nil {
			return nil, d.GameErr
		}
		return nil, fmt.Errorf("the game under test is not found (tried %s)", strings.Join(d.Tried, ", "))
	}
	key := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%v", d.Game.Text(), limits)))
	tr.mu.Lock()
	tg, ok := tr.games[d.GamePath]
	if !ok || tg.key != key {
		if ok {
			tg.cancel() // an older version of the file, or other limits
		}
		bctx, cancel := context.WithCancel(tr.ctx)
		tg = &testGame{key: key, cancel: cancel, done: make(chan struct{})}
		tr.games[d.GamePath] = tg
		snap := d.Game
		go func() {
			defer close(tg.done)
			res, err := snap.AnalysisContext(bctx)
			if err != nil {
				tg.err = err
				return
			}
			tg.g, tg.err = game.New(bctx, res, game.Options{Limits: limits})
		}()
	}
	tr.order = append(slices.DeleteFunc(tr.order, func(p string) bool { return p == d.GamePath }), d.GamePath)
	if len(tr.order) > maxTestGames {
		old := tr.order[0]
		tr.games[old].cancel()
		delete(tr.games, old)
		tr.order = tr.order[1:]
	}
	tr.mu.Unlock()
	select {
	case <-tg.done:
		return tg.g, tg.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// runKey identifies the versions a run is for.
func runKey(d *TestDoc) [sha256.Size]byte {
	game := ""
	if d.Game != nil {
		game = d.Game.Text()
	}
	return sha256.Sum256([]byte(d.Snap.Text() + "\x00" + d.GamePath + "\x00" + game))
}

// Run runs the tests of d named in names (every test when names is empty) and remembers
// their results under name, the document's. The error is ctx's, or why the game cannot be
// played; a test the static checks find broken is errored, not run.
func (tr *TestRuns) Run(ctx context.Context, name string, d *TestDoc, names []string, opts TestOptions) ([]gametest.Result, error) {
	var tests []*gametest.Test
	for _, t := range d.Suite().Tests {
		if len(names) == 0 || containsFold(names, t.Name) {
			tests = append(tests, t)
		}
	}
	g, err := tr.Game(ctx, d, opts.Limits)
	if err != nil {
		return nil, err
	}
	if err := g.Refused(); err != nil {
		return nil, fmt.Errorf("the game cannot be played: %w", err)
	}
	results, err := gametest.Run(ctx, g, tests, gametest.Options{Bounded: opts.Bounded})
	if err != nil {
		return nil, err
	}
	key := runKey(d)
	tr.mu.Lock()
	defer tr.mu.Unlock()
	lr := tr.last[name]
	if lr.key != key {
		lr = lastRun{key: key, results: map[string]gametest.Result{}}
	}
	for _, r := range results {
		lr.results[syntax.Fold(r.Test.Name)] = r
	}
	tr.last[name] = lr
	return results, nil
}

// Last returns the last result of the test named test of document name, when it ran on these
// versions of the test file and the game.
func (tr *TestRuns) Last(name string, d *TestDoc, test string) (gametest.Result, bool) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	lr, ok := tr.last[name]
	if !ok || lr.key != runKey(d) {
		return gametest.Result{}, false
	}
	r, ok := lr.results[syntax.Fold(test)]
	return r, ok
}

// Forget drops what is kept of a closed document.
func (tr *TestRuns) Forget(name string) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	delete(tr.last, name)
}

// StateAt returns the state step k of test t is checked in, within the caller's ctx.
func (tr *TestRuns) StateAt(ctx context.Context, d *TestDoc, t *gametest.Test, k int, limits eval.Limits) (*game.Game, *gametest.Position, error) {
	g, err := tr.Game(ctx, d, limits)
	if err != nil {
		return nil, nil, err
	}
	p, err := gametest.StateAt(ctx, g, t, k)
	return g, p, err
}

func containsFold(names []string, name string) bool {
	for _, n := range names {
		if syntax.Fold(n) == syntax.Fold(name) {
			return true
		}
	}
	return false
}

// stepsBefore counts the steps of t that end before off: the steps a position at off comes
// after.
func stepsBefore(t *gametest.Test, off int) int {
	n := 0
	for _, st := range t.Steps {
		if st.Span.End <= off {
			n++
		}
	}
	return n
}

// RecordTest writes a snapshot test named name (gametest.Record) of the state the joint moves
// history reach in the game of snap (each joint move one move per role, as the session keeps
// them), in notation d: for the game view's "Record a test".
func RecordTest(ctx context.Context, snap *Snapshot, history [][]string, name string, d syntax.Dialect, limits eval.Limits) (string, error) {
	res, err := snap.AnalysisContext(ctx)
	if err != nil {
		return "", err
	}
	g, err := game.New(ctx, res, game.Options{Engine: game.Interpreted, Limits: limits})
	if err != nil {
		return "", err
	}
	if err := g.Refused(); err != nil {
		return "", fmt.Errorf("the game cannot be played: %w", err)
	}
	moves := make([][]eval.Term, 0, len(history))
	for _, joint := range history {
		j, err := g.ParseMoves(joint)
		if err != nil {
			return "", err
		}
		moves = append(moves, j)
	}
	return gametest.Record(ctx, g, name, moves, d)
}
