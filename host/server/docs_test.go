package server

import (
	"encoding/json"
	"flag"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var printDocs = flag.Bool("print-docs", false, "print the answers to the requests of docs/serve.md")

// docExample is one request of docs/serve.md and the answer shown for it.
type docExample struct {
	method, path, body string
	status             int
	answer             string // JSON, with ID and SECRET1, SECRET2 for the game's id and seat secrets
	abridged           bool   // the answer shows some of the answer's fields: only those are compared
}

var fence = regexp.MustCompile("(?s)```(http|json)\n(.*?)```")

// docExamples reads the request blocks (```http) of docs/serve.md and the
// answer blocks (```json starting with "HTTP <status>", or "HTTP <status>
// (abridged)" for an answer of which some fields are shown) after them.
func docExamples(t *testing.T) []docExample {
	b, err := os.ReadFile("../../docs/serve.md")
	require.NoError(t, err)
	var out []docExample
	for _, m := range fence.FindAllStringSubmatch(string(b), -1) {
		text := m[2]
		if m[1] == "http" {
			head, body, _ := strings.Cut(text, "\n\n")
			f := strings.Fields(strings.SplitN(head, "\n", 2)[0])
			require.Len(t, f, 2, "request line %q", head)
			out = append(out, docExample{method: f[0], path: f[1], body: strings.TrimSpace(body)})
			continue
		}
		first, rest, _ := strings.Cut(text, "\n")
		code, ok := strings.CutPrefix(first, "HTTP ")
		if !ok || len(out) == 0 {
			continue
		}
		n, err := strconv.Atoi(strings.Fields(code)[0])
		require.NoError(t, err)
		out[len(out)-1].status = n
		out[len(out)-1].answer = rest
		out[len(out)-1].abridged = strings.HasSuffix(strings.TrimSpace(code), "(abridged)")
	}
	return out
}

// TestDocsExamples runs the requests of docs/serve.md in order against a
// fresh server and checks each answer: status and JSON.
func TestDocsExamples(t *testing.T) {
	ts := newTestServer(t, newMemStore(), WithWorkers(1))
	examples := docExamples(t)
	require.NotEmpty(t, examples)
	var id string
	var secrets []string
	for _, ex := range examples {
		path, body := ex.path, ex.body
		for i, s := range secrets {
			body = strings.ReplaceAll(body, "SECRET"+strconv.Itoa(i+1), s)
		}
		path = strings.ReplaceAll(path, "/ID", "/"+id)
		status, got := ts.do(ex.method, path, body)
		if id == "" && status == 201 {
			var g testGame
			require.NoError(t, json.Unmarshal(got, &g))
			id = g.ID
			for _, s := range g.Seats {
				if s.URL != "" {
					secrets = append(secrets, secret(t, s.URL))
				}
			}
		}
		norm := string(got)
		if id != "" {
			norm = strings.ReplaceAll(norm, `"`+id+`"`, `"ID"`)
			norm = strings.ReplaceAll(norm, "/g/"+id+"#", "/g/ID#")
		}
		for i, s := range secrets {
			norm = strings.ReplaceAll(norm, s, "SECRET"+strconv.Itoa(i+1))
		}
		if *printDocs {
			t.Logf("%s %s\nHTTP %d\n%s", ex.method, ex.path, status, norm)
		}
		assert.Equal(t, ex.status, status, "%s %s: %s", ex.method, ex.path, got)
		switch {
		case ex.abridged:
			var want, have map[string]json.RawMessage
			require.NoError(t, json.Unmarshal([]byte(ex.answer), &want), "%s %s: the docs' answer", ex.method, ex.path)
			require.NoError(t, json.Unmarshal([]byte(norm), &have), "%s %s", ex.method, ex.path)
			for k, v := range want {
				if assert.Contains(t, have, k, "%s %s", ex.method, ex.path) {
					assert.JSONEq(t, string(v), string(have[k]), "%s %s: %s", ex.method, ex.path, k)
				}
			}
		case strings.TrimSpace(ex.answer) != "":
			assert.JSONEq(t, ex.answer, norm, "%s %s", ex.method, ex.path)
		}
	}
}
