package server

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// listenCounted serves a new server with limits on a listener of its own
// through LimitListener, as matombo serve does, until the test ends.
func listenCounted(t *testing.T, limits Limits) net.Listener {
	t.Helper()
	s, err := New(lib(), newMemStore(), WithLimits(limits))
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	hs := HTTPServer("", s.Handler())
	go hs.Serve(s.LimitListener(ln))
	t.Cleanup(func() { hs.Close() })
	return ln
}

// The server's answers reach every client: a request with 64 KB of
// headers gets its 431, read to the end, not a reset, through the
// listener that counts connections (which must keep the TCP connection's
// CloseWrite, by which net/http half-closes it after such an answer).
func TestOversizeHeadersAnswered(t *testing.T) {
	ln := listenCounted(t, Limits{Conns: 16, ClientConns: 8})
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

// A request net/http cannot read is answered by net/http itself, on the
// connection, before any handler: the answer is JSON with a code as every
// other error, with net/http's status, and read whole by the client.
func TestUnreadableRequestsAnsweredJSON(t *testing.T) {
	ln := listenCounted(t, Limits{Conns: 64, ClientConns: 32})
	for _, tc := range []struct {
		name, request string
		status        int
		code          string
	}{
		{"a malformed header", "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header\r\n\r\n", 400, codeBadRequest},
		{"no request line", "GARBAGE\r\n\r\n", 400, codeBadRequest},
		{"no Host", "GET /api/health HTTP/1.1\r\n\r\n", 400, codeBadRequest},
		{"two Hosts", "GET /api/health HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400, codeBadRequest},
		{"two lengths", "POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n", 400, codeBadRequest},
		{"a NUL in the path", "GET /\x00 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 400, codeBadRequest},
		{"headers too large", "GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + strings.Repeat("x", 64<<10) + "\r\n\r\n", 431, codeBigHeaders},
		{"an unknown transfer coding", "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: gzip\r\n\r\n", 501, codeBadProtocol},
		{"another HTTP version", "GET / HTTP/9.9\r\nHost: 127.0.0.1\r\n\r\n", 505, codeBadProtocol},
		{"an asterisk", "GET * HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 400, codeBadRequest},
		{"a bad request after a good one", "GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGARBAGE\r\n\r\n", 400, codeBadRequest},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := net.Dial("tcp", ln.Addr().String())
			require.NoError(t, err)
			defer c.Close()
			require.NoError(t, c.SetDeadline(time.Now().Add(30*time.Second)))
			_, err = io.WriteString(c, tc.request)
			require.NoError(t, err)
			br := bufio.NewReader(c)
			res, err := http.ReadResponse(br, nil)
			require.NoError(t, err)
			if strings.HasSuffix(tc.name, "after a good one") {
				io.Copy(io.Discard, res.Body)
				res.Body.Close()
				require.Equal(t, http.StatusOK, res.StatusCode)
				res, err = http.ReadResponse(br, nil)
				require.NoError(t, err)
			}
			defer res.Body.Close()
			b, err := io.ReadAll(res.Body)
			require.NoError(t, err, "the answer is read to its end")
			assert.Equal(t, tc.status, res.StatusCode, "%s", b)
			assert.Equal(t, "application/json; charset=utf-8", res.Header.Get("Content-Type"))
			var e apiError
			require.NoError(t, json.Unmarshal(b, &e), "%s", b)
			assert.Equal(t, tc.code, e.Code)
			assert.NotEmpty(t, e.Error)
		})
	}
}

// The rewriting of net/http's own answers touches nothing else.
func TestJSONConnErrorLeavesOthers(t *testing.T) {
	for _, b := range []string{
		"HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\nok",
		"HTTP/1.1 404 Not Found\r\nContent-Security-Policy: x\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n",
		"HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\n\r\n{}",
		"HTTP/1.1 4",
		"HTTP/1.1 4x0 Bad\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n",
		"data: HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n",
		"",
	} {
		_, ok := jsonConnError([]byte(b))
		assert.False(t, ok, "%q", b)
	}
}

// An answer given before the request's body was read to its end (a
// refusal) reaches the client at once, and closes the connection: net/http
// used to read up to 256 KiB more of the body first, so a client that
// sent no more (a body that says it is larger than it is, a chunked one
// that never ends) got its answer only when the read timeout (an hour
// here) ended the connection. A body read whole keeps the connection.
func TestRefusalsWaitForNoBody(t *testing.T) {
	s, err := New(lib(), newMemStore(), WithLimits(testLimits))
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	hs := HTTPServer("", s.Handler())
	hs.ReadTimeout = time.Hour
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	const asJSON, chunked = "Content-Type: application/json\r\n", "Transfer-Encoding: chunked\r\n\r\n1\r\n{\r\n"
	post := func(path, headers string) string {
		return "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + headers
	}
	for _, tc := range []struct {
		name, request string
		status        int
		code          string
	}{
		{"no endpoint, a chunked body that never ends", post("/api/nosuch", asJSON+chunked), 404, codeNotFound},
		{"not JSON, a chunked body that never ends", post("/api/games", chunked), 415, codeMediaType},
		{"another site, a chunked body that never ends", post("/api/games", asJSON+"Origin: http://attacker.example\r\n"+chunked), 403, codeCrossSite},
		{"a length over the limit, the body not sent", post("/api/games", asJSON+"Content-Length: 20000\r\n\r\n{"), 413, codeBodyTooLarge},
		{"a length over the limit, waiting for 100 Continue", post("/api/games", asJSON+"Content-Length: 99999999999\r\nExpect: 100-continue\r\n\r\n"), 413, codeBodyTooLarge},
		{"a chunked body over the limit that never ends", post("/api/games", asJSON+"Transfer-Encoding: chunked\r\n\r\n4001\r\n"+strings.Repeat(" ", 0x4001)+"\r\n"), 413, codeBodyTooLarge},
		{"a method the endpoint is not served with, the body not sent", "PUT /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n" + asJSON + "Content-Length: 100\r\n\r\n{", 405, codeBadMethod},
		{"a method of no endpoint, the body not sent", "PUT /api/nosuch HTTP/1.1\r\nHost: 127.0.0.1\r\n" + "Content-Length: 100\r\n\r\n{", 404, codeNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := net.Dial("tcp", ln.Addr().String())
			require.NoError(t, err)
			defer c.Close()
			require.NoError(t, c.SetDeadline(time.Now().Add(time.Minute))) // only a wait for the read timeout crosses it
			go io.WriteString(c, tc.request)
			got, err := io.ReadAll(c)
			require.NoError(t, err, "the answer, then the connection closed (read %q)", got)
			res, err := http.ReadResponse(bufio.NewReader(strings.NewReader(string(got))), nil)
			require.NoError(t, err)
			b, _ := io.ReadAll(res.Body)
			assert.Equal(t, tc.status, res.StatusCode, "%s", b)
			var e apiError
			require.NoError(t, json.Unmarshal(b, &e), "%s", b)
			assert.Equal(t, tc.code, e.Code)
		})
	}
	t.Run("a body read whole", func(t *testing.T) {
		c, err := net.Dial("tcp", ln.Addr().String())
		require.NoError(t, err)
		defer c.Close()
		require.NoError(t, c.SetDeadline(time.Now().Add(time.Minute)))
		body := `{"game": "nosuch"}`
		br := bufio.NewReader(c)
		for range 2 {
			_, err = io.WriteString(c, post("/api/games", asJSON+fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body)))
			require.NoError(t, err)
			res, err := http.ReadResponse(br, nil)
			require.NoError(t, err, "the same connection answers again")
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			assert.Equal(t, http.StatusUnprocessableEntity, res.StatusCode)
		}
	})
}
