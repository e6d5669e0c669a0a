package main

import (
	"flag"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

func init() {
	register("playground", command{
		summary: "serve the browser playground (built with npm run build:playground) on 127.0.0.1",
		run:     runPlayground,
	})
}

const playgroundUsage = `Usage: gdl playground [--port 8090] [--dir DIR]

Serves the GDL playground on http://127.0.0.1:PORT/: a page where a game is written, checked,
explained, verified and played in the browser, by gdl compiled to WebAssembly (docs/playground.md).
The page's files are those 'npm run build:playground' writes at the repository root, in
playground/dist: DIR, by default the playground/dist of the current folder or of the nearest
folder above it that has one. Any static file server serves the same folder; this one answers on
the loopback address only, sends the precompressed .gz copies the build writes to browsers that
take gzip, and asks browsers to check for a newer build on every load. --port 0 picks a free
port. It prints the URL, then serves until interrupted (SIGINT or SIGTERM).
Exit status: 0 after an interrupt, 2 usage problems, no built playground in DIR, or a port that
cannot be listened on.
`

// playgroundDir is where npm run build:playground writes the playground, from the repository root.
const playgroundDir = "playground/dist"

func runPlayground(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("playground", flag.ContinueOnError)
	fs.SetOutput(stderr)
	port := fs.Int("port", 8090, "the port to listen on, on 127.0.0.1 (0: a free one)")
	dir := fs.String("dir", "", "the built playground (default: "+playgroundDir+" here or in the nearest folder above that has one)")
	if _, code, ok := parseCommand(fs, args, stderr, playgroundUsage, 0); !ok {
		return code
	}
	if *port < 0 || *port > 65535 {
		fmt.Fprintf(stderr, "gdl playground: --port must be from 0 to 65535, not %d\n", *port)
		return 2
	}
	root, err := findPlayground(*dir)
	if err != nil {
		fmt.Fprintf(stderr, "gdl playground: %v\n", err)
		return 2
	}
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(*port)))
	if err != nil {
		fmt.Fprintf(stderr, "gdl playground: %v\n", err)
		return 2
	}
	srv := &http.Server{Handler: playgroundHandler(os.DirFS(root)), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stdout, "gdl playground: serving %s on http://%s/\n", root, ln.Addr())

	return serveUntilInterrupted(srv, ln, "gdl playground", stderr, nil)
}

// findPlayground returns the folder of the built playground: dir, or playground/dist in the
// current folder or the nearest one above it that has one. A folder without the page or
// gdl.wasm is an error that says how to build it.
func findPlayground(dir string) (string, error) {
	built := func(d string) error {
		for _, f := range []string{"index.html", "gdl.wasm", "main.js", "worker.js", "wasm_exec.js"} {
			if st, err := os.Stat(filepath.Join(d, f)); err != nil || !st.Mode().IsRegular() {
				return fmt.Errorf("%s has no built playground (no %s): run 'npm ci && npm run build:playground' at the repository root, which writes %s", d, f, playgroundDir)
			}
		}
		return nil
	}
	if dir != "" {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return "", err
		}
		return abs, built(abs)
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := wd; ; d = filepath.Dir(d) {
		if st, err := os.Stat(filepath.Join(d, playgroundDir)); err == nil && st.IsDir() {
			p := filepath.Join(d, playgroundDir)
			return p, built(p)
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("no %s in %s or a folder above it: run 'npm ci && npm run build:playground' at the repository root, or give --dir", playgroundDir, wd)
		}
	}
}

// playgroundHandler serves the files of root: "/" is index.html; a file with a .gz copy beside
// it is sent compressed to a browser that takes gzip.
func playgroundHandler(root fs.FS) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "only GET and HEAD", http.StatusMethodNotAllowed)
			return
		}
		name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
		if name == "" {
			name = "index.html"
		}
		if !fs.ValidPath(name) || strings.HasSuffix(name, ".gz") {
			http.NotFound(w, r)
			return
		}
		h := w.Header()
		h.Set("Cache-Control", "no-cache") // the service worker keeps the files for offline use
		h.Set("X-Content-Type-Options", "nosniff")
		if ct := mime.TypeByExtension(path.Ext(name)); ct != "" {
			h.Set("Content-Type", ct)
		}
		send := name
		if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			if st, err := fs.Stat(root, name+".gz"); err == nil && st.Mode().IsRegular() {
				send = name + ".gz"
				h.Set("Content-Encoding", "gzip")
			}
		}
		h.Add("Vary", "Accept-Encoding")
		f, err := root.Open(send)
		if err != nil {
			http.NotFound(w, r)
			return
		}
		defer f.Close()
		st, err := f.Stat()
		if err != nil || !st.Mode().IsRegular() {
			http.NotFound(w, r)
			return
		}
		rs, ok := f.(io.ReadSeeker)
		if !ok {
			http.Error(w, "cannot read "+name, http.StatusInternalServerError)
			return
		}
		http.ServeContent(w, r, name, st.ModTime(), rs)
	})
}
