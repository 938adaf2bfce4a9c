package server

import (
	"fmt"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"strings"
)

// The server answers only requests meant for it, from its own pages:
//
//   - The Host header must name the server: one of the names given with
//     WithHosts, localhost (or a name under .localhost), or an IP
//     address. A web page can make a browser send requests to a server
//     on the user's machine under the page's own name (DNS rebinding);
//     such a request names a host the server does not know, and gets
//     421 Misdirected Request. IP addresses are safe to accept: a page
//     cannot make a browser send its requests to an address under a
//     name, and an address names no page.
//   - A request from a page of another origin (by Sec-Fetch-Site or
//     Origin) gets 403, when it changes something (net/http's
//     CrossOriginProtection) and on every API path, so that other pages
//     can neither create games nor hold event streams.
//   - A request that changes something must say its body is JSON
//     (Content-Type: application/json), which a plain HTML form or a
//     "simple" cross-origin fetch cannot; otherwise 415. A method its path
//     is not served with gets 405 first, whatever its content type.

// hostAllowed reports whether the Host header of a request names this
// server.
func (s *Server) hostAllowed(hostHeader string) bool {
	host := hostHeader
	if h, _, err := net.SplitHostPort(hostHeader); err == nil {
		host = h
	}
	host = strings.ToLower(strings.TrimSuffix(strings.Trim(host, "[]"), "."))
	if _, err := netip.ParseAddr(host); err == nil {
		return true
	}
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	return slices.Contains(s.opt.hosts, host)
}

// allowedHosts lists what a Host header may name, for the refusal.
func (s *Server) allowedHosts() []string {
	return append(slices.Clone(s.opt.hosts), "localhost", "an IP address")
}

// changes reports whether a method changes something.
func changes(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return false
	}
	return true
}

// guard refuses requests not meant for this server (see above) and
// counts API requests, the openings of event streams included, against
// their client's rate.
func (s *Server) guard(next http.Handler) http.Handler {
	cop := http.NewCrossOriginProtection()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.hostAllowed(r.Host) {
			writeError(w, http.StatusMisdirectedRequest, apiError{
				Error:   fmt.Sprintf("this server does not answer for the host %q (start it with --host %s to allow it)", r.Host, hostOnly(r.Host)),
				Code:    codeUnknownHost,
				Allowed: s.allowedHosts(),
			})
			return
		}
		api := strings.HasPrefix(r.URL.Path, "/api/")
		check := r
		if api && !changes(r.Method) {
			// The same check as for changes: pretend it is one.
			c := *r
			c.Method = http.MethodPost
			check = &c
		}
		if api || changes(r.Method) {
			if cop.Check(check) != nil {
				writeError(w, http.StatusForbidden, apiError{Error: "a request from a page of another site (by its Origin or Sec-Fetch-Site header): refused", Code: codeCrossSite})
				return
			}
		}
		if changes(r.Method) && s.served(r) {
			mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
			if err != nil || mt != "application/json" {
				writeError(w, http.StatusUnsupportedMediaType, apiError{Error: fmt.Sprintf("the body must be JSON, sent with Content-Type: application/json (got %q)", r.Header.Get("Content-Type")), Code: codeMediaType})
				return
			}
		}
		if api { // an event stream's opening too: each reads and encodes the game
			if no := s.clients.request(s.clientKey(r)); no != nil {
				no.write(w)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// served reports whether a route serves r, its method at its path: one
// no route serves gets the mux's 404, or its 405 with the methods its path
// is served with (Allow), before its body's content type is looked at.
func (s *Server) served(r *http.Request) bool {
	_, pattern := s.mux.Handler(r)
	return pattern != ""
}

// hostOnly is the host of a Host header without its port.
func hostOnly(hostHeader string) string {
	if h, _, err := net.SplitHostPort(hostHeader); err == nil {
		return h
	}
	return hostHeader
}
