package solve

import (
	"syscall"
	"unsafe"
)

// adviseHuge asks Linux to back the table with huge pages (when the
// system allows them on request): a probe then misses the TLB far less.
func adviseHuge(b []ttBucket) {
	if len(b) == 0 {
		return
	}
	mem := unsafe.Slice((*byte)(unsafe.Pointer(&b[0])), len(b)*ttBucketSize)
	_ = syscall.Madvise(mem, 14) // MADV_HUGEPAGE
}
