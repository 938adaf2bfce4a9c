package server

import (
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The server's answers reach every client: a request with 64 KB of
// headers gets its 431, read to the end, not a reset, through the
// listener that counts connections (which must keep the TCP connection's
// CloseWrite, by which net/http half-closes it after such an answer).
func TestOversizeHeadersAnswered(t *testing.T) {
	s, err := New(lib(), newMemStore(), WithLimits(Limits{Conns: 16, ClientConns: 8}))
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	hs := HTTPServer("", s.Handler())
	go hs.Serve(s.LimitListener(ln))
	t.Cleanup(func() { hs.Close() })
	for _, size := range []int{64 << 10, 20 << 10} {
		t.Run(fmt.Sprintf("%d bytes", size), func(t *testing.T) {
			c, err := net.Dial("tcp", ln.Addr().String())
			require.NoError(t, err)
			defer c.Close()
			require.NoError(t, c.SetDeadline(time.Now().Add(30*time.Second)))
			req := "GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + strings.Repeat("x", size) + "\r\n\r\n"
			_, err = io.WriteString(c, req)
			require.NoError(t, err, "the request is written whole")
			got, err := io.ReadAll(c)
			require.NoError(t, err, "the answer is read to its end, without a reset (read %q)", got)
			assert.True(t, strings.HasPrefix(string(got), "HTTP/1.1 431 Request Header Fields Too Large"), "%q", got)
			assert.False(t, errors.Is(err, syscall.ECONNRESET))
		})
	}
	// The wrapper keeps the connection's own methods.
	c, err := net.Dial("tcp", ln.Addr().String())
	require.NoError(t, err)
	defer c.Close()
	tc, ok := c.(*net.TCPConn)
	require.True(t, ok)
	wrapped := counted(tc, func() {})
	_, isCloseWriter := wrapped.(interface{ CloseWrite() error })
	_, isReaderFrom := wrapped.(io.ReaderFrom)
	_, isWriterTo := wrapped.(io.WriterTo)
	_, isSyscall := wrapped.(syscall.Conn)
	assert.True(t, isCloseWriter && isReaderFrom && isWriterTo && isSyscall)
}
