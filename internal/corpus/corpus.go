// Package corpus gives tests the shared corpus of game descriptions (../shared/games beside the
// repository): the games listed in its MANIFEST.tsv, a deterministic sample of them for quick
// runs, and the summary file that scripts/test.sh prints after `go test`.
package corpus

import (
	"bufio"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// Dir returns the corpus folder: ../shared/games beside the repository root.
func Dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "shared", "games")
}

// Entry is a corpus file.
type Entry struct {
	Path string // relative to Dir
	Kind string // MANIFEST.tsv's kind: game, validator-test, ...
}

// Abs returns the file's path.
func (e Entry) Abs() string { return filepath.Join(Dir(), e.Path) }

// Skipper is the part of testing.TB the helpers need.
type Skipper interface {
	Helper()
	Name() string
	Skipf(format string, args ...any)
}

// Skipf skips the test, saying why, and writes the same line to the summary that
// scripts/test.sh prints after `go test`, which shows skip messages only with -v: a CI run
// says which corpus tests did not run, and why.
func Skipf(t Skipper, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	WriteSummary(t.Name()+" "+msg, nil)
	t.Skipf("%s", msg)
}

// Games returns the corpus files of kind `game`, in MANIFEST order. The test is skipped, saying
// so, when the corpus is not there.
func Games(t Skipper) []Entry {
	t.Helper()
	all := Files(t)
	var out []Entry
	for _, e := range all {
		if e.Kind == "game" {
			out = append(out, e)
		}
	}
	return out
}

// Files returns every file of the manifest.
func Files(t Skipper) []Entry {
	t.Helper()
	f, err := os.Open(filepath.Join(Dir(), "MANIFEST.tsv"))
	if err != nil {
		Skipf(t, "SKIPPED: the shared corpus (%s) is not there: %v", Dir(), err)
		return nil
	}
	defer f.Close()
	var out []Entry
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) >= 7 && cols[0] != "path" {
			out = append(out, Entry{Path: cols[0], Kind: cols[6]})
		}
	}
	return out
}

// Sample returns about one in every n entries, chosen by a hash of the path (so the same games
// every run, and a stable choice when the corpus grows), plus those whose path contains one of
// always. n <= 1 returns all.
func Sample(es []Entry, n int, always ...string) []Entry {
	if n <= 1 {
		return es
	}
	var out []Entry
	for _, e := range es {
		h := fnv.New32a()
		h.Write([]byte(e.Path))
		keep := h.Sum32()%uint32(n) == 0
		for _, a := range always {
			keep = keep || strings.Contains(e.Path, a)
		}
		if keep {
			out = append(out, e)
		}
	}
	return out
}

// Logger is the part of testing.TB that ShortSample needs.
type Logger interface {
	Helper()
	Name() string
	Logf(format string, args ...any)
}

// ShortSample is the corpus sweep of a test: every entry, or under -short Sample(es, n,
// always...), in which case the games sampled are named in the test's log and in the summary
// that scripts/test.sh prints, so a CI run says what it checked. The full sweep is the same test
// without -short (bash scripts/test.sh full).
func ShortSample(t Logger, es []Entry, n int, always ...string) []Entry {
	t.Helper()
	if !testing.Short() || n <= 1 {
		return es
	}
	s := Sample(es, n, always...)
	head := fmt.Sprintf("-short: %d of %d files (one in %d by a hash of the path", len(s), len(es), n)
	if len(always) > 0 {
		head += ", and those matching " + strings.Join(always, " ")
	}
	head += "); without -short all of them"
	t.Logf("%s: %s", head, strings.Join(Names(s), " "))
	WriteSummary(t.Name()+" "+head, []string{strings.Join(Names(s), " ")})
	return s
}

// WriteSummary appends a test's summary to the file named by $GDL_TEST_SUMMARY, which
// scripts/test.sh prints after `go test`, so that the figures show in CI output without -v.
func WriteSummary(title string, lines []string) error {
	path := os.Getenv("GDL_TEST_SUMMARY")
	if path == "" {
		return nil
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	fmt.Fprintf(f, "%s\n", title)
	for _, l := range lines {
		fmt.Fprintf(f, "  %s\n", l)
	}
	return nil
}

// Paths returns the entries' paths, in order.
func Paths(es []Entry) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.Path
	}
	return out
}

// Names returns the base names of entries, sorted, for a summary line.
func Names(es []Entry) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.Path)
	}
	slices.Sort(out)
	return out
}
