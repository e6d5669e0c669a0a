package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/gdl-lsp/gdl/internal/readfile"
)

// rewrite is a file to replace with new text: the file, the text it had when it was read, and
// the new text.
type rewrite struct {
	in        found
	old, text string
}

// rewriteAll replaces the files' contents (gdl fmt -w, gdl check --fix), and refuses, naming the
// file, what would lose or damage something:
//
//   - a file found below a directory named on the command line that is a symbolic link to a
//     file outside that directory (as the workspace index, gdl does not follow links out of the
//     tree it was given; a file named itself may be a link anywhere);
//   - a file gdl may not write (read-only, or another user's): replacing it would go round its
//     permissions;
//   - a file that changed since gdl read it: its new text was computed from the old one, and
//     would lose the edit made meanwhile. Each file is compared with the text read just before
//     it is replaced.
//
// A file is replaced atomically: the new text goes to a temporary file beside it (beside its
// target, for a symbolic link, which stays a link) with its permissions, owner and group, which
// is then renamed over it. A file with other hard links, or whose owner or group a new file
// cannot be given (another user's file gdl may write), is written in place instead, which
// keeps its links, owner and group but is not atomic. Every file is checked and every temporary
// file written before the first one is replaced, so that a refusal or a failure to write (a
// full disk, a read-only folder) leaves every file as it was.
func rewriteAll(files []rewrite) error {
	type plan struct {
		rewrite
		target string // the file itself, links resolved
		tmp    string // the staged new text, "" to write in place
	}
	var plans []plan
	var tmps []string
	fail := func(err error) error {
		removeAll(tmps)
		return err
	}
	byTarget := map[string]int{} // a file reached by two paths (a link and its target) is written once
	for _, f := range files {
		target, err := writableTarget(f.in)
		if err != nil {
			return fail(err)
		}
		if i, dup := byTarget[target]; dup {
			if plans[i].text != f.text {
				return fail(fmt.Errorf("%s and %s are one file, given two new texts: not rewritten", plans[i].in.path, f.in.path))
			}
			continue
		}
		byTarget[target] = len(plans)
		p := plan{rewrite: f, target: target}
		if p.tmp, err = stage(target, f.text); err != nil {
			return fail(err)
		}
		if p.tmp != "" {
			tmps = append(tmps, p.tmp)
		}
		if err := unchanged(f.in.path, target, f.old); err != nil {
			return fail(err)
		}
		plans = append(plans, p)
	}
	for i, p := range plans {
		err := unchanged(p.in.path, p.target, p.old)
		if err == nil {
			if p.tmp != "" {
				err = os.Rename(p.tmp, p.target)
			} else {
				err = writeInPlace(p.target, p.text)
			}
		}
		if err != nil {
			for _, q := range plans[i:] {
				if q.tmp != "" {
					os.Remove(q.tmp)
				}
			}
			if i > 0 {
				return fmt.Errorf("%v (the %d files before it were rewritten)", err, i)
			}
			return err
		}
	}
	return nil
}

// writableTarget returns the file that rewriting in.path would write (links resolved), or why
// gdl refuses to write it.
func writableTarget(in found) (string, error) {
	target, err := realPath(in.path)
	if err != nil {
		return "", err
	}
	if in.root != "" {
		root, err := realPath(in.root)
		if err != nil {
			return "", err
		}
		if rel, err := filepath.Rel(root, target); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return "", fmt.Errorf("%s: a symbolic link to %s, outside %s: not rewritten (gdl follows no links out of a directory it is given; name the file itself to rewrite it)", in.path, target, in.root)
		}
	}
	info, err := os.Stat(target)
	if err != nil {
		return "", err
	}
	if !info.Mode().IsRegular() {
		return "", fmt.Errorf("%s: %v: not rewritten", in.path, readfile.ErrNotRegular)
	}
	if !mayWrite(target, info) {
		return "", fmt.Errorf("%s: read-only (its permissions do not let you write it): not rewritten", in.path)
	}
	return target, nil
}

// realPath returns the absolute path of p with every symbolic link resolved.
func realPath(p string) (string, error) {
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", err
	}
	return filepath.Abs(r)
}

// unchanged reports, as an error naming path, whether the file target no longer holds old, the
// text it was read with: someone edited it while gdl worked, and replacing it would lose that.
func unchanged(path, target, old string) error {
	now, err := readfile.Regular(target, readfile.GameLimit)
	if err != nil {
		return err
	}
	if !bytes.Equal(now, []byte(old)) {
		return fmt.Errorf("%s: changed since gdl read it: not rewritten, to keep that change (run gdl again on the new text)", path)
	}
	return nil
}

func removeAll(paths []string) {
	for _, p := range paths {
		os.Remove(p)
	}
}

// stage writes text to a new temporary file in target's folder, with target's permissions,
// owner and group, and returns its path; or "" when target must be written in place, to keep
// its hard links or an owner or group the new file cannot be given.
func stage(target, text string) (string, error) {
	info, err := os.Stat(target)
	if err != nil {
		return "", err
	}
	if links(info) > 1 {
		return "", nil
	}
	f, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".gdlfmt-*")
	if err != nil {
		return "", err
	}
	keep, err := keepOwner(f, info)
	if err == nil && keep {
		if _, err = io.WriteString(f, text); err == nil {
			err = f.Chmod(info.Mode().Perm())
		}
		if err == nil {
			err = f.Sync()
		}
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil || !keep {
		os.Remove(f.Name())
	}
	if err != nil {
		return "", fmt.Errorf("writing %s: %v", target, err)
	}
	if !keep {
		return "", nil
	}
	return f.Name(), nil
}

// writeInPlace replaces the contents of the file target with text, keeping the file itself.
func writeInPlace(target, text string) error {
	f, err := os.OpenFile(target, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return err
	}
	_, err = io.WriteString(f, text)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("writing %s: %v", target, err)
	}
	return nil
}
