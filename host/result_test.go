package host

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// finishGame ends its one move with FINISH; its board has one line,
// a1 a2 a3, and Player 1 owns a1 and a2 at the start.
const finishGame = `local m = matombo
m.declare { name = "fin", conserve = false }
m.board { rows = { "a", "b" }, columns = 3, lines = { { "a1", "a2", "a3" } } }
local GO = m.move("go", "go")
return {
  setup = function() m.set_owner("a1", 1); m.set_owner("a2", 1) end,
  legal = function(p) m.emit(GO) end,
  play = function(p) m.set_owner("a3", 1); FINISH end,
}
`

func TestFinishNamesSites(t *testing.T) {
	for _, c := range []struct {
		name, finish string
		winner       int
		reason       string
		notes        []string
		sites        []string
		err          string
	}{
		{name: "positional", finish: `m.finish(1, "done", "a note")`, winner: 1, reason: "done", notes: []string{"a note"}},
		{name: "a table with the line", finish: `m.finish { winner = 1, reason = "three on a line", sites = m.row_sites(1, "a3", 3) }`,
			winner: 1, reason: "three on a line", sites: []string{"a1", "a2", "a3"}},
		{name: "names and notes", finish: `m.finish { winner = 0, notes = { "n1", "n2" }, sites = { "b3", 1 } }`,
			notes: []string{"n1", "n2"}, sites: []string{"b3", "a1"}},
		{name: "no winner", finish: `m.finish { reason = "x" }`, err: "winner nil does not exist"},
		{name: "unknown field", finish: `m.finish { winner = 1, site = { "a1" } }`, err: "unknown field site"},
		{name: "unknown site", finish: `m.finish { winner = 1, sites = { "z9" } }`, err: `got string "z9", which names no site of the board`},
		{name: "not a list", finish: `m.finish { winner = 1, sites = "a1" }`, err: "sites must be a list of sites"},
		{name: "bad note", finish: `m.finish { winner = 1, notes = { 3 } }`, err: "note 1 must be a text"},
		{name: "bad reason", finish: `m.finish { winner = 1, reason = {} }`, err: "the reason must be a text"},
		{name: "fraction winner", finish: `m.finish(1.5)`, err: "winner number 1.5 does not exist"},
	} {
		t.Run(c.name, func(t *testing.T) {
			g, err := loadSource(t, "fin", strings.Replace(finishGame, "FINISH", c.finish, 1))
			require.NoError(t, err)
			s := g.Start()
			before := stateJSONText(t, s)
			err = s.Play("go")
			if c.err != "" {
				require.ErrorContains(t, err, c.err)
				assert.Equal(t, before, stateJSONText(t, s), "a failed move leaves the state")
				return
			}
			require.NoError(t, err)
			o := s.Outcome()
			assert.True(t, o.Over)
			assert.Equal(t, c.winner, o.Winner)
			assert.Equal(t, c.reason, o.Reason)
			assert.Equal(t, c.notes, o.Notes)
			var names []string
			for _, x := range o.Sites {
				names = append(names, g.Board().Site(x).Name)
			}
			assert.Equal(t, c.sites, names)
			data := stateJSONText(t, s)
			want := `"result_sites":[]`
			if len(c.sites) > 0 {
				want = `"result_sites":["` + strings.Join(c.sites, `","`) + `"]`
			}
			assert.Contains(t, data, want)
			back, err := g.StateFromJSON([]byte(data))
			require.NoError(t, err)
			assert.Equal(t, data, stateJSONText(t, back))
			assert.Equal(t, o.Sites, back.Outcome().Sites)
		})
	}
	g, err := loadSource(t, "fin", strings.Replace(finishGame, "FINISH", `m.finish(1)`, 1))
	require.NoError(t, err)
	s := g.Start()
	data := stateJSONText(t, s)
	assert.Contains(t, data, `"result_sites":[]`, "a game going on has none")
	bad := strings.Replace(strings.Replace(data, `"over":false`, `"over":true`, 1), `"result_sites":[]`, `"result_sites":["z9"]`, 1)
	bad = strings.Replace(bad, `"legal":["go"]`, `"legal":[]`, 1)
	_, err = g.StateFromJSON([]byte(bad))
	require.ErrorContains(t, err, `result_sites: no site "z9" on the board`)
}
