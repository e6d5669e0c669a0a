package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// fakePlayground writes the files of a built playground (their content is beside the point:
// the page itself is tested in a browser by playground/test) with a gzipped copy of gdl.wasm.
func fakePlayground(t *testing.T) (dir string, wasm []byte) {
	t.Helper()
	dir = t.TempDir()
	wasm = bytes.Repeat([]byte("\x00asm\x01\x00\x00\x00"), 100)
	files := map[string][]byte{"index.html": []byte("<!doctype html><title>GDL playground</title>"), "gdl.wasm": wasm,
		"main.js": []byte("1"), "worker.js": []byte("2"), "wasm_exec.js": []byte("3"), "examples/index.json": []byte("[]")}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(wasm)
	zw.Close()
	files["gdl.wasm.gz"] = gz.Bytes()
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, wasm
}

// TestPlaygroundServes runs gdl playground on a free port and fetches its files as a browser
// does, then interrupts it.
func TestPlaygroundServes(t *testing.T) {
	dir, wasm := fakePlayground(t)
	cmd := exec.Command(buildGDL(t), "playground", "--port", "0", "--dir", dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("no first line: %v; stderr %s", err, stderr.String())
	}
	i := strings.Index(line, "http://127.0.0.1:")
	if i < 0 || !strings.Contains(line, dir) {
		t.Fatalf("first line %q", line)
	}
	base := strings.TrimSpace(line[i:])
	// Go's client asks for gzip itself and unzips; set the header to see the encoding.
	get := func(path string, gz bool) (*http.Response, []byte) {
		t.Helper()
		req, _ := http.NewRequest("GET", base+path, nil)
		if gz {
			req.Header.Set("Accept-Encoding", "gzip")
		} else {
			req.Header.Set("Accept-Encoding", "identity")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp, body
	}
	if resp, body := get("", false); resp.StatusCode != 200 || !strings.Contains(string(body), "GDL playground") || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Errorf("/: %d %s %q", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	resp, body := get("gdl.wasm", true)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/wasm" || resp.Header.Get("Content-Encoding") != "gzip" {
		t.Errorf("gdl.wasm with gzip: %d %v", resp.StatusCode, resp.Header)
	} else if zr, err := gzip.NewReader(bytes.NewReader(body)); err != nil {
		t.Errorf("gdl.wasm with gzip: %v", err)
	} else if plain, _ := io.ReadAll(zr); !bytes.Equal(plain, wasm) {
		t.Errorf("gdl.wasm with gzip is not the file")
	}
	if resp, body := get("gdl.wasm", false); resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != "" || !bytes.Equal(body, wasm) {
		t.Errorf("gdl.wasm without gzip: %d %v", resp.StatusCode, resp.Header)
	}
	if resp, _ := get("examples/index.json", false); resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" {
		t.Errorf("examples/index.json: %d %v", resp.StatusCode, resp.Header)
	}
	for _, p := range []string{"nosuch.js", "gdl.wasm.gz", "..%2f..%2fetc%2fpasswd", "examples"} {
		if resp, _ := get(p, false); resp.StatusCode != 404 {
			t.Errorf("%s: %d, want 404", p, resp.StatusCode)
		}
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("after SIGINT: %v; stderr %s", err, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("gdl playground did not stop on SIGINT")
	}
}

// TestPlaygroundNotBuilt: without a built playground, the error says how to build one.
func TestPlaygroundNotBuilt(t *testing.T) {
	bin := buildGDL(t)
	empty := t.TempDir()
	_, stderr, code := gdl(t, bin, "playground", "--dir", empty, "--port", "0")
	if code != 2 || !strings.Contains(stderr, "no built playground") || !strings.Contains(stderr, "npm run build:playground") {
		t.Errorf("--dir of an empty folder: exit %d, %s", code, stderr)
	}
	c := exec.Command(bin, "playground", "--port", "0")
	c.Dir = empty
	var errb bytes.Buffer
	c.Stderr = &errb
	err := c.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(errb.String(), "no playground/dist in") {
		t.Errorf("in a folder without playground/dist: %v, %s", err, errb.String())
	}
	if _, stderr, code := gdl(t, bin, "playground", "--port", "70000"); code != 2 || !strings.Contains(stderr, "--port") {
		t.Errorf("--port 70000: exit %d, %s", code, stderr)
	}
}
