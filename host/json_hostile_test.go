package host_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/matombo/matombo/games"
	"github.com/matombo/matombo/host"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A state JSON is read one way only, and what StateFromJSON accepts it
// keeps: bytes that another JSON reader would read otherwise (a key given
// twice, a key spelled in other case, a second value after the state,
// bytes that are not UTF-8), nesting no state has, a result on a game that
// goes on, an unknown method and a ply count beyond 2^53 are refused with
// a *PositionError (code bad-position), and a ply count as large as allowed
// costs nothing when the state is written again (the writer sizes its
// buffer by the history, not by the ply).
func TestStateJSONHostile(t *testing.T) {
	g, err := games.Library().Load("kalah")
	require.NoError(t, err)
	data, err := json.Marshal(g.Start())
	require.NoError(t, err)
	base := string(data)
	over := g.Start()
	require.NoError(t, over.Resign(1))
	data, err = json.Marshal(over)
	require.NoError(t, err)
	ended := string(data)
	require.Contains(t, ended, `"method":"resignation"`)

	for _, c := range []struct{ name, js, want string }{
		{"key twice", strings.Replace(base, `"ply":0`, `"ply":0,"ply":0`, 1), `key "ply" is given twice`},
		{"game twice", strings.Replace(base, `"game":"kalah"`, `"game":"other","game":"kalah"`, 1), `key "game" is given twice`},
		{"site key twice", strings.Replace(base, `"count":4,`, `"count":9,"count":4,`, 1), `key "count" is given twice`},
		{"key in other case", strings.Replace(base, `"ply":0`, `"PLY":0`, 1), `unknown field "PLY"`},
		{"site key in other case", strings.Replace(base, `"owner":1`, `"Owner":1`, 1), `unknown field "Owner"`},
		{"a second object", base + `{}`, "something follows the JSON value"},
		{"garbage after", base + `x`, "something follows the JSON value"},
		{"not UTF-8", strings.Replace(base, `"prompt":""`, "\"prompt\":\"\xff\"", 1), "not UTF-8"},
		{"deep nesting", strings.Replace(base, `"vars":{}`, `"vars":{"x":`+strings.Repeat("[", 1e6)+strings.Repeat("]", 1e6)+`}`, 1), "nests deeper"},
		{"reason while it goes on", strings.Replace(base, `"reason":""`, `"reason":"x"`, 1), "goes on"},
		{"notes while it goes on", strings.Replace(base, `"notes":[]`, `"notes":["x"]`, 1), "goes on"},
		{"sites while it goes on", strings.Replace(base, `"result_sites":[]`, `"result_sites":["a1"]`, 1), "goes on"},
		{"method while it goes on", strings.Replace(base, `"vars"`, `"method":"rule","vars"`, 1), "goes on"},
		{"unknown method", strings.Replace(ended, `"method":"resignation"`, `"method":"bogus"`, 1), `no method "bogus"`},
		{"ply beyond 2^53", strings.Replace(base, `"ply":0`, `"ply":9007199254740993`, 1), "ply 9007199254740993"},
		{"largest ply", strings.Replace(base, `"ply":0`, `"ply":9223372036854775807`, 1), "ply 9223372036854775807"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := g.StateFromJSON([]byte(c.js))
			require.Error(t, err)
			var pe *host.PositionError
			require.True(t, errors.As(err, &pe), "%T: %v", err, err)
			assert.Equal(t, "bad-position", host.ErrorCode(err))
			assert.Contains(t, err.Error(), c.want)
		})
	}

	// What is accepted writes back byte for byte.
	for _, js := range []string{
		base,
		ended,
		strings.Replace(base, `"ply":0`, `"ply":9007199254740992`, 1),
	} {
		s, err := g.StateFromJSON([]byte(js))
		require.NoError(t, err)
		back, err := json.Marshal(s)
		require.NoError(t, err)
		assert.Equal(t, js, string(back))
	}
	// A state written before there were methods ends by a rule.
	s, err := g.StateFromJSON([]byte(strings.Replace(ended, `"method":"resignation",`, ``, 1)))
	require.NoError(t, err)
	assert.Equal(t, host.MethodRule, s.Outcome().Method)
}
