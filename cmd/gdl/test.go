package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/game"
	"github.com/gdl-lsp/gdl/gametest"
	"github.com/gdl-lsp/gdl/syntax"
	"github.com/gdl-lsp/gdl/verify"
)

func init() {
	register("test", command{
		summary: "run a game's tests: scenarios in GAME.test.kif that say what holds after which moves",
		run:     runTest,
	})
}

const testUsage = `Usage: gdl test [PATH...] [--run REGEX] [--format text|json|junit|sarif] [-v]
       gdl test --record NAME GAME [--moves 'JOINT...'] [--write]

Runs game tests (docs/testing.md): the tests of the test files named, of the test files below
a directory (GAME.test.kif, GAME.test.hrf, GAME.test.gdl), or of a game (the test files beside
it named after it). Without PATH, the test files below the current directory. A test file
names its game with (game PATH), or by its own name: tictactoe.test.kif tests tictactoe.kif.

Each test plays its joint moves from the initial state (or from a state written as fluents)
and checks its expectations on the way: literals that hold or do not, the exact legal moves of
a role, terminal, goal values, a joint move that is illegal, a role that can force a goal
within N moves, every continuation ending within N moves. Each failure is reported with its
step, what was expected, what was found instead, the joint moves played and the state.

--record plays --moves in GAME (a game, or a test file to take the game from) and prints a new
test named NAME that pins what holds in the state reached: its fluents, each role's legal
moves, whether it is terminal and the goals. With --write it is appended to the game's test
file (created when missing).

Formats: text (failures, and every test with -v), json, junit (JUnit XML, for CI systems),
sarif (SARIF 2.1.0, for code scanning). Exit status: 0 every test passed, 1 a test failed or a
test file has errors, 2 usage or I/O problems (no test file found included).
`

// testFlags are the options of gdl test.
type testFlags struct {
	run       *string
	format    *string
	verbose   *bool
	record    *string
	moves     *string
	write     *bool
	maxStates *int
	searchFor *time.Duration
	engine    *string
	eval      evalFlags
}

// addTestFlags defines gdl test's flags on fs.
func addTestFlags(fs *flag.FlagSet) testFlags {
	tf := testFlags{
		run:       fs.String("run", "", "run only the tests whose name matches this regular expression"),
		format:    fs.String("format", "text", "output format: text, json, junit or sarif"),
		verbose:   fs.Bool("v", false, "text: list every test, not only the failures"),
		record:    fs.String("record", "", "print a new test of this name that pins the state --moves reach"),
		moves:     fs.String("moves", "", "with --record: the joint moves to play from the initial state"),
		write:     fs.Bool("write", false, "with --record: append the test to the game's test file"),
		maxStates: fs.Int("max-states", verify.DefaultMaxStates, "can-force and ends-within: search at most this many states each"),
		searchFor: durationFlag(fs, "search-timeout", time.Minute, "can-force and ends-within: search for at most this long each (0: no bound)"),
		engine:    addEngineFlag(fs),
	}
	tf.eval = addEvalFlags(fs)
	return tf
}

// runTest is gdl test: runs game tests, or with --record, records one (recordTest).
func runTest(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	fs.SetOutput(stderr)
	tf := addTestFlags(fs)
	paths, code, ok := parseCommandArgs(fs, args, stderr, testUsage, 0, -1)
	if !ok {
		return code
	}
	if !oneOf(stderr, "test", "format", *tf.format, "text", "json", "junit", "sarif") {
		return 2
	}
	if err := tf.eval.check(); err != nil {
		fmt.Fprintf(stderr, "gdl test: %v\n", err)
		return 2
	}
	if *tf.maxStates < 1 || *tf.searchFor < 0 {
		fmt.Fprintln(stderr, "gdl test: --max-states must be at least 1 and --search-timeout not negative")
		return 2
	}
	eng, ok := parseEngine(stderr, "test", *tf.engine)
	if !ok {
		return 2
	}
	opts := game.Options{Engine: eng, Limits: tf.eval.limits(), RememberFailures: true}
	if *tf.record != "" {
		if len(paths) != 1 {
			fmt.Fprintln(stderr, "gdl test: --record needs one GAME (a game, or a test file to take the game from)")
			return 2
		}
		return recordTest(paths[0], tf, opts, stdout, stderr)
	}
	if *tf.moves != "" || *tf.write {
		fmt.Fprintln(stderr, "gdl test: --moves and --write go with --record NAME")
		return 2
	}
	var filter *regexp.Regexp
	if *tf.run != "" {
		var err error
		if filter, err = regexp.Compile(*tf.run); err != nil {
			fmt.Fprintf(stderr, "gdl test: --run: %v\n", err)
			return 2
		}
	}
	return runTests(paths, filter, tf, opts, stdout, stderr)
}

// runTests runs the tests of the test files found in paths (filter, when not nil, selects
// them by name), writes the report in --format and returns the exit status.
func runTests(paths []string, filter *regexp.Regexp, tf testFlags, opts game.Options, stdout, stderr io.Writer) int {
	files, errs := testFiles(paths)
	ioFailed := false
	for _, err := range errs {
		fmt.Fprintf(stderr, "gdl test: %v\n", err)
		ioFailed = true
	}
	if len(files) == 0 {
		if !ioFailed {
			where := "the current directory"
			if len(paths) > 0 {
				where = strings.Join(paths, ", ")
			}
			fmt.Fprintf(stderr, "gdl test: no test files in %s (test files are named GAME.test.kif, GAME.test.hrf or GAME.test.gdl)\n", where)
		}
		return 2
	}
	ctx := context.Background()
	runOpts := gametest.Options{Bounded: verify.BoundedOptions{MaxStates: *tf.maxStates, Timeout: *tf.searchFor}}
	games := gameCache{opts: opts}
	var ran []*testedFile
	for _, path := range files {
		tfile, err := runTestFile(ctx, path, filter, &games, runOpts)
		if err != nil {
			fmt.Fprintf(stderr, "gdl test: %v\n", err)
			ioFailed = true
			continue
		}
		ran = append(ran, tfile)
	}
	sum := summarize(ran)
	if filter != nil && sum.tests == 0 {
		fmt.Fprintf(stderr, "gdl test: no test matches --run %q\n", *tf.run)
	}
	if err := writeTestReport(stdout, *tf.format, ran, sum, *tf.verbose); err != nil {
		fmt.Fprintf(stderr, "gdl test: %v\n", err)
		return 2
	}
	switch {
	case ioFailed:
		return 2
	case sum.failed > 0 || sum.errored > 0 || sum.fileErrors > 0:
		return 1
	}
	return 0
}

// writeTestReport writes the tests' results in format (text lists every test when verbose).
func writeTestReport(w io.Writer, format string, ran []*testedFile, sum testSummary, verbose bool) error {
	switch format {
	case "json":
		return writeTestJSON(w, ran, sum)
	case "junit":
		return writeJUnit(w, ran, sum)
	case "sarif":
		return writeTestSARIF(w, ran)
	}
	writeTestText(w, ran, sum, verbose)
	return nil
}

// testedFile is a test file and what running it gave.
type testedFile struct {
	path     string // as shown
	lines    *syntax.LineIndex
	gamePath string // "" when no game was found
	suite    *gametest.Suite
	diags    []analysis.Diagnostic
	results  []gametest.Result
	skipped  int // tests --run left out
	elapsed  time.Duration
}

// errorCount counts the error diagnostics of the file.
func (t *testedFile) errorCount() int {
	n := 0
	for _, d := range t.diags {
		if d.Severity == analysis.Error {
			n++
		}
	}
	return n
}

type testSummary struct {
	files, tests, passed, failed, errored, skipped, fileErrors int
	elapsed                                                    time.Duration
}

func summarize(files []*testedFile) testSummary {
	var s testSummary
	for _, f := range files {
		s.files++
		s.skipped += f.skipped
		s.elapsed += f.elapsed
		if f.errorCount() > 0 {
			s.fileErrors++
		}
		for _, r := range f.results {
			s.tests++
			switch r.Status {
			case gametest.Passed:
				s.passed++
			case gametest.Failed:
				s.failed++
			default:
				s.errored++
			}
		}
	}
	return s
}

// testFiles finds the test files the arguments name: a test file as given, the test files
// below a directory, the test files of a game. No argument is the current directory.
func testFiles(args []string) ([]string, []error) {
	if len(args) == 0 {
		args = []string{"."}
	}
	var paths pathList
	var errs []error
	add := paths.add
	for _, a := range args {
		info, err := os.Stat(a)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if info.IsDir() {
			found, werrs := walkFiles(a, gametest.IsTestPath, func(d fs.DirEntry) bool {
				return strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules"
			})
			for _, p := range found {
				add(p)
			}
			errs = append(errs, werrs...)
			continue
		}
		if gametest.IsTestPath(a) {
			add(a)
			continue
		}
		data, _, err := readInput(a, nil)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if gametest.IsTestFile(a, parseInput(a, data)) {
			add(a)
			continue
		}
		// A game: the test files beside it named after it.
		stem := strings.TrimSuffix(a, filepath.Ext(a))
		found := false
		for _, ext := range gametest.TestExt {
			if _, err := os.Stat(stem + ext); err == nil {
				add(stem + ext)
				found = true
			}
		}
		if !found {
			errs = append(errs, fmt.Errorf("%s: not a test file, and no test file beside it is named after it (%s.test.kif)", a, filepath.Base(stem)))
		}
	}
	sort.Strings(paths.list)
	return paths.list, errs
}

// loadedGame is a game read, analysed and made ready to play, once per run.
type loadedGame struct {
	res *analysis.Result
	g   *game.Game
	err error // the game cannot be read, or made
}

// gameCache keeps the games of a run by path: test files of one game share it.
type gameCache struct {
	opts  game.Options
	games map[string]*loadedGame
}

// analysed reads and analyses a game (res nil and err set when it cannot be read).
func readGame(path string) (*analysis.Result, error) {
	data, _, err := readInput(path, nil)
	if err != nil {
		return nil, err
	}
	cfg, err := analysis.FindConfig(filepath.Dir(path))
	if err != nil {
		cfg = nil
	}
	return analysis.Analyze(parseInput(path, data), cfg), nil
}

func (c *gameCache) load(ctx context.Context, path string) *loadedGame {
	key, err := filepath.Abs(path)
	if err != nil {
		key = path
	}
	if lg, ok := c.games[key]; ok {
		return lg
	}
	if c.games == nil {
		c.games = map[string]*loadedGame{}
	}
	lg := &loadedGame{}
	c.games[key] = lg
	if lg.res, lg.err = readGame(path); lg.err != nil {
		return lg
	}
	lg.g, lg.err = game.New(ctx, lg.res, c.opts)
	return lg
}

// findGame returns the first of a test file's game candidates that exists, or "".
func findGame(path string, s *gametest.Suite) (string, []string) {
	cands := gametest.GameCandidates(path, s)
	for _, p := range cands {
		if info, err := os.Stat(p); err == nil && !info.IsDir() {
			return p, cands
		}
	}
	return "", cands
}

// checkTestFile gives the diagnostics of a test file without running it (gdl check).
func checkTestFile(path string, f *syntax.File) []analysis.Diagnostic {
	s, _ := gametest.Read(f)
	gamePath, tried := findGame(path, s)
	if gamePath == "" {
		_, ds := gametest.Static(f, nil)
		ds = append(ds, gametest.GameMissing(s, tried))
		gametest.SortDiagnostics(ds)
		return ds
	}
	res, err := readGame(gamePath)
	if err != nil {
		_, ds := gametest.Static(f, nil)
		ds = append(ds, gametest.GameUnreadable(s, gamePath, err))
		gametest.SortDiagnostics(ds)
		return ds
	}
	_, ds := gametest.Static(f, res)
	return ds
}

// runTestFile reads a test file, finds and loads its game, checks the file and runs its tests
// (those filter matches). The error is for a test file that cannot be read.
func runTestFile(ctx context.Context, path string, filter *regexp.Regexp, games *gameCache, opts gametest.Options) (*testedFile, error) {
	start := time.Now()
	data, shown, err := readInput(path, nil)
	if err != nil {
		return nil, err
	}
	f := parseInput(path, data)
	tf := &testedFile{path: shown, lines: f.Lines()}
	defer func() { tf.elapsed = time.Since(start) }()
	s, _ := gametest.Read(f)
	gamePath, tried := findGame(path, s)
	var lg *loadedGame
	switch {
	case gamePath == "":
		tf.suite, tf.diags = gametest.Static(f, nil)
		tf.diags = append(tf.diags, gametest.GameMissing(s, tried))
	default:
		tf.gamePath = gamePath
		lg = games.load(ctx, gamePath)
		tf.suite, tf.diags = gametest.Static(f, lg.res)
		if lg.res == nil {
			tf.diags = append(tf.diags, gametest.GameUnreadable(s, gamePath, lg.err))
		} else if lg.err != nil {
			tf.diags = append(tf.diags, gametest.GameUnreadable(s, gamePath, lg.err))
		}
	}
	gametest.SortDiagnostics(tf.diags)
	var tests []*gametest.Test
	for _, t := range tf.suite.Tests {
		if filter != nil && !filter.MatchString(t.Name) {
			tf.skipped++
			continue
		}
		tests = append(tests, t)
	}
	if lg == nil || lg.g == nil {
		// Without a game nothing runs: every test is reported, with the reason.
		why := "no game to test (see the file's diagnostics)"
		for _, t := range tests {
			tf.results = append(tf.results, gametest.Result{Test: t, Status: gametest.Errored,
				Failures: []gametest.Failure{{Span: t.NameSpan, Code: gametest.CodeGame, Text: t.Name, Expected: why}}})
		}
		return tf, nil
	}
	if err := lg.g.Refused(); err != nil {
		why := "the game cannot be played: " + err.Error()
		for _, t := range tests {
			tf.results = append(tf.results, gametest.Result{Test: t, Status: gametest.Errored,
				Failures: []gametest.Failure{{Span: t.NameSpan, Code: gametest.CodeGame, Text: t.Name, Expected: why}}})
		}
		return tf, nil
	}
	results, err := gametest.Run(ctx, lg.g, tests, opts)
	if err != nil {
		return nil, err
	}
	tf.results = results
	return tf, nil
}

// writeTestText prints the failures (every test with verbose), a line per file and a summary.
func writeTestText(w io.Writer, files []*testedFile, sum testSummary, verbose bool) {
	for _, tf := range files {
		for _, d := range tf.diags {
			line, col := pos(tf.lines, d.Span.Start)
			fmt.Fprintf(w, "%s:%d:%d: %s: %s [%s]\n", tf.path, line, col, d.Severity, d.Message, d.Code)
		}
		for _, r := range tf.results {
			line, _ := pos(tf.lines, r.Test.Span.Start)
			switch {
			case r.Status == gametest.Passed && verbose:
				fmt.Fprintf(w, "--- PASS: %s (%s)\n", r.Test.Name, seconds(r.Elapsed))
			case r.Status != gametest.Passed:
				word := "FAIL"
				if r.Status == gametest.Errored {
					word = "ERROR"
				}
				fmt.Fprintf(w, "--- %s: %s (%s:%d, %s)\n", word, r.Test.Name, tf.path, line, seconds(r.Elapsed))
				for k, f := range r.Failures {
					writeFailureText(w, tf, &f, k > 0 && sameState(&r.Failures[k-1], &f))
				}
			}
		}
		status := "ok  "
		if n := countNotPassed(tf); n > 0 || tf.errorCount() > 0 {
			status = "FAIL"
		}
		detail := plural(len(tf.results), "test")
		if n := countNotPassed(tf); n > 0 {
			detail += fmt.Sprintf(", %d failed", n)
		}
		if n := tf.errorCount(); n > 0 {
			detail += fmt.Sprintf(", %s in the file", plural(n, "error"))
		}
		if tf.skipped > 0 {
			detail += fmt.Sprintf(", %d not matching --run", tf.skipped)
		}
		fmt.Fprintf(w, "%s %s: %s (%s)\n", status, tf.path, detail, seconds(tf.elapsed))
	}
	if sum.files > 1 {
		if sum.failed+sum.errored+sum.fileErrors > 0 {
			fmt.Fprintf(w, "FAIL: %d of %s failed, in %s\n", sum.failed+sum.errored, plural(sum.tests, "test"), plural(sum.files, "file"))
		} else {
			fmt.Fprintf(w, "ok: %s passed, in %s\n", plural(sum.tests, "test"), plural(sum.files, "file"))
		}
	}
}

func countNotPassed(tf *testedFile) int {
	n := 0
	for _, r := range tf.results {
		if r.Status != gametest.Passed {
			n++
		}
	}
	return n
}

// sameState reports whether two failures of a test were found in the same state: the second
// need not show it again.
func sameState(a, b *gametest.Failure) bool {
	return a.Step > 0 && a.FromState == b.FromState && slices.Equal(a.Moves, b.Moves) && slices.Equal(a.State, b.State)
}

// writeFailureText prints one failure: where, the step, what was expected and found, the moves
// that reach the state, the line that shows a bounded answer, and the context (unless
// shownAbove: the failure before it was in the same state).
func writeFailureText(w io.Writer, tf *testedFile, f *gametest.Failure, shownAbove bool) {
	line, col := pos(tf.lines, f.Span.Start)
	where := fmt.Sprintf("%s:%d:%d:", tf.path, line, col)
	if f.Step > 0 {
		fmt.Fprintf(w, "    %s step %d: %s\n", where, f.Step, oneLine(f.Text))
	} else {
		fmt.Fprintf(w, "    %s %s\n", where, oneLine(f.Text))
	}
	fmt.Fprintf(w, "        expected: %s\n", f.Expected)
	if f.Found != "" {
		fmt.Fprintf(w, "        found:    %s\n", f.Found)
	}
	if len(f.Line) > 0 && !strings.Contains(f.Found, strings.Join(f.Line, " ")) {
		fmt.Fprintf(w, "        line:     %s\n", strings.Join(f.Line, " "))
	}
	if shownAbove {
		fmt.Fprintf(w, "        in the same state\n")
		return
	}
	if f.Step > 0 {
		from := "the initial state"
		if f.FromState {
			from = "the state written"
		}
		if len(f.Moves) == 0 {
			fmt.Fprintf(w, "        in:       %s\n", from)
		} else {
			fmt.Fprintf(w, "        after:    %s (from %s)\n", strings.Join(f.Moves, " "), from)
		}
	}
	for _, l := range strings.Split(strings.TrimRight(f.Context, "\n"), "\n") {
		if l != "" {
			fmt.Fprintf(w, "        %s\n", l)
		}
	}
}

// oneLine folds a step written over several lines.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func seconds(d time.Duration) string {
	if d < time.Second {
		return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000)
	}
	return fmt.Sprintf("%.2f s", d.Seconds())
}

// plural writes n and a noun, with an s when n is not 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
