// Package layers holds the test that enforces the module's dependency direction:
//
//	syntax <- format <- analysis <- eval, prolog <- propnet, explain <- game <- verify, board, player <- ggp, gametest <- ide <- lsp, playground <- cmd/gdl, cmd/gdl-wasm
//
// A package may import only packages of lower layers, only lsp may know LSP and JSON-RPC, and
// only ggp and cmd know HTTP. It also holds the test that keeps the module's functions short
// (funclen_test.go).
package layers

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/gdl-lsp/gdl/"

// rank gives each package of the module its layer. A package missing here fails the test, so a
// new package must be placed deliberately.
var rank = map[string]int{
	"syntax":       0,
	"format":       1,
	"analysis":     2,
	"eval":         3,
	"prolog":       3,
	"propnet":      4,
	"explain":      4, // explanations: proofs and why-nots, on the interpreter
	"game":         5,
	"verify":       6,
	"board":        6, // boards of states, drawn
	"player":       6, // the built-in players (MCTS, random) and the match runner over seats
	"ggp":          7, // the GGP protocol: messages, the HTTP player, the HTTP seat of a match
	"gametest":     7, // game tests: the test files' format, checks and runner
	"ide":          8,
	"lsp":          9,
	"playground":   9, // the browser playground's bridge: like lsp, a face of ide (they import neither the other)
	"cmd/gdl":      10,
	"cmd/gdl-wasm": 10, // gdl compiled to WebAssembly: the playground's bridge exposed to JavaScript
}

// protocolOnly lists import path prefixes that only lsp may use: the LSP modules and the
// JSON-RPC implementations one might reach for instead.
var protocolOnly = []string{
	"go.lsp.dev/",
	"github.com/sourcegraph/jsonrpc2",
	"golang.org/x/exp/jsonrpc2",
	"net/rpc/jsonrpc",
}

// httpOnly lists what only ggp and the commands may import: HTTP, and ggp, which links it. The
// editor's layers (ide, lsp, playground) reach matches through package player.
var httpOnly = []string{"net/http", module + "ggp"}

// knowsHTTP reports whether package dir may know HTTP.
func knowsHTTP(dir string) bool {
	return dir == "ggp" || strings.HasPrefix(dir, "ggp/") || dir == "cmd" || strings.HasPrefix(dir, "cmd/")
}

// violation says what is wrong with package dir (relative to the module root) importing path,
// or "" when the import respects the layering.
func violation(dir, path string) string {
	for _, pre := range protocolOnly {
		if strings.HasPrefix(path, pre) && dir != "lsp" && !strings.HasPrefix(dir, "lsp/") {
			return "only lsp/ may know LSP and JSON-RPC"
		}
	}
	for _, p := range httpOnly {
		if (path == p || strings.HasPrefix(path, p+"/")) && !knowsHTTP(dir) {
			return "only ggp and cmd know HTTP: the editor reaches matches through player"
		}
	}
	if !strings.HasPrefix(path, module) {
		return ""
	}
	mine, ok := layerOf(dir)
	if !ok {
		return "package " + dir + " has no layer; add it to rank in internal/layers"
	}
	dep := strings.TrimPrefix(path, module)
	theirs, ok := layerOf(dep)
	if !ok {
		return "" // internal helpers
	}
	if theirs >= mine && !samePackageTree(dir, dep) {
		return "the dependency direction is syntax <- format <- analysis <- eval, prolog <- propnet, explain <- game <- verify, board, player <- ggp, gametest <- ide <- lsp, playground <- cmd"
	}
	return ""
}

// TestViolation makes sure the rule itself catches what it must.
func TestViolation(t *testing.T) {
	cases := []struct {
		dir, path string
		bad       bool
	}{
		{"analysis", module + "syntax", false},
		{"analysis", module + "format", false},
		{"analysis", module + "eval", true},
		{"analysis", module + "lsp", true},
		{"syntax", module + "analysis", true},
		{"syntax", module + "format", true},
		{"format", module + "analysis", true},
		{"eval", module + "prolog", true},
		{"prolog", module + "eval", true},
		{"lsp", module + "cmd/gdl", true},
		{"cmd/gdl", module + "lsp", false},
		{"ide", module + "game", false},
		{"ggp", module + "player", false},
		{"ide", module + "ggp", true},
		{"ide", module + "player", false},
		{"lsp", module + "ggp", true},
		{"lsp", "net/http", true},
		{"playground", "net/http/httptest", true},
		{"ggp", "net/http", false},
		{"cmd/gdl", module + "ggp", false},
		{"cmd/gdl", "net/http", false},
		{"player", module + "ggp", true},
		{"ggp", module + "ide", true},
		{"ide", module + "lsp", true},
		{"playground", module + "ide", false},
		{"playground", module + "lsp", true},
		{"lsp", module + "playground", true},
		{"ide", module + "playground", true},
		{"cmd/gdl-wasm", module + "playground", false},
		{"playground", "go.lsp.dev/protocol", true},
		{"lsp", module + "ide", false},
		{"game", module + "ide", true},
		{"ide", "go.lsp.dev/protocol", true},
		{"lsp", "go.lsp.dev/protocol", false},
		{"lsp/internal", "go.lsp.dev/jsonrpc2", false},
		{"analysis", "go.lsp.dev/protocol", true},
		{"cmd/gdl", "go.lsp.dev/jsonrpc2", true},
		{"eval", "github.com/sourcegraph/jsonrpc2", true},
		{"syntax/sub", module + "syntax", false},
		{"newpkg", module + "syntax", true},
		{"analysis", "encoding/json", false},
	}
	for _, c := range cases {
		if got := violation(c.dir, c.path); (got != "") != c.bad {
			t.Errorf("violation(%q, %q) = %q, want bad=%v", c.dir, c.path, got, c.bad)
		}
	}
}

func TestDependencyDirection(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	err = walkGoFiles(root, func(path, rel string) {
		// Test files are not part of the import graph users get; prolog's differential test,
		// for one, compares the translation with eval on purpose.
		if strings.HasSuffix(path, "_test.go") || strings.HasPrefix(rel, "internal/") {
			return
		}
		if _, ok := layerOf(rel); !ok {
			t.Errorf("%s: package %s has no layer; add it to rank in internal/layers", path, rel)
			return
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			return
		}
		checked++
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if why := violation(rel, p); why != "" {
				t.Errorf("%s imports %s: %s", path, p, why)
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked == 0 {
		t.Fatal("no Go files checked")
	}
}

// walkGoFiles calls visit with the path of each Go file of the module below root, and its
// package directory relative to root (slash-separated), skipping node_modules, testdata and
// hidden directories.
func walkGoFiles(root string, visit func(path, rel string)) error {
	return filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if name == "node_modules" || name == "testdata" || (strings.HasPrefix(name, ".") && path != root) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".go") {
			rel, _ := filepath.Rel(root, filepath.Dir(path))
			visit(path, filepath.ToSlash(rel))
		}
		return nil
	})
}

// layerOf returns the layer of a package directory, counting subpackages with their parent.
func layerOf(dir string) (int, bool) {
	for d := dir; d != "." && d != ""; d = filepath.ToSlash(filepath.Dir(d)) {
		if r, ok := rank[d]; ok {
			return r, true
		}
	}
	return 0, false
}

func samePackageTree(a, b string) bool {
	top := func(s string) string {
		if s == "cmd/gdl" || strings.HasPrefix(s, "cmd/gdl/") {
			return "cmd/gdl"
		}
		return strings.SplitN(s, "/", 2)[0]
	}
	return top(a) == top(b)
}
