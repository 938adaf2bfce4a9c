//go:build linux

package main

import (
	"bytes"
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// openPty opens a pseudo-terminal of cols columns and returns its two
// ends: the terminal a program writes to, and the master it is read from.
// The test is skipped where the system has no pseudo-terminals.
func openPty(t *testing.T, cols int) (term, master *os.File) {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { master.Close() })
	ioctl := func(f *os.File, req uintptr, arg unsafe.Pointer) {
		t.Helper()
		conn, err := f.SyscallConn()
		require.NoError(t, err)
		var errno syscall.Errno
		require.NoError(t, conn.Control(func(fd uintptr) {
			_, _, errno = syscall.Syscall(syscall.SYS_IOCTL, fd, req, uintptr(arg))
		}))
		if errno != 0 {
			t.Skipf("pseudo-terminal ioctl %#x: %v", req, errno)
		}
	}
	var unlock int32
	ioctl(master, syscall.TIOCSPTLCK, unsafe.Pointer(&unlock))
	var n uint32
	ioctl(master, syscall.TIOCGPTN, unsafe.Pointer(&n))
	term, err = os.OpenFile("/dev/pts/"+strconv.Itoa(int(n)), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { term.Close() })
	size := struct{ rows, cols, xpixel, ypixel uint16 }{rows: 40, cols: uint16(cols)}
	ioctl(term, syscall.TIOCSWINSZ, unsafe.Pointer(&size))
	return term, master
}

// On a terminal, the text is wrapped to the terminal's width, which wins
// over COLUMNS (a shell's COLUMNS may be stale or another terminal's),
// and boards fit in it: Tsoro Yemutwelve's board at 40 columns has its
// key below it.
func TestTerminalWidth(t *testing.T) {
	term, master := openPty(t, 40)
	t.Setenv("COLUMNS", "100")
	t.Setenv("NO_COLOR", "1")
	assert.Equal(t, 40, outputWidth(term))

	read := make(chan string)
	go func() {
		var out bytes.Buffer
		io.Copy(&out, master) // until the terminal's end is closed
		read <- out.String()
	}()
	var errOut bytes.Buffer
	code := run([]string{"play", "yemutwelve", "--p2", "human"}, strings.NewReader("quit\n"), term, &errOut)
	require.NoError(t, term.Close())
	out := strings.ReplaceAll(<-read, "\r\n", "\n") // the terminal ends its lines with \r\n
	require.Equal(t, exitOK, code, errOut.String())
	assert.Contains(t, out, "a  .-----------.-----------.\nKey:\ng  1-----------4-----------7\n")
	for _, line := range strings.Split(out, "\n") {
		assert.LessOrEqual(t, len(line), 40, "%q", line)
	}
}
