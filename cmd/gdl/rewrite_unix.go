//go:build unix

package main

import (
	"io/fs"
	"os"
	"syscall"
)

// mayWrite reports whether this process may write the file at path: a file without any write
// permission is read-only even to root, and otherwise the system says (access(2)).
func mayWrite(path string, info fs.FileInfo) bool {
	const wOK = 2
	return info.Mode().Perm()&0o222 != 0 && syscall.Access(path, wOK) == nil
}

// links returns the number of hard links of a file.
func links(info fs.FileInfo) uint64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

// keepOwner gives the new file f the owner and group of the file info describes, and reports
// whether it has them (a user may give a file only its own user and one of its groups).
func keepOwner(f *os.File, info fs.FileInfo) (bool, error) {
	want, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return true, nil
	}
	got, err := f.Stat()
	if err != nil {
		return false, err
	}
	if st, ok := got.Sys().(*syscall.Stat_t); ok && st.Uid == want.Uid && st.Gid == want.Gid {
		return true, nil
	}
	return f.Chown(int(want.Uid), int(want.Gid)) == nil, nil
}
