//go:build linux

package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// limitOpenFiles lowers the process's open-file limit to n.
func limitOpenFiles(t *testing.T, n string) {
	v, err := strconv.ParseUint(n, 10, 64)
	require.NoError(t, err)
	var rl syscall.Rlimit
	require.NoError(t, syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl))
	rl.Cur = min(v, rl.Max)
	require.NoError(t, syscall.Setrlimit(syscall.RLIMIT_NOFILE, &rl))
}

// TestServeManyStreamsFromOneClient: with 256 open files, one client opens
// 300 connections, each asking for an event stream (it used to leave the
// accept loop failing with "too many open files"). The client gets its 16
// streams, then 429s (or 503s while it holds its 64 connections); another
// client is still served, streams included.
func TestServeManyStreamsFromOneClient(t *testing.T) {
	_, base := startServe(t, filepath.Join(t.TempDir(), "games.db"), "MATOMBO_SERVE_NOFILE=256")
	u, err := url.Parse(base)
	require.NoError(t, err)
	res, err := http.Post(base+"api/games", "application/json", strings.NewReader(`{"game": "gore"}`))
	require.NoError(t, err)
	var g struct{ ID string }
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	require.Equal(t, http.StatusCreated, res.StatusCode, "%s", b)
	require.NoError(t, json.Unmarshal(b, &g))

	stream := func(from string) (status string, conn net.Conn) {
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
		c, err := d.Dial("tcp", u.Host)
		if err != nil {
			return "dial: " + err.Error(), nil
		}
		t.Cleanup(func() { c.Close() })
		fmt.Fprintf(c, "GET /api/games/%s/events HTTP/1.1\r\nHost: %s\r\n\r\n", g.ID, u.Host)
		line, err := bufio.NewReader(c).ReadString('\n')
		if err != nil {
			return "read: " + err.Error(), c
		}
		return strings.Fields(line)[1], c
	}
	counts := map[string]int{}
	for range 300 {
		status, _ := stream("127.0.0.1")
		counts[status]++
	}
	// Its 16 streams; then 429 (a refusal closes its connection), or 503
	// from the listener while too many of its connections are still open;
	// never an unanswered connection.
	assert.Equal(t, 16, counts["200"], "%v", counts)
	assert.Equal(t, 300-16, counts["429"]+counts["503"], "%v", counts)

	status, _ := stream("127.0.0.2")
	assert.Equal(t, "200", status, "another client's stream")
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.2")}}
	client := &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
	res, err = client.Get(base + "api/health")
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, http.StatusOK, res.StatusCode, "another client's request")
}
