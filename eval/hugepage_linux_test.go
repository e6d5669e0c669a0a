//go:build linux

package eval

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// vmFlags returns the VmFlags of the mapping of this process that holds address a.
func vmFlags(t *testing.T, a uintptr) string {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skipf("SKIPPED: no /proc/self/smaps: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	in := false
	for sc.Scan() {
		line := sc.Text()
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x", &lo, &hi); n == 2 && strings.Contains(line, " ") {
			in = lo <= a && a < hi
			continue
		}
		if in && strings.HasPrefix(line, "VmFlags:") {
			return line
		}
	}
	t.Fatalf("no mapping holds %#x", a)
	return ""
}

// fresh returns n uint64s in an anonymous mapping of their own, unmapped at the end of the
// test: a Go heap array could share a mapping (and its VmFlags) with memory an earlier test
// advised.
func fresh(t *testing.T, n int) []uint64 {
	t.Helper()
	b, err := syscall.Mmap(-1, 0, n*8, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skipf("SKIPPED: no anonymous mapping of %d bytes: %v", n*8, err)
	}
	t.Cleanup(func() { _ = syscall.Munmap(b) })
	return unsafe.Slice((*uint64)(unsafe.Pointer(&b[0])), n)
}

// An array of hugeArray bytes asks for huge pages (its mapping is marked hg), one smaller does
// not, and both keep what is written to them.
func TestAdviseHuge(t *testing.T) {
	big := fresh(t, hugeArray/8)
	adviseHuge(big)
	for i := range big {
		big[i] = uint64(i)
	}
	if f := vmFlags(t, uintptr(unsafe.Pointer(&big[len(big)/2]))); !strings.Contains(f, " hg") {
		t.Errorf("a %d MB array is not advised for huge pages: %s", hugeArray>>20, f)
	}
	for i, v := range big {
		if v != uint64(i) {
			t.Fatalf("big[%d] = %d", i, v)
		}
	}
	small := fresh(t, hugeArray/16) // half of hugeArray
	adviseHuge(small)
	if f := vmFlags(t, uintptr(unsafe.Pointer(&small[len(small)/2]))); strings.Contains(f, " hg") {
		t.Errorf("a %d KB array is advised for huge pages: %s", hugeArray>>11, f)
	}
	adviseHuge([]uint64(nil)) // nothing to advise
}
