package main

import (
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/host/store/postgres/pgtest"
)

// TestServePostgresFrozen: a database that stops answering without
// closing its connections (its processes stopped, as a host that hangs or
// a network that drops every packet) is answered 503 after the store's
// operation timeout (10 s), not never; the server serves again once it
// answers.
func TestServePostgresFrozen(t *testing.T) {
	c := pgtest.Start(t)
	p := startPGServer(t, pgtest.Database(t, c))
	g := p.create(`{"game": "yematatu", "hold": [1, 2]}`)
	seat := pgSeatSecret(t, g.Seats[0].URL)

	pids := clusterProcesses(t, c)
	signalAll(t, pids, syscall.SIGSTOP)
	t.Cleanup(func() { signalAll(t, pids, syscall.SIGCONT) })
	requireUnavailable(t, p, pgRequests(g, seat)[:2])
	signalAll(t, pids, syscall.SIGCONT)
	waitHealthy(t, p)
	status, body := p.move(g.ID, g.State.Legal[0], 0, seat)
	require.Equal(t, http.StatusOK, status, "%s", body)
}

// clusterProcesses returns the process ids of the cluster's postmaster
// and of its children.
func clusterProcesses(t *testing.T, c *pgtest.Cluster) []int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(filepath.Dir(c.Socket), "data", "postmaster.pid"))
	require.NoError(t, err)
	first, _, _ := strings.Cut(string(b), "\n")
	postmaster, err := strconv.Atoi(strings.TrimSpace(first))
	require.NoError(t, err)
	pids := []int{postmaster}
	stats, err := filepath.Glob("/proc/[0-9]*/stat")
	require.NoError(t, err)
	for _, f := range stats {
		b, err := os.ReadFile(f)
		if err != nil {
			continue // ended meanwhile
		}
		// pid (comm) state ppid ...: comm may hold spaces, not ')'.
		_, rest, ok := strings.Cut(string(b), ") ")
		fields := strings.Fields(rest)
		if !ok || len(fields) < 2 {
			continue
		}
		if ppid, _ := strconv.Atoi(fields[1]); ppid == postmaster {
			pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(f)))
			pids = append(pids, pid)
		}
	}
	return pids
}

// signalAll sends sig to each of pids.
func signalAll(t *testing.T, pids []int, sig syscall.Signal) {
	for _, pid := range pids {
		if err := syscall.Kill(pid, sig); err != nil {
			t.Logf("signal %v to %d: %v", sig, pid, err)
		}
	}
}
