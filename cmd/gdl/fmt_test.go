package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFmtCLI(t *testing.T) {
	bin := buildGDL(t)
	dir := t.TempDir()
	messy := writeFile(t, dir, "messy.kif", "(role a) (role b)\n(<= (p ?x) (q ?x))\n")
	tidy := "(role a)\n(role b)\n(<= (p ?x)\n    (q ?x))\n"
	broken := writeFile(t, dir, "broken.kif", "(role a\n")

	out, _, code := gdl(t, bin, "fmt", messy)
	if code != 0 || out != tidy {
		t.Fatalf("stdout: exit %d\n%q", code, out)
	}
	out, _, code = gdl(t, bin, "fmt", "--check", messy)
	if code != 1 || strings.TrimSpace(out) != messy {
		t.Fatalf("--check: exit %d, %q", code, out)
	}
	if _, _, code = gdl(t, bin, "fmt", "-w", messy); code != 0 {
		t.Fatalf("-w: exit %d", code)
	}
	if data, _ := os.ReadFile(messy); string(data) != tidy {
		t.Fatalf("-w wrote %q", data)
	}
	if out, _, code = gdl(t, bin, "fmt", "--check", messy); code != 0 || out != "" {
		t.Fatalf("--check after -w: exit %d, %q", code, out)
	}
	_, errOut, code := gdl(t, bin, "fmt", "-w", broken)
	if code != 1 || !strings.Contains(errOut, "broken.kif") {
		t.Fatalf("broken: exit %d, %q", code, errOut)
	}
	if data, _ := os.ReadFile(broken); string(data) != "(role a\n" {
		t.Fatalf("a broken file was changed: %q", data)
	}
	out, _, code = gdlIn(t, bin, "(f  a)", "fmt", "-")
	if code != 0 || out != "(f a)" {
		t.Fatalf("stdin: exit %d, %q", code, out)
	}
	tree := t.TempDir()
	writeFile(t, tree, "a.kif", "(role a)\n")
	b := writeFile(t, tree, "sub/b.gdl", "(role  b)\n")
	writeFile(t, tree, "sub/c.txt", "(role  c)\n")
	out, _, code = gdl(t, bin, "fmt", "--check", tree)
	if code != 1 || out != b+"\n" {
		t.Fatalf("--check on a directory: exit %d, %q (want only %s)", code, out, b)
	}
	if _, _, code = gdl(t, bin, "fmt", "-w", tree); code != 0 {
		t.Fatalf("-w on a directory: exit %d", code)
	}
	if data, _ := os.ReadFile(b); string(data) != "(role b)\n" {
		t.Fatalf("-w on a directory wrote %q", data)
	}
	if data, _ := os.ReadFile(filepath.Join(tree, "sub/c.txt")); string(data) != "(role  c)\n" {
		t.Fatalf("a .txt file was changed: %q", data)
	}
	if _, _, code = gdl(t, bin, "fmt", filepath.Join(dir, "missing.kif")); code != 2 {
		t.Fatalf("missing file: exit %d", code)
	}
}

// TestFmtListAndDiff: -l lists the files whose layout would change and -d prints the changes
// as a unified diff, as gofmt's do; both exit 0 and write nothing, --check with -d prints the
// diff and exits 1 (issue 23, item 11).
func TestFmtListAndDiff(t *testing.T) {
	bin := buildGDL(t)
	dir := t.TempDir()
	src := "(role a)\n(role b)\n(<= (p ?x)\n  (q ?x))\n(q 1)\n(q 2)\n(q 3)\n(q 4)\n(q 5)\n(q 6)\n(q 7)\n(<= (r ?x) (p ?x))\n"
	messy := writeFile(t, dir, "messy.kif", src)
	tidy := writeFile(t, dir, "tidy.kif", "(role a)\n")
	out, errOut, code := gdl(t, bin, "fmt", "-l", messy, tidy)
	if code != 0 || out != messy+"\n" || errOut != "" {
		t.Errorf("-l: exit %d, %q, %q", code, out, errOut)
	}
	want := "--- " + messy + ".orig\n+++ " + messy + "\n" +
		"@@ -1,7 +1,7 @@\n (role a)\n (role b)\n (<= (p ?x)\n-  (q ?x))\n+    (q ?x))\n (q 1)\n (q 2)\n (q 3)\n" +
		"@@ -9,4 +9,5 @@\n (q 5)\n (q 6)\n (q 7)\n-(<= (r ?x) (p ?x))\n+(<= (r ?x)\n+    (p ?x))\n"
	out, _, code = gdl(t, bin, "fmt", "-d", messy, tidy)
	if code != 0 || out != want {
		t.Errorf("-d: exit %d\n%s\nwant:\n%s", code, out, want)
	}
	if out, _, code = gdl(t, bin, "fmt", "--check", "-d", messy); code != 1 || out != want {
		t.Errorf("--check -d: exit %d\n%s", code, out)
	}
	if data, _ := os.ReadFile(messy); string(data) != src {
		t.Errorf("-l or -d changed the file: %q", data)
	}
	if out, _, code = gdl(t, bin, "fmt", "-l", "-w", messy); code != 0 || out != messy+"\n" {
		t.Errorf("-l -w: exit %d, %q", code, out)
	}
	if out, _, code = gdl(t, bin, "fmt", "-d", messy); code != 0 || out != "" {
		t.Errorf("-d after -w: exit %d, %q", code, out)
	}
}

// TestTestdataFormatted: the team's games are in gdl fmt's layout (scripts/test.sh checks it
// with gdl fmt --check as well).
func TestTestdataFormatted(t *testing.T) {
	bin := buildGDL(t)
	out, errOut, code := gdl(t, bin, "fmt", "-d", "../../testdata/games")
	if code != 0 || out != "" {
		t.Errorf("gdl fmt -d testdata/games: exit %d\n%s%s", code, out, errOut)
	}
}
