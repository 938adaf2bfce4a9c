package host

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/matombo/matombo/host/kernel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// numberedGame is a board of four numbered points in two rows, b3 b4
// above a1 a2, whose moves write the points by number: steps "1-3",
// captures "1x3", continuations "x4" and a list "at:1,2".
const numberedGame = `local m = matombo
m.declare { name = "numbered" }
m.board { points = { a1 = 1, a2 = 3, b3 = 2, b4 = 4 }, lines = { { "a1", "b3" }, { "a2", "b4" } }, style = "pieces" }
local STEP = m.move("step", "{#from}-{#to}")
local JUMP = m.move("jump", "{#1}x{#2}")
local ON = m.move("on", "x{#1}")
local AT = m.move("at", "at:{#sites}")
return {
  setup = function() m.set_count("a1", 1); m.set_owner("a1", 1) end,
  legal = function(p)
    m.emit(STEP, "a1", "b3"); m.emit(STEP, "a2", "b4"); m.emit(JUMP, "a1", "b4")
    m.emit(ON, "b4"); m.emit(AT, "a1", "a2")
  end,
  play = function(p, kind, a, b) m.finish(0, "done") end,
}
`

// A template's {#...} writes and reads a site by its number: tokens are
// what players of games numbered square by square write, the sites keep
// their names.
func TestSiteNumbersInTokens(t *testing.T) {
	g, err := loadSource(t, "numbered", numberedGame)
	require.NoError(t, err)
	s := g.Start()
	want := []string{"1-3", "2-4", "1x4", "x4", "at:1,2"}
	require.Equal(t, want, s.Legal())
	for i, m := range s.Moves() {
		back, err := s.ParseMove(want[i])
		require.NoError(t, err, want[i])
		assert.Equal(t, m, back)
	}
	m, err := s.ParseMove("1x4")
	require.NoError(t, err)
	assert.Equal(t, "a1", g.Board().Site(m.Site(0)).Name, "the move names the sites themselves")
	assert.Equal(t, "b4", g.Board().Site(m.Site(1)).Name)

	for _, c := range []struct{ tok, reason string }{
		{"1-4", "after 1, 4 is not possible for a step now (possible: 3)"},
		{"3-4", "3 is not possible as the first site of a step now (possible: 1 2)"},
		{"x3", "3 is not possible for an on now (possible: 4)"},
		{"9-4", "9 is not a site number of this board (its sites are numbered 1 to 4)"},
		{"a1-b3", "it fits none of the ways this game writes its moves: 1-3 (step), 1x4 (jump), x4 (on), at:1,2 (at, 1 to 4 sites separated by commas), where 1 is the number of the site a1"},
		{"01-3", "it fits none of the ways"},
		{"at:2,1", "the sites are written in this order: at:1,2"},
		// A site alone, as a player types "the move from there": the
		// forms, then the legal moves that use it.
		{"2", "2 alone is not a move: it fits none of the ways this game writes its moves: 1-3 (step), 1x4 (jump)"},
	} {
		_, err := s.ParseMove(c.tok)
		var ie *IllegalMoveError
		require.ErrorAs(t, err, &ie, c.tok)
		assert.True(t, strings.HasPrefix(ie.Reason, c.reason), "%s: %s", c.tok, ie.Reason)
	}
	_, err = s.ParseMove("a1-b3")
	assert.ErrorContains(t, err, "where 1 is the number of the site a1", "a player who wrote names learns the numbers")
	for tok, want := range map[string]string{
		"2":  "; the legal moves that use 2: 2-4 at:1,2",
		"4":  "; the legal moves that use 4: 2-4 1x4 x4",
		"a1": "; the legal moves that use a1: 1-3 1x4 at:1,2",
		"3":  "; the legal moves that use 3: 1-3",
	} {
		_, err := s.ParseMove(tok)
		assert.ErrorContains(t, err, tok+" alone is not a move", tok)
		assert.ErrorContains(t, err, want, tok)
	}
}

// A template that writes numbers needs a board declared first, whose
// sites have each number once, and numbers that a token can tell apart.
func TestSiteNumbersRefused(t *testing.T) {
	for _, c := range []struct{ name, src, err string }{
		{"noboard", `local m = matombo
m.declare { name = "noboard" }
m.move("step", "{#1}-{#2}")
m.board { rows = { "a" }, columns = 2 }
return { setup = function() end, legal = function() end, play = function() end }`, "the board must be declared first"},
		{"twice", `local m = matombo
m.declare { name = "twice" }
m.board { rows = { "a", "b" }, columns = 2 }
m.move("step", "{#1}-{#2}")
return { setup = function() end, legal = function() end, play = function() end }`, "sites a1 and b1 are both numbered 1"},
	} {
		_, err := loadSource(t, c.name, c.src)
		assert.ErrorContains(t, err, c.err, c.name)
	}
	for _, c := range []struct{ tmpl, err string }{
		{"{#1}{#2}", "a site written by number must be followed by text that is not a digit"},
		{"{#1}0{#2}", "a site written by number must be followed by text that is not a digit"},
		{"{#1}-{2}", "all by number ({#1}) or all by name"},
		{"{#}", "unknown placeholder {#}"},
		{"{#5}", "unknown placeholder {5}"},
	} {
		_, err := kernel.NewMoveKind("k", c.tmpl, "")
		assert.ErrorContains(t, err, c.err, c.tmpl)
	}
	for _, tmpl := range []string{"{#1}", "{#from}-{#to}", "{#1}x{#2}x{#3}", "x{#1}", "at:{#sites}"} {
		_, err := kernel.NewMoveKind("k", tmpl, "")
		assert.NoError(t, err, tmpl)
	}
}

// FuzzPlayNumberedToken: any token of a game that writes sites by number
// is played or refused, and a refusal leaves the state as it was.
func FuzzPlayNumberedToken(f *testing.F) {
	g, err := loadSource(f, "numbered", numberedGame)
	require.NoError(f, err)
	for _, t := range []string{"1-3", "1x4", "x4", "at:1,2", "at:2,1", "9-4", "01-3", "1-", "-3", "x", "at:", "1x4x4"} {
		f.Add(t)
	}
	f.Fuzz(func(t *testing.T, tok string) {
		s := g.Start()
		before, _ := s.MarshalJSON()
		err := s.Play(tok)
		after, _ := s.MarshalJSON()
		if err != nil {
			var ill *IllegalMoveError
			if !errors.As(err, &ill) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			if ill.Token != tok || !bytes.Equal(before, after) {
				t.Fatalf("refusing %q changed the state or lost the token", tok)
			}
		}
	})
}
