//go:build unix

package main

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Issue 10, item 4: named pipes and links to devices where games or gdl.json are expected. gdl
// reads only regular files (a link is followed to one), up to a size limit; anything else is an
// error naming the path, never a wait for a pipe's writer or an endless read.

// hostile runs the binary for at most 30 s and with at most 1 GiB of data (ulimit -d), so that a
// regression (waiting for a pipe's writer, reading /dev/zero) fails the test instead of hanging
// it or taking the machine's memory.
func hostile(t *testing.T, bin string, stdin io.Reader, args ...string) (string, string, int) {
	t.Helper()
	return runWithin(t, 30*time.Second, "sh", stdin, append([]string{"-c", `ulimit -d 1048576 && exec "$0" "$@"`, bin}, args...)...)
}

const pipeMessage = "a named pipe (FIFO), not a regular file"

func mkfifo(t *testing.T, p string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skipf("SKIPPED: no named pipes here: %v", err)
	}
	return p
}

func symlink(t *testing.T, target, p string) string {
	t.Helper()
	if err := os.Symlink(target, p); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestNamedPipeConfig(t *testing.T) {
	bin := buildGDL(t)
	dir := t.TempDir()
	config := mkfifo(t, filepath.Join(dir, "gdl.json"))
	game := writeFile(t, dir, "sub/game.kif", validGame)
	_, errOut, code := hostile(t, bin, nil, "check", game)
	if code != 2 || !strings.Contains(errOut, config+": "+pipeMessage) {
		t.Fatalf("exit %d, stderr %q; want 2 and the pipe named", code, errOut)
	}
}

func TestHostileDirectory(t *testing.T) {
	bin := buildGDL(t)
	dir := t.TempDir()
	messy := writeFile(t, dir, "a.kif", "(role a) (role b)\n(<= (p ?x) (q ?x))\n")
	pipe := mkfifo(t, filepath.Join(dir, "pipe.kif"))
	zero := symlink(t, "/dev/zero", filepath.Join(dir, "zero.kif"))

	t.Run("check reports both and still checks the rest", func(t *testing.T) {
		out, errOut, code := hostile(t, bin, nil, "check", dir)
		if code != 2 || !strings.Contains(errOut, pipe+": "+pipeMessage) || !strings.Contains(errOut, zero+": a device, not a regular file") {
			t.Fatalf("exit %d, stderr %q", code, errOut)
		}
		if !strings.Contains(out, messy+":") {
			t.Fatalf("a.kif was not checked: %q", out)
		}
	})
	t.Run("fmt prints nothing", func(t *testing.T) {
		out, errOut, code := hostile(t, bin, nil, "fmt", dir)
		if code != 2 || out != "" || !strings.Contains(errOut, pipe) || !strings.Contains(errOut, zero) {
			t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
		}
	})
	t.Run("fmt -w writes nothing", func(t *testing.T) {
		_, errOut, code := hostile(t, bin, nil, "fmt", "-w", dir)
		if code != 2 || !strings.Contains(errOut, pipe) {
			t.Fatalf("exit %d, stderr %q", code, errOut)
		}
		if data, _ := os.ReadFile(messy); string(data) != "(role a) (role b)\n(<= (p ?x) (q ?x))\n" {
			t.Fatalf("a.kif was rewritten although a path failed: %q", data)
		}
	})
}

// TestFmtWriteAllOrNothing: fmt -w rewrote the files read before a path that could not be read
// (here a dangling link after a.kif), breaking its promise to write nothing then.
func TestFmtWriteAllOrNothing(t *testing.T) {
	bin := buildGDL(t)
	dir := t.TempDir()
	messy := writeFile(t, dir, "a.kif", "(role a) (role b)\n")
	dangling := symlink(t, "missing.kif", filepath.Join(dir, "b.kif"))
	_, errOut, code := hostile(t, bin, nil, "fmt", "-w", dir)
	if code != 2 || !strings.Contains(errOut, dangling) {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if data, _ := os.ReadFile(messy); string(data) != "(role a) (role b)\n" {
		t.Fatalf("a.kif was rewritten although a path failed: %q", data)
	}
}

// TestNamedPipeArgument: a pipe named on the command line is refused with a hint; standard
// input, which may be a pipe, is read as -, up to the limit.
func TestNamedPipeArgument(t *testing.T) {
	bin := buildGDL(t)
	pipe := mkfifo(t, filepath.Join(t.TempDir(), "game.kif"))
	for _, args := range [][]string{
		{"check", pipe}, {"fmt", pipe}, {"query", pipe, "terminal"}, {"play", pipe}, {"convert", "--to", "prolog", pipe},
	} {
		_, errOut, code := hostile(t, bin, nil, args...)
		if code != 2 || !strings.Contains(errOut, pipe+": "+pipeMessage+" (gdl reads a pipe only as standard input, -)") {
			t.Errorf("gdl %s: exit %d, stderr %q", strings.Join(args, " "), code, errOut)
		}
	}
	if out, _, code := hostile(t, bin, strings.NewReader("(role  a)\n"), "fmt", "-"); code != 0 || out != "(role a)\n" {
		t.Errorf("fmt -: exit %d, %q", code, out)
	}
	zero, err := os.Open("/dev/zero")
	if err != nil {
		t.Skipf("SKIPPED: no /dev/zero: %v", err)
	}
	defer zero.Close()
	_, errOut, code := hostile(t, bin, zero, "check", "-")
	if code != 2 || !strings.Contains(errOut, "<stdin>: larger than the limit of 16 MiB") {
		t.Errorf("endless standard input: exit %d, stderr %q", code, errOut)
	}
}

func TestFileTooLarge(t *testing.T) {
	bin := buildGDL(t)
	dir := t.TempDir()
	big := filepath.Join(dir, "big.kif")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	// A sparse file: 16 MiB and one byte without writing them.
	if err := f.Truncate(16<<20 + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	_, errOut, code := hostile(t, bin, nil, "check", big)
	if code != 2 || !strings.Contains(errOut, big+": larger than the limit of 16 MiB") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	config := writeFile(t, dir, "sub/gdl.json", `{"severity": {}}`+strings.Repeat(" ", 1<<20))
	game := writeFile(t, dir, "sub/game.kif", validGame)
	if _, errOut, code = hostile(t, bin, nil, "check", game); code != 2 || !strings.Contains(errOut, config+": larger than the limit of 1 MiB") {
		t.Fatalf("large gdl.json: exit %d, stderr %q", code, errOut)
	}
}

// TestFmtWriteKeepsFiles: fmt -w replaces a file by renaming a temporary file over it: the
// permissions stay, a symbolic link stays a link (its target is rewritten), and no temporary
// file is left behind.
func TestFmtWriteKeepsFiles(t *testing.T) {
	bin := buildGDL(t)
	dir := t.TempDir()
	private := writeFile(t, dir, "private.kif", "(role  a)\n")
	if err := os.Chmod(private, 0o600); err != nil {
		t.Fatal(err)
	}
	target := writeFile(t, dir, "real/target.kif", "(role  b)\n")
	link := symlink(t, "real/target.kif", filepath.Join(dir, "link.kif"))
	if _, errOut, code := hostile(t, bin, nil, "fmt", "-w", private, link); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if data, _ := os.ReadFile(private); string(data) != "(role a)\n" {
		t.Errorf("private.kif: %q", data)
	}
	if info, err := os.Stat(private); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("private.kif's permissions: %v, %v; want 0600", info.Mode(), err)
	}
	if info, err := os.Lstat(link); err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Errorf("link.kif is no longer a link: %v", err)
	}
	if data, _ := os.ReadFile(target); string(data) != "(role b)\n" {
		t.Errorf("the link's target: %q", data)
	}
	for _, d := range []string{dir, filepath.Join(dir, "real")} {
		entries, _ := os.ReadDir(d)
		for _, e := range entries {
			if strings.Contains(e.Name(), "gdlfmt") {
				t.Errorf("temporary file left behind: %s", filepath.Join(d, e.Name()))
			}
		}
	}
}

// TestPlayerConcurrentLargePosts: twenty posts of 14 MB at once do not exhaust a player
// limited to 1 GiB of data (ulimit -d): it reads one game at a time and answers the others busy
// or 503 at once, and goes on answering.
func TestPlayerConcurrentLargePosts(t *testing.T) {
	bin := buildGDL(t)
	url := startPlayerCommand(t, "sh", "-c", `ulimit -d 1048576 && exec "$0" "$@"`, bin, "player", "--port", "0", "--log", filepath.Join(t.TempDir(), "log"))
	body := "(START m left (" + strings.Repeat("(f) ", 14<<20/4) + ") 10 10)"
	var wg sync.WaitGroup
	statuses := make([]string, 20)
	for i := range statuses {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := http.Post(url, "text/acl", strings.NewReader(body))
			if err != nil {
				statuses[i] = "error: " + err.Error()
				return
			}
			defer resp.Body.Close()
			answer, _ := io.ReadAll(io.LimitReader(resp.Body, 200))
			statuses[i] = fmt.Sprintf("%d %s", resp.StatusCode, strings.Fields(string(answer))[0])
		}()
	}
	wg.Wait()
	t.Logf("answers: %q", statuses)
	resp, err := http.Post(url, "text/acl", strings.NewReader("(INFO)"))
	if err != nil {
		t.Fatalf("the player is gone after the posts: %v (answers %q)", err, statuses)
	}
	answer, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || string(answer) != "available" {
		t.Errorf("INFO after the posts: %d %q", resp.StatusCode, answer)
	}
}

// Issue 21: the estimate of a grounding (gdl query with --engine auto estimates before it
// grounds) stays within its bounds on a term that nests ten copies of itself per level: ten to
// the eighth argument sets unbounded, a few thousand with the bound.
func TestHostileGroundingEstimate(t *testing.T) {
	bin := buildGDL(t)
	game := writeFile(t, t.TempDir(), "nest.kif", "(role p) (init (s a)) (p a)\n"+
		"(<= (p (f ?x ?x ?x ?x ?x ?x ?x ?x ?x ?x)) (p ?x))\n"+
		"(<= (legal p (m ?x)) (true (s ?x)) (p ?x)) (<= (next (s ?x)) (does p (m ?x)))\n"+
		"(<= terminal (true (s b))) (goal p 0)\n")
	out, errOut, code := hostile(t, bin, nil, "query", game, "(role ?r)")
	if code != 0 || !strings.Contains(out, "p") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}
