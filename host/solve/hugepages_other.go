//go:build !linux

package solve

// adviseHugeSlice does nothing outside Linux.
func adviseHugeSlice[T any]([]T) {}
