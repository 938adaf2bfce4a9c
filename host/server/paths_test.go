package server

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An error answer that names a path names the one the client sent, with
// the base path when the server is mounted under one: a client that
// asked for /matombo/api/nope was told about /api/nope. Every route is
// asked with a method it is not served with (405), and paths no route
// serves (404), at the root and under a base path; the mux's redirects
// (a path to clean, a folder without its slash) stay under the base path
// too, in the Location header and in the link of the body.
func TestErrorsNameTheClientsPath(t *testing.T) {
	for _, base := range []string{"", "/matombo"} {
		t.Run("base "+base, func(t *testing.T) {
			ts := newTestServer(t, newMemStore(), WithBasePath(base))
			status, b := ts.do("POST", base+"/api/games", `{"game": "yematatu"}`)
			require.Equal(t, http.StatusCreated, status, "%s", b)
			var g testGame
			require.NoError(t, json.Unmarshal(b, &g))
			var body []byte // the last answer's
			send := func(method, path, rng string) (*http.Response, apiError) {
				t.Helper()
				req, err := http.NewRequest(method, ts.http.URL+path, nil)
				require.NoError(t, err)
				req.Header.Set("Content-Type", "application/json")
				if rng != "" {
					req.Header.Set("Range", rng)
				}
				client := *ts.http.Client()
				client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
				res, err := client.Do(req)
				require.NoError(t, err)
				defer res.Body.Close()
				b, err := io.ReadAll(res.Body)
				require.NoError(t, err)
				body = b
				var e apiError
				if res.StatusCode >= 400 {
					require.NoError(t, json.Unmarshal(b, &e), "%s", b)
				}
				return res, e
			}

			concrete := strings.NewReplacer("{id}", g.ID, "{game}", "tsoro", "{$}", "")
			for _, rt := range ts.srv.routeList() {
				method, pattern, _ := strings.Cut(rt.pattern, " ")
				path := base + concrete.Replace(pattern)
				if strings.HasSuffix(path, "/static/") {
					path += "app.js"
				}
				wrong := map[string]string{"GET": "DELETE", "POST": "PUT"}[method]
				t.Run(wrong+" "+path, func(t *testing.T) {
					res, e := send(wrong, path, "")
					require.Equal(t, http.StatusMethodNotAllowed, res.StatusCode, e.Error)
					assert.Equal(t, codeBadMethod, e.Code)
					assert.Contains(t, e.Error, " on "+path+" ")
				})
			}
			for _, tc := range []struct {
				method, path, rng string
				status            int
				code              string
			}{
				{"GET", "/api/nope", "", http.StatusNotFound, codeNotFound},
				{"POST", "/api/nope", "", http.StatusNotFound, codeNotFound},
				{"GET", "/api/games/" + g.ID + "/nope", "", http.StatusNotFound, codeNotFound},
				{"POST", "/api/games/" + g.ID + "/moves/nope", "", http.StatusNotFound, codeNotFound},
				{"GET", "/api/catalog/tsoro/nope", "", http.StatusNotFound, codeNotFound},
				{"GET", "/nope", "", http.StatusNotFound, codeNotFound},
				{"GET", "/g/", "", http.StatusNotFound, codeNotFound},
				{"GET", "/g/abc/def", "", http.StatusNotFound, codeNotFound},
				{"GET", "/static/nope.js", "", http.StatusNotFound, codeNotFound},
				{"GET", "/static/app.js", "bytes=99999999-", http.StatusRequestedRangeNotSatisfiable, codeBadRequest},
			} {
				path := base + tc.path
				t.Run(tc.method+" "+path, func(t *testing.T) {
					res, e := send(tc.method, path, tc.rng)
					require.Equal(t, tc.status, res.StatusCode, e.Error)
					assert.Equal(t, tc.code, e.Code)
					assert.Contains(t, e.Error, path)
					if base != "" {
						assert.NotContains(t, " "+e.Error, " "+tc.path, "the path without the base path")
					}
				})
			}
			for _, tc := range []struct{ path, to string }{
				{"/api//catalog", "/api/catalog"},
				{"/static", "/static/"},
				{"/g/./abc", "/g/abc"},
			} {
				t.Run("redirect "+base+tc.path, func(t *testing.T) {
					res, _ := send("GET", base+tc.path, "")
					assert.Equal(t, 3, res.StatusCode/100, "a redirect: %d", res.StatusCode)
					assert.Equal(t, base+tc.to, res.Header.Get("Location"))
					assert.Contains(t, string(body), `href="`+base+tc.to+`"`, "the body's link")
					assert.Equal(t, 1, strings.Count(string(body), "href="), "one link: %s", body)
				})
			}
		})
	}
}
