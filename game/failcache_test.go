package game

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/syntax"
)

// closureGame is a game whose grounding takes a while: a static transitive closure over a chain
// of n nodes (n²/2 facts), read by its legal rule.
func closureGame(n int) string {
	var b strings.Builder
	b.WriteString("(role p) (init (at n0)) (<= (legal p (go ?y)) (true (at ?x)) (reach ?x ?y))\n")
	b.WriteString("(<= (next (at ?y)) (does p (go ?y))) (<= terminal (true (at n1))) (goal p 0)\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "(edge n%d n%d)\n", i, i+1)
	}
	b.WriteString("(<= (reach ?x ?y) (edge ?x ?y)) (<= (reach ?x ?z) (reach ?x ?y) (edge ?y ?z))\n")
	return b.String()
}

// remembered lists the entries of the cache of failures.
func remembered(t *testing.T) []string {
	t.Helper()
	dir, err := FailureDir()
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// A grounding that runs out of time is never remembered (issue 21: under load, a game that
// grounds in 3 s missed its 5 s budget, and every later run used the interpreter): the next run
// grounds again, and with time enough compiles.
func TestTimeoutIsNeverRemembered(t *testing.T) {
	t.Setenv(CacheEnv, t.TempDir())
	src := closureGame(400)
	opts := Options{Engine: Auto, RememberFailures: true, Ground: eval.GroundLimits{Timeout: time.Millisecond}}
	g, _, err := Load(bg, src, opts)
	if err != nil {
		t.Fatal(err)
	}
	if g.Engine() != Interpreted || !strings.Contains(g.Why(), "budget") {
		t.Fatalf("with 1 ms to ground: engine %s, %q", g.Engine(), g.Why())
	}
	if got := remembered(t); len(got) != 0 {
		t.Fatalf("a timeout was remembered: %v", got)
	}
	opts.Ground.Timeout = time.Minute
	if g, _, err = Load(bg, src, opts); err != nil || g.Engine() != Compiled {
		t.Fatalf("with a minute: %v, engine %s (%q)", err, g.Engine(), g.Why())
	}
}

// A failure of size is remembered under the text and the limits, in the cache folder that
// GDL_CACHE_DIR names; a run that grounds the text removes it, and `gdl cache clean`
// (CleanCache) removes them all.
func TestSizeFailureRememberedAndForgotten(t *testing.T) {
	t.Setenv(CacheEnv, t.TempDir())
	src, err := os.ReadFile("../testdata/games/tictactoe.kif")
	if err != nil {
		t.Fatal(err)
	}
	small := Options{Engine: Auto, RememberFailures: true, Ground: eval.GroundLimits{MaxRules: 3}}
	g, res, err := Load(bg, string(src), small)
	if err != nil || g.Engine() != Interpreted {
		t.Fatalf("at most 3 ground rules: %v, %s", err, g.Engine())
	}
	if got := remembered(t); len(got) != 1 {
		t.Fatalf("entries after a failure of size: %v", got)
	}
	if g, _ = Load2(t, string(src), small); !strings.Contains(g.Why(), "remembered") {
		t.Fatalf("second run: %q", g.Why())
	}
	// Other limits are another key.
	other := small
	other.Ground.MaxRules = 4
	if g, _ = Load2(t, string(src), other); strings.Contains(g.Why(), "remembered") {
		t.Fatalf("other limits: %q", g.Why())
	}
	if n, err := CleanCache(); err != nil || n != 2 {
		t.Fatalf("CleanCache: %d, %v", n, err)
	}
	// An entry under the default limits (as a build that could not ground it would have left)
	// is removed by a run that grounds the text.
	defaults := Options{Engine: Auto, RememberFailures: true}
	path, _ := failurePath(res, defaults)
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, []byte("more than 1500000 ground rules\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if g, _ = Load2(t, string(src), defaults); g.Engine() != Interpreted {
		t.Fatalf("planted entry not read: %s", g.Engine())
	}
	compiled := defaults
	compiled.Engine = Compiled
	if g, _ = Load2(t, string(src), compiled); g.Engine() != Compiled {
		t.Fatal("compiled run failed")
	}
	if got := remembered(t); len(got) != 0 {
		t.Fatalf("entries after a run that grounds: %v", got)
	}
	if g, _ = Load2(t, string(src), defaults); g.Engine() != Compiled {
		t.Fatalf("after the entry was removed: %s, %q", g.Engine(), g.Why())
	}
}

// Load2 is Load that fails the test on an error.
func Load2(t *testing.T, src string, opts Options) (*Game, *analysis.Result) {
	t.Helper()
	g, res, err := Load(bg, src, opts)
	if err != nil {
		t.Fatal(err)
	}
	return g, res
}

// The cache keeps at most maxFailures entries, the oldest removed first.
func TestFailureCacheIsBounded(t *testing.T) {
	dir := t.TempDir()
	old := time.Now().Add(-time.Hour)
	for i := range maxFailures + 5 {
		p := filepath.Join(dir, fmt.Sprintf("entry%03d", i))
		if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, old.Add(time.Duration(i)*time.Second), old.Add(time.Duration(i)*time.Second))
	}
	evictFailures(dir)
	entries, _ := os.ReadDir(dir)
	if len(entries) != maxFailures || entries[0].Name() != "entry005" {
		t.Fatalf("%d entries, first %s", len(entries), entries[0].Name())
	}
}

// An entry that is not a regular file (a named pipe) is not read: no hang, no recall.
func TestFailureEntryNotRegular(t *testing.T) {
	t.Setenv(CacheEnv, t.TempDir())
	f, _ := syntax.Parse("(role p)")
	res := analysis.Analyze(f, nil)
	path, _ := failurePath(res, Options{})
	if err := os.MkdirAll(path, 0o755); err != nil { // a directory in the entry's place
		t.Fatal(err)
	}
	if why, ok := recalledFailure(res, Options{}); ok {
		t.Fatalf("recalled %q from a directory", why)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := mkfifo(path); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	done := make(chan bool)
	go func() {
		_, ok := recalledFailure(res, Options{})
		done <- ok
	}()
	select {
	case ok := <-done:
		if ok {
			t.Fatal("recalled from a named pipe")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("reading a named pipe in the cache hangs")
	}
}

// Auto does not try to ground a game far over its limits (eval.GroundEstimate.FarOver): the
// interpreter runs at once, says why, and nothing is remembered (the estimate is cheap). One
// near the limits is tried (and, failing on a limit of size, remembered).
func TestAutoSkipsGameFarOverLimits(t *testing.T) {
	t.Setenv(CacheEnv, t.TempDir())
	game := func(n int) string {
		var b strings.Builder
		b.WriteString("(role p) (init on) (<= (legal p (to ?x ?y ?z)) (true on) (n ?x) (n ?y) (n ?z))\n")
		b.WriteString("(<= (next on) (does p (to 0 0 0))) (<= terminal (not (true on))) (goal p 0)\n")
		for i := range n {
			fmt.Fprintf(&b, "(n %d) ", i)
		}
		return b.String()
	}
	opts := Options{Engine: Auto, RememberFailures: true, Ground: eval.GroundLimits{MaxFacts: 500, MaxRules: 500}}
	g, _ := Load2(t, game(100), opts) // a million moves: 2,000 times the limits
	if g.Engine() != Interpreted || !strings.Contains(g.Why(), "far over its limit of 500 atoms") || !strings.Contains(g.Why(), "building its network would take") || !strings.Contains(g.Why(), "and 5s is granted") {
		t.Fatalf("far over: %s, %q", g.Engine(), g.Why())
	}
	if got := remembered(t); len(got) != 0 {
		t.Fatalf("remembered: %v", got)
	}
	g, _ = Load2(t, game(8), opts) // 512 moves
	if g.Engine() != Interpreted || strings.Contains(g.Why(), "far over") || !strings.Contains(g.Why(), "more than 500") {
		t.Fatalf("near: %s, %q", g.Engine(), g.Why())
	}
	if got := remembered(t); len(got) != 1 {
		t.Fatalf("remembered after a failure of size: %v", got)
	}
}
