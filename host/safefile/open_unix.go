//go:build unix

package safefile

import "syscall"

// openFlags opens a named pipe without waiting for a writer.
const openFlags = syscall.O_NONBLOCK
