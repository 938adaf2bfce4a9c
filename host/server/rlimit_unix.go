//go:build unix

package server

import "syscall"

// OpenFileLimit is the process's limit of open files (its soft
// RLIMIT_NOFILE, which Go raises to the hard limit at start), or 0 when
// it cannot be read.
func OpenFileLimit() int {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil {
		return 0
	}
	return int(min(rl.Cur, 1<<20)) // "unlimited" is a huge number

}
