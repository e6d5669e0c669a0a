// Package layers holds the test that enforces the module's dependency direction:
//
//	syntax <- format <- analysis <- eval, prolog <- lsp <- cmd/gdl
//
// A package may import only packages of lower layers, and only lsp may know LSP and JSON-RPC.
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
	"syntax":   0,
	"format":   1,
	"analysis": 2,
	"eval":     3,
	"prolog":   3,
	"lsp":      4,
	"cmd/gdl":  5,
}

// protocolOnly lists import path prefixes that only lsp may use.
var protocolOnly = []string{"go.lsp.dev/"}

func TestDependencyDirection(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	err = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
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
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		rel = filepath.ToSlash(rel)
		if strings.HasPrefix(rel, "internal/") {
			return nil
		}
		mine, ok := layerOf(rel)
		if !ok {
			t.Errorf("%s: package %s has no layer; add it to rank in internal/layers", path, rel)
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			return nil
		}
		checked++
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			for _, pre := range protocolOnly {
				if strings.HasPrefix(p, pre) && rel != "lsp" && !strings.HasPrefix(rel, "lsp/") {
					t.Errorf("%s imports %s: only lsp/ may know LSP and JSON-RPC", path, p)
				}
			}
			if !strings.HasPrefix(p, module) {
				continue
			}
			dep := strings.TrimPrefix(p, module)
			theirs, ok := layerOf(dep)
			if !ok {
				continue // internal helpers
			}
			if theirs >= mine && !samePackageTree(rel, dep) {
				t.Errorf("%s (layer %d) imports %s (layer %d): the dependency direction is syntax <- format <- analysis <- eval, prolog <- lsp <- cmd", path, mine, dep, theirs)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked == 0 {
		t.Fatal("no Go files checked")
	}
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
