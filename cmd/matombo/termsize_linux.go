//go:build linux

package main

import (
	"os"
	"syscall"
	"unsafe"
)

// terminalColumns returns the number of columns of the terminal f is, as
// the TIOCGWINSZ ioctl reports it; false when f is no terminal or the
// terminal does not know its size (0 columns).
func terminalColumns(f *os.File) (int, bool) {
	conn, err := f.SyscallConn()
	if err != nil {
		return 0, false
	}
	var size struct{ rows, cols, xpixel, ypixel uint16 }
	var errno syscall.Errno
	err = conn.Control(func(fd uintptr) {
		_, _, errno = syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCGWINSZ, uintptr(unsafe.Pointer(&size)))
	})
	if err != nil || errno != 0 || size.cols == 0 {
		return 0, false
	}
	return int(size.cols), true
}
