//go:build !unix

package main

import (
	"io/fs"
	"os"
)

// mayWrite reports whether the file's permissions let it be written.
func mayWrite(_ string, info fs.FileInfo) bool { return info.Mode().Perm()&0o200 != 0 }

// links: other systems' hard links are not counted here.
func links(fs.FileInfo) uint64 { return 1 }

// keepOwner: other systems have no owner a new file would lose.
func keepOwner(*os.File, fs.FileInfo) (bool, error) { return true, nil }
