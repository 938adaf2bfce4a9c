package host_test

import (
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"strconv"
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

// A state read at the largest ply a state may count is refused a move,
// with an illegal-token error that says why, and is left as it was: every
// state a game reaches can be written and read back. One ply below, a
// move is played and its state reads back.
func TestStateAtTheLargestPly(t *testing.T) {
	g, err := games.Library().Load("kalah")
	require.NoError(t, err)
	data, err := json.Marshal(g.Start())
	require.NoError(t, err)
	at := func(ply string) *host.State {
		s, err := g.StateFromJSON([]byte(strings.Replace(string(data), `"ply":0`, `"ply":`+ply, 1)))
		require.NoError(t, err)
		return s
	}

	largest := min(1<<53, math.MaxInt) // 2^53, or the largest int of a 32-bit machine
	s := at(strconv.Itoa(largest - 1))
	require.NoError(t, s.Play("a1"))
	js, err := json.Marshal(s)
	require.NoError(t, err)
	back, err := g.StateFromJSON(js)
	require.NoError(t, err)
	assert.Equal(t, largest, back.Ply())

	r := g.NewRunner()
	defer r.Close()
	last := at(strconv.Itoa(largest))
	before, err := json.Marshal(last)
	require.NoError(t, err)
	kid := g.Start()
	for name, play := range map[string]func() error{
		"State.Play":             func() error { return last.Play("a1") },
		"Runner.Play":            func() error { return r.Play(last, "a1") },
		"Runner.ApplyTo":         func() error { return r.ApplyTo(kid, last, last.Moves()[0]) },
		"Runner.ApplyToUnlisted": func() error { return r.ApplyToUnlisted(kid, last, 0) },
		"Runner.Playout":         func() error { _, err := r.Playout(last, rand.New(rand.NewPCG(1, 2)), 0); return err },
	} {
		err := play()
		require.Error(t, err, name)
		assert.Equal(t, "illegal-token", host.ErrorCode(err), name)
		assert.Contains(t, err.Error(), "the most a state may count", name)
		after, err := json.Marshal(last)
		require.NoError(t, err)
		assert.Equal(t, string(before), string(after), "%s leaves the state as it was", name)
	}
}
