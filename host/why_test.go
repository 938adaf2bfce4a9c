package host

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"
)

// whyGame is a small placement game: drop a piece on an empty point of a
// row of three; a pass exists only when no point is empty. OPTS are the
// drop kind's options, TAG the tag's.
const whyGame = `local m = matombo
m.declare { name = "whygame" }
m.board { rows = { "a" }, columns = 3 }
local END = m.tag("end", { "a1", "a3" }, TAG)
local DROP = m.move("drop", "{1}", OPTS)
local PASS = m.move("pass", "pass", { doc = "Pass", why = function(p, sites) return "a pass needs a full row; " .. #sites .. " sites" end })
return {
  setup = function() end,
  legal = function(p)
    local full = true
    for s = 1, 3 do
      if m.owner(s) == 0 then m.emit(DROP, s); full = false end
    end
    if full then m.emit(PASS) end
  end,
  play = function(p, kind, s)
    if kind == DROP then m.set_owner(s, p); m.set_count(s, 1) end
  end,
}
`

func loadWhy(t *testing.T, opts, tag string) (*Game, error) {
	src := strings.ReplaceAll(strings.ReplaceAll(whyGame, "OPTS", opts), "TAG", tag)
	return loadSource(t, "whygame", src)
}

func TestWhyAndDocs(t *testing.T) {
	g, err := loadWhy(t, `{ doc = "Drop a piece on {1}", why = function(p, sites) if m.owner(sites[1]) ~= 0 then return m.name(sites[1]) .. " is occupied (player " .. p .. ")" end end }`,
		`{ doc = "an end of the row" }`)
	require.NoError(t, err)
	assert.Equal(t, "Drop a piece on {1}", g.MoveKinds()[0].Doc)
	assert.Equal(t, "Pass", g.MoveKinds()[1].Doc)
	assert.Equal(t, "an end of the row", g.Board().TagDoc("end"))
	assert.Equal(t, "", g.Board().TagDoc("nosuch"))
	assert.Equal(t, "", g.Board().TagMark("end"), "no mark declared")

	s := g.Start()
	require.NoError(t, s.Play("a2"))
	// The script's reason first, then the host's.
	assert.Equal(t, "a2 is occupied (player 2); a2 is not possible for a drop now (possible: a1 a3)", s.WhyNot("a2"))
	// The error keeps the host's reason alone (scenarios match it).
	_, err = s.ParseMove("a2")
	var ill *IllegalMoveError
	require.True(t, errors.As(err, &ill))
	assert.Equal(t, "a2 is not possible for a drop now (possible: a1 a3)", ill.Reason)
	// A kind with no legal move now: its why gets no sites.
	assert.True(t, strings.HasPrefix(s.WhyNot("pass"), "a pass needs a full row; 0 sites; no pass is possible now"), s.WhyNot("pass"))
	// z9 is no site: no why is asked. A legal token needs no reason.
	assert.Contains(t, s.WhyNot("z9"), "z9 is not a site of this board")
	assert.Equal(t, "", s.WhyNot("a1"))
	assert.Equal(t, 1, s.Count(1), "the why ran on a copy")
}

func TestWhyFailures(t *testing.T) {
	for _, c := range []struct {
		name, opts, tag string
		loadErr         string
		reason          string
	}{
		{name: "nil: the host's text", opts: `{ why = function() return nil end }`, tag: "nil",
			reason: "a2 is not possible for a drop now (possible: a1 a3)"},
		{name: "a number: ignored", opts: `{ why = function() return 3 end }`, tag: "nil",
			reason: "a2 is not possible for a drop now (possible: a1 a3)"},
		{name: "an error: ignored", opts: `{ why = function() error("boom") end }`, tag: "nil",
			reason: "a2 is not possible for a drop now (possible: a1 a3)"},
		{name: "a change of the state: on a copy", opts: `{ why = function(p, sites) m.set_owner(sites[1], 0) return "x" end }`, tag: "nil",
			reason: "x; a2 is not possible for a drop now (possible: a1 a3)"},
		{name: "too long: ignored", opts: `{ why = function() return string.rep("x", 301) end }`, tag: "nil",
			reason: "a2 is not possible for a drop now (possible: a1 a3)"},
		{name: "why not a function", opts: `{ why = "occupied" }`, tag: "nil", loadErr: "why must be a function"},
		{name: "a doc placeholder not in the template", opts: `{ doc = "Drop on {2}" }`, tag: "nil", loadErr: "the doc's {2} is not in the template"},
		{name: "an empty doc", opts: `{ doc = "" }`, tag: "nil", loadErr: "a doc is a text of 1 to 200 characters"},
		{name: "a doc with control characters", opts: `{ doc = "a\027[31m" }`, tag: "nil", loadErr: "the doc"},
		{name: "a tag option unknown", opts: "nil", tag: `{ hint = "x" }`, loadErr: "unknown field hint"},
		{name: "a tag doc not a text", opts: "nil", tag: `{ doc = 3 }`, loadErr: "a doc is a text"},
		{name: "tag options not a table", opts: "nil", tag: `"x"`, loadErr: "options expected"},
	} {
		t.Run(c.name, func(t *testing.T) {
			g, err := loadWhy(t, c.opts, c.tag)
			if c.loadErr != "" {
				require.ErrorContains(t, err, c.loadErr)
				return
			}
			require.NoError(t, err)
			s := g.Start()
			require.NoError(t, s.Play("a2"))
			assert.Equal(t, c.reason, s.WhyNot("a2"))
			assert.Equal(t, 1, s.Owner(1), "the state is unchanged")
			// The game still plays after a failed why.
			require.NoError(t, s.Play("a1"))
		})
	}
}

// WhyNotContext stops a why function that never returns when its context
// is done, and says the host's reason alone.
func TestWhyNotContextStopsTheWhyFunction(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stop := withTestPrimitive("stop", func(L *lua.LState) int { cancel(); return 0 })
	src := strings.ReplaceAll(strings.ReplaceAll(whyGame, "OPTS", `{ why = function(p, sites) m.stop() while true do end end }`), "TAG", "{}")
	g, err := loadSource(t, "whygame", src, endless, stop)
	require.NoError(t, err)
	s := g.Start()
	require.NoError(t, s.Play("a2"))
	assert.Equal(t, "a2 is not possible for a drop now (possible: a1 a3)", s.WhyNotContext(ctx, "a2"))
	assert.Equal(t, 1, s.Ply(), "the state is unchanged")
}
