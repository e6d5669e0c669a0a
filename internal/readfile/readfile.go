// Package readfile reads the files the tools are given or find (game descriptions, gdl.json):
// regular files only, a symbolic link being followed to one, and up to a size limit. A named
// pipe, a device such as /dev/zero, a socket or a directory is refused before it is opened, so
// reading never blocks on a pipe without a writer and never grows without bound.
package readfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// Limits of what one file may hold.
const (
	// GameLimit bounds a game description: the largest game we know is 68 KB, and checking a
	// 15 MB file already takes about 1.3 GB of memory.
	GameLimit = 16 << 20
	// ConfigLimit bounds gdl.json, a few lines of settings.
	ConfigLimit = 1 << 20
)

var (
	// ErrNotRegular is the cause of the error for a path that is not a regular file.
	ErrNotRegular = errors.New("not a regular file")
	// ErrNamedPipe is the cause of the error for a named pipe; it matches ErrNotRegular too.
	ErrNamedPipe = errors.New("a named pipe")
	// ErrTooLarge is the cause of the error for a file larger than the limit.
	ErrTooLarge = errors.New("file too large")
)

// notRegular says what a path is instead of a regular file.
type notRegular struct{ mode fs.FileMode }

func (e notRegular) Error() string {
	m := e.mode
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO), not a regular file"
	case m&fs.ModeCharDevice != 0, m&fs.ModeDevice != 0:
		return "a device, not a regular file"
	case m&fs.ModeSocket != 0:
		return "a socket, not a regular file"
	case m.IsDir():
		return "a directory, not a regular file"
	}
	return "not a regular file"
}

func (e notRegular) Is(target error) bool {
	return target == ErrNotRegular || target == ErrNamedPipe && e.mode&fs.ModeNamedPipe != 0
}

type tooLarge struct{ limit int64 }

func (e tooLarge) Error() string { return "larger than the limit of " + Size(e.limit) }

func (e tooLarge) Is(target error) bool { return target == ErrTooLarge }

// Size writes a byte count the way the limits are documented: 16 MiB, 1 MiB, 512 KiB.
func Size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// Regular reads the file at path, following symbolic links, if it is a regular file of at most
// limit bytes. The errors of that refusal are *fs.PathError naming the path, and match
// ErrNotRegular or ErrTooLarge with errors.Is; a missing file gives the error of os.Stat
// (fs.ErrNotExist).
func Regular(path string, limit int64) ([]byte, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if err := check(path, info, limit); err != nil {
		return nil, err
	}
	// Not blocking: should a pipe have taken the file's place since the Stat, opening it must
	// not wait for a writer. The check below refuses it.
	f, err := os.OpenFile(path, os.O_RDONLY|nonBlock, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if info, err = f.Stat(); err != nil {
		return nil, err
	}
	if err := check(path, info, limit); err != nil {
		return nil, err
	}
	data, err := read(f, info.Size(), limit)
	if errors.Is(err, ErrTooLarge) { // the file grew since the Stat
		return nil, &fs.PathError{Op: "read", Path: path, Err: err}
	}
	return data, err
}

// Reader reads r to its end, or fails with an error naming name once more than limit bytes
// came (for standard input, which may be a pipe that never ends).
func Reader(r io.Reader, name string, limit int64) ([]byte, error) {
	data, err := read(r, 0, limit)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return data, nil
}

func check(path string, info fs.FileInfo, limit int64) error {
	if !info.Mode().IsRegular() {
		return &fs.PathError{Op: "read", Path: path, Err: notRegular{info.Mode()}}
	}
	if info.Size() > limit {
		return &fs.PathError{Op: "read", Path: path, Err: tooLarge{limit}}
	}
	return nil
}

// read reads r to its end, expecting about size bytes, and fails with tooLarge once it has read
// more than limit.
func read(r io.Reader, size, limit int64) ([]byte, error) {
	data := make([]byte, 0, min(size, limit)+512)
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		n, err := r.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if int64(len(data)) > limit {
			return nil, tooLarge{limit}
		}
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
	}
}
