package ide

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/gametest"
	"github.com/gdl-lsp/gdl/internal/readfile"
	"github.com/gdl-lsp/gdl/syntax"
)

// The workspace index: the symbols of the game files (*.kif, *.gdl, *.hrf) under the workspace folders
// that are not open, for WorkspaceSymbols. On initialized, one goroutine lists the files
// (skipping node_modules and hidden folders such as .git, and bounded in files, size and folders
// visited) and then reads them one by one; a workspace/symbol request waits for the listing and
// reads what is not read yet itself, for at most symbolWait, and then answers with the files read
// so far. Only the symbols are kept, not the trees. The client's file events (Changed) keep it
// current (once
// the watcher is registered, the next request checks every file once, for the changes made
// before); for a client that does not watch files, a request lists the folders again (at most
// every relistEvery, for new files) and checks each file's size and modification time.
//
// Symbolic links are not followed: the listing reads only regular files reached through real
// folders below each workspace folder (a workspace folder may itself be a link), so it never
// leaves the workspace and cannot loop; a file event for a path through a link is ignored.

const (
	maxIndexFiles    = 5000    // game files indexed
	maxIndexFileSize = 4 << 20 // bytes; larger files are left out
	maxIndexDirs     = 20000   // folders visited while listing
	relistEvery      = 2 * time.Second
	symbolWait       = time.Second // a request's wait for the listing and for reading files
)

// Index is the workspace index. Its methods are safe for concurrent use.
type Index struct {
	folders  []string
	real     []string    // the folders with symbolic links resolved ("" if that failed)
	watching func() bool // whether the client reports file changes

	mu      sync.Mutex
	files   map[string]*indexedFile // path -> entry
	listed  chan struct{}           // closed when the listing is done
	relist  time.Time               // when the folders were last listed again (without a watcher)
	started bool
	checked bool // the files were checked once since the watcher was registered
	enc     syntax.Encoding
}

type indexedFile struct {
	mod  time.Time
	size int64
	syms []WorkspaceSymbol // nil: not read yet
	read bool
}

// NewIndex makes an index; watching reports whether the client reports file changes (then a
// request does not look at the files again itself).
func NewIndex(watching func() bool) *Index {
	return &Index{watching: watching, files: map[string]*indexedFile{}, listed: make(chan struct{})}
}

// Start lists and reads the folders' game files in the background, until ctx ends; positions
// are kept in encoding enc. Only the first call counts.
func (ix *Index) Start(ctx context.Context, folders []string, enc syntax.Encoding) {
	ix.mu.Lock()
	if ix.started {
		ix.mu.Unlock()
		return
	}
	ix.started, ix.folders, ix.enc = true, folders, enc
	ix.real = make([]string, len(folders))
	for i, f := range folders {
		if r, err := filepath.EvalSymlinks(f); err == nil {
			ix.real[i] = r
		}
	}
	ix.mu.Unlock()
	go func() {
		ix.list(ctx)
		close(ix.listed)
		for _, p := range ix.paths() {
			if ctx.Err() != nil {
				return
			}
			ix.read(p)
		}
	}()
}

// isGameFile reports whether a file name is one the index reads.
func isGameFile(name string) bool {
	ext := strings.ToLower(filepath.Ext(name))
	return (ext == ".kif" || ext == ".gdl" || ext == syntax.InfixExt) && !gametest.IsTestPath(name)
}

func skipDir(name string) bool {
	return name == "node_modules" || (strings.HasPrefix(name, ".") && name != "." && name != "..")
}

// list registers the game files below the workspace folders. It walks each folder's real path
// (filepath.WalkDir does not follow links below it) and names the files by the folder's path as
// the client gave it.
func (ix *Index) list(ctx context.Context) {
	dirs := 0
	for i, root := range ix.folders {
		real := ix.real[i]
		if real == "" {
			continue
		}
		filepath.WalkDir(real, func(p string, d fs.DirEntry, err error) error {
			if err != nil || ctx.Err() != nil {
				if d != nil && d.IsDir() && p != real {
					return filepath.SkipDir
				}
				return nil
			}
			if d.IsDir() {
				if dirs++; dirs > maxIndexDirs {
					return filepath.SkipAll
				}
				if p != real && skipDir(d.Name()) {
					return filepath.SkipDir
				}
				return nil
			}
			if !d.Type().IsRegular() || !isGameFile(d.Name()) {
				return nil // links (to files or folders) are not followed
			}
			rel, err := filepath.Rel(real, p)
			if err != nil {
				return nil
			}
			p = filepath.Join(root, rel)
			ix.mu.Lock()
			full := len(ix.files) >= maxIndexFiles
			_, known := ix.files[p]
			ix.mu.Unlock()
			if full {
				return filepath.SkipAll
			}
			if !known {
				ix.touch(p)
			}
			return nil
		})
	}
}

// within reports whether p lies in one of the workspace folders (and not in a skipped folder)
// and, if it must be reachable, whether it is there without a symbolic link on the way.
func (ix *Index) within(p string, reachable bool) bool {
	for i, root := range ix.folders {
		rel, err := filepath.Rel(root, p)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		parts := strings.Split(filepath.ToSlash(rel), "/")
		ok := true
		for _, part := range parts[:len(parts)-1] {
			if skipDir(part) {
				ok = false
			}
		}
		if !ok {
			continue
		}
		if !reachable {
			return true
		}
		// The file's folder, links resolved, must be where the listing would find it.
		if ix.real[i] == "" {
			continue
		}
		if dir, err := filepath.EvalSymlinks(filepath.Dir(p)); err == nil && dir == filepath.Join(ix.real[i], filepath.Dir(rel)) {
			return true
		}
	}
	return false
}

// touch (re)registers a file as unread, if it is a regular file (not a link) and fits the
// bounds; otherwise it drops it.
func (ix *Index) touch(p string) {
	info, err := os.Lstat(p)
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if err != nil || !info.Mode().IsRegular() || info.Size() > maxIndexFileSize {
		delete(ix.files, p)
		return
	}
	if _, ok := ix.files[p]; !ok && len(ix.files) >= maxIndexFiles {
		return
	}
	ix.files[p] = &indexedFile{mod: info.ModTime(), size: info.Size()}
}

// Changed applies a file event of the client: created or changed files are read again, deleted
// ones forgotten.
func (ix *Index) Changed(p string, deleted bool) {
	if !isGameFile(p) {
		return
	}
	ix.mu.Lock()
	started := ix.started
	ix.mu.Unlock()
	if !started || !ix.within(p, !deleted) {
		return
	}
	if deleted {
		ix.mu.Lock()
		delete(ix.files, p)
		ix.mu.Unlock()
		return
	}
	ix.touch(p)
}

func (ix *Index) paths() []string {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	out := make([]string, 0, len(ix.files))
	for p := range ix.files {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// read parses a file, if it is not read yet, and keeps its symbols.
func (ix *Index) read(p string) {
	ix.mu.Lock()
	f, ok := ix.files[p]
	enc := ix.enc
	done := ok && f.read // f's fields are written under the lock
	ix.mu.Unlock()
	if !ok || done {
		return
	}
	data, err := readfile.Regular(p, maxIndexFileSize) // the file may have changed since touch
	var syms []WorkspaceSymbol
	if err == nil {
		file, _ := syntax.ParseDialect(string(data), syntax.Detect(p, string(data)))
		lines := file.Lines()
		for _, s := range fileSymbols(analysis.NewModel(file)) {
			syms = append(syms, WorkspaceSymbol{Symbol: s, Path: p,
				Start: lines.Position(s.Span.Start, enc), End: lines.Position(s.Span.End, enc)})
		}
	}
	ix.mu.Lock()
	if cur, ok := ix.files[p]; ok && cur == f {
		f.syms, f.read = syms, true
	}
	ix.mu.Unlock()
}

// symbols calls yield with the symbols of every indexed file that is not open, in path order.
// It waits for the listing and reads the files not read yet for at most symbolWait (and as long as
// ctx allows), then answers from the files read so far. Without file watching, it first
// re-registers the files whose modification time or size changed.
func (ix *Index) symbols(ctx context.Context, open map[string]bool, yield func(WorkspaceSymbol)) {
	ix.mu.Lock()
	started := ix.started
	ix.mu.Unlock()
	if !started {
		return
	}
	wait, cancel := context.WithTimeout(ctx, symbolWait)
	defer cancel()
	select {
	case <-ix.listed:
	case <-wait.Done():
	}
	watching := ix.watching != nil && ix.watching()
	ix.mu.Lock()
	if watching && !ix.checked {
		// Files may have changed between the listing and the watcher's registration.
		ix.checked, watching, ix.relist = true, false, time.Time{}
	}
	ix.mu.Unlock()
	if !watching {
		ix.mu.Lock()
		due := time.Since(ix.relist) >= relistEvery
		if due {
			ix.relist = time.Now()
		}
		ix.mu.Unlock()
		if due {
			ix.list(wait)
		}
	}
	for _, p := range ix.paths() {
		if ctx.Err() != nil {
			return
		}
		if open[p] {
			continue
		}
		if wait.Err() == nil {
			if !watching {
				ix.mu.Lock()
				f := ix.files[p]
				ix.mu.Unlock()
				if info, err := os.Lstat(p); err != nil || f == nil || !info.ModTime().Equal(f.mod) || info.Size() != f.size {
					ix.touch(p)
				}
			}
			ix.read(p)
		}
		ix.mu.Lock()
		f := ix.files[p]
		var syms []WorkspaceSymbol
		if f != nil {
			syms = f.syms
		}
		ix.mu.Unlock()
		for _, s := range syms {
			yield(s)
		}
	}
}
