package server

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Limits are the quotas of each client and the caps of the whole server.
// A client is a remote address: an IPv4 address, or the /64 network of an
// IPv6 address (one host holds a whole /64); behind a trusted reverse
// proxy, the address the proxy names in X-Forwarded-For. A zero quota or
// cap means no limit.
type Limits struct {
	// GamesPerMinute is how many games a client may create a minute (a
	// burst of as many, refilled evenly); over it, 429 with Retry-After.
	GamesPerMinute int
	// RequestsPerSecond is how many API requests a client may make a
	// second, the openings of event streams included (a burst of twice as
	// many); over it, 429 with Retry-After.
	RequestsPerSecond int
	// ClientStreams is how many event streams a client may hold open;
	// over it, 429 with Retry-After.
	ClientStreams int
	// ClientThinking is how many of a client's games may wait for, or be
	// in, computer thinking at once; a request that would make one more
	// gets 429 with Retry-After. The client of a computer move is the one
	// whose request made it due.
	ClientThinking int
	// Streams caps the event streams of the whole server (keep it below
	// the open-file limit); over it, 503 with Retry-After.
	Streams int
	// Games caps the games stored, of every client (on a database several
	// servers share, the games of all of them): a new game over it gets
	// 503, and none is made until the store holds fewer (0: no cap). Two
	// games made at the same moment may both pass at the last place.
	Games int
	// Conns caps the connections the server holds (LimitListener), and
	// ClientConns those of one client; a connection over either is
	// answered 503 and closed at once. Trusted proxies count only
	// against Conns.
	Conns, ClientConns int
	// TrustedProxies are the networks of reverse proxies whose
	// X-Forwarded-For header names the client.
	TrustedProxies []netip.Prefix
}

// DefaultLimits are the limits of a server for strangers on a machine
// whose open-file limit is nofile (0 when unknown): 20 games a minute,
// 50 requests a second, 16 event streams and 4 games thinking per
// client; 100,000 games stored; connections up to the open-file limit
// less 64 kept for the database and files, three quarters of them event
// streams.
func DefaultLimits(nofile int) Limits {
	if nofile <= 0 {
		nofile = 1024
	}
	conns := min(max(nofile-64, 32), 1<<16)
	return Limits{
		GamesPerMinute:    20,
		RequestsPerSecond: 50,
		ClientStreams:     16,
		ClientThinking:    4,
		Games:             DefaultGames,
		Streams:           conns * 3 / 4,
		Conns:             conns,
		ClientConns:       64,
	}
}

// DefaultGames is the default cap of the games stored: without one, clients
// from many addresses (each under its quota of new games) would fill the
// memory of a server on ":memory:", or its disk, without end.
const DefaultGames = 100_000

// clientKey is the client of a request, for quotas and fair scheduling.
func (s *Server) clientKey(r *http.Request) string {
	addr := remoteAddr(r.RemoteAddr)
	if addr.IsValid() && s.trusted(addr) {
		// The proxy appends the address it got the request from; take
		// the rightmost address no trusted proxy added.
		hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
		for i := len(hops) - 1; i >= 0; i-- {
			a, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
			if err != nil {
				break // a forged or broken entry: stop at what is known
			}
			addr = a.Unmap()
			if !s.trusted(addr) {
				break
			}
		}
	}
	return addrKey(addr, r.RemoteAddr)
}

// trusted reports whether addr is a trusted proxy.
func (s *Server) trusted(addr netip.Addr) bool {
	for _, p := range s.opt.limits.TrustedProxies {
		if p.Contains(addr) {
			return true
		}
	}
	return false
}

// remoteAddr parses the IP address of a host:port.
func remoteAddr(hostport string) netip.Addr {
	if ap, err := netip.ParseAddrPort(hostport); err == nil {
		return ap.Addr().Unmap()
	}
	a, _ := netip.ParseAddr(hostport)
	return a.Unmap()
}

// addrKey is the client key of an address: IPv4 as it is, IPv6 by its
// /64 network; raw when it is no address.
func addrKey(a netip.Addr, raw string) string {
	switch {
	case !a.IsValid():
		return raw
	case a.Is6():
		p, _ := a.Prefix(64)
		return p.String()
	}
	return a.String()
}

// client is what the server counts for one client.
type client struct {
	games    *rate.Limiter // creations
	requests *rate.Limiter // API requests
	streams  int           // open event streams
	conns    int           // open connections (LimitListener)
}

// idle reports whether the client holds nothing and has its full quotas
// back, so that forgetting it changes nothing.
func (c *client) idle(now time.Time) bool {
	full := func(l *rate.Limiter) bool { return l == nil || l.TokensAt(now) >= float64(l.Burst()) }
	return c.streams == 0 && c.conns == 0 && full(c.games) && full(c.requests)
}

// clients is the table of clients. It forgets idle clients when it grows,
// so it holds at most about twice the clients active at once.
type clients struct {
	mu     sync.Mutex
	limits Limits
	byKey  map[string]*client
	sweep  int // size at which to forget idle clients
	// the server's totals
	streams, conns int
}

func newClients(l Limits) *clients {
	return &clients{limits: l, byKey: map[string]*client{}, sweep: 1024}
}

// get returns the client of key, making it when new. The caller holds mu.
func (cs *clients) get(key string, now time.Time) *client {
	c, ok := cs.byKey[key]
	if ok {
		return c
	}
	if len(cs.byKey) >= cs.sweep {
		for k, old := range cs.byKey {
			if old.idle(now) {
				delete(cs.byKey, k)
			}
		}
		cs.sweep = max(1024, 2*len(cs.byKey))
	}
	c = &client{}
	if n := cs.limits.GamesPerMinute; n > 0 {
		c.games = rate.NewLimiter(rate.Limit(float64(n)/60), n)
	}
	if n := cs.limits.RequestsPerSecond; n > 0 {
		c.requests = rate.NewLimiter(rate.Limit(n), 2*n)
	}
	cs.byKey[key] = c
	return c
}

// refusal is a request over a quota or cap: its status, message and how
// many seconds to wait.
type refusal struct {
	status int
	code   string // codes.go
	msg    string
	after  int
}

func (r *refusal) Error() string { return r.msg }

// write answers the refusal and closes the connection after it, so that a
// client over a quota does not keep a connection (an open file) idle.
func (r *refusal) write(w http.ResponseWriter) {
	if r.after > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(r.after))
	}
	w.Header().Set("Connection", "close")
	writeError(w, r.status, apiError{Error: r.msg, Code: r.code})
}

// take spends one token of l, or says how long until one is there.
func take(l *rate.Limiter, now time.Time) (ok bool, wait time.Duration) {
	if l == nil {
		return true, 0
	}
	res := l.ReserveN(now, 1)
	if d := res.DelayFrom(now); d > 0 {
		res.CancelAt(now)
		return false, d
	}
	return true, 0
}

// seconds rounds a wait up to whole seconds, at least 1.
func retrySeconds(d time.Duration) int {
	return max(1, int(math.Ceil(d.Seconds())))
}

// request counts one API request of key; a refusal when over its rate.
func (cs *clients) request(key string) *refusal {
	now := time.Now()
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if ok, wait := take(cs.get(key, now).requests, now); !ok {
		return &refusal{http.StatusTooManyRequests, codeOverQuota, fmt.Sprintf("too many requests: at most %d a second from one client", cs.limits.RequestsPerSecond), retrySeconds(wait)}
	}
	return nil
}

// createGame counts one game created by key; a refusal when over its
// quota.
func (cs *clients) createGame(key string) *refusal {
	now := time.Now()
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if ok, wait := take(cs.get(key, now).games, now); !ok {
		return cs.tooManyGames(wait)
	}
	return nil
}

// tooManyGames is the refusal of a game over a client's quota, which
// allows another after wait.
func (cs *clients) tooManyGames(wait time.Duration) *refusal {
	return &refusal{http.StatusTooManyRequests, codeOverQuota, fmt.Sprintf("too many new games: at most %d a minute from one client", cs.limits.GamesPerMinute), retrySeconds(wait)}
}

// mayCreate refuses, without spending any quota, a game key could not
// create now: asked before the game is loaded, which costs its script's
// machines, so that a client over its quota cannot make the server load
// games only to refuse them.
func (cs *clients) mayCreate(key string) *refusal {
	now := time.Now()
	cs.mu.Lock()
	defer cs.mu.Unlock()
	l := cs.get(key, now).games
	if l == nil {
		return nil
	}
	tokens := l.TokensAt(now)
	if tokens >= 1 {
		return nil
	}
	return cs.tooManyGames(time.Duration((1 - tokens) / float64(l.Limit()) * float64(time.Second)))
}

// openStream counts an event stream of key; it returns a function that
// ends it, or a refusal when the client or the server holds too many.
func (cs *clients) openStream(key string) (func(), *refusal) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	c := cs.get(key, time.Now())
	switch {
	case cs.limits.ClientStreams > 0 && c.streams >= cs.limits.ClientStreams:
		return nil, &refusal{http.StatusTooManyRequests, codeOverQuota, fmt.Sprintf("too many event streams: at most %d open from one client", cs.limits.ClientStreams), 10}
	case cs.limits.Streams > 0 && cs.streams >= cs.limits.Streams:
		return nil, &refusal{http.StatusServiceUnavailable, codeOverCapacity, fmt.Sprintf("the server has %d event streams open, its most; try again later", cs.streams), 10}
	}
	c.streams++
	cs.streams++
	var once sync.Once
	return func() {
		once.Do(func() {
			cs.mu.Lock()
			c.streams--
			cs.streams--
			cs.mu.Unlock()
		})
	}, nil
}

// openConn counts a connection from addr; ok is false when it is over
// the server's cap or (unless it comes from a trusted proxy) its
// client's. The returned function ends it.
func (cs *clients) openConn(key string, proxy bool) (func(), bool) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	c := cs.get(key, time.Now())
	if cs.limits.Conns > 0 && cs.conns >= cs.limits.Conns ||
		!proxy && cs.limits.ClientConns > 0 && c.conns >= cs.limits.ClientConns {
		return nil, false
	}
	c.conns++
	cs.conns++
	var once sync.Once
	return func() {
		once.Do(func() {
			cs.mu.Lock()
			c.conns--
			cs.conns--
			cs.mu.Unlock()
		})
	}, true
}

// LimitListener returns ln with the server's connection caps
// (Limits.Conns and ClientConns): a connection over a cap is answered
// "503 Service Unavailable" and closed at once, so that one client
// holding many connections can neither exhaust the open files (which
// stops the accept loop for everyone) nor crowd out other clients.
func (s *Server) LimitListener(ln net.Listener) net.Listener {
	return &limitListener{Listener: ln, s: s}
}

type limitListener struct {
	net.Listener
	s *Server
}

// overloaded is the whole answer to a connection over a cap.
var overloaded = func() string {
	body := `{"error":"too many connections from this client or to this server; try again later","code":"over-capacity"}` + "\n"
	return "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\n" +
		"Retry-After: 10\r\nConnection: close\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body
}()

func (l *limitListener) Accept() (net.Conn, error) {
	for {
		conn, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		addr := remoteAddr(conn.RemoteAddr().String())
		release, ok := l.s.clients.openConn(addrKey(addr, conn.RemoteAddr().String()), l.s.trusted(addr))
		if ok {
			return counted(conn, release), nil
		}
		go refuseConn(conn)
	}
}

// refuseConn answers a connection over a cap with 503 and closes it. It
// reads (and drops) what the client sent for up to a second first:
// closing a socket with unread data resets it, and the client would lose
// the answer.
func refuseConn(conn net.Conn) {
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(time.Second))
	if _, err := conn.Write([]byte(overloaded)); err != nil {
		return
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		tc.CloseWrite()
	}
	io.Copy(io.Discard, io.LimitReader(conn, 64<<10))
}

// counted wraps conn so that closing it ends its count, and keeps every
// method of the connection's own type: a TCP connection's CloseWrite
// (net/http half-closes a connection after an answer sent before the
// request was read whole, such as a 431 for headers too large; without it
// the close resets the connection and the client never reads the
// answer), ReadFrom and WriteTo (sendfile and splice), SetKeepAlive,
// SyscallConn and the rest.
func counted(conn net.Conn, release func()) net.Conn {
	switch c := conn.(type) {
	case *net.TCPConn:
		return &countedTCPConn{TCPConn: c, release: release}
	case *net.UnixConn:
		return &countedUnixConn{UnixConn: c, release: release}
	case closeWriter:
		return &countedHalfConn{Conn: conn, cw: c, release: release}
	}
	return &countedConn{Conn: conn, release: release}
}

// plainErrorHeaders are the headers net/http writes, straight to the
// connection, after the status line of its answer to a request it could
// not read (a malformed request line or header, headers over the limit,
// an unknown transfer coding, another HTTP version), before a plain text
// body: no handler sees such a request.
const plainErrorHeaders = "\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n"

// jsonConnError returns net/http's plain text answer b to a request it
// could not read as JSON with a code, as every other error is answered;
// ok is false for anything else written on a connection. Answers made by
// handlers never match: every one has the security headers, which sort
// before Content-Type.
func jsonConnError(b []byte) (answer []byte, ok bool) {
	rest, ok := bytes.CutPrefix(b, []byte("HTTP/1.1 "))
	if !ok || len(rest) < 3 || rest[0] < '4' || rest[0] > '5' {
		return nil, false
	}
	end := bytes.Index(rest, []byte("\r\n"))
	if end < 3 || !bytes.HasPrefix(rest[end:], []byte(plainErrorHeaders)) {
		return nil, false
	}
	line, text := rest[:end], rest[end+len(plainErrorHeaders):]
	status, err := strconv.Atoi(string(line[:3]))
	if err != nil {
		return nil, false
	}
	code := codeBadRequest
	switch {
	case status == http.StatusRequestHeaderFieldsTooLarge:
		code = codeBigHeaders
	case status >= 500:
		code = codeBadProtocol
	}
	body := encodeJSON(apiError{Error: "a request this server cannot read: " + string(text), Code: code})
	return fmt.Appendf(nil, "HTTP/1.1 %s\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s",
		line, len(body), body), true
}

// writeConn writes b on w, net/http's plain text answer to a request it
// could not read as JSON (jsonConnError).
func writeConn(w io.Writer, b []byte) (int, error) {
	if answer, ok := jsonConnError(b); ok {
		if _, err := w.Write(answer); err != nil {
			return 0, err
		}
		return len(b), nil
	}
	return w.Write(b)
}

// closeWriter is a connection that can be half-closed.
type closeWriter interface{ CloseWrite() error }

// countedTCPConn is a counted TCP connection, with all its methods.
type countedTCPConn struct {
	*net.TCPConn
	release func()
}

func (c *countedTCPConn) Write(b []byte) (int, error) { return writeConn(c.TCPConn, b) }

func (c *countedTCPConn) Close() error {
	c.release()
	return c.TCPConn.Close()
}

// countedUnixConn is a counted Unix socket connection, with all its
// methods.
type countedUnixConn struct {
	*net.UnixConn
	release func()
}

func (c *countedUnixConn) Write(b []byte) (int, error) { return writeConn(c.UnixConn, b) }

func (c *countedUnixConn) Close() error {
	c.release()
	return c.UnixConn.Close()
}

// countedHalfConn is a counted connection of another type that can be
// half-closed.
type countedHalfConn struct {
	net.Conn
	cw      closeWriter
	release func()
}

func (c *countedHalfConn) CloseWrite() error { return c.cw.CloseWrite() }

func (c *countedHalfConn) Write(b []byte) (int, error) { return writeConn(c.Conn, b) }

func (c *countedHalfConn) Close() error {
	c.release()
	return c.Conn.Close()
}

// countedConn is any other counted connection.
type countedConn struct {
	net.Conn
	release func()
}

func (c *countedConn) Write(b []byte) (int, error) { return writeConn(c.Conn, b) }

func (c *countedConn) Close() error {
	c.release()
	return c.Conn.Close()
}
