// Package pgtest runs a throwaway PostgreSQL cluster for tests: initdb in
// a temporary directory, the server on a free port of 127.0.0.1 and a
// unix socket in that directory, removed afterwards. It needs the server
// binaries (Debian's postgresql package: /usr/lib/postgresql/*/bin); when
// there are none, Start skips the test and says so.
//
// Run as root (as CI does), the cluster belongs to the unprivileged user
// "postgres" (or "nobody"), since PostgreSQL refuses to run as root. The
// server is a child of the test process that the kernel kills if the test
// process dies, so a crashed test leaves no server behind.
package pgtest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// ErrNoBinaries is returned by New when no PostgreSQL server binaries
// are installed.
var ErrNoBinaries = errors.New("no PostgreSQL server binaries (initdb, postgres) in /usr/lib/postgresql/*/bin or $PATH; install Debian's postgresql package")

// Cluster is one throwaway PostgreSQL cluster.
type Cluster struct {
	Port   int    // TCP port on 127.0.0.1
	Socket string // directory of the unix socket

	bin  string // directory of initdb and postgres
	dir  string // the temporary directory: data/, sock/, log
	cred *syscall.Credential
	opts []string

	cmd    *exec.Cmd
	exited chan struct{} // closed when cmd has exited
	dbs    atomic.Int64
}

// Option changes how New sets up the cluster.
type Option func(*Cluster)

// Durable keeps fsync and synchronous_commit on; by default a test
// cluster turns them off, as its data is thrown away.
func Durable() Option {
	return func(c *Cluster) { c.opts = nil }
}

// Binaries returns the directory holding initdb and postgres: the newest
// /usr/lib/postgresql/N/bin, else the one of initdb in $PATH.
func Binaries() (string, error) {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	for _, d := range dirs {
		if executable(filepath.Join(d, "initdb")) && executable(filepath.Join(d, "postgres")) {
			return d, nil
		}
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		d := filepath.Dir(p)
		if executable(filepath.Join(d, "postgres")) {
			return d, nil
		}
	}
	return "", ErrNoBinaries
}

func version(binDir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return n
}

func executable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}

// New creates a cluster and starts it. Remove it when done.
func New(opts ...Option) (*Cluster, error) {
	bin, err := Binaries()
	if err != nil {
		return nil, err
	}
	c := &Cluster{bin: bin, opts: []string{"-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"}}
	for _, o := range opts {
		o(c)
	}
	if c.dir, err = os.MkdirTemp("", "matombo-pgtest-"); err != nil {
		return nil, fmt.Errorf("pgtest: %w", err)
	}
	if err := c.setOwner(); err != nil {
		c.Remove()
		return nil, err
	}
	c.Socket = filepath.Join(c.dir, "sock")
	for _, d := range []string{c.Socket} {
		if err := os.Mkdir(d, 0o700); err != nil {
			c.Remove()
			return nil, fmt.Errorf("pgtest: %w", err)
		}
		if err := c.chown(d); err != nil {
			c.Remove()
			return nil, err
		}
	}
	initdb := c.command(filepath.Join(bin, "initdb"), "-D", filepath.Join(c.dir, "data"), "-U", "postgres",
		"-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync")
	if out, err := initdb.CombinedOutput(); err != nil {
		c.Remove()
		return nil, fmt.Errorf("pgtest: initdb: %w\n%s", err, out)
	}
	if c.Port, err = freePort(); err != nil {
		c.Remove()
		return nil, err
	}
	if err := c.Start(); err != nil {
		c.Remove()
		return nil, err
	}
	return c, nil
}

// setOwner picks the user the cluster runs as: the current one, or when
// that is root, "postgres" (else "nobody"), owning the directory.
func (c *Cluster) setOwner() error {
	if os.Geteuid() != 0 {
		return nil
	}
	var u *user.User
	var err error
	for _, name := range []string{"postgres", "nobody"} {
		if u, err = user.Lookup(name); err == nil {
			break
		}
	}
	if err != nil {
		return fmt.Errorf("pgtest: running as root and there is no user postgres or nobody to run PostgreSQL as: %w", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	c.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), NoSetGroups: true}
	return c.chown(c.dir)
}

func (c *Cluster) chown(path string) error {
	if c.cred == nil {
		return nil
	}
	if err := os.Chown(path, int(c.cred.Uid), int(c.cred.Gid)); err != nil {
		return fmt.Errorf("pgtest: %w", err)
	}
	return nil
}

// command runs a PostgreSQL binary as the cluster's user, killed if the
// test process dies.
func (c *Cluster) command(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Dir = c.dir
	cmd.Env = []string{"PATH=/usr/bin:/bin", "LANG=C", "LC_ALL=C", "HOME=" + c.dir}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: c.cred, Pdeathsig: syscall.SIGKILL}
	return cmd
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("pgtest: no free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// Start starts the server (again, after Stop) and waits until it accepts
// connections.
func (c *Cluster) Start() error {
	if c.cmd != nil {
		return errors.New("pgtest: the cluster is running")
	}
	logPath := filepath.Join(c.dir, "log")
	logf, err := os.OpenFile(logPath, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("pgtest: %w", err)
	}
	defer logf.Close()
	args := append([]string{"-D", filepath.Join(c.dir, "data"), "-p", strconv.Itoa(c.Port), "-k", c.Socket,
		"-c", "listen_addresses=127.0.0.1", "-c", "max_connections=200"}, c.opts...)
	cmd := c.command(filepath.Join(c.bin, "postgres"), args...)
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("pgtest: starting postgres: %w", err)
	}
	c.cmd, c.exited = cmd, make(chan struct{})
	go func(exited chan struct{}) {
		_ = cmd.Wait()
		close(exited)
	}(c.exited)
	deadline := time.Now().Add(2 * time.Minute) // an upper bound for a loaded machine, not an expectation
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		conn, err := pgx.Connect(ctx, c.DSN("postgres"))
		cancel()
		if err == nil {
			conn.Close(context.Background())
			return nil
		}
		select {
		case <-c.exited:
			c.cmd = nil
			return fmt.Errorf("pgtest: postgres exited at start:\n%s", c.logTail())
		default:
		}
		if time.Now().After(deadline) {
			c.Stop()
			return fmt.Errorf("pgtest: postgres did not accept connections: %v\n%s", err, c.logTail())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (c *Cluster) logTail() string {
	b, _ := os.ReadFile(filepath.Join(c.dir, "log"))
	if len(b) > 4000 {
		b = b[len(b)-4000:]
	}
	return string(b)
}

// Stop shuts the server down (fast shutdown: open sessions are ended) and
// waits for it; Start brings it back with the same data and port.
func (c *Cluster) Stop() error {
	if c.cmd == nil {
		return nil
	}
	_ = c.cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-c.exited:
	case <-time.After(time.Minute):
		_ = c.cmd.Process.Kill()
		<-c.exited
	}
	c.cmd = nil
	return nil
}

// Remove stops the server and deletes the cluster's directory.
func (c *Cluster) Remove() error {
	c.Stop()
	if c.dir == "" {
		return nil
	}
	return os.RemoveAll(c.dir)
}

// DSN returns the URL of database db over TCP.
func (c *Cluster) DSN(db string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", c.Port, db)
}

// SocketDSN returns the libpq key=value string of database db over the
// unix socket.
func (c *Cluster) SocketDSN(db string) string {
	return fmt.Sprintf("host=%s port=%d user=postgres dbname=%s sslmode=disable", c.Socket, c.Port, db)
}

// CreateDatabase creates a new empty database and returns its URL.
func (c *Cluster) CreateDatabase(ctx context.Context) (string, error) {
	name := fmt.Sprintf("test_%d_%d", os.Getpid(), c.dbs.Add(1))
	conn, err := pgx.Connect(ctx, c.DSN("postgres"))
	if err != nil {
		return "", fmt.Errorf("pgtest: %w", err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		return "", fmt.Errorf("pgtest: creating database %s: %w", name, err)
	}
	return c.DSN(name), nil
}

// Start creates a cluster for the test and removes it when the test ends;
// the test is skipped when no PostgreSQL binaries are installed.
func Start(t testing.TB, opts ...Option) *Cluster {
	t.Helper()
	c, err := New(opts...)
	if errors.Is(err, ErrNoBinaries) {
		t.Skipf("PostgreSQL tests skipped: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Remove() })
	return c
}

// Database creates a database in c for the test and returns its URL.
func Database(t testing.TB, c *Cluster) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	dsn, err := c.CreateDatabase(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return dsn
}
