//go:build unix

package main

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time (user plus system) the process has used so far;
// 0 when it cannot be read.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
