package host

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ringGame is a small sowing game on one ring of six sites, whose rules
// are native rules given by RULES (a Lua table expression of the spec of
// each rule).
const ringGame = `local m = matombo
m.declare { name = "ring", players = 2 }
m.board { rows = { "a", "b" }, columns = 3 }
local RING = m.track("ring", { "a1", "a2", "a3", "b3", "b2", "b1" }, true)
local SOW = m.move("sow", "{1}")
local MINE = m.filter { owner = "mover", min = 1 }
local SPEC = RULES
local sow = m.rule("sow", m.sow_rule(SPEC.sow))
local capture = m.rule("capture", m.capture_rule(SPEC.capture))
local result = m.rule("result", m.result_rule { sweep = true })
local ending = m.rule("ending", m.end_rule { { none = MINE, reason = "nothing to sow" }, result = result })
local sowings = m.rule("sowings", m.sowings_rule(SPEC.sowings))
return {
  setup = function()
    for s = 1, 6 do
      m.set_count(s, 2)
      m.set_owner(s, s <= 3 and 1 or 2)
    end
  end,
  legal = PLAYLEGAL or m.sowing_legal { sowings = sowings },
  play = PLAY or m.sowing_play { kind = SOW, sow = sow, capture = capture, after = ending },
  blocked = function(p) result("blocked") end,
}
`

func ringSource(rules, legal, play string) string {
	r := strings.NewReplacer("RULES", rules, "PLAYLEGAL", legal, "PLAY", play)
	return r.Replace(ringGame)
}

const ringRules = `{
  sow = { track = RING },
  capture = { owner = "opponent", counts = { 2, 3 }, runs = { { track = RING, step = -1 } } },
  sowings = { kind = SOW, from = MINE },
}`

// ringNativeAndViaLua loads the ring game with its native turns, and with
// Lua play and legal functions that call the same native rules.
func ringNativeAndViaLua(t *testing.T) (native, viaLua *Game) {
	t.Helper()
	native, err := loadSource(t, "ring", ringSource(ringRules, "nil", "nil"))
	require.NoError(t, err)
	viaLua, err = loadSource(t, "ring", ringSource(ringRules,
		`function(p) sowings(p) end`,
		`function(p, kind, from) local last, empty = sow(p, from); local n = capture(p, last, empty); ending(p, n) end`))
	require.NoError(t, err)
	return native, viaLua
}

// TestNativeRules plays the ring game with its native turns, and with Lua
// play and legal functions that call the same native rules: the two must
// play alike, token for token.
func TestNativeRules(t *testing.T) {
	native, viaLua := ringNativeAndViaLua(t)
	a, b := native.Start(), viaLua.Start()
	require.Equal(t, []string{"a1", "a2", "a3"}, a.Legal())
	for ply := 0; !a.Over(); ply++ {
		require.Equal(t, a.Legal(), b.Legal(), "ply %d", ply)
		tok := a.Legal()[ply%len(a.Legal())]
		require.NoError(t, a.Play(tok))
		require.NoError(t, b.Play(tok))
		require.Equal(t, a.Key(), b.Key(), "after %s:\n%s\n%s", tok, a.Diagram(), b.Diagram())
	}
	assert.True(t, b.Over())
	assert.Equal(t, a.Outcome(), b.Outcome())
}

// TestNativeRulesFromData reads the specs of the ring game's rules from
// its variants file: tracks and move kinds by name.
func TestNativeRulesFromData(t *testing.T) {
	files := map[string]string{
		"ring.lua": ringSource("m.data.rules", "nil", "nil"),
		"variants.yaml": `data:
  rules:
    sow: {track: ring}
    capture: {owner: opponent, counts: [2, 3], runs: [{track: ring, step: -1}]}
    sowings: {kind: sow, sites: [[a1, a2, a3], [b3, b2, b1]]}
`,
	}
	g, _, err := loadFolder(t, "ring", files)
	require.NoError(t, err)
	s := g.Start()
	require.Equal(t, []string{"a1", "a2", "a3"}, s.Legal())
	require.NoError(t, s.Play("a3")) // a3's 2 into b3 and b2: 3 each; b2, then b3 behind it
	assert.Equal(t, 0, s.Count(g.mustSite(t, "b2")))
	assert.Equal(t, 0, s.Count(g.mustSite(t, "b3")))
	assert.Equal(t, 6, s.Captured(1), s.Diagram())
	assert.Equal(t, []string{"b1"}, s.Legal())
}

func (g *Game) mustSite(t *testing.T, name string) int {
	i, ok := g.Board().Index(name)
	require.True(t, ok, name)
	return i
}

// TestNativeRuleErrors: a malformed spec is an error naming the
// constructor and the field.
func TestNativeRuleErrors(t *testing.T) {
	for _, c := range []struct{ rules, want string }{
		{`{ sow = { track = 9 }, capture = { counts = { 2 } }, sowings = { kind = SOW, from = MINE } }`, "sow_rule: track must be a track"},
		{`{ sow = { track = RING, lanes = 2 }, capture = { counts = { 2 } }, sowings = { kind = SOW, from = MINE } }`, "sow_rule: unknown field lanes"},
		{`{ sow = { track = RING, skip_origin = true, origin_first = true }, capture = { counts = { 2 } }, sowings = { kind = SOW, from = MINE } }`, "sow_rule: give skip_origin (never sow into the site sown from) or origin_first (sow into it first), not both"},
		{`{ sow = { track = { RING, RING, RING } }, capture = { counts = { 2 } }, sowings = { kind = SOW, from = MINE } }`, "lists 3 values; give one, or one per player (2)"},
		{`{ sow = { track = RING }, capture = { owner = "me", counts = { 2 } }, sowings = { kind = SOW, from = MINE } }`, `capture_rule: owner must be "mover" or "opponent", got string "me"`},
		{`{ sow = { track = RING }, capture = { }, sowings = { kind = SOW, from = MINE } }`, "capture_rule: give opposite"},
		{`{ sow = { track = RING }, capture = { counts = { 0 } }, sowings = { kind = SOW, from = MINE } }`, "counts[1] must be a count of at least 1"},
		{`{ sow = { track = RING }, capture = { counts = { 2, 4, 6, 8, 10, 12, 14, 16, 18 } }, sowings = { kind = SOW, from = MINE } }`, "capture_rule: counts must be a list of 1 to 8 counts, got a list of 9"},
		{`{ sow = { track = RING }, capture = { counts = {} }, sowings = { kind = SOW, from = MINE } }`, "capture_rule: counts must be a list of 1 to 8 counts, got an empty list"},
		{`{ sow = { track = RING }, capture = { runs = { { track = RING, step = 1 } } }, sowings = { kind = SOW, from = MINE } }`, "runs need counts"},
		{`{ sow = { track = RING }, capture = { counts = { 2 }, runs = { { track = RING, step = 0 } } }, sowings = { kind = SOW, from = MINE } }`, "needs a step other than 0"},
		{`{ sow = { track = RING }, capture = { counts = { 2 } }, sowings = { kind = 7, from = MINE } }`, "sowings_rule: kind must be a move kind"},
		{`{ sow = { track = RING }, capture = { counts = { 2 } }, sowings = { kind = SOW } }`, "sowings_rule: give either from"},
	} {
		_, err := loadSource(t, "ring", ringSource(c.rules, "nil", "nil"))
		require.Error(t, err, c.rules)
		assert.Contains(t, err.Error(), c.want)
	}
	_, err := loadSource(t, "ring", ringSource(ringRules, "nil", `m.sowing_play { kind = SOW }`))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "sowing_play: sow is required")
}

// TestNativeRuleFailsWhilePlaying: a native rule that meets a state it
// cannot handle fails the move with a ScriptError and leaves the state
// as it was.
func TestNativeRuleFailsWhilePlaying(t *testing.T) {
	bad, err := loadSource(t, "ring", ringSource(`{
  sow = { track = m.track("half", { "a1", "a2" }, false) },
  capture = { counts = { 2 } },
  sowings = { kind = SOW, from = MINE },
}`, "nil", "nil"))
	require.NoError(t, err)
	s := bad.Start()
	pos := s.Position()
	err = s.Play("a3") // a3 is not on the track
	var se *ScriptError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, CallPlay, se.Func)
	assert.Contains(t, se.Msg, "a3 is not on track half")
	assert.Equal(t, pos, s.Position())
	err = s.Play("a1") // two counters along a track of two sites
	require.ErrorAs(t, err, &se)
	assert.Contains(t, se.Msg, "sowing 2 counters from a1 runs off the end of track half")
	assert.Equal(t, pos, s.Position())
}

// A part's list with a named field given by a call last, as
// { {...}, result = m.result_rule {...} }, reads as written: gopher-lua's
// table constructor also puts the call's value at the end of the list,
// and the host drops that copy. The game plays as with the field first.
func TestNativeRuleNamedCallLast(t *testing.T) {
	first := strings.Replace(ringGame, `m.end_rule { { none = MINE, reason = "nothing to sow" }, result = result }`,
		`m.end_rule { result = m.result_rule { sweep = true }, { none = MINE, reason = "nothing to sow" } }`, 1)
	last := strings.Replace(ringGame, `m.end_rule { { none = MINE, reason = "nothing to sow" }, result = result }`,
		`m.end_rule { { none = MINE, reason = "nothing to sow" }, result = m.result_rule { sweep = true } }`, 1)
	require.NotEqual(t, ringGame, last)
	r := strings.NewReplacer("RULES", ringRules, "PLAYLEGAL", "nil", "PLAY", "nil")
	a, err := loadSource(t, "ring", r.Replace(first))
	require.NoError(t, err)
	b, err := loadSource(t, "ring", r.Replace(last))
	require.NoError(t, err)
	sa, sb := a.Start(), b.Start()
	for ply := 0; !sa.Over(); ply++ {
		tok := sa.Legal()[ply%len(sa.Legal())]
		require.NoError(t, sa.Play(tok))
		require.NoError(t, sb.Play(tok))
	}
	assert.True(t, sb.Over())
	assert.Equal(t, sa.Outcome(), sb.Outcome())

	// A field the part does not know is still refused by its name.
	_, err = loadSource(t, "ring", r.Replace(strings.Replace(last, "result = m.result_rule", "reslt = m.result_rule", 1)))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "end_rule: unknown field reslt")
}

// A runner counts its calls into the script's Lua functions: none for a
// game whose plies are all native parts, at least one a ply (play) for
// the same game with Lua play and legal functions.
func TestRunnerScriptCalls(t *testing.T) {
	native, viaLua := ringNativeAndViaLua(t)
	for _, c := range []struct {
		name    string
		g       *Game
		perPly  uint64 // the least calls a ply makes
		noCalls bool
	}{
		{"native", native, 0, true},
		{"Lua play and legal", viaLua, 1, false}, // play, and legal but after the last ply
	} {
		t.Run(c.name, func(t *testing.T) {
			r := c.g.NewRunner()
			defer r.Close()
			s := c.g.Start()
			require.NoError(t, r.List(s))
			before := r.ScriptCalls()
			plies, err := r.PlayoutWith(s, func(s *State) Move { return s.Moves()[0] }, 100)
			require.NoError(t, err)
			require.Positive(t, plies)
			calls := r.ScriptCalls() - before
			if c.noCalls {
				assert.Zero(t, calls)
			} else {
				assert.GreaterOrEqual(t, calls, c.perPly*uint64(plies))
			}
			r.Close() // the count survives giving the machine back
			assert.Equal(t, before+calls, r.ScriptCalls())
		})
	}
}

// An error about what a script function in a part's slot returned names
// the function's lines, not the line of the part that called it: there the
// author would look in vain.
func TestHookResultErrorNamesTheFunction(t *testing.T) {
	for _, c := range []struct{ slot, fn, err string }{
		{"sow", "function(p, from) m.sow(RING, from, m.take(from)) end", "sow returned nil, not a site"},
		{"capture", `function() return "x" end`, `a capture function returned string "x"`},
	} {
		t.Run(c.slot, func(t *testing.T) {
			play := "(function()\n  local bad = " + c.fn + "\n  local parts = { sow = sow, capture = capture }\n  parts." + c.slot + " = bad\n" +
				"  return m.sowing_play { kind = SOW, sow = parts.sow, capture = parts.capture, after = ending }\nend)()"
			src := ringSource(ringRules, "nil", play)
			line := 1 + strings.Count(src[:strings.Index(src, "local bad")], "\n")
			g, err := loadSource(t, "ring", src)
			require.NoError(t, err)
			err = g.Start().Play("a1")
			require.Error(t, err)
			assert.Contains(t, err.Error(), fmt.Sprintf("ring.lua:%d: %s", line, c.err))
			// The same part called from a play function of the script's
			// own fails at that call, naming the function too.
			viaLua := strings.Replace(src, "  return m.sowing_play {", "  local native = m.sowing_play {", 1)
			viaLua = strings.Replace(viaLua, "after = ending }\nend)()", "after = ending }\n  return function(p, kind, from)\n    native(p, kind, from)\n  end\nend)()", 1)
			call := 1 + strings.Count(viaLua[:strings.Index(viaLua, "    native(p, kind, from)")], "\n")
			g, err = loadSource(t, "ring", viaLua)
			require.NoError(t, err)
			err = g.Start().Play("a1")
			require.Error(t, err)
			assert.Contains(t, err.Error(), fmt.Sprintf("ring.lua:%d: sowing_play: %s", call, c.err))
			assert.Contains(t, err.Error(), fmt.Sprintf("(the function at %s:%d)", g.File(), line))
		})
	}
}

// A Lua function in a capture slot returns the counters it captured, or
// nothing; anything else fails the move with an error that says what it
// returned, at the script's line, instead of being read as 0.
func TestCaptureHookResult(t *testing.T) {
	for _, c := range []struct{ ret, err string }{
		{"nil", ""},
		{"0", ""},
		{`"x"`, `a capture function returned string "x"; want the counters it captured (a whole number from 0), or nothing`},
		{"1.5", "a capture function returned"},
		{"-1", "a capture function returned number -1"},
		{"true", "a capture function returned boolean true"},
	} {
		t.Run(c.ret, func(t *testing.T) {
			g, err := loadSource(t, "ring", ringSource(ringRules, "nil",
				`m.sowing_play { kind = SOW, sow = sow, capture = function() return `+c.ret+` end, after = ending }`))
			require.NoError(t, err)
			s := g.Start()
			err = s.Play("a1")
			if c.err == "" {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.err)
			assert.Contains(t, err.Error(), "ring.lua:")
			assert.Equal(t, g.Start().Key(), s.Key(), "the state is as it was")
		})
	}
}

// TestSowOriginFirst: a sow_rule with origin_first puts the first counter
// back into the site sown from and a lone counter into the next site, and
// plays as the same sowing written in Lua, effects and all (the counters
// taken, the first put back, the rest sown).
func TestSowOriginFirst(t *testing.T) {
	rules := strings.Replace(ringRules, "sow = { track = RING }", "sow = { track = RING, origin_first = true }", 1)
	native, err := loadSource(t, "ring", ringSource(rules, "nil", "nil"))
	require.NoError(t, err)
	for _, c := range []struct {
		a1   int
		want string // a1 a2 a3 b3 after sowing a1
	}{
		{1, "0 3 2 2"},
		{2, "1 3 2 2"},
		{4, "1 0 0 0"}, // b3 makes 3: captured, with a3 and a2 behind it
		{8, "2 4 3 3"}, // a lap: the seventh counter falls into a1 again
	} {
		pos := native.Start().Position()
		pos.Counts[0] = c.a1
		s, err := native.NewState(pos, AnyTotal())
		require.NoError(t, err)
		require.NoError(t, s.Play("a1"))
		got := fmt.Sprint(s.Count(0), s.Count(1), s.Count(2), s.Count(5))
		assert.Equal(t, c.want, got, "a1 holding %d", c.a1)
	}
	viaLua, err := loadSource(t, "ring", ringSource(rules, "nil",
		`m.sowing_play { kind = SOW, capture = capture, after = ending, sow = function(p, from)
  local n = m.take(from)
  if n > 1 then m.add(from, 1); n = n - 1 end
  return m.sow(RING, from, n)
end }`))
	require.NoError(t, err)
	playAlike(t, native, viaLua, 20) // the same legal moves, positions and effects
}

// TestCaptureParity: a capture_rule with parity takes the last site when
// it holds an even (or odd) number of counters, and each site of a run
// while it does; an empty site is never taken; a takes_all_rule with
// parity sees a capture of everything.
func TestCaptureParity(t *testing.T) {
	const evenUnlessAll = `{ owner = "opponent", parity = "even", runs = { { track = RING, step = -1 } },
  unless = m.takes_all_rule { owner = "opponent", parity = "even", runs = { { track = RING, step = -1 } } } }`
	for _, c := range []struct {
		name, capture  string
		a3, b3, b2, b1 int // before a3 sows into b3 and b2
		want           int // Player 1's captured total after
	}{
		{"even", `{ owner = "opponent", parity = "even" }`, 2, 1, 1, 2, 2},
		{"even with a run", `{ owner = "opponent", parity = "even", runs = { { track = RING, step = -1 } } }`, 2, 1, 1, 2, 4},
		{"odd", `{ owner = "opponent", parity = "odd" }`, 2, 0, 2, 2, 3},
		{"odd with a run", `{ owner = "opponent", parity = "odd", runs = { { track = RING, step = -1 } } }`, 2, 0, 2, 2, 4},
		{"not even", `{ owner = "opponent", parity = "even" }`, 1, 0, 5, 2, 0},
		{"even, not everything", evenUnlessAll, 2, 1, 1, 2, 4},
		{"even, but everything", evenUnlessAll, 2, 1, 1, 0, 0}, // b1 empty: b2 and b3 are all Player 2 has
	} {
		t.Run(c.name, func(t *testing.T) {
			rules := strings.Replace(ringRules, `capture = { owner = "opponent", counts = { 2, 3 }, runs = { { track = RING, step = -1 } } }`, "capture = "+c.capture, 1)
			g, err := loadSource(t, "ring", ringSource(rules, "nil", "nil"))
			require.NoError(t, err)
			pos := g.Start().Position()
			pos.Counts[2], pos.Counts[5], pos.Counts[4], pos.Counts[3] = c.a3, c.b3, c.b2, c.b1
			s, err := g.NewState(pos, AnyTotal())
			require.NoError(t, err)
			require.NoError(t, s.Play("a3"))
			assert.Equal(t, c.want, s.Captured(1), s.Diagram())
		})
	}
	for _, c := range []struct{ capture, want string }{
		{`{ counts = { 2 }, parity = "even" }`, "capture_rule: give counts (the counts that capture) or parity (even or odd counts capture), not both"},
		{`{ parity = "three" }`, `capture_rule: parity must be "even" or "odd", got string "three"`},
	} {
		rules := strings.Replace(ringRules, `capture = { owner = "opponent", counts = { 2, 3 }, runs = { { track = RING, step = -1 } } }`, "capture = "+c.capture, 1)
		_, err := loadSource(t, "ring", ringSource(rules, "nil", "nil"))
		require.Error(t, err)
		assert.Contains(t, err.Error(), c.want)
	}
}

// TestSowingPlayAfter: a sowing_play's after takes a list of parts, run
// in order until the game ends, or one part alone, as a list of one.
func TestSowingPlayAfter(t *testing.T) {
	const mark = `function(p, n) m.set(MARK, m.get(MARK) * 10 + %d) end`
	for _, c := range []struct {
		name, after string
		mark        int  // MARK after a1
		over        bool // the game ended
	}{
		{"one part", fmt.Sprintf(mark, 7), 7, false},
		{"a list", fmt.Sprintf("{ %s, %s, ending }", fmt.Sprintf(mark, 1), fmt.Sprintf(mark, 2)), 12, false},
		{"a list of one", fmt.Sprintf("{ %s }", fmt.Sprintf(mark, 3)), 3, false},
		{"until the game ends", fmt.Sprintf(`{ %s, function(p) result("stopped") end, %s }`, fmt.Sprintf(mark, 1), fmt.Sprintf(mark, 2)), 1, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			play := `(function() local MARK = m.var("mark"); return m.sowing_play { kind = SOW, sow = sow, capture = capture, after = ` + c.after + ` } end)()`
			g, err := loadSource(t, "ring", ringSource(ringRules, "nil", play))
			require.NoError(t, err)
			s := g.Start()
			require.NoError(t, s.Play("a1"))
			got, ok := s.Var("mark")
			require.True(t, ok)
			assert.Equal(t, c.mark, got)
			assert.Equal(t, c.over, s.Over())
		})
	}
}
