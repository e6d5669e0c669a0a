package game

import (
	"cmp"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/eval"
	"github.com/gdl-lsp/gdl/internal/readfile"
)

// The texts that do not ground within the limits of size, remembered (RememberFailures) in the
// folder no-compile of the cache folder (CacheDir): one small file per text, size limits and
// build of the program, holding the reason. Only a failure that does not depend on time is
// kept: a game over the limits of size (ground rules, their literals, the atoms that can hold)
// is over them on every run, but one that ran out of time may ground on an idle machine, so a
// timeout is never written. A run that grounds the text (with --engine compiled, which always
// tries) removes its entry; a new build may ground what an older one could not, so its
// failures are its own. At most maxFailures entries are kept, the oldest removed first, and
// `gdl cache clean` removes them all.

// CacheEnv names the environment variable that sets the cache folder (tests set it to a
// temporary folder).
const CacheEnv = "GDL_CACHE_DIR"

// maxFailures bounds the entries of no-compile.
const maxFailures = 256

// CacheDir returns gdl's cache folder: $GDL_CACHE_DIR when set, else gdl in the user's cache
// folder (os.UserCacheDir: $XDG_CACHE_HOME or ~/.cache on Linux, ~/Library/Caches on macOS,
// %LocalAppData% on Windows).
func CacheDir() (string, error) {
	if dir := os.Getenv(CacheEnv); dir != "" {
		return dir, nil
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "gdl"), nil
}

// FailureDir returns the folder of the remembered failures.
func FailureDir() (string, error) {
	dir, err := CacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "no-compile"), nil
}

// CleanCache removes the remembered failures, and returns how many there were.
func CleanCache() (int, error) {
	dir, err := FailureDir()
	if err != nil {
		return 0, err
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	n := 0
	for _, e := range entries {
		if e.Type().IsRegular() {
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
				return n, err
			}
			n++
		}
	}
	return n, nil
}

// buildStamp identifies the running build: the executable's size and modification time, and
// the revision it was built from when the build records one.
var buildStamp = sync.OnceValue(func() string {
	var b strings.Builder
	if exe, err := os.Executable(); err == nil {
		if fi, err := os.Stat(exe); err == nil {
			fmt.Fprintf(&b, "%d %d", fi.Size(), fi.ModTime().UnixNano())
		}
	}
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" || s.Key == "vcs.modified" {
				fmt.Fprintf(&b, " %s", s.Value)
			}
		}
	}
	return b.String()
})

// failurePath is the entry of a text under the size limits of opts (not its time limit: only
// failures of size are kept).
func failurePath(res *analysis.Result, opts Options) (string, bool) {
	dir, err := FailureDir()
	if err != nil {
		return "", false
	}
	l := opts.Ground
	h := sha256.Sum256(fmt.Appendf(nil, "%s\x00%d %d %d\x00%s", res.Model.File.Source(), l.MaxRules, l.MaxLits, l.MaxFacts, buildStamp()))
	return filepath.Join(dir, fmt.Sprintf("%x", h[:16])), true
}

// recalledFailure returns the reason remembered for this text, if any.
func recalledFailure(res *analysis.Result, opts Options) (string, bool) {
	path, ok := failurePath(res, opts)
	if !ok {
		return "", false
	}
	data, err := readfile.Regular(path, 4096)
	if err != nil || len(data) == 0 {
		return "", false
	}
	return strings.TrimSpace(string(data)), true
}

// sizeFailure reports whether a grounding failed on a limit of size, which it would reach again
// however long it ran.
func sizeFailure(err error) bool {
	var ge *eval.GroundError
	return errors.As(err, &ge) && ge.SizeLimit()
}

// rememberFailure records why the text does not ground, if that does not depend on time; a
// cache that cannot be written is no error (the next run grounds again).
func rememberFailure(res *analysis.Result, opts Options, err error) {
	if !sizeFailure(err) {
		return
	}
	path, ok := failurePath(res, opts)
	if !ok {
		return
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(err.Error()+"\n"), 0o644); err != nil {
		return
	}
	if os.Rename(tmp, path) == nil {
		evictFailures(filepath.Dir(path))
	}
}

// forgetFailure removes the entry of a text that grounded.
func forgetFailure(res *analysis.Result, opts Options) {
	if path, ok := failurePath(res, opts); ok {
		os.Remove(path)
	}
}

// evictFailures removes the oldest entries of dir past maxFailures.
func evictFailures(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) <= maxFailures {
		return
	}
	type entry struct {
		name string
		at   int64
	}
	var all []entry
	for _, e := range entries {
		if info, err := e.Info(); err == nil && info.Mode().IsRegular() {
			all = append(all, entry{e.Name(), info.ModTime().UnixNano()})
		}
	}
	slices.SortFunc(all, func(a, b entry) int { // oldest first
		return cmp.Or(cmp.Compare(a.at, b.at), strings.Compare(a.name, b.name))
	})
	for _, e := range all[:max(0, len(all)-maxFailures)] {
		os.Remove(filepath.Join(dir, e.name))
	}
}
