//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Issue 22, items 7 and 8: what gdl fmt -w and gdl check --fix must not lose or damage when
// they rewrite files.

// TestRewriteRefusesChangedFile: the new text was computed from the file as read; when the file
// changed meanwhile (an editor saved it), replacing it would lose that edit. rewriteAll compares
// each file with the text read just before replacing it, and refuses, naming the file; the
// files are checked before any is written, so none is. (In-process: the race cannot be timed
// from outside the binary.)
func TestRewriteRefusesChangedFile(t *testing.T) {
	dir := t.TempDir()
	a := writeFile(t, dir, "a.kif", "(role  a)\n")
	b := writeFile(t, dir, "b.kif", "(role  b)\n")
	if err := os.WriteFile(b, []byte("(role  b) ; edited meanwhile\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := rewriteAll([]rewrite{{found{a, ""}, "(role  a)\n", "(role a)\n"}, {found{b, ""}, "(role  b)\n", "(role b)\n"}})
	if err == nil || !strings.Contains(err.Error(), b+": changed since gdl read it") {
		t.Fatalf("error %v", err)
	}
	for p, want := range map[string]string{a: "(role  a)\n", b: "(role  b) ; edited meanwhile\n"} {
		if data, _ := os.ReadFile(p); string(data) != want {
			t.Errorf("%s: %q, want %q", p, data, want)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*gdlfmt*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
	// Unchanged, it is rewritten.
	if err := rewriteAll([]rewrite{{found{a, ""}, "(role  a)\n", "(role a)\n"}}); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(a); string(data) != "(role a)\n" {
		t.Errorf("a.kif: %q", data)
	}
}

// TestRewriteKeepsFiles runs fmt -w and check --fix on a tree with a link out of it, a
// read-only file, a file with two hard links and (as root) a file of another owner.
func TestRewriteKeepsFiles(t *testing.T) {
	bin := buildGDL(t)
	const messy, tidy = "(role  a)\n", "(role a)\n"
	const unfixed = "(<= (terminal) (true (p 1)))\n" // check --fix writes terminal
	for _, cmd := range [][]string{{"fmt", "-w"}, {"check", "--fix"}} {
		t.Run(cmd[0], func(t *testing.T) {
			// check exits 1 on these small games, which lack roles and rules: only 2 (a file
			// refused or not read) fails.
			ok := func(code int) bool { return code == 0 || cmd[0] == "check" && code == 1 }
			text, want := messy, tidy
			if cmd[0] == "check" {
				text, want = unfixed, "(<= terminal (true (p 1)))\n"
			}
			base := t.TempDir()
			tree := filepath.Join(base, "tree")
			outside := writeFile(t, base, "outside/game.kif", text)
			writeFile(t, tree, "tidy.kif", want)
			link := symlink(t, outside, filepath.Join(tree, "link.kif"))

			// A link out of the tree is not followed: the file outside stays as it was.
			_, errOut, code := gdl(t, bin, append(cmd, tree)...)
			if code != 2 || !strings.Contains(errOut, link+": a symbolic link to "+outside+", outside "+tree+": not rewritten") {
				t.Errorf("link out of the tree: exit %d, stderr %q", code, errOut)
			}
			if data, _ := os.ReadFile(outside); string(data) != text {
				t.Errorf("the file outside the tree was rewritten: %q", data)
			}
			// Named itself, the link is followed, and stays a link.
			if _, errOut, code := gdl(t, bin, append(cmd, link)...); !ok(code) || errOut != "" {
				t.Errorf("the link named itself: exit %d, stderr %q", code, errOut)
			}
			if data, _ := os.ReadFile(outside); string(data) != want {
				t.Errorf("the file behind a link named itself: %q", data)
			}
			if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
				t.Errorf("the link is no longer a link: %v", err)
			}
			os.Remove(link)

			// A link to a file inside the tree, by its absolute path, with the tree named by a
			// relative one, is rewritten.
			inside := writeFile(t, tree, "sub/inside.kif", text)
			symlink(t, inside, filepath.Join(tree, "alias.kif"))
			cwd, _ := os.Getwd()
			relTree, err := filepath.Rel(cwd, tree)
			if err != nil {
				t.Fatal(err)
			}
			if _, errOut, code := gdl(t, bin, append(cmd, relTree)...); !ok(code) || errOut != "" {
				t.Errorf("a link inside the tree: exit %d, stderr %q", code, errOut)
			}
			if data, _ := os.ReadFile(inside); string(data) != want {
				t.Errorf("the file behind a link inside the tree: %q", data)
			}
			os.Remove(filepath.Join(tree, "alias.kif"))
			os.Remove(inside)

			// A read-only file is refused.
			ro := writeFile(t, tree, "ro.kif", text)
			os.Chmod(ro, 0o444)
			_, errOut, code = gdl(t, bin, append(cmd, tree)...)
			if code != 2 || !strings.Contains(errOut, ro+": read-only") {
				t.Errorf("read-only file: exit %d, stderr %q", code, errOut)
			}
			if data, _ := os.ReadFile(ro); string(data) != text {
				t.Errorf("a read-only file was rewritten: %q", data)
			}
			os.Remove(ro)

			// A file with two hard links is written in place: both names see the new text.
			first := writeFile(t, tree, "first.kif", text)
			second := filepath.Join(base, "second.kif")
			if err := os.Link(first, second); err != nil {
				t.Skipf("SKIPPED: no hard links here: %v", err)
			}
			if _, errOut, code := gdl(t, bin, append(cmd, tree)...); !ok(code) {
				t.Errorf("hard-linked file: exit %d, stderr %q", code, errOut)
			}
			for _, p := range []string{first, second} {
				if data, _ := os.ReadFile(p); string(data) != want {
					t.Errorf("%s: %q", p, data)
				}
			}
			var st syscall.Stat_t
			if err := syscall.Stat(first, &st); err != nil || st.Nlink != 2 {
				t.Errorf("the hard link is broken: %d links (%v)", st.Nlink, err)
			}
			os.Remove(first)

			// Another user's file keeps its owner and group.
			if os.Geteuid() != 0 {
				t.Logf("SKIPPED the owner: only root can make a file of another owner")
				return
			}
			owned := writeFile(t, tree, "owned.kif", text)
			if err := os.Chown(owned, 4321, 4322); err != nil {
				t.Fatal(err)
			}
			if _, errOut, code := gdl(t, bin, append(cmd, owned)...); !ok(code) {
				t.Errorf("a file of another owner: exit %d, stderr %q", code, errOut)
			}
			if err := syscall.Stat(owned, &st); err != nil || st.Uid != 4321 || st.Gid != 4322 {
				t.Errorf("owner %d:%d after the rewrite, want 4321:4322 (%v)", st.Uid, st.Gid, err)
			}
			if data, _ := os.ReadFile(owned); string(data) != want {
				t.Errorf("owned.kif: %q", data)
			}
		})
	}
}
