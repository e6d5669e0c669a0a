//go:build linux

package eval

import (
	"syscall"
	"unsafe"
)

// madvHugepage is MADV_HUGEPAGE, the same number on every Linux architecture.
const madvHugepage = 14

// adviseHuge asks Linux to back a large array, just made and not yet written, with huge pages
// (where transparent huge pages are enabled for the regions that ask, as they often are):
// the term store's hash table and arrays are read at random, and with 4 KB pages each lookup
// in hundreds of megabytes also misses the TLB. Only arrays of hugeArray bytes or more ask:
// the kernel may compact memory to find the huge pages, a cost a small grounding would not
// win back. Failure is harmless: the array keeps small pages.
func adviseHuge[T any](s []T) {
	if len(s) == 0 {
		return
	}
	n := uintptr(len(s)) * unsafe.Sizeof(s[0])
	if n < hugeArray {
		return
	}
	_ = syscall.Madvise(unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), n), madvHugepage)
}
