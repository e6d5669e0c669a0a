package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gdl-lsp/gdl/analysis"
	"github.com/gdl-lsp/gdl/syntax"
)

// gdlIn runs the binary with standard input; gdl (query_test.go) is the same without input.
func gdlIn(t *testing.T, bin, stdin string, args ...string) (string, string, int) {
	t.Helper()
	return gdlFrom(t, bin, strings.NewReader(stdin), args...)
}

// runLimit bounds every run of the binary: a run that hangs (on a named pipe, say) fails the
// test instead of hanging it.
const runLimit = 2 * time.Minute

// gdlFrom runs the binary with the given standard input and returns stdout, stderr and the
// exit status.
func gdlFrom(t *testing.T, bin string, stdin io.Reader, args ...string) (string, string, int) {
	t.Helper()
	return runWithin(t, runLimit, bin, stdin, args...)
}

// runWithin runs a program, killing it and failing the test after limit.
func runWithin(t *testing.T, limit time.Duration, bin string, stdin io.Reader, args ...string) (string, string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.WaitDelay = 5 * time.Second
	cmd.Stdin = stdin
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("%s %s: still running after %v (killed)\nstderr: %s", bin, strings.Join(args, " "), limit, stderr.String())
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s %v: %v", bin, args, err)
	}
	return stdout.String(), stderr.String(), code
}

const validGame = `(role robot)
(init (cell a))
(<= (legal robot (go ?x)) (true (cell ?x)))
(<= (next (cell ?x)) (does robot (go ?x)))
(<= terminal (true (cell a)))
(goal robot 100)
`

func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestCheckCLI(t *testing.T) {
	bin := buildGDL(t)
	dir := t.TempDir()
	good := writeFile(t, dir, "good.kif", validGame)
	// The error sits after non-ASCII text: columns count characters, not bytes.
	bad := writeFile(t, dir, "sub/bad.gdl", "; é ü\n(role robot) (ä) ))\n")
	writeFile(t, dir, "sub/notes.txt", "(((")

	t.Run("valid file exits 0 and prints nothing", func(t *testing.T) {
		out, errOut, code := gdl(t, bin, "check", good)
		if code != 0 || out != "" || errOut != "" {
			t.Fatalf("code %d, stdout %q, stderr %q", code, out, errOut)
		}
	})
	t.Run("text format, character columns, exit 1", func(t *testing.T) {
		out, _, code := gdl(t, bin, "check", bad)
		if code != 1 {
			t.Fatalf("exit %d, want 1\n%s", code, out)
		}
		for _, col := range []string{"18", "19"} {
			want := bad + ":2:" + col + ": error: unmatched ')': no '(' is open here [unmatched-close-paren]\n"
			if !strings.Contains(out, want) {
				t.Fatalf("missing %q in\n%s", want, out)
			}
		}
	})
	t.Run("directory walk finds .kif and .gdl, sorted by file then position", func(t *testing.T) {
		out, _, code := gdl(t, bin, "check", dir)
		if code != 1 {
			t.Fatalf("exit %d", code)
		}
		lastPos := map[string]int{}
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			if strings.Contains(l, "notes.txt") {
				t.Fatal("checked a .txt file")
			}
			if !strings.HasPrefix(l, bad+":") {
				t.Fatalf("unexpected diagnostic %q (only %s has problems)", l, bad)
			}
			file := strings.SplitN(l, ":", 2)[0]
			if p := lineCol(l); p < lastPos[file] {
				t.Fatalf("not sorted by position: %q", l)
			} else {
				lastPos[file] = p
			}
		}
	})
	t.Run("json format", func(t *testing.T) {
		out, _, code := gdl(t, bin, "check", "--format", "json", bad)
		if code != 1 {
			t.Fatalf("exit %d", code)
		}
		var ds []map[string]any
		if err := json.Unmarshal([]byte(out), &ds); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		found := false
		for _, d := range ds {
			for _, k := range []string{"file", "line", "column", "endLine", "endColumn", "severity", "code", "category", "message"} {
				if _, ok := d[k]; !ok {
					t.Fatalf("field %s missing in %v", k, d)
				}
			}
			if d["code"] == "unmatched-close-paren" && d["line"] == 2.0 && d["column"] == 18.0 && d["endColumn"] == 19.0 {
				found = true
				if d["category"] != "syntax" || d["severity"] != "error" {
					t.Fatalf("wrong category or severity: %v", d)
				}
			}
		}
		if !found {
			t.Fatalf("unmatched-close-paren at 2:18-2:19 not found in\n%s", out)
		}
		out, _, code = gdl(t, bin, "check", "--format", "json", good)
		if code != 0 || strings.TrimSpace(out) != "[]" {
			t.Fatalf("valid file: exit %d, %q", code, out)
		}
	})
	t.Run("standard input", func(t *testing.T) {
		out, _, code := gdlIn(t, bin, "(role x", "check", "-")
		if code != 1 || !strings.Contains(out, "<stdin>:1:1: error: '(' is never closed") {
			t.Fatalf("exit %d\n%s", code, out)
		}
	})
	t.Run("missing path is an I/O error naming it", func(t *testing.T) {
		_, errOut, code := gdl(t, bin, "check", filepath.Join(dir, "nope.kif"))
		if code != 2 || !strings.Contains(errOut, "nope.kif") {
			t.Fatalf("exit %d, stderr %q", code, errOut)
		}
	})
	t.Run("usage errors exit 2", func(t *testing.T) {
		if _, _, code := gdl(t, bin, "check"); code != 2 {
			t.Fatalf("no path: exit %d", code)
		}
		if _, _, code := gdl(t, bin, "check", "--format", "xml", good); code != 2 {
			t.Fatalf("bad format: exit %d", code)
		}
		if _, _, code := gdl(t, bin, "nonsense"); code != 2 {
			t.Fatalf("unknown command: exit %d", code)
		}
	})
	t.Run("gdl.json changes severities and turns codes off", func(t *testing.T) {
		proj := t.TempDir()
		writeFile(t, proj, "gdl.json", `{"severity": {"unmatched-close-paren": "warning", "empty-list": "off"}}`)
		p := writeFile(t, proj, "games/g.kif", validGame+"(foo ()) )\n")
		out, _, code := gdl(t, bin, "check", p)
		if code != 0 {
			t.Fatalf("a warning only must exit 0, got %d\n%s", code, out)
		}
		if !strings.Contains(out, "warning: unmatched ')'") || strings.Contains(out, "empty-list") {
			t.Fatalf("config not applied:\n%s", out)
		}
		writeFile(t, proj, "gdl.json", `{"severity": {"unmatched-close-paren": "loud"}}`)
		_, errOut, code := gdl(t, bin, "check", p)
		if code != 2 || !strings.Contains(errOut, "gdl.json") {
			t.Fatalf("bad config: exit %d, %q", code, errOut)
		}
	})
	t.Run("--list names every code", func(t *testing.T) {
		out, _, code := gdl(t, bin, "check", "--list")
		if code != 0 {
			t.Fatalf("exit %d\n%s", code, out)
		}
		codes := append([]string{}, syntax.Codes...)
		for _, c := range analysis.Checks {
			codes = append(codes, c.Code)
		}
		for _, c := range codes {
			if !strings.Contains(out, c+" ") {
				t.Errorf("--list misses %s", c)
			}
		}
	})
	t.Run("the README's quick-start example reports what the README says", func(t *testing.T) {
		example := filepath.Join("..", "..", "testdata", "examples", "tictactoe-bug.kif")
		out, _, code := gdl(t, bin, "check", example)
		if code != 1 {
			t.Fatalf("exit %d, want 1\n%s", code, out)
		}
		var errs []string
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			if strings.Contains(l, ": fix: ") {
				continue // the fix each error offers (TestCheckTextFixes)
			}
			if !strings.Contains(l, ": error: ") {
				// open is used only in the broken last rule: no unused-relation warning
				t.Errorf("only the two errors expected (README.md quick start), got %q", l)
			} else {
				pos := strings.SplitN(strings.TrimPrefix(l, example+":"), ": ", 2)[0]
				errs = append(errs, pos+" "+l[strings.LastIndex(l, "["):])
			}
		}
		want := "41:23 [unsafe-variable], 108:1 [unclosed-paren]"
		if got := strings.Join(errs, ", "); got != want {
			t.Fatalf("errors %s, want %s (README.md quick start)\n%s", got, want, out)
		}
	})
	t.Run("several paths: sorted by file then position, each file once, stdin by its name", func(t *testing.T) {
		tree := t.TempDir()
		z := writeFile(t, tree, "z.kif", "(role a))\n(role b))\n")
		m := writeFile(t, tree, "m.kif", "(role a))\n")
		ab := writeFile(t, tree, "a/b.gdl", "(role a))\n")
		for _, format := range []string{"text", "json"} {
			out, errOut, code := gdlIn(t, bin, "(role a))\n", "check", "--format", format, z, "-", tree, m)
			if code != 1 || errOut != "" {
				t.Fatalf("exit %d, stderr %q\n%s", code, errOut, out)
			}
			var files []string
			var lines []int
			if format == "json" {
				var ds []jsonDiagnostic
				if err := json.Unmarshal([]byte(out), &ds); err != nil {
					t.Fatalf("%v\n%s", err, out)
				}
				for _, d := range ds {
					if d.Code == "unmatched-close-paren" {
						files, lines = append(files, d.File), append(lines, d.Line)
					}
				}
			} else {
				for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
					if strings.HasSuffix(l, "[unmatched-close-paren]") {
						files, lines = append(files, strings.SplitN(l, ":", 2)[0]), append(lines, lineCol(l)/100000)
					}
				}
			}
			got := fmt.Sprint(files, lines)
			want := fmt.Sprint([]string{ab, m, z, z, "<stdin>"}, []int{1, 1, 1, 2, 1})
			if got != want {
				t.Fatalf("%s: diagnostics in order %s, want %s\n%s", format, got, want, out)
			}
		}
	})
	t.Run("a missing path among several: reported, exit 2, the others still checked", func(t *testing.T) {
		nope := filepath.Join(dir, "nope.kif")
		out, errOut, code := gdl(t, bin, "check", nope, bad, good)
		if code != 2 || !strings.Contains(errOut, nope) {
			t.Fatalf("exit %d, stderr %q", code, errOut)
		}
		if !strings.Contains(out, bad+":2:18: error: unmatched ')'") {
			t.Fatalf("the readable files were not checked:\n%s", out)
		}
	})
}

// lineCol extracts "line:col" of a text diagnostic as a comparable number.
func lineCol(l string) int {
	parts := strings.SplitN(l, ":", 4)
	if len(parts) < 3 {
		return 0
	}
	var line, col int
	for _, c := range parts[1] {
		line = line*10 + int(c-'0')
	}
	for _, c := range parts[2] {
		col = col*10 + int(c-'0')
	}
	return line*100000 + col
}
