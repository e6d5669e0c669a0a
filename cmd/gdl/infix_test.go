package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInfixCLI drives the binary on infix files: convert both ways, check, fmt, query, play and
// convert --to prolog work on .hrf files; directories include *.hrf; the notation of other
// files and of standard input comes from their content.
func TestInfixCLI(t *testing.T) {
	bin := buildGDL(t)
	dir := t.TempDir()
	hrf := filepath.Join(dir, "ttt.hrf")

	infix, stderr, code := gdl(t, bin, "convert", "--to", "infix", tttGame)
	if code != 0 {
		t.Fatalf("convert --to infix: exit %d: %s", code, stderr)
	}
	for _, want := range []string{"% Tic-tac-toe", "role(xplayer)", "init(cell(1,1,b))", ":-", "~true(control(Player))"} {
		if !strings.Contains(infix, want) {
			t.Errorf("the infix tic-tac-toe lacks %q:\n%s", want, infix)
		}
	}
	if err := os.WriteFile(hrf, []byte(infix), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, stderr, code := gdl(t, bin, "check", hrf); code != 0 || out != "" {
		t.Errorf("check of the converted game: exit %d\n%s%s", code, out, stderr)
	}
	if out, _, code := gdl(t, bin, "fmt", "--check", hrf); code != 0 || out != "" {
		t.Errorf("fmt --check of the converted game: exit %d, %q (convert writes the canonical layout)", code, out)
	}
	back, stderr, code := gdl(t, bin, "convert", "--to", "kif", hrf)
	if code != 0 {
		t.Fatalf("convert --to kif: exit %d: %s", code, stderr)
	}
	formatted, _, _ := gdl(t, bin, "fmt", tttGame)
	if back != formatted {
		t.Errorf("KIF to infix and back differs from the formatted original:\n%s\nwant:\n%s", back, formatted)
	}
	out, stderr, code := gdl(t, bin, "query", hrf, "legal(R,M)", "--moves", "(mark(2,2), noop)")
	if code != 0 || !strings.Contains(out, "legal(oplayer,mark(1,1))\n") || !strings.Contains(out, "legal(xplayer,noop)\n") {
		t.Errorf("query in infix: exit %d\n%s%s", code, out, stderr)
	}
	out, stderr, code = gdl(t, bin, "query", hrf, "(legal ?r ?m)", "--moves", "((mark 2 2) noop)")
	if code != 0 || !strings.Contains(out, "(legal oplayer (mark 1 1))\n") {
		t.Errorf("query in KIF of an infix game: exit %d\n%s%s", code, out, stderr)
	}
	out, stderr, code = gdl(t, bin, "play", hrf, "--playouts", "20", "--format", "json")
	if code != 0 || !strings.Contains(out, `"playouts"`) {
		t.Errorf("play: exit %d\n%s%s", code, out, stderr)
	}
	out, stderr, code = gdl(t, bin, "convert", "--to", "prolog", hrf)
	if code != 0 || !strings.Contains(out, "r_legal(") {
		t.Errorf("convert --to prolog of an infix game: exit %d\n%s", code, stderr)
	}

	// Standard input and files without the .hrf extension go by their content.
	if out, stderr, code := gdlIn(t, bin, infix, "check", "-"); code != 0 || out != "" {
		t.Errorf("check - of infix text: exit %d\n%s%s", code, out, stderr)
	}
	txt := filepath.Join(dir, "ttt.gdl")
	if err := os.WriteFile(txt, []byte(infix), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, stderr, code := gdl(t, bin, "check", txt); code != 0 || out != "" {
		t.Errorf("check of infix text in a .gdl file: exit %d\n%s%s", code, out, stderr)
	}

	// A directory: *.kif, *.gdl and *.hrf below it, nothing else.
	sub := filepath.Join(dir, "games")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{
		"a.hrf": "role(a)\np(X) :- q(X\n", "b.kif": "(role b)\n(p\n", "c.txt": "(p\n",
	} {
		if err := os.WriteFile(filepath.Join(sub, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, _, code = gdl(t, bin, "check", sub)
	if code != 1 || !strings.Contains(out, "a.hrf:2:10: error: '(' is never closed") || !strings.Contains(out, "b.kif:") || strings.Contains(out, "c.txt") {
		t.Errorf("check of a directory: exit %d\n%s", code, out)
	}
}

// TestMixedNotationCLI: a form of the other notation is one error naming it, with the form in
// the file's notation as a fix; the rest of the file is checked as usual.
func TestMixedNotationCLI(t *testing.T) {
	bin := buildGDL(t)
	dir := t.TempDir()
	hrf := filepath.Join(dir, "g.hrf")
	kif := filepath.Join(dir, "g.kif")
	os.WriteFile(hrf, []byte("role(robot)\n(<= (legal robot ?m) (move ?m))\nmove(a)\n"), 0o644)
	os.WriteFile(kif, []byte("(role robot)\nlegal(robot,M) :- move(M)\nnext(x) :- true(x)\n(move a)\n"), 0o644)
	out, _, code := gdl(t, bin, "check", "--format", "json", hrf)
	if code != 1 || strings.Count(out, `"mixed-notation"`) != 1 || !strings.Contains(out, `"newText": "legal(robot,M) :- move(M)"`) {
		t.Errorf("a prefix form in an infix file: exit %d\n%s", code, out)
	}
	out, _, code = gdl(t, bin, "check", kif)
	if code != 1 || strings.Count(out, "mixed-notation") != 2 ||
		!strings.Contains(out, "g.kif:2:1: error: this is written in infix GDL, but the file is prefix GDL (KIF): in prefix it is (<= (legal robot ?m) (move ?m))") {
		t.Errorf("infix rules in a prefix file: exit %d\n%s", code, out)
	}
}

// TestConvertRefusals: names a notation cannot write, and syntax errors, are errors with their
// position, and nothing is written to standard output.
func TestConvertRefusals(t *testing.T) {
	bin := buildGDL(t)
	dir := t.TempDir()
	for _, tc := range []struct {
		name, text, to, want string
	}{
		{"quote.kif", "(role robot)\n(init (say a\"b))\n", "infix", `quote.kif:2:12: error: name a"b cannot be written in infix GDL`},
		{"var.kif", "(role robot)\n(<= (p ?1) (q ?1))\n", "infix", "var.kif:2:8: error: variable ?1 cannot be written in infix GDL"},
		{"space.hrf", "role(robot)\nsay(\"a b\")\n", "kif", `space.hrf:2:5: error: name "a b" cannot be written in prefix GDL (KIF)`},
		{"broken.hrf", "role(robot\n", "kif", "broken.hrf:1:5: error: '(' is never closed"},
	} {
		path := filepath.Join(dir, tc.name)
		if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		out, stderr, code := gdl(t, bin, "convert", "--to", tc.to, path)
		if code != 1 || out != "" || !strings.Contains(stderr, tc.want) {
			t.Errorf("%s: exit %d, stdout %q, stderr:\n%s\nwant %q", tc.name, code, out, stderr, tc.want)
		}
	}
	if _, stderr, code := gdl(t, bin, "convert", "--to", "infix", "--driver", "walk", tttGame); code != 2 || !strings.Contains(stderr, "--driver goes with --to prolog") {
		t.Errorf("--driver with --to infix: exit %d: %s", code, stderr)
	}
	if _, stderr, code := gdl(t, bin, "convert", "--to", "hrf", tttGame); code != 2 || !strings.Contains(stderr, "--to must be kif, infix or prolog") {
		t.Errorf("--to hrf: exit %d: %s", code, stderr)
	}
}
