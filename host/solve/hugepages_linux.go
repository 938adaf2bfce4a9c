package solve

import (
	"syscall"
	"unsafe"
)

// adviseHugeSlice asks Linux to back the memory of s with huge pages
// (when the system allows them on request), before it is first written:
// the random reads of a transposition table's buckets or a database's
// values then miss the TLB far less.
func adviseHugeSlice[T any](s []T) {
	if len(s) == 0 {
		return
	}
	var t T
	mem := unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), uintptr(len(s))*unsafe.Sizeof(t))
	_ = syscall.Madvise(mem, 14) // MADV_HUGEPAGE
}
