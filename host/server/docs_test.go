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
	headers            []string // name, value, ...: the lines after the request line
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
			lines := strings.Split(strings.TrimSpace(head), "\n")
			f := strings.Fields(lines[0])
			require.Len(t, f, 2, "request line %q", head)
			ex := docExample{method: f[0], path: f[1], body: strings.TrimSpace(body)}
			for _, h := range lines[1:] {
				name, value, ok := strings.Cut(h, ": ")
				require.True(t, ok, "header line %q", h)
				ex.headers = append(ex.headers, name, value)
			}
			out = append(out, ex)
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

var updatedRE = regexp.MustCompile(`,"updated_us":-?\d+`)

// stripUpdated leaves "updated_us" out of a JSON answer.
func stripUpdated(s string) string { return updatedRE.ReplaceAllString(s, "") }

// TestDocsExamples runs the requests of docs/serve.md in order against a
// fresh server and checks each answer: status and JSON. The first game
// created is the documents' ID; its seats' secrets and invitations, from
// whichever answer shows them, are SECRETn and INVITEn for player n.
func TestDocsExamples(t *testing.T) {
	ts := newTestServer(t, newMemStore(), WithWorkers(1))
	examples := docExamples(t)
	require.NotEmpty(t, examples)
	var id string
	known := map[string]string{} // placeholder -> value
	linkRE := regexp.MustCompile(`#player=(\d+)&(seat|invite)=([0-9a-f]+)`)
	for _, ex := range examples {
		path, body := ex.path, ex.body
		for k, v := range known {
			body = strings.ReplaceAll(body, k, v)
		}
		path = strings.ReplaceAll(path, "/ID", "/"+id)
		res, got := ts.as("", ex.method, path, body, ex.headers...)
		status := res.StatusCode
		if status < 300 {
			var g testGame
			require.NoError(t, json.Unmarshal(got, &g))
			if id == "" && status == 201 {
				id = g.ID
			}
			if g.ID == id {
				for _, s := range g.Seats {
					for _, link := range []string{s.URL, s.Invite} {
						if m := linkRE.FindStringSubmatch(link); m != nil {
							name := map[string]string{"seat": "SECRET", "invite": "INVITE"}[m[2]] + m[1]
							known[name] = m[3]
						}
					}
				}
			}
		}
		// When the game last changed differs from run to run: the
		// examples leave it out.
		norm := stripUpdated(string(got))
		if id != "" {
			norm = strings.ReplaceAll(norm, `"`+id+`"`, `"ID"`)
			norm = strings.ReplaceAll(norm, "/g/"+id+"#", "/g/ID#")
		}
		for k, v := range known {
			norm = strings.ReplaceAll(norm, v, k)
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

// TestErrorCodesDocumented: every code of codes.go is a row of the table
// of codes in docs/serve.md, with the status it is answered with.
func TestErrorCodesDocumented(t *testing.T) {
	src, err := os.ReadFile("codes.go")
	require.NoError(t, err)
	page, err := os.ReadFile("../../docs/serve.md")
	require.NoError(t, err)
	host := map[string]string{"host.CodeConfig": codeBadConfig, "host.CodeScript": codeScriptError,
		"host.CodeIllegalToken": codeIllegalToken, "host.CodeGameOver": codeGameOver}
	decl := regexp.MustCompile(`(?m)^\s+code\w+\s+=\s+("[a-z-]+"|host\.\w+)\s+// (\d{3})`)
	found := decl.FindAllStringSubmatch(string(src), -1)
	require.Len(t, found, strings.Count(string(src), "\n\tcode"), "every code declared matches the pattern")
	for _, m := range found {
		code := strings.Trim(m[1], `"`)
		if v, ok := host[m[1]]; ok {
			code = v
		}
		row := regexp.MustCompile("(?m)^\\| `" + regexp.QuoteMeta(code) + "` \\| ([0-9, ]+) \\|")
		got := row.FindStringSubmatch(string(page))
		if assert.NotNil(t, got, "code %s has no row in docs/serve.md", code) {
			assert.Contains(t, got[1], m[2], "code %s", code)
		}
	}
}
