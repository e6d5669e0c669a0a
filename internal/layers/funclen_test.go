package layers

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// maxFuncLines is the most lines a function of the module may span, from its func keyword to its
// closing brace. Tests (table-driven, mostly tables) and generated files are exempt.
const maxFuncLines = 80

// TestFunctionLength fails when a function of the module outside the tests spans more than
// maxFuncLines lines.
func TestFunctionLength(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	long := map[string]string{} // key -> file:line:column, of every function too long
	err = walkGoFiles(root, func(path, dir string) {
		if strings.HasSuffix(path, "_test.go") {
			return
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			return
		}
		if ast.IsGenerated(f) {
			return
		}
		rel, _ := filepath.Rel(root, path)
		for _, n := range funcLengths(fset, f, dir) {
			if n.lines > maxFuncLines {
				long[n.key] = rel + ":" + n.where
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range long {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Errorf("%s: %s spans more than %d lines; split it into functions of one responsibility each", long[k], k, maxFuncLines)
	}
}

// funcLength is a function, where it starts and how many lines it spans.
type funcLength struct {
	key   string // "dir: Name" or "dir: Receiver.Name"
	where string // line:column of its func keyword
	lines int
}

// funcLengths measures the functions and methods with a body declared in f, in order, keyed as
// ("dir: Name" or "dir: Receiver.Name").
func funcLengths(fset *token.FileSet, f *ast.File, dir string) []funcLength {
	var out []funcLength
	for _, decl := range f.Decls {
		fd, ok := decl.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		start, end := fset.Position(fd.Pos()), fset.Position(fd.End())
		name := fd.Name.Name
		if fd.Recv != nil && len(fd.Recv.List) > 0 {
			name = receiverName(fd.Recv.List[0].Type) + "." + name
		}
		out = append(out, funcLength{
			key:   dir + ": " + name,
			where: strings.TrimPrefix(start.String(), start.Filename+":"),
			lines: end.Line - start.Line + 1,
		})
	}
	return out
}

// receiverName is the type name of a method's receiver, without pointer or type parameters.
func receiverName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return "?"
		}
	}
}

// TestFuncLengths makes sure the measure counts what it must: lines from func to the closing
// brace, methods under their receiver's name, declarations without a body skipped.
func TestFuncLengths(t *testing.T) {
	src := "package p\n\nfunc a() {\n}\n\nfunc (r *T[K]) b() {\n\t_ = 1\n\t_ = 2\n}\n\nfunc c()\n"
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := funcLengths(fset, f, "p")
	want := []funcLength{{"p: a", "3:1", 2}, {"p: T.b", "6:1", 4}}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
