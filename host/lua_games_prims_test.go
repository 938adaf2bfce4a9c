package host

import (
	"errors"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Tests of the primitives the alignment, morris and Bao scripts need:
// lua_try.go (try), lua_pairs.go (emit_pairs), lua_lines.go (the in_row
// and not_in_row filter fields), lua_relay_hook.go (relay with a hook), the
// emptying of points of a board of pieces (lua_state.go), and parameters
// of extending scripts (extends.go).

func TestPrimitivesTry(t *testing.T) {
	g := loadTest(t, "probe")
	runPrimCases(t, g, []primCase{
		{name: "changes inside, none after", mode: asLegal,
			code: `local n = m.try(function() m.set_count("a1", 9) m.set_owner("a1", 2) return m.count("a1") end) return n, m.count("a1"), m.owner("a1")`,
			want: []any{9, 2, 1}},
		{name: "arguments and several results", mode: asLegal,
			code: `return m.try(function(a, b) m.add(a, b) return m.count(a), "x", nil, 4 end, "a2", 5)`,
			want: []any{7, "x", nil, 4}},
		{name: "a sowing tried in legal", mode: asLegal,
			code: `local last, how, laps = m.try(m.relay, 1, "a1") return last, how, laps, m.count("a1"), m.count("a3")`,
			want: []any{1, "empty", 3, 2, 2}},
		{name: "a finish is undone", mode: asPlay,
			code: `m.try(function() m.finish(1, "tried") m.set_to_move(1) end) return m.over()`, want: []any{false}},
		{name: "nested tries", mode: asLegal,
			code: `return m.try(function() m.add("a1", 1) return m.try(function() m.add("a1", 1) return m.count("a1") end), m.count("a1") end)`,
			want: []any{4, 3}},
		{name: "an error restores the state and is raised again", mode: asLegal,
			code: `local ok, err = pcall(m.try, function() m.set_count("a1", 9) error("boom") end) return ok, m.count("a1"), string.find(err, "boom") ~= nil`,
			want: []any{false, 2, true}},
		{name: "moves kept when the fn fails", mode: asLegal,
			code:  `m.emit(1, "a1") pcall(m.try, function() error("x") end) m.emit(1, "a2")`,
			check: func(t *testing.T, s *State) { assert.Equal(t, []string{"a1", "a2"}, s.Legal()) }},
		{name: "no emitting inside", mode: asLegal, code: `m.try(function() m.emit(1, "a1") end)`, err: "moves cannot be emitted inside matombo.try"},
		{name: "legal still cannot change the state outside", mode: asLegal,
			code: `m.try(function() end) m.set_count("a1", 1)`, err: "legal must not change the state"},
		{name: "nine deep", code: `local function deep(n) if n == 0 then return 0 end return m.try(deep, n - 1) end return deep(9)`,
			err: "try: tries nest at most 8 deep"},
		{name: "eight deep", code: `local function deep(n) if n == 0 then return "ok" end return m.try(deep, n - 1) end return deep(8)`,
			want: []any{"ok"}},
		{name: "not a function", code: `m.try(3)`, err: "bad argument #1 to try"},
	})
}

// TestTryBudget: an endless loop inside a try is stopped by the step
// budget of the call, and the state is as it was.
func TestTryBudget(t *testing.T) {
	g, err := testLibrary(t).Load("probe", WithLimits(Limits{Steps: 100000}))
	require.NoError(t, err)
	s := g.Start()
	_, err = evalIn(g, s, asLegal, luaPrefix+`m.try(function() m.set_count("a1", 7) while true do end end)`)
	var be *BudgetError
	require.True(t, errors.As(err, &be), "want a budget error, got %v", err)
	assert.Equal(t, BudgetSteps, be.Budget)
	assert.Equal(t, 2, s.Count(0))
}

func TestPrimitivesEmitPairs(t *testing.T) {
	g := loadTest(t, "probe")
	legal := func(want ...string) func(t *testing.T, s *State) {
		return func(t *testing.T, s *State) { t.Helper(); assert.Equal(t, want, s.Legal()) }
	}
	runPrimCases(t, g, []primCase{
		{name: "every head to every free store", mode: asLegal, code: `return m.emit_pairs(3, F[9], F[16])`, want: []any{4},
			check: legal("a4-b1", "a4-b4", "c1-b1", "c1-b4")},
		{name: "a site is never paired with itself", mode: asLegal, code: `return m.emit_pairs(3, F[9], F[9])`, want: []any{2},
			check: legal("a4-c1", "c1-a4")},
		{name: "no destination", mode: asLegal, code: `return m.emit_pairs(3, F[2], F[13])`, want: []any{0}},
		{name: "arity", mode: asLegal, code: `m.emit_pairs(1, F[2], F[1])`, err: "move kind sow takes 1 site, not 2"},
		{name: "outside legal", code: `m.emit_pairs(3, F[2], F[1])`, err: "moves can only be emitted inside legal"},
		{name: "not a filter", mode: asLegal, code: `m.emit_pairs(3, F[2], 4)`, err: "bad argument #3 to emit_pairs (filter expected"},
	})
}

func TestFilterInRow(t *testing.T) {
	g := loadTest(t, "probepts")
	// Player 1 on a1 b1 c1 (a line) and b2; Player 2 on c2 c3 b3.
	const pos = `for _, s in ipairs({"a1", "b1", "c1", "b2"}) do m.set_count(s, 1) m.set_owner(s, 1) end
for _, s in ipairs({"c2", "c3", "b3"}) do m.set_count(s, 1) m.set_owner(s, 2) end`
	runPrimCases(t, g, []primCase{
		{name: "pieces in a row of three", pre: pos, code: `local t = m.sites(F[4]) return #t, m.name(t[1]), m.name(t[2]), m.name(t[3])`,
			want: []any{3, "a1", "b1", "c1"}},
		{name: "the opponent's pieces in no row", pre: pos, mode: asLegal, code: `return m.count_sites(F[3])`, want: []any{3}},
		{name: "a row of the opponent protects its pieces", pre: pos + ` m.set_owner("a1", 2) m.set_owner("b1", 2) m.set_owner("c1", 2) m.set_owner("c2", 1) m.set_count("b3", 0) m.set_owner("b3", 0)`,
			mode: asLegal, code: `local t = m.sites(F[3]) return #t, m.name(t[1])`, want: []any{1, "c3"}},
		{name: "empty points are in no row", code: `return m.count_sites(F[4])`, want: []any{0}},
	})
	for _, bad := range []struct{ field, err string }{
		{`in_row = 0`, "filter: in_row must be a whole number of sites from 1"},
		{`not_in_row = "three"`, "filter: not_in_row must be a whole number of sites from 1"},
		{`in_row = 3, not_in_row = 3`, "filter: in_row and not_in_row exclude each other"},
	} {
		_, err := loadSource(t, "badrow", miniSource("badrow", "m.filter { "+bad.field+" }"))
		require.Error(t, err, bad.field)
		assert.Contains(t, err.Error(), bad.err)
	}
}

// TestEmptiedPointsLoseTheirOwner: on a board of pieces a point that a
// primitive empties has no owner; on a board of counts an owner stays.
func TestEmptiedPointsLoseTheirOwner(t *testing.T) {
	pts := loadTest(t, "probepts")
	const p2 = `m.set_count("b2", 1) m.set_owner("b2", 2) `
	runPrimCases(t, pts, []primCase{
		{name: "capture", pre: p2, code: `return m.capture("b2", 1), m.count("b2"), m.owner("b2"), m.captured(1)`, want: []any{1, 0, 0, 1}},
		{name: "take", pre: p2, code: `return m.take("b2"), m.owner("b2")`, want: []any{1, 0}},
		{name: "set_count", pre: p2, code: `m.set_count("b2", 0) return m.owner("b2")`, want: []any{0}},
		{name: "add", pre: p2, code: `return m.add("b2", -1), m.owner("b2")`, want: []any{0, 0}},
		{name: "sweep", pre: p2, code: `return m.sweep(), m.owner("b2"), m.captured(2)`, want: []any{1, 0, 1}},
		{name: "a point that still holds pieces keeps its owner", pre: `m.set_count("b2", 2) m.set_owner("b2", 2)`,
			code: `return m.capture("b2", 1, 1), m.owner("b2")`, want: []any{1, 2}},
		{name: "move_piece onto a captured point", pre: p2 + `m.set_count("a1", 1) m.set_owner("a1", 1) m.capture("b2", 1)`,
			code: `m.move_piece("a1", "b2") return m.owner("b2"), m.owner("a1")`, want: []any{1, 0}},
	})
	counts := loadTest(t, "probe")
	runPrimCases(t, counts, []primCase{
		{name: "a hole keeps its side", code: `return m.capture("a1", 2), m.count("a1"), m.owner("a1")`, want: []any{2, 0, 1}},
		{name: "take keeps it too", code: `return m.take("c1"), m.owner("c1")`, want: []any{2, 2}},
	})
}

// The probe's ring (track 1): a1 a2 a3 a4 c4 c3 c2 c1, 2 counters each; a
// relay from a1 ends after three laps in the emptied a1.
func TestPrimitivesRelayHook(t *testing.T) {
	g := loadTest(t, "probe")
	total := func(t *testing.T, s *State) {
		n := 0
		for i := 0; i < 12; i++ {
			n += s.Count(i)
		}
		assert.Equal(t, 16, n, "counters on the board")
	}
	runPrimCases(t, g, []primCase{
		{name: "a hook that says nothing relays as relay does",
			code: `local seen = {} local last, how, laps = m.relay(1, "a1", nil, 100, function(l, tr, k) seen[#seen + 1] = m.name(l) .. ":" .. tr .. ":" .. k end)
return last, how, laps, table.concat(seen, " ")`,
			want: []any{1, "empty", 3, "a3:1:1 c3:1:2 a1:1:3"}, check: total},
		{name: "false ends the sowing", code: `return m.relay(1, "a1", nil, 100, function() return false end)`, want: []any{3, "hook", 1},
			check: func(t *testing.T, s *State) { assert.Equal(t, []int{0, 3, 3, 2, 2, 2, 2, 2}, ringCounts(s)) }},
		{name: "true sows on from an empty site too", pre: `m.set_count("a3", 0)`,
			code: `return m.relay(1, "a1", nil, 100, function(l, tr, k) return k == 1 end)`, want: []any{4, "hook", 2},
			check: func(t *testing.T, s *State) { assert.Equal(t, []int{0, 3, 0, 3, 2, 2, 2, 2}, ringCounts(s)) }},
		{name: "a track, a site to sow after and a site to sow from",
			code: `return m.relay(1, "a1", nil, 100, function(l, tr, k) if k == 1 then return 2, "b1", "a3" end end)`,
			want: []any{8, "empty", 2},
			check: func(t *testing.T, s *State) {
				assert.Equal(t, []int{0, 3, 0, 2, 2, 2, 2, 2}, ringCounts(s))
				assert.Equal(t, []int{0, 1, 1, 1}, counts(s, "b1", "b2", "b3", "b4"))
			}},
		{name: "the hook may move counters first",
			code: `return m.relay(1, "a1", nil, 100, function(l, tr, k) if k == 1 then m.add("c2", m.take("c1")) return 1, "c1", "c2" end end)`,
			want: []any{10, "empty", 3}, check: total},
		{name: "the lap limit leaves whole laps", code: `return m.relay(1, "a1", nil, 2, function() end)`, want: []any{11, "laps", 2},
			check: func(t *testing.T, s *State) {
				total(t, s)
				assert.Equal(t, []int{0, 3, 0, 3, 3, 3, 2, 2}, ringCounts(s))
			}},
		{name: "a stop tag ends as relay does", code: `return m.relay(1, "a2", 1, 100, function() end)`, want: []any{4, "stop", 1}},
		{name: "the hook may go on past a stop site", code: `return m.relay(1, "a2", 1, 100, function(l, tr, k) if k == 1 then return true end end)`,
			want: []any{2, "empty", 3}},
		{name: "a bad answer", code: `m.relay(1, "a1", nil, 100, function() return "on" end)`, err: `relay: the hook returned string "on"`},
		{name: "an unknown track", code: `m.relay(1, "a1", nil, 100, function() return 7, "a1" end)`, err: "the hook returned track number 7, which does not exist"},
		{name: "a site off the track", code: `m.relay(1, "a1", nil, 100, function() return 2, "a1" end)`, err: "names a1 to sow after, which is not on track middle"},
		{name: "an empty site to sow from", code: `m.relay(1, "a1", nil, 100, function() return 1, "a1", "b2" end)`, err: "the hook names b2 to sow from, but it is empty"},
		{name: "a hook for the laps ending on a tag only",
			code: `local seen = {} local last, how, laps = m.relay(1, "a1", nil, 100, function(l) seen[#seen + 1] = m.name(l) end, 1)
return last, how, laps, table.concat(seen, " ")`,
			want: []any{1, "empty", 3, ""}},
		{name: "the tag's laps only, and the hook acts on them", pre: `m.set_count("a3", 1)`,
			code: `local seen = {} local last, how, laps = m.relay(1, "a1", nil, 100, function(l) seen[#seen + 1] = m.name(l) return false end, 1)
return last, how, laps, table.concat(seen, " ")`,
			want: []any{9, "hook", 3, "c1"}},
		{name: "a bad tag", code: `m.relay(1, "a1", nil, 100, function() end, 9)`, err: "bad argument #6 to relay (tag expected (from matombo.tag), got number 9, which is no tag's handle"},
		{name: "a hook that is not a function", code: `m.relay(1, "a1", nil, 100, 5)`, err: "bad argument #5 to relay (the hook must be a function, got number 5; 5 is the handle of the move kind pass)"},
		{name: "not in legal", mode: asLegal, code: `m.relay(1, "a1", nil, 100, function() end)`, err: "legal must not change the state"},
		{name: "but in a try inside legal", mode: asLegal, code: `return m.try(m.relay, 1, "a1", nil, 100, function() end)`, want: []any{1, "empty", 3}},
	})
}

// TestRelayHookEndless: a hook that keeps a sowing going for ever is
// stopped by the lap limit, or by the step budget.
func TestRelayHookEndless(t *testing.T) {
	g, err := testLibrary(t).Load("probe", WithLimits(Limits{Steps: 200000}))
	require.NoError(t, err)
	s := g.Start()
	got, err := evalIn(g, s, asSetup, luaPrefix+`return m.relay(1, "a1", nil, 1000000, function() return true end)`)
	var be *BudgetError
	require.True(t, errors.As(err, &be), "want a budget error, got %v %v", err, fromLuaAll(got))
	assert.Equal(t, BudgetSteps, be.Budget)
}

func TestExtendsParams(t *testing.T) {
	shipped := fstest.MapFS{"base/base.lua": {Data: []byte(baseGame)}, "base/variants.yaml": {Data: []byte(baseVariants)}}
	const ext = `local m = matombo
local rules = m.extends("base", {
  params = { { name = "extra", default = 3, values = { 3, 5 }, doc = "added to a1" } },
  replace = { setup = function(base) base() m.add("a1", m.param("extra")) end },
})
return rules`
	own := fstest.MapFS{
		"more/more.lua":      {Data: []byte(ext)},
		"more/variants.yaml": {Data: []byte("variants:\n  five:\n    params: {extra: 5}\n")},
	}
	lib := extLibrary(t, shipped, own)
	for _, tt := range []struct {
		opts  []Option
		count int
	}{
		{nil, 4},
		{[]Option{WithVariant("five")}, 6},
		{[]Option{WithVariant("two", "five")}, 7},
		{[]Option{WithOverride(Override{Name: "extra", Value: "5"})}, 6},
	} {
		g, err := lib.Load("more", tt.opts...)
		require.NoError(t, err)
		assert.Equal(t, tt.count, g.Start().Count(0))
		var names []string
		for _, p := range g.Params() {
			names = append(names, p.Name)
		}
		assert.Equal(t, []string{"n", "extra"}, names)
	}
	_, err := lib.Load("more", WithOverride(Override{Name: "extra", Value: "4"}))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "4 is not allowed")

	clash := extLibrary(t, shipped, fstest.MapFS{"clash/clash.lua": {Data: []byte(`return matombo.extends("base", { params = { { name = "n", default = 1 } } })`)}})
	_, err = clash.Load("clash")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "the parameter n is the base game's already")
}
