//go:build !linux

package solve

// adviseHuge does nothing outside Linux.
func adviseHuge([]ttBucket) {}
