package server

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// smallBuffers is a listener whose connections have small send buffers,
// so that a client that stops reading makes the server's writes wait
// after a few kilobytes rather than megabytes.
type smallBuffers struct{ net.Listener }

func (l smallBuffers) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		tc.SetWriteBuffer(4 << 10)
	}
	return c, err
}

// A client that stops reading, its connection's buffers full, has its
// connection closed once the server's write wait runs out, whatever it
// asked for: an answer, many answers pipelined, an event stream. Before,
// the server's write waited as long as the client kept its connection,
// and clients from enough addresses held every connection the server
// allows, for ever.
func TestStoppedReaderLetGo(t *testing.T) {
	s, err := New(lib(), newMemStore(), WithLimits(testLimits), WithWriteWait(50*time.Millisecond))
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	closed := make(chan string, 64)
	hs := httptest.NewUnstartedServer(s.Handler())
	hs.Config = HTTPServer("", s.Handler())
	hs.Config.ConnState = func(c net.Conn, st http.ConnState) {
		if st == http.StateClosed {
			closed <- c.RemoteAddr().String()
		}
	}
	hs.Listener = smallBuffers{hs.Listener}
	hs.Start()
	t.Cleanup(func() {
		hs.CloseClientConnections()
		hs.Close()
	})
	ts := &testServer{t: t, srv: s, http: hs, store: s.store}
	pipelined := func(path string, n int) string {
		return strings.Repeat(fmt.Sprintf("GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", path), n)
	}
	for _, tc := range []struct {
		name, request string
		moves         bool // the game moves on while the client reads nothing
	}{
		{"a file, asked for again and again", pipelined("/static/game.js", 400), false},
		{"the catalog, asked for again and again", pipelined("/api/catalog", 400), false},
		{"an event stream", "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts.t = t
			var g testGame
			request := tc.request
			if tc.moves {
				g = ts.create(`{"game": "oware"}`)
				request = pipelined("/api/games/"+g.ID+"/events", 1)
			}
			c, err := net.Dial("tcp", hs.Listener.Addr().String())
			require.NoError(t, err)
			defer c.Close()
			c.(*net.TCPConn).SetReadBuffer(4 << 10)
			go c.Write([]byte(request)) // the server may stop reading it: it writes, and waits
			if tc.moves {
				moveUntilClosed(ts, g, closed, c.LocalAddr().String())
				return
			}
			waitClosed(t, closed, c.LocalAddr().String())
		})
	}
}

// waitClosed waits for the server to close the connection from addr: for a
// minute at most, a bound only a connection held for ever crosses.
func waitClosed(t *testing.T, closed <-chan string, addr string) {
	t.Helper()
	limit := time.After(time.Minute)
	for {
		select {
		case a := <-closed:
			if a == addr {
				return
			}
		case <-limit:
			t.Fatalf("the server still holds the connection of a client that reads nothing")
		}
	}
}

// moveUntilClosed plays game g, each seat's first legal move, until the
// server closes the connection from addr (an event stream of g nobody
// reads) or the game ends.
func moveUntilClosed(ts *testServer, g testGame, closed <-chan string, addr string) {
	t := ts.t
	t.Helper()
	seats := ts.seatsOf(g)
	for ply := 0; ; ply++ {
		select {
		case a := <-closed:
			if a == addr {
				return
			}
		default:
		}
		g = ts.get(g.ID)
		st := g.state(t)
		require.False(t, st.Over, "the game ended after %d moves: the server still holds the stream nobody reads", ply)
		status, b := ts.move(g.ID, st.Legal[0], ply, seats[st.ToMove-1])
		require.Equal(t, http.StatusOK, status, "%s", b)
	}
}
