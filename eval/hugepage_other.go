//go:build !linux

package eval

// adviseHuge does nothing but on Linux (hugepage_linux.go).
func adviseHuge[T any](s []T) {}
