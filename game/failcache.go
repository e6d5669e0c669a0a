package game

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/gdl-lsp/gdl/analysis"
)

// The texts that did not compile, in the user's cache folder (RememberFailures): one small file
// per text, grounding budget and build of the program, holding the reason. Grounding a game
// that does not compile (chess) costs its whole budget, seconds, on every run otherwise. A new
// build may ground what an older one could not, so its failures are its own.

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

func failurePath(res *analysis.Result, opts Options) (string, bool) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", false
	}
	h := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%+v\x00%s", res.Model.File.Source(), opts.Ground, buildStamp())))
	return filepath.Join(dir, "gdl", "no-compile", fmt.Sprintf("%x", h[:16])), true
}

// recalledFailure returns the reason remembered for this text, if any.
func recalledFailure(res *analysis.Result, opts Options) (string, bool) {
	path, ok := failurePath(res, opts)
	if !ok {
		return "", false
	}
	data, err := os.ReadFile(path)
	if err != nil || len(data) == 0 || len(data) > 4096 {
		return "", false
	}
	return strings.TrimSpace(string(data)), true
}

// rememberFailure records why the text does not compile; a cache that cannot be written is no
// error (the next run grounds again).
func rememberFailure(res *analysis.Result, opts Options, why string) {
	path, ok := failurePath(res, opts)
	if !ok {
		return
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(why+"\n"), 0o644); err != nil {
		return
	}
	os.Rename(tmp, path)
}
