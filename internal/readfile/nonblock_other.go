//go:build !unix

package readfile

// nonBlock: other systems have no named pipes in the file system that opening would wait on.
const nonBlock = 0
