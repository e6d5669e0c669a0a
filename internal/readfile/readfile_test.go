//go:build unix

package readfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// regular runs Regular, failing the test rather than hanging if it blocks (on a pipe, say).
func regular(t *testing.T, path string, limit int64) ([]byte, error) {
	t.Helper()
	type result struct {
		data []byte
		err  error
	}
	done := make(chan result, 1)
	go func() {
		data, err := Regular(path, limit)
		done <- result{data, err}
	}()
	select {
	case r := <-done:
		return r.data, r.err
	case <-time.After(10 * time.Second):
		t.Fatalf("Regular(%s) blocked", path)
	}
	return nil, nil
}

func TestRegular(t *testing.T) {
	dir := t.TempDir()
	game := filepath.Join(dir, "game.kif")
	if err := os.WriteFile(game, []byte("(role a)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo.kif")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("SKIPPED: no named pipes here: %v", err)
	}
	links := map[string]string{"link.kif": game, "zero.kif": "/dev/zero", "tofifo.kif": fifo, "todir.kif": dir}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	big := filepath.Join(dir, "big.kif")
	if err := os.WriteFile(big, []byte(strings.Repeat("(role a)\n", 100)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path  string
		limit int64
		want  string // the data, or the error's text
		is    error
	}{
		{game, 100, "(role a)\n", nil},
		{filepath.Join(dir, "link.kif"), 100, "(role a)\n", nil},
		{game, 9, "(role a)\n", nil}, // exactly the limit
		{big, 899, "read " + big + ": larger than the limit of 899 bytes", ErrTooLarge},
		{fifo, 100, "read " + fifo + ": a named pipe (FIFO), not a regular file", ErrNamedPipe},
		{filepath.Join(dir, "tofifo.kif"), 100, "a named pipe (FIFO), not a regular file", ErrNotRegular},
		{filepath.Join(dir, "zero.kif"), 100, "a device, not a regular file", ErrNotRegular},
		{filepath.Join(dir, "todir.kif"), 100, "a directory, not a regular file", ErrNotRegular},
		{dir, 100, "a directory, not a regular file", ErrNotRegular},
		{filepath.Join(dir, "missing.kif"), 100, "no such file or directory", fs.ErrNotExist},
	} {
		data, err := regular(t, c.path, c.limit)
		if c.is == nil {
			if err != nil || string(data) != c.want {
				t.Errorf("%s: got %q, %v; want %q", c.path, data, err, c.want)
			}
			continue
		}
		var pe *fs.PathError
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.Is(err, c.is) || !errors.As(err, &pe) || pe.Path != c.path {
			t.Errorf("%s: got %q, %v; want an error naming the path: %s", c.path, data, err, c.want)
		}
	}
	if _, err := regular(t, filepath.Join(dir, "zero.kif"), 100); errors.Is(err, ErrNamedPipe) {
		t.Errorf("a device is not a named pipe: %v", err)
	}
}

func TestReader(t *testing.T) {
	if data, err := Reader(strings.NewReader("(role a)"), "standard input", 8); err != nil || string(data) != "(role a)" {
		t.Errorf("got %q, %v", data, err)
	}
	zero, err := os.Open("/dev/zero")
	if err != nil {
		t.Skipf("SKIPPED: no /dev/zero: %v", err)
	}
	defer zero.Close()
	_, err = Reader(zero, "standard input", 1<<20)
	if err == nil || err.Error() != "standard input: larger than the limit of 1 MiB" || !errors.Is(err, ErrTooLarge) {
		t.Errorf("endless input: %v", err)
	}
}
