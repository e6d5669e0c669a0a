package ide

import (
	"context"
	"os"
	"time"

	"github.com/gdl-lsp/gdl/internal/readfile"
	"github.com/gdl-lsp/gdl/syntax"
)

// Workspace diagnostics: the diagnostics of the game files of the workspace that are not open.
// The index lists the files (GameFiles, bounded as the index is: at most maxIndexFiles files of
// maxIndexFileSize bytes); the server analyses them one at a time (ReadSnapshot) and keeps
// nothing of them but what it published, so memory does not grow with the workspace.

// GameFiles returns the game files the index lists, in path order, once the listing is done (or
// ctx is).
func (ix *Index) GameFiles(ctx context.Context) []string {
	ix.mu.Lock()
	started := ix.started
	ix.mu.Unlock()
	if !started {
		return nil
	}
	select {
	case <-ix.listed:
	case <-ctx.Done():
		return nil
	}
	return ix.paths()
}

// Relist lists the folders again for new files when the client does not report file changes
// (at most every relistEvery), as a workspace/symbol request does.
func (ix *Index) Relist(ctx context.Context) {
	ix.mu.Lock()
	started := ix.started
	ix.mu.Unlock()
	if !started || ix.watching != nil && ix.watching() {
		return
	}
	select {
	case <-ix.listed:
	case <-ctx.Done():
		return
	}
	ix.mu.Lock()
	due := time.Since(ix.relist) >= relistEvery
	if due {
		ix.relist = time.Now()
	}
	ix.mu.Unlock()
	if due {
		ix.list(ctx)
	}
}

// Lists reports whether p is a game file of the index.
func (ix *Index) Lists(p string) bool {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	_, ok := ix.files[p]
	return ok
}

// FileStamp identifies a version of a file on disk: its modification time and size.
type FileStamp struct {
	Mod  time.Time
	Size int64
}

// StampOf returns the stamp of a regular file, or false when p is not one (gone, a link, a
// folder).
func StampOf(p string) (FileStamp, bool) {
	info, err := os.Lstat(p)
	if err != nil || !info.Mode().IsRegular() {
		return FileStamp{}, false
	}
	return FileStamp{info.ModTime(), info.Size()}, true
}

// ReadSnapshot parses the game file at p (a regular file of at most maxIndexFileSize bytes, as
// the index reads) in its notation (syntax.Detect), for its diagnostics.
func ReadSnapshot(p string) (*Snapshot, error) {
	data, err := readfile.Regular(p, maxIndexFileSize)
	if err != nil {
		return nil, err
	}
	return NewSnapshotIn(0, string(data), syntax.Detect(p, string(data))), nil
}
