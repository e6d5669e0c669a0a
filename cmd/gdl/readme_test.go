package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdl-lsp/gdl/internal/corpus"
)

// example is a command of README.md that TestReadmeExamples runs.
type example struct {
	line       int    // in README.md
	cmd        string // as written, without the "$ " prompt
	background bool   // written with a trailing "&"
	transcript bool   // a "$ gdl ..." line of a transcript, whose output must be want
	want       []string
}

// readmeExamples extracts the commands of README.md. A block of commands (```sh without "$ "
// prompts) gives every line that starts with `gdl`, `go run ./cmd/gdl` or `go install
// ./cmd/gdl`; a transcript (any block with "$ " prompts) gives every "$ gdl ..." line, with the
// lines up to the next prompt or the end of the block as its output. It also returns the
// commands it does not run.
func readmeExamples(t *testing.T, readme string) (runs []example, notRun []string) {
	data, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	type block struct {
		info  string
		first int // line number of the block's first line
		lines []string
	}
	var blocks []block
	var cur *block
	for n, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "```") {
			if cur == nil {
				blocks = append(blocks, block{info: strings.TrimSpace(strings.TrimPrefix(line, "```")), first: n + 2})
				cur = &blocks[len(blocks)-1]
			} else {
				cur = nil
			}
			continue
		}
		if cur != nil {
			cur.lines = append(cur.lines, line)
		}
	}
	runnable := regexp.MustCompile(`^(gdl|go run \./cmd/gdl|go install \./cmd/gdl)(\s|$)`)
	for _, b := range blocks {
		transcript := false
		for _, l := range b.lines {
			transcript = transcript || strings.HasPrefix(l, "$ ")
		}
		shell := b.info == "sh" || b.info == "bash" || b.info == "shell"
		var last *example
		for i, line := range b.lines {
			n := b.first + i
			if transcript {
				if cmd, ok := strings.CutPrefix(line, "$ "); ok {
					last = nil
					if runnable.MatchString(cmd) {
						runs = append(runs, example{line: n, cmd: cmd, transcript: true})
						last = &runs[len(runs)-1]
					} else {
						notRun = append(notRun, fmt.Sprintf("README.md:%d: %s", n, cmd))
					}
				} else if last != nil {
					last.want = append(last.want, line)
				}
				continue
			}
			text := strings.TrimSpace(line)
			if !shell || text == "" || strings.HasPrefix(text, "#") {
				continue
			}
			if !runnable.MatchString(text) {
				notRun = append(notRun, fmt.Sprintf("README.md:%d: %s", n, text))
				continue
			}
			// A comment after the command is the shell's business; a trailing "&" is ours.
			bg := false
			if code, _, _ := strings.Cut(text, " #"); strings.HasSuffix(strings.TrimSpace(code), "&") {
				bg = true
				text = strings.TrimSuffix(strings.TrimSpace(code), "&")
			}
			runs = append(runs, example{line: n, cmd: strings.TrimSpace(text), background: bg})
		}
	}
	return runs, notRun
}

// durations are the figures of an output that change from run to run: "0.001s", "23ms".
var durations = regexp.MustCompile(`\b\d+(\.\d+)?(ns|µs|us|ms|s)\b`)

func normalizeOutput(lines []string) string {
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(durations.ReplaceAllString(strings.TrimRight(l, " \t"), "DURATION"))
		b.WriteByte('\n')
	}
	return b.String()
}

// TestReadmeExamples runs the quick start and every command example of README.md, as a user
// would from the repository root with `gdl` on PATH, so the README cannot promise what does not
// work: each command must exit 0 or 1 (1 is how gdl reports a game's problems, which several
// examples show on purpose), never 2 (usage or I/O) or a crash, and a transcript's output must
// be what the README shows, up to durations. The commands run in a folder that links to the
// repository's files (what they write stays there) beside a link to ../shared.
func TestReadmeExamples(t *testing.T) {
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	runs, notRun := readmeExamples(t, filepath.Join(repo, "README.md"))
	if len(runs) < 5 {
		t.Fatalf("README.md has %d command examples; the extraction is broken", len(runs))
	}

	root := t.TempDir()
	work := filepath.Join(root, "repo")
	bin := filepath.Join(root, "bin")
	for _, dir := range []string{work, bin} {
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	entries, err := os.ReadDir(repo)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if err := os.Symlink(filepath.Join(repo, e.Name()), filepath.Join(work, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(filepath.Join(repo, "..", "shared")); err == nil {
		if err := os.Symlink(filepath.Join(repo, "..", "shared"), filepath.Join(root, "shared")); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(buildGDL(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "gdl"), data, 0o755); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(),
		"PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"GOBIN="+bin,              // go install ./cmd/gdl replaces the test's gdl with its own build
		"GOFLAGS=-buildvcs=false", // the work folder is links, not a checkout
	)

	type server struct {
		cmd    *exec.Cmd
		exited chan error
	}
	var background []server
	t.Cleanup(func() {
		for _, s := range background {
			s.cmd.Process.Kill()
			<-s.exited
		}
	})
	for _, ex := range runs {
		where := fmt.Sprintf("README.md:%d: %s", ex.line, ex.cmd)
		if ex.background {
			// A server (gdl player): started, and given until its first line of output to listen.
			var out lockedBuffer
			c := exec.Command("bash", "-c", "exec "+ex.cmd)
			c.Dir, c.Env, c.Stdout, c.Stderr = work, env, &out, &out
			if err := c.Start(); err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			exited := make(chan error, 1)
			go func() { exited <- c.Wait() }()
			background = append(background, server{c, exited})
			deadline := time.Now().Add(20 * time.Second)
			for out.Len() == 0 && time.Now().Before(deadline) {
				select {
				case err := <-exited:
					exited <- err // for the cleanup
					t.Fatalf("%s: exited before the next command: %v\n%s", where, err, out.String())
				case <-time.After(50 * time.Millisecond):
				}
			}
			t.Logf("%s: started (%s)", where, strings.TrimSpace(out.String()))
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		c := exec.CommandContext(ctx, "bash", "-c", ex.cmd)
		var stdout, stderr bytes.Buffer
		c.Dir, c.Env, c.Stdout, c.Stderr = work, env, &stdout, &stderr
		start := time.Now()
		err := c.Run()
		cancel()
		code := c.ProcessState.ExitCode()
		if err != nil && code != 1 {
			t.Errorf("%s: exit status %d (%v), want 0 or 1\nstdout:\n%s\nstderr:\n%s", where, code, err, stdout.String(), stderr.String())
			continue
		}
		if strings.Contains(stderr.String(), "panic:") || strings.Contains(stderr.String(), "goroutine ") {
			t.Errorf("%s: crashed:\n%s", where, stderr.String())
		}
		t.Logf("%s: exit %d in %v", where, code, time.Since(start).Round(time.Millisecond))
		if ex.transcript {
			got := normalizeOutput(strings.Split(stdout.String(), "\n"))
			want := normalizeOutput(ex.want)
			if got != want {
				t.Errorf("%s: the output differs from the README's\ngot:\n%s\nwant:\n%s", where, got, want)
			}
		}
	}
	summary := []string{fmt.Sprintf("%d commands run", len(runs))}
	for _, l := range notRun {
		summary = append(summary, "not run (not a gdl command): "+l)
	}
	t.Logf("%s", strings.Join(summary, "\n"))
	corpus.WriteSummary(t.Name()+": the examples of README.md", summary)
}

// lockedBuffer is a bytes.Buffer that a process writes while the test reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) Len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Len()
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
