package host

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Unit tests of the primitives of the matombo table (api.go, sow.go,
// filter.go), run directly on states of the probe test game
// (testdata/games/probe/probe.lua, whose top comment lists its board:
// sites 1..12 are a1..a4, b1..b4, c1..c4; tags 1 head {a4,c1}, 2 store
// {b1,b4}, 3 inner {row b}; tracks 1 ring (looping), 2 middle (not
// looping); kinds 1 sow, 2 take, 3 step, 4 offer, 5 pass, 6 tri, 7 quad;
// vars 1 phase, 2 bonus, 3 memo (outside the position); filters F[1..16]).
// The opening: a1..a4 hold 2 counters owned by Player 1, c1..c4 hold 2
// owned by Player 2, row b is empty and nobody's; hands 1 and 1.

type primCase struct {
	name  string
	pre   string   // Lua run first like setup, to prepare the state
	mode  evalMode // how code runs (default: like setup)
	code  string   // Lua whose results are compared with want
	want  []any    // the results (see fromLua); nil: not compared
	err   string   // a substring of the error; "" means no error
	check func(t *testing.T, s *State)
}

const luaPrefix = "local m = matombo\n"

func runPrimCases(t *testing.T, g *Game, cases []primCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := g.Start()
			if c.pre != "" {
				_, err := evalIn(g, s, asSetup, luaPrefix+c.pre)
				require.NoError(t, err, "pre")
			}
			got, err := evalIn(g, s, c.mode, luaPrefix+c.code)
			if c.err != "" {
				require.Error(t, err, "want an error containing %q; got results %v", c.err, fromLuaAll(got))
				var se *ScriptError
				require.ErrorAs(t, err, &se)
				assert.Contains(t, err.Error(), c.err)
				return
			}
			require.NoError(t, err)
			if c.want != nil {
				assert.Equal(t, c.want, fromLuaAll(got))
			}
			if c.check != nil {
				c.check(t, s)
			}
		})
	}
}

// counts returns the counts of the named sites.
func counts(s *State, names ...string) []int {
	out := make([]int, len(names))
	for i, n := range names {
		k, ok := s.g.Board().Index(n)
		if !ok {
			panic("no site " + n)
		}
		out[i] = s.Count(k)
	}
	return out
}

func ringCounts(s *State) []int {
	return counts(s, "a1", "a2", "a3", "a4", "c4", "c3", "c2", "c1")
}

func TestPrimitivesBoard(t *testing.T) {
	g := loadTest(t, "probe")
	runPrimCases(t, g, []primCase{
		{name: "site by name", code: `return m.site("b2"), m.site("a1"), m.site("c4")`, want: []any{6, 1, 12}},
		{name: "site by index", code: `return m.site(6), m.site(12)`, want: []any{6, 12}},
		{name: "site unknown name", code: `return m.site("z9")`, err: `bad argument #1 to site (site expected, got string "z9", which names no site of the board)`},
		{name: "site 0", code: `return m.site(0)`, err: "site expected, got number 0, which is no site (sites are 1..12)"},
		{name: "site 13", code: `return m.site(13)`, err: "site expected, got number 13, which is no site (sites are 1..12)"},
		{name: "site fraction", code: `return m.site(1.5)`, err: "site expected, got number 1.5, which is no site"},
		{name: "site table", code: `return m.site({})`, err: "site expected, got table"},
		{name: "site nil", code: `return m.site()`, err: "site expected, got nil"},
		{name: "site bool", code: `return m.site(true)`, err: "site expected, got boolean"},
		{name: "name", code: `return m.name(6), m.name("c4"), m.name(1)`, want: []any{"b2", "c4", "a1"}},
		{name: "name bad", code: `return m.name(99)`, err: "bad argument #1 to name (site expected, got number 99, which is no site"},
		{name: "row and col", code: `return m.row("c2"), m.col("c2"), m.row(1), m.col(12)`, want: []any{3, 2, 1, 4}},
		{name: "size", code: `return m.size()`, want: []any{12}},
		{name: "players", code: `return m.players()`, want: []any{2}},
		{name: "next_player", code: `return m.next_player(1), m.next_player(2)`, want: []any{2, 1}},
		{name: "next_player 3", code: `return m.next_player(3)`, err: "bad argument #1 to next_player (player 3 does not exist (players are 1..2))"},
		{name: "next_player 0", code: `return m.next_player(0)`, err: "player 0 does not exist"},
		{name: "next_player string", code: `return m.next_player("1")`, err: `integer expected, got string "1"`},
		{name: "has_tag", code: `return m.has_tag("a4", 1), m.has_tag("c1", 1), m.has_tag("a1", 1), m.has_tag("b1", 2), m.has_tag("b2", 3), m.has_tag("b2", 2)`,
			want: []any{true, true, false, true, true, false}},
		{name: "has_tag unknown tag", code: `return m.has_tag("b2", 4)`, err: "bad argument #2 to has_tag (tag expected (from matombo.tag), got number 4, which is no tag's handle (tags are 1..3: head, store, inner); 4 is the handle of the move kind offer"},
		{name: "has_tag tag 0", code: `return m.has_tag("b2", 0)`, err: "tag expected (from matombo.tag), got number 0, which is no tag's handle"},
		{name: "has_tag bad site", code: `return m.has_tag("x", 1)`, err: `bad argument #1 to has_tag (site expected, got string "x", which names no site of the board)`},

		// Tracks: ring a1 a2 a3 a4 c4 c3 c2 c1 (looping), middle b1..b4.
		{name: "next on a loop", code: `return m.next(1, "a1"), m.next(1, "a4"), m.next(1, "c1")`, want: []any{2, 12, 1}},
		{name: "next with k", code: `return m.next(1, "a1", 3), m.next(1, "a1", 8), m.next(1, "a1", 9), m.next(1, "c2", 17)`, want: []any{4, 1, 2, 9}},
		{name: "next with k 0 and negative", code: `return m.next(1, "a1", 0), m.next(1, "a1", -1), m.next(1, "a2", -9)`, want: []any{1, 9, 1}},
		{name: "prev on a loop", code: `return m.prev(1, "a1"), m.prev(1, "a1", 2), m.prev(1, "c1", 8), m.prev(1, "a3", -2)`, want: []any{9, 10, 9, 12}},
		{name: "next on a line", code: `return m.next(2, "b1"), m.next(2, "b1", 3), m.next(2, "b3")`, want: []any{6, 8, 8}},
		{name: "next off the end is nil", code: `return m.next(2, "b4"), m.next(2, "b1", 4), m.next(2, "b2", 100)`, want: []any{nil, nil, nil}},
		{name: "prev off the start is nil", code: `return m.prev(2, "b1"), m.prev(2, "b4", 3), m.prev(2, "b4", 4)`, want: []any{nil, 5, nil}},
		{name: "next of a site not on the track is nil", code: `return m.next(1, "b2"), m.prev(2, "a1")`, want: []any{nil, nil}},
		{name: "next bad track", code: `return m.next(3, "a1")`, err: "bad argument #1 to next (track expected (from matombo.track), got number 3, which is no track's handle (tracks are 1..2: ring, middle); 3 is the handle of the tag inner, the move kind step and the variable memo"},
		{name: "next track 0", code: `return m.next(0, "a1")`, err: "track expected (from matombo.track), got number 0, which is no track's handle"},
		{name: "next track name", code: `return m.next("ring", "a1")`, err: `track expected (from matombo.track), got string "ring", the name of the track ring: give its handle, from matombo.track`},
		{name: "next bad k", code: `return m.next(1, "a1", 1.5)`, err: "bad argument #3 to next (integer expected, got number 1.5)"},
		{name: "prev bad site", code: `return m.prev(1, "q1")`, err: `bad argument #2 to prev (site expected, got string "q1", which names no site of the board)`},
		{name: "on_track", code: `return m.on_track(1, "a1"), m.on_track(1, "b1"), m.on_track(2, "b1"), m.on_track(2, "c1")`, want: []any{true, false, true, false}},

		// Opposite: the site in the same column of another row.
		{name: "opposite in every row", code: `
			local out = {}
			for r = 1, 3 do out[#out + 1] = m.opposite("a2", r) end
			for r = 1, 3 do out[#out + 1] = m.opposite("c4", r) end
			for r = 1, 3 do out[#out + 1] = m.opposite("b1", r) end
			return unpack(out)`, want: []any{2, 6, 10, 4, 8, 12, 1, 5, 9}},
		{name: "opposite row 4", code: `return m.opposite("a1", 4)`, err: "bad argument #2 to opposite (row 4 does not exist (rows are 1..3))"},
		{name: "opposite row 0", code: `return m.opposite("a1", 0)`, err: "row 0 does not exist"},
		{name: "opposite row missing", code: `return m.opposite("a1")`, err: "integer expected, got nil"},

		// Lines: columns a-b-c, row b, diagonal a1-b2-c3.
		{name: "adjacent", code: `return m.adjacent("b2"), m.adjacent("a4"), m.adjacent("a1"), m.adjacent("b4")`,
			want: []any{[]any{1, 2, 5, 7, 10, 11}, []any{8}, []any{5, 6}, []any{4, 7, 12}}},
		{name: "jumps", code: `return m.jumps("a1"), m.jumps("b2"), m.jumps("c3"), m.jumps("a2")`,
			want: []any{
				[]any{map[string]any{"over": 5, "to": 9}, map[string]any{"over": 6, "to": 11}},
				[]any{map[string]any{"over": 7, "to": 8}},
				[]any{map[string]any{"over": 6, "to": 1}, map[string]any{"over": 7, "to": 3}},
				[]any{map[string]any{"over": 6, "to": 10}},
			}},
		{name: "lines", code: `return m.lines()`,
			want: []any{[]any{[]any{1, 5, 9}, []any{2, 6, 10}, []any{3, 7, 11}, []any{4, 8, 12}, []any{5, 6, 7, 8}, []any{1, 6, 11}}}},
		{name: "lines through a site", code: `return m.lines("b2"), m.lines("a4"), m.lines(9)`,
			want: []any{[]any{[]any{2, 6, 10}, []any{5, 6, 7, 8}, []any{1, 6, 11}}, []any{[]any{4, 8, 12}}, []any{[]any{1, 5, 9}}}},
		{name: "lines bad site", code: `return m.lines("z1")`, err: `got string "z1", which names no site of the board`},
	})
}

// past32 is the error expected of 2^31 passed where the script API wants
// an int: the primitive's own, or on a 32-bit machine, whose int cannot
// hold it, the argument's "value out of range".
func past32(msg string) string {
	if strconv.IntSize < 64 {
		return "value out of range"
	}
	return msg
}

func TestPrimitivesState(t *testing.T) {
	g := loadTest(t, "probe")
	runPrimCases(t, g, []primCase{
		{name: "count", code: `return m.count("a1"), m.count("b1"), m.count(12)`, want: []any{2, 0, 2}},
		{name: "count bad site", code: `return m.count(99)`, err: "bad argument #1 to count (site expected, got number 99, which is no site (sites are 1..12))"},
		{name: "set_count", code: `m.set_count("b1", 5) return m.count("b1")`, want: []any{5}},
		{name: "set_count negative", code: `m.set_count("b1", -1)`, err: "the count of b1 would become -1: counts cannot be negative"},
		{name: "set_count too large", code: `m.set_count("b1", 2^31)`, err: past32("too large")},
		{name: "set_count huge", code: `m.set_count("b1", 2^40)`, err: "bad argument #2 to set_count (integer expected, got number"},
		{name: "set_count fraction", code: `m.set_count("b1", 0.5)`, err: "integer expected, got number 0.5"},
		{name: "set_count nan", code: `m.set_count("b1", 0/0)`, err: "integer expected"},
		{name: "set_count string", code: `m.set_count("b1", "3")`, err: `integer expected, got string "3"`},
		{name: "add", code: `return m.add("b1", 3), m.add("a1", -2), m.count("a1")`, want: []any{3, 0, 0}},
		{name: "add below zero", code: `m.add("a1", -3)`, err: "the count of a1 would become -1: counts cannot be negative"},
		{name: "add below zero leaves the count", pre: `pcall(m.add, "a1", -3)`, code: `return m.count("a1")`, want: []any{2}},
		{name: "take", code: `return m.take("a1"), m.count("a1"), m.take("b1")`, want: []any{2, 0, 0}},
		{name: "owner", code: `return m.owner("a1"), m.owner("b1"), m.owner("c1")`, want: []any{1, 0, 2}},
		{name: "set_owner", code: `m.set_owner("b1", 2) m.set_owner("a1", 0) return m.owner("b1"), m.owner("a1")`, want: []any{2, 0}},
		{name: "set_owner 3", code: `m.set_owner("b1", 3)`, err: "bad argument #2 to set_owner (owner 3 does not exist (0 for nobody, players 1..2))"},
		{name: "set_owner -1", code: `m.set_owner("b1", -1)`, err: "owner -1 does not exist"},

		{name: "captured", code: `return m.captured(1), m.captured(2)`, want: []any{0, 0}},
		{name: "captured 3", code: `return m.captured(3)`, err: "bad argument #1 to captured (player 3 does not exist"},
		{name: "capture all", code: `return m.capture("a1", 1), m.count("a1"), m.captured(1), m.captured(2)`, want: []any{2, 0, 2, 0}},
		{name: "capture with n", code: `return m.capture("c1", 1, 1), m.count("c1"), m.captured(1)`, want: []any{1, 1, 1}},
		{name: "capture n 0", code: `return m.capture("c1", 2, 0), m.count("c1"), m.captured(2)`, want: []any{0, 2, 0}},
		{name: "capture more than there is", code: `m.capture("a1", 1, 3)`, err: "bad argument #3 to capture (cannot capture 3 counters from a1, which holds 2)"},
		{name: "capture negative n", code: `m.capture("a1", 1, -1)`, err: "cannot capture -1 counters"},
		{name: "capture empty site", code: `return m.capture("b1", 2), m.captured(2)`, want: []any{0, 0}},
		{name: "capture bad player", code: `m.capture("a1", 3)`, err: "bad argument #2 to capture (player 3 does not exist"},
		{name: "pay", pre: `m.capture("a1", 1) m.capture("a2", 1)`, code: `m.pay(1, "b1", 3) return m.count("b1"), m.captured(1)`, want: []any{3, 1}},
		{name: "pay everything", pre: `m.capture("a1", 1)`, code: `m.pay(1, "a1", 2) return m.count("a1"), m.captured(1)`, want: []any{2, 0}},
		{name: "pay more than captured", pre: `m.capture("a1", 1)`, code: `m.pay(1, "b1", 3)`, err: "bad argument #3 to pay (player 1 cannot pay 3 counters with 2 captured)"},
		{name: "pay with nothing captured", code: `m.pay(2, "b1", 1)`, err: "player 2 cannot pay 1 counters with 0 captured"},
		{name: "pay negative", pre: `m.capture("a1", 1)`, code: `m.pay(1, "b1", -1)`, err: "cannot pay -1 counters"},
		{name: "pay bad site", pre: `m.capture("a1", 1)`, code: `m.pay(1, "b9", 1)`, err: `bad argument #2 to pay (site expected, got string "b9", which names no site of the board)`},
		{name: "sweep", pre: `m.set_count("b1", 3)`, code: `return m.sweep(), m.captured(1), m.captured(2), m.count("a1"), m.count("b1")`, want: []any{16, 8, 8, 0, 3}},
		{name: "sweep owned empty sites", pre: `m.set_owner("b2", 1)`, code: `return m.sweep(), m.owner("b2"), m.owner("a1")`, want: []any{16, 1, 1}},

		{name: "hand", code: `return m.hand(1), m.hand(2)`, want: []any{1, 1}},
		{name: "set_hand", code: `m.set_hand(2, 5) return m.hand(2)`, want: []any{5}},
		{name: "set_hand negative", code: `m.set_hand(1, -1)`, err: "a hand would become -1: counts cannot be negative"},
		{name: "set_hand bad player", code: `m.set_hand(0, 1)`, err: "bad argument #1 to set_hand (player 0 does not exist"},
		{name: "place", code: `m.place(1, "b2") return m.hand(1), m.count("b2"), m.owner("b2")`, want: []any{0, 1, 1}},
		{name: "place with empty hand", pre: `m.set_hand(2, 0)`, code: `m.place(2, "b2")`, err: "player 2 has nothing in hand to place on b2"},
		{name: "place bad site", code: `m.place(1, 0)`, err: "bad argument #2 to place (site expected, got number 0, which is no site"},
		{name: "move_piece", code: `m.move_piece("a1", "b1") return m.count("a1"), m.owner("a1"), m.count("b1"), m.owner("b1")`, want: []any{0, 0, 2, 1}},
		{name: "move_piece onto an occupied site", code: `m.move_piece("a1", "a2")`, err: "move_piece: a2 is not empty"},
		{name: "move_piece onto an owned empty site", pre: `m.set_owner("b1", 2)`, code: `m.move_piece("a1", "b1")`, err: "move_piece: b1 is not empty"},
		{name: "move_piece onto itself", code: `m.move_piece("a1", "a1")`, err: "a1 is not empty"},
		{name: "move_piece bad site", code: `m.move_piece("a1", 13)`, err: "bad argument #2 to move_piece (site expected, got number 13, which is no site"},

		{name: "to_move", code: `return m.to_move()`, want: []any{1}},
		{name: "set_to_move", code: `m.set_to_move(2) return m.to_move()`, want: []any{2}, check: func(t *testing.T, s *State) {
			assert.Equal(t, 2, s.ToMove())
		}},
		{name: "set_to_move 3", code: `m.set_to_move(3)`, err: "bad argument #1 to set_to_move (player 3 does not exist"},
		{name: "ply", code: `return m.ply()`, want: []any{0}},

		{name: "get and set", code: `m.set(1, 5) m.set(3, -7) return m.get(1), m.get(2), m.get(3)`, want: []any{5, 0, -7}, check: func(t *testing.T, s *State) {
			v, ok := s.Var("phase")
			assert.True(t, ok)
			assert.Equal(t, 5, v)
			v, _ = s.Var("memo")
			assert.Equal(t, -7, v)
			_, ok = s.Var("nope")
			assert.False(t, ok)
		}},
		{name: "set extremes", code: `m.set(2, 2^31 - 1) m.set(3, -2^31) return m.get(2), m.get(3)`, want: []any{2147483647, -2147483648}},
		{name: "set out of range", code: `m.set(2, 2^31)`, err: "bad argument #2 to set (value out of range)"},
		{name: "get var 4", code: `return m.get(4)`, err: "bad argument #1 to get (variable expected (from matombo.var), got number 4, which is no variable's handle (variables are 1..3: phase, bonus, memo); 4 is the handle of the move kind offer)"},
		{name: "set var 0", code: `m.set(0, 1)`, err: "variable expected (from matombo.var), got number 0, which is no variable's handle"},
		{name: "set var name", code: `m.set("phase", 1)`, err: `variable expected (from matombo.var), got string "phase", the name of the variable phase: give its handle, from matombo.var`},

		{name: "over", code: `return m.over()`, want: []any{false}},
		{name: "finish", code: `m.finish(2, "a reason", "note one", "note two") return m.over()`, want: []any{true}, check: func(t *testing.T, s *State) {
			assert.Equal(t, Outcome{Over: true, Winner: 2, Method: MethodRule, Players: 2, Reason: "a reason", Notes: []string{"note one", "note two"}}, s.Outcome())
			assert.True(t, s.Over())
		}},
		{name: "finish draw without reason", code: `m.finish(0)`, check: func(t *testing.T, s *State) {
			assert.Equal(t, Outcome{Over: true, Method: MethodRule, Players: 2}, s.Outcome())
		}},
		{name: "finish winner 3", code: `m.finish(3, "x")`, err: "bad argument #1 to finish (winner 3 does not exist (0 for a draw, players 1..2))"},
		{name: "finish winner -1", code: `m.finish(-1)`, err: "winner -1 does not exist"},
		{name: "finish bad note", code: `m.finish(1, "r", {})`, err: "bad argument #3 to finish"},
		{name: "finish bad reason", code: `m.finish(1, {})`, err: "bad argument #2 to finish"},
	})
}

func TestPrimitivesSow(t *testing.T) {
	g := loadTest(t, "probe")
	runPrimCases(t, g, []primCase{
		{name: "sow", code: `local n = m.take("a1") return m.sow(1, "a1", n)`, want: []any{3, false},
			check: func(t *testing.T, s *State) { assert.Equal(t, []int{0, 3, 3, 2, 2, 2, 2, 2}, ringCounts(s)) }},
		{name: "sow into an empty site", code: `return m.sow(2, "b1", 2)`, want: []any{7, true},
			check: func(t *testing.T, s *State) { assert.Equal(t, []int{0, 1, 1, 0}, counts(s, "b1", "b2", "b3", "b4")) }},
		{name: "sow across the end of the loop", code: `m.take("c2") return m.sow(1, "c2", 2)`, want: []any{1, false},
			check: func(t *testing.T, s *State) { assert.Equal(t, []int{3, 2, 2, 2, 2, 2, 0, 3}, ringCounts(s)) }},
		{name: "sow laps passing the start, which is not skipped", pre: `m.set_count("a1", 10)`,
			code: `local n = m.take("a1") return m.sow(1, "a1", n)`, want: []any{3, false},
			check: func(t *testing.T, s *State) { assert.Equal(t, []int{1, 4, 4, 3, 3, 3, 3, 3}, ringCounts(s)) }},
		{name: "sow exactly one lap ends in the emptied start", code: `m.take("a1") return m.sow(1, "a1", 8)`, want: []any{1, true},
			check: func(t *testing.T, s *State) { assert.Equal(t, []int{1, 3, 3, 3, 3, 3, 3, 3}, ringCounts(s)) }},
		{name: "sow exactly two laps", code: `m.take("a1") return m.sow(1, "a1", 16)`, want: []any{1, false},
			check: func(t *testing.T, s *State) { assert.Equal(t, []int{2, 4, 4, 4, 4, 4, 4, 4}, ringCounts(s)) }},
		{name: "sow a lap from a site not emptied", code: `return m.sow(1, "a1", 8)`, want: []any{1, false},
			check: func(t *testing.T, s *State) { assert.Equal(t, []int{3, 3, 3, 3, 3, 3, 3, 3}, ringCounts(s)) }},
		{name: "sow a lap and one", code: `m.take("c1") return m.sow(1, "c1", 9)`, want: []any{1, false},
			check: func(t *testing.T, s *State) { assert.Equal(t, []int{4, 3, 3, 3, 3, 3, 3, 1}, ringCounts(s)) }},
		{name: "sow off the end of a line", code: `m.sow(2, "b3", 2)`, err: "sowing 2 counters from b3 runs off the end of track middle"},
		{name: "sow from the end of a line", code: `m.sow(2, "b4", 1)`, err: "runs off the end of track middle"},
		{name: "sow to the end of a line", code: `return m.sow(2, "b1", 3)`, want: []any{8, true}},
		{name: "sow from a site off the track", code: `m.sow(1, "b1", 1)`, err: "bad argument #2 to sow (b1 is not on track ring)"},
		{name: "sow 0", code: `m.sow(1, "a1", 0)`, err: "bad argument #3 to sow (cannot sow 0 counters (1 to 1073741823))"},
		{name: "sow negative", code: `m.sow(1, "a1", -2)`, err: "cannot sow -2 counters"},
		{name: "sow bad track", code: `m.sow(5, "a1", 1)`, err: "bad argument #1 to sow (track expected (from matombo.track), got number 5, which is no track's handle"},
		{name: "sow in legal", mode: asLegal, code: `m.sow(1, "a1", 1)`, err: "legal must not change the state"},

		// relay(track, from, stop_tag, max_laps) picks up from's counters.
		// From the opening, a1's 2 counters end in a3 (occupied): pick up
		// 3, ending in c3 (occupied): pick up 3, ending in a1, empty.
		{name: "relay ending empty", code: `return m.relay(1, "a1")`, want: []any{1, "empty", 3},
			check: func(t *testing.T, s *State) { assert.Equal(t, []int{1, 3, 0, 3, 3, 0, 3, 3}, ringCounts(s)) }},
		{name: "relay ending at the stop tag", pre: `m.set_count("a1", 3)`, code: `return m.relay(1, "a1", 1)`, want: []any{4, "stop", 1},
			check: func(t *testing.T, s *State) { assert.Equal(t, []int{0, 3, 3, 3, 2, 2, 2, 2}, ringCounts(s)) }},
		{name: "relay passing the stop tag on a middle counter", code: `return m.relay(1, "a1", 1)`, want: []any{1, "empty", 3}},
		{name: "relay ending at the lap limit", code: `return m.relay(1, "a1", nil, 1)`, want: []any{3, "laps", 1},
			check: func(t *testing.T, s *State) { assert.Equal(t, []int{0, 3, 3, 2, 2, 2, 2, 2}, ringCounts(s)) }},
		{name: "relay lap limit 2", code: `return m.relay(1, "a1", nil, 2)`, want: []any{11, "laps", 2}},
		{name: "relay lap limit exactly enough", code: `return m.relay(1, "a1", nil, 3)`, want: []any{1, "empty", 3}},
		{name: "relay off a line", pre: `m.set_count("b2", 5)`, code: `m.relay(2, "b2")`, err: "a relay sowing from b2 runs off the end of track middle"},
		{name: "relay from an empty site", code: `m.relay(1, "a1") m.relay(1, "a3")`, err: "bad argument #2 to relay (a3 is empty: there is nothing to sow)"},
		{name: "relay lap limit 0", code: `m.relay(1, "a1", nil, 0)`, err: "bad argument #4 to relay (the lap limit must be at least 1)"},
		{name: "relay bad tag", code: `m.relay(1, "a1", 4)`, err: "bad argument #3 to relay (tag expected (from matombo.tag), got number 4, which is no tag's handle"},
		{name: "relay off the track", code: `m.relay(1, "b1")`, err: "b1 is not on track ring"},
		{name: "relay in legal", mode: asLegal, code: `m.relay(1, "a1")`, err: "legal must not change the state"},

		// relay_ends answers without changing the state, also in legal.
		{name: "relay_ends", mode: asLegal, code: `return m.relay_ends(1, "a1"), m.relay_ends(1, "a1", nil, 3), m.relay_ends(1, "a1", nil, 2), m.relay_ends(1, "a1", 1, 1)`,
			want: []any{true, true, false, false},
			check: func(t *testing.T, s *State) {
				assert.Equal(t, g.Start().Position(), s.Position(), "relay_ends changes nothing")
			}},
		{name: "relay_ends at the stop tag", pre: `m.set_count("a1", 3)`, code: `return m.relay_ends(1, "a1", 1, 1), m.relay_ends(1, "a1", nil, 1)`, want: []any{true, false},
			check: func(t *testing.T, s *State) { assert.Equal(t, []int{3, 2, 2, 2, 2, 2, 2, 2}, ringCounts(s)) }},
		{name: "relay_ends endless", pre: `for i = 1, 12 do m.set_count(i, 0) end m.set_count("a1", 1) m.set_count("a2", 1)`,
			code: `return m.relay_ends(1, "a1", nil, 1000)`, want: []any{true}},
		{name: "relay_ends empty site", code: `m.relay_ends(1, "b1")`, err: "b1 is not on track ring"},
		{name: "relay_ends from empty", pre: `m.set_count("a1", 0)`, code: `m.relay_ends(1, "a1")`, err: "a1 is empty: there is nothing to sow"},

		// capture_run(player, track, from, step, counts...).
		{name: "capture_run forward stopping", pre: `m.set_count("a2", 2) m.set_count("a3", 4) m.set_count("a4", 3)`,
			code: `return m.capture_run(1, 1, "a1", 1, 2, 4), m.captured(1)`, want: []any{6, 6},
			check: func(t *testing.T, s *State) { assert.Equal(t, []int{2, 0, 0, 3, 2, 2, 2, 2}, ringCounts(s)) }},
		{name: "capture_run backward", pre: `m.set_count("c2", 4) m.set_count("c3", 3)`,
			code: `return m.capture_run(2, 1, "a1", -1, 2, 4), m.captured(2)`, want: []any{6, 6},
			check: func(t *testing.T, s *State) { assert.Equal(t, []int{2, 2, 2, 2, 2, 3, 0, 0}, ringCounts(s)) }},
		{name: "capture_run wraps once round and takes no site twice",
			code: `return m.capture_run(1, 1, "a1", 1, 2), m.captured(1)`, want: []any{16, 16},
			check: func(t *testing.T, s *State) { assert.Equal(t, []int{0, 0, 0, 0, 0, 0, 0, 0}, ringCounts(s)) }},
		{name: "capture_run wraps to the emptied start and stops", pre: `m.take("a1")`,
			code: `return m.capture_run(1, 1, "a1", 1, 2)`, want: []any{14}},
		{name: "capture_run step 2", code: `return m.capture_run(1, 1, "a1", 2, 2)`, want: []any{8},
			check: func(t *testing.T, s *State) { assert.Equal(t, []int{0, 2, 0, 2, 0, 2, 0, 2}, ringCounts(s)) }},
		{name: "capture_run first site does not match", code: `return m.capture_run(1, 1, "a1", 1, 3), m.captured(1)`, want: []any{0, 0}},
		{name: "capture_run on a line stops at its end", pre: `m.set_count("b2", 1) m.set_count("b3", 1) m.set_count("b4", 1)`,
			code: `return m.capture_run(2, 2, "b1", 1, 1), m.capture_run(1, 2, "b4", -1, 1)`, want: []any{3, 0}},
		{name: "capture_run many values", pre: `m.set_count("a2", 7) m.set_count("a3", 5)`,
			code: `return m.capture_run(1, 1, "a1", 1, 1, 3, 5, 7, 9, 11, 13, 15)`, want: []any{12}},
		{name: "capture_run step 0", code: `m.capture_run(1, 1, "a1", 0, 2)`, err: "bad argument #4 to capture_run (step must not be 0)"},
		{name: "capture_run no values", code: `m.capture_run(1, 1, "a1", 1)`, err: "capture_run needs 1 to 8 counts to capture"},
		{name: "capture_run 9 values", code: `m.capture_run(1, 1, "a1", 1, 1, 2, 3, 4, 5, 6, 7, 8, 9)`, err: "capture_run needs 1 to 8 counts"},
		{name: "capture_run value 0", code: `m.capture_run(1, 1, "a1", 1, 0)`, err: "bad argument #5 to capture_run (counts to capture must be at least 1)"},
		{name: "capture_run off the track", code: `m.capture_run(1, 1, "b2", 1, 2)`, err: "bad argument #3 to capture_run (b2 is not on track ring)"},
		{name: "capture_run bad player", code: `m.capture_run(3, 1, "a1", 1, 2)`, err: "bad argument #1 to capture_run (player 3 does not exist"},
		{name: "capture_run in legal", mode: asLegal, code: `m.capture_run(1, 1, "a1", 1, 2)`, err: "legal must not change the state"},
	})
}

func TestPrimitivesFilters(t *testing.T) {
	g := loadTest(t, "probe")
	all := []any{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}
	runPrimCases(t, g, []primCase{
		{name: "any", code: `return m.sites(F[1]), m.count_sites(F[1]), m.sum(F[1]), m.first(F[1])`, want: []any{all, 12, 16, 1}},
		{name: "owner mover", code: `return m.sites(F[2]), m.sum(F[2])`, want: []any{[]any{1, 2, 3, 4}, 8}},
		{name: "owner mover for player 2", pre: `m.set_to_move(2)`, code: `return m.sites(F[2]), m.sites(F[3])`,
			want: []any{[]any{9, 10, 11, 12}, []any{1, 2, 3, 4}}},
		{name: "owner mover min 1", pre: `m.set_count("a2", 0)`, code: `return m.sites(F[2])`, want: []any{[]any{1, 3, 4}}},
		{name: "owner opponent", code: `return m.sites(F[3]), m.count_sites(F[3])`, want: []any{[]any{9, 10, 11, 12}, 4}},
		{name: "owner opponent ignores nobody's sites", pre: `m.set_owner("b1", 1) m.set_owner("b2", 2)`, code: `return m.sites(F[3])`, want: []any{[]any{6, 9, 10, 11, 12}}},
		{name: "owner nobody", code: `return m.sites(F[4])`, want: []any{[]any{5, 6, 7, 8}}},
		{name: "owner number", code: `return m.sites(F[5]), m.sites(F[16])`, want: []any{[]any{9, 10, 11, 12}, []any{5, 8}}},
		{name: "min", pre: `m.set_count("a1", 1)`, code: `return m.sites(F[6])`, want: []any{[]any{2, 3, 4, 9, 10, 11, 12}}},
		{name: "max", pre: `m.set_count("a1", 1)`, code: `return m.sites(F[7])`, want: []any{[]any{1, 5, 6, 7, 8}}},
		{name: "min and max", pre: `m.set_count("a1", 4) m.set_count("a2", 3) m.set_count("a3", 1)`, code: `return m.sites(F[8]), m.sum(F[8])`,
			want: []any{[]any{2, 3, 4, 9, 10, 11, 12}, 14}},
		{name: "tag", code: `return m.sites(F[9]), m.sum(F[9])`, want: []any{[]any{4, 9}, 4}},
		{name: "not_tag", code: `return m.sites(F[10])`, want: []any{[]any{1, 2, 3, 5, 6, 7, 8, 10, 11, 12}}},
		{name: "row", code: `return m.sites(F[11])`, want: []any{[]any{5, 6, 7, 8}}},
		{name: "track", code: `return m.sites(F[12])`, want: []any{[]any{1, 2, 3, 4, 9, 10, 11, 12}}},
		{name: "next_empty on a loop", code: `return m.sites(F[13]), m.first(F[13])`, want: []any{[]any{}, nil}},
		{name: "next_empty on a loop with gaps", pre: `m.set_count("a2", 0) m.set_count("a1", 0)`, code: `return m.sites(F[13])`, want: []any{[]any{9}}},
		{name: "next_empty on a line excludes its end", code: `return m.sites(F[14])`, want: []any{[]any{5, 6, 7}}},
		{name: "next_empty on a line", pre: `m.set_count("b3", 1)`, code: `return m.sites(F[14])`, want: []any{[]any{5, 7}}},
		{name: "empty and nobody's", pre: `m.set_count("b1", 1) m.set_owner("b2", 1)`, code: `return m.sites(F[15])`, want: []any{[]any{7, 8}}},
		{name: "first", pre: `m.set_count("a1", 0)`, code: `return m.first(F[2]), m.first(F[9]), m.first(F[4])`, want: []any{2, 4, 5}},
		{name: "in legal", mode: asLegal, code: `return m.count_sites(F[2]), m.sum(F[3]), m.first(F[3]), #m.sites(F[1])`, want: []any{4, 8, 9, 12}},
		{name: "not a filter", code: `return m.count_sites(5)`, err: "bad argument #1 to count_sites (filter expected (make one with matombo.filter), got number 5; 5 is the handle of the move kind pass)"},
		{name: "not a filter: nil", code: `return m.sum()`, err: "filter expected (make one with matombo.filter), got nil"},
		{name: "not a filter: table", code: `return m.sites({})`, err: "filter expected (make one with matombo.filter), got table"},
		{name: "filter after load", code: `return m.filter {}`, err: "a filter can only be declared while the script loads"},

		// in_a_row(player, site, k) along the lines.
		{name: "in_a_row", pre: `for _, s in ipairs { "b1", "b2", "b3" } do m.set_owner(s, 1) m.set_count(s, 1) end`,
			code: `return m.in_a_row(1, "b2", 3), m.in_a_row(1, "b2", 4), m.in_a_row(1, nil, 3), m.in_a_row(1, "b1", 3), m.in_a_row(1, "b4", 3), m.in_a_row(2, nil, 2)`,
			want: []any{true, false, true, true, false, false}},
		{name: "in_a_row needs the site in the run", pre: `m.set_owner("b1", 1) m.set_owner("b2", 1) m.set_owner("b4", 1)`,
			code: `return m.in_a_row(1, "b4", 2), m.in_a_row(1, "b1", 2), m.in_a_row(1, nil, 3), m.in_a_row(1, "b4", 1)`,
			want: []any{true, true, false, true}},
		{name: "in_a_row k 0", code: `return m.in_a_row(1, "b2", 0)`, err: "bad argument #3 to in_a_row (a run of at least 1 site expected, got 0)"},
		{name: "in_a_row k -1 of any line", code: `return m.in_a_row(1, nil, -1)`, err: "bad argument #3 to in_a_row (a run of at least 1 site expected, got -1)"},
		{name: "row_sites k 0", code: `return m.row_sites(1, "c1", 0)`, err: "bad argument #3 to row_sites (a run of at least 1 site expected, got 0)"},
		{name: "in_a_row k 1 on a site of another owner", code: `return m.in_a_row(1, "c1", 1), m.in_a_row(2, "c1", 1)`, want: []any{false, true}},
		{name: "in_a_row names the run", pre: `for _, s in ipairs { "b1", "b2", "b3" } do m.set_owner(s, 1) m.set_count(s, 1) end`,
			code: `return m.row_sites(1, "b2", 3), m.row_sites(1, nil, 3), m.row_sites(1, "b4", 3), m.row_sites(2, nil, 1)`,
			want: []any{[]any{5, 6, 7}, []any{5, 6, 7}, nil, []any{9}}},
		{name: "in_a_row column", pre: `m.set_owner("b3", 2)`, code: `return m.in_a_row(2, "c3", 2), m.in_a_row(2, "a3", 2), m.in_a_row(2, nil, 3)`, want: []any{true, false, false}},
		{name: "in_a_row bad player", code: `m.in_a_row(3, nil, 3)`, err: "bad argument #1 to in_a_row (player 3 does not exist"},
		{name: "in_a_row bad site", code: `m.in_a_row(1, "z1", 3)`, err: `bad argument #2 to in_a_row (site expected, got string "z1", which names no site of the board)`},

		// open_lines(player): the lines a player holds but for one empty
		// point, as a Lua loop over m.lines() counts them.
		{name: "open_lines", pre: `m.set_owner("b1", 1) m.set_owner("b2", 1) m.set_owner("b3", 1) m.set_owner("a2", 1) m.set_owner("a3", 2)`,
			code: openLinesProbe, want: []any{1, 1, 0, 0}},
		{name: "open_lines of the other player", pre: `m.set_owner("b1", 1) m.set_owner("b2", 1) m.set_owner("a2", 1) m.set_owner("a3", 2)`,
			code: openLinesProbe, want: []any{0, 0, 1, 1}},
		{name: "open_lines bad player", code: `m.open_lines(3)`, err: "bad argument #1 to open_lines (player 3 does not exist"},
	})
}

func TestPrimitivesEmit(t *testing.T) {
	g := loadTest(t, "probe")
	legal := func(want ...string) func(t *testing.T, s *State) {
		return func(t *testing.T, s *State) {
			t.Helper()
			if want == nil {
				want = []string{}
			}
			assert.Equal(t, want, s.Legal())
		}
	}
	runPrimCases(t, g, []primCase{
		{name: "emit one site", mode: asLegal, code: `m.emit(1, "a1") m.emit(1, 12)`, check: legal("a1", "c4")},
		{name: "emit literal and site", mode: asLegal, code: `m.emit(2, "c2")`, check: legal("xc2")},
		{name: "emit from-to", mode: asLegal, code: `m.emit(3, "a1", "b2")`, check: legal("a1-b2")},
		{name: "emit a list", mode: asLegal, code: `m.emit(4, "a1") m.emit(4, "a1", "c1") m.emit(4, 1, 2, 3, 4)`, check: legal("offer:a1", "offer:a1,c1", "offer:a1,a2,a3,a4")},
		{name: "emit no sites", mode: asLegal, code: `m.emit(5)`, check: legal("pass")},
		{name: "emit three sites", mode: asLegal, code: `m.emit(6, 1, 6, 11)`, check: legal("a1>b2>c3")},
		{name: "emit four sites in reverse", mode: asLegal, code: `m.emit(7, "a1", "a2", "a3", "a4")`, check: legal("a4/a3/a2/a1")},
		{name: "emit keeps the order and duplicates", mode: asLegal, code: `m.emit(1, "b1") m.emit(5) m.emit(1, "a1") m.emit(1, "b1")`, check: legal("b1", "pass", "a1", "b1")},
		{name: "emit too many sites", mode: asLegal, code: `m.emit(1, "a1", "a2")`, err: "bad argument #1 to emit (move kind sow takes 1 site, not 2)"},
		{name: "emit too few sites", mode: asLegal, code: `m.emit(1)`, err: "move kind sow takes 1 site, not 0"},
		{name: "emit from-to with one site", mode: asLegal, code: `m.emit(3, "a1")`, err: "move kind step takes 2 sites, not 1"},
		{name: "emit pass with a site", mode: asLegal, code: `m.emit(5, "a1")`, err: "move kind pass takes 0 sites, not 1"},
		{name: "emit a list without sites", mode: asLegal, code: `m.emit(4)`, err: "bad argument #2 to emit (move kind offer needs at least one site)"},
		{name: "emit five sites", mode: asLegal, code: `m.emit(4, 1, 2, 3, 4, 5)`, err: "a move names at most 4 sites"},
		{name: "emit unknown kind", mode: asLegal, code: `m.emit(8, "a1")`, err: "bad argument #1 to emit (move kind expected (from matombo.move), got number 8, which is no move kind's handle (move kinds are 1..7: sow, take, step, offer, pass, tri, quad))"},
		{name: "emit kind 0", mode: asLegal, code: `m.emit(0)`, err: "move kind expected (from matombo.move), got number 0, which is no move kind's handle"},
		{name: "emit kind by name", mode: asLegal, code: `m.emit("sow", "a1")`, err: `move kind expected (from matombo.move), got string "sow", the name of the move kind sow: give its handle, from matombo.move`},
		{name: "emit bad site", mode: asLegal, code: `m.emit(3, "a1", "z9")`, err: `bad argument #3 to emit (site expected, got string "z9", which names no site of the board)`},
		{name: "emit outside legal", code: `m.emit(1, "a1")`, err: "moves can only be emitted inside legal"},
		{name: "emit in play", mode: asPlay, code: `m.emit(1, "a1")`, err: "moves can only be emitted inside legal"},

		{name: "emit_each", mode: asLegal, code: `return m.emit_each(1, F[2]), m.emit_each(2, F[3])`, want: []any{4, 4},
			check: legal("a1", "a2", "a3", "a4", "xc1", "xc2", "xc3", "xc4")},
		{name: "emit_each none", mode: asLegal, code: `return m.emit_each(1, F[13])`, want: []any{0}, check: legal()},
		{name: "emit_each into a list kind", mode: asLegal, code: `return m.emit_each(4, F[9])`, want: []any{2}, check: legal("offer:a4", "offer:c1")},
		{name: "emit_each arity", mode: asLegal, code: `m.emit_each(3, F[2])`, err: "bad argument #1 to emit_each (move kind step takes 2 sites, not 1)"},
		{name: "emit_each no filter", mode: asLegal, code: `m.emit_each(1, 2)`, err: "bad argument #2 to emit_each (filter expected"},
		{name: "emit_each outside legal", code: `m.emit_each(1, F[2])`, err: "moves can only be emitted inside legal"},

		{name: "emit_subsets", mode: asLegal, code: `return m.emit_subsets(4, F[9], 1, 2)`, want: []any{3},
			check: legal("offer:a4", "offer:c1", "offer:a4,c1")},
		{name: "emit_subsets sizes 2 to 3", mode: asLegal, code: `return m.emit_subsets(4, F[2], 2, 3)`, want: []any{10},
			check: legal("offer:a1,a2", "offer:a1,a3", "offer:a1,a4", "offer:a2,a3", "offer:a2,a4", "offer:a3,a4",
				"offer:a1,a2,a3", "offer:a1,a2,a4", "offer:a1,a3,a4", "offer:a2,a3,a4")},
		{name: "emit_subsets of 4 of 12", mode: asLegal, code: `return m.emit_subsets(4, F[1], 4, 4)`, want: []any{495}},
		{name: "emit_subsets larger than the pool", mode: asLegal, code: `return m.emit_subsets(4, F[9], 3, 4)`, want: []any{0}, check: legal()},
		{name: "emit_subsets fixed kind", mode: asLegal, code: `m.emit_subsets(1, F[9], 1, 1)`, err: "bad argument #1 to emit_subsets (move kind sow names fixed sites; emit_subsets needs a kind whose template uses {sites})"},
		{name: "emit_subsets kmin 0", mode: asLegal, code: `m.emit_subsets(4, F[9], 0, 1)`, err: "emit_subsets: sizes must satisfy 1 <= kmin <= kmax <= 4, got 0 and 1"},
		{name: "emit_subsets kmax 5", mode: asLegal, code: `m.emit_subsets(4, F[9], 1, 5)`, err: "got 1 and 5"},
		{name: "emit_subsets kmin above kmax", mode: asLegal, code: `m.emit_subsets(4, F[9], 2, 1)`, err: "got 2 and 1"},
		{name: "emit_subsets outside legal", code: `m.emit_subsets(4, F[9], 1, 1)`, err: "moves can only be emitted inside legal"},

		// Steps and jumps along the lines (columns, row b, diagonal).
		{name: "emit_steps", mode: asLegal, code: `return m.emit_steps(3, F[2])`, want: []any{5},
			check: legal("a1-b1", "a1-b2", "a2-b2", "a3-b3", "a4-b4")},
		{name: "emit_steps blocked", mode: asLegal, pre: `for s = 5, 8 do m.set_count(s, 1) end`, code: `return m.emit_steps(3, F[2])`, want: []any{0}, check: legal()},
		{name: "emit_steps along row b", pre: `m.set_count("b2", 1) m.set_owner("b2", 1)`, mode: asLegal, code: `return m.emit_steps(3, F[2])`, want: []any{5},
			check: legal("a1-b1", "a3-b3", "a4-b4", "b2-b1", "b2-b3")},
		{name: "emit_jumps", pre: `m.set_count("b1", 1) m.set_count("c1", 0) m.set_count("c3", 0) m.set_count("b2", 1)`, mode: asLegal,
			code: `return m.emit_jumps(3, F[2])`, want: []any{2}, check: legal("a1-c1", "a1-c3")},
		{name: "emit_jumps over a piece of either owner", pre: `m.set_count("c2", 0) m.set_owner("c2", 0) m.set_count("b2", 1) m.set_owner("b2", 2)`, mode: asLegal,
			code: `return m.emit_jumps(3, F[2])`, want: []any{1}, check: legal("a2-c2")},
		{name: "emit_jumps none from the opening", mode: asLegal, code: `return m.emit_jumps(3, F[2])`, want: []any{0}},
		{name: "emit_jumps over an empty site", pre: `m.set_count("c1", 0)`, mode: asLegal, code: `return m.emit_jumps(3, F[2])`, want: []any{0}},
		{name: "emit_steps arity", mode: asLegal, code: `m.emit_steps(1, F[2])`, err: "move kind sow takes 1 site, not 2"},
		{name: "emit_jumps arity", mode: asLegal, code: `m.emit_jumps(6, F[2])`, err: "move kind tri takes 3 sites, not 2"},
		{name: "emit_steps outside legal", code: `m.emit_steps(3, F[2])`, err: "moves can only be emitted inside legal"},
		{name: "emit_jumps outside legal", mode: asPlay, code: `m.emit_jumps(3, F[2])`, err: "moves can only be emitted inside legal"},
		{name: "more than 100000 moves", mode: asLegal, code: `for i = 1, 100001 do m.emit(5) end`, err: "more than 100000 legal moves in one decision"},
		{name: "100000 moves", mode: asLegal, code: `for i = 1, 100000 do m.emit(5) end`, check: func(t *testing.T, s *State) { assert.Len(t, s.Moves(), 100000) }},
	})
}

// Every primitive that changes the state refuses to run inside legal.
func TestPrimitivesLegalMustNotChangeTheState(t *testing.T) {
	g := loadTest(t, "probe")
	calls := []string{
		`m.set_count("a1", 1)`, `m.add("a1", 1)`, `m.take("a1")`, `m.set_owner("a1", 2)`,
		`m.capture("a1", 1)`, `m.pay(1, "a1", 0)`, `m.set_hand(1, 2)`, `m.place(1, "b1")`,
		`m.move_piece("a1", "b1")`, `m.set_to_move(2)`, `m.set(1, 1)`, `m.set(3, 1)`, `m.finish(1)`,
		`m.sow(1, "a1", 1)`, `m.relay(1, "a1")`, `m.capture_run(1, 1, "a1", 1, 2)`, `m.sweep()`,
	}
	var cases []primCase
	for _, c := range calls {
		cases = append(cases, primCase{name: c, mode: asLegal, code: c, err: "legal must not change the state"})
	}
	runPrimCases(t, g, cases)
	// The reading primitives work in legal.
	runPrimCases(t, g, []primCase{{name: "readers", mode: asLegal,
		code: `return m.count(1), m.owner(1), m.captured(1), m.hand(1), m.to_move(), m.ply(), m.get(1), m.over(), m.repetitions(), #m.key()`,
		want: []any{2, 1, 0, 1, 1, 0, 0, false, 1, 16}}})
}

// Declarations are only possible while the script's chunk runs.
func TestPrimitivesDeclarationsAfterLoad(t *testing.T) {
	g := loadTest(t, "probe")
	var cases []primCase
	for call, what := range map[string]string{
		`m.declare { name = "probe" }`:          "the game can only be declared while the script loads",
		`m.board { rows = {"a"}, columns = 1 }`: "the board can only be declared while the script loads",
		`m.tag("late", { "a1" })`:               "a tag can only be declared while the script loads",
		`m.mark(1, "!")`:                        "a mark can only be declared while the script loads",
		`m.track("late", { "a1" })`:             "a track can only be declared while the script loads",
		`m.move("late", "{1}")`:                 "a move kind can only be declared while the script loads",
		`m.var("late")`:                         "a variable can only be declared while the script loads",
		`m.filter {}`:                           "a filter can only be declared while the script loads",
	} {
		for _, mode := range []evalMode{asSetup, asLegal, asPlay} {
			cases = append(cases, primCase{name: fmt.Sprintf("%s in mode %d", call, mode), mode: mode, code: call, err: what})
		}
	}
	runPrimCases(t, g, cases)
}

// Repetitions counts the occurrences of the current position; during play
// the position being made counts once more, as it is not in the history
// yet. The key ignores the ply and variables outside the position.
func TestPrimitivesRepetitionsAndKey(t *testing.T) {
	g := loadTest(t, "probe")
	opening := g.Start()
	key := fmt.Sprintf("%016x", opening.Key())
	runPrimCases(t, g, []primCase{
		{name: "outside play", code: `return m.repetitions()`, want: []any{1}},
		{name: "during play", mode: asPlay, code: `return m.repetitions()`, want: []any{2}},
		{name: "during play after a change", mode: asPlay, code: `m.add("b1", 1) return m.repetitions()`, want: []any{1}},
		{name: "key", code: `return m.key()`, want: []any{key}},
		{name: "key ignores memo vars", code: `m.set(3, 99) return m.key()`, want: []any{key}},
		{name: "key includes position vars", code: `m.set(1, 1) return m.key() ~= "` + key + `"`, want: []any{true}},
		{name: "key includes to_move", code: `m.set_to_move(2) return m.key() ~= "` + key + `"`, want: []any{true}},
		{name: "key includes captured", code: `m.capture("a1", 1, 1) m.add("a1", 1) return m.key() ~= "` + key + `"`, want: []any{true}},
		{name: "key includes hands", code: `m.set_hand(2, 2) return m.key() ~= "` + key + `"`, want: []any{true}},
		{name: "key includes owners", code: `m.set_owner("b1", 1) return m.key() ~= "` + key + `"`, want: []any{true}},
		{name: "key back to the same position", code: `m.add("a1", 1) m.add("a1", -1) m.set_owner("b1", 2) m.set_owner("b1", 0) return m.key()`, want: []any{key}},
	})
}

func TestPrimitivesAtLoadTime(t *testing.T) {
	for _, c := range []struct{ body, err string }{
		{`local n = m.count("a1")`, "this primitive works on a state: use it inside setup, legal, play or blocked, not while the script loads"},
		{`m.set_count("a1", 1)`, "this primitive works on a state"},
		{`local r = m.repetitions()`, "this primitive works on a state"},
		{`m.emit(SOW, "a1")`, "moves can only be emitted inside legal"},
		{`local s = m.site("z9")`, `got string "z9", which names no site of the board`},
		{`m.tag("t", { "a1", "z9" })`, `tag t[2] must be a site, got string "z9", which names no site of the board`},
		{`m.tag("t", { 1, 99 })`, "tag t[2] must be a site, got number 99, which is no site (sites are 1..4)"},
		{`m.tag("t", "a1")`, `tag t must be a list of sites, got string "a1"`},
		{`m.tag("t", { "a1" }) m.tag("t", { "a2" })`, `tag "t" is declared twice`},
		{`m.track("r", { "a1", "a2", "a1" })`, `track "r" passes a1 twice`},
		{`m.track("r", {})`, `track "r" has no sites`},
		{`m.track("r", { "a1" }) m.track("r", { "a2" })`, `track "r" is declared twice`},
		{`m.mark(9, "*")`, "tag expected (from matombo.tag), got number 9, which is no tag's handle (no tag is declared)"},
		{`m.mark(nil, "*")`, "tag expected"},
		{`local t = m.tag("t", { "a1" }) m.mark(t, "**")`, "a mark is one printable character"},
		{`local t = m.tag("t", { "a1" }) m.mark(t, "7")`, "a mark is one printable character"},
		{`local t = m.tag("t", { "a1" }) m.mark(t, "@")`, "a mark is one printable character"},
		{`local t = m.tag("t", { "a1" }) local u = m.tag("u", { "a2" }) m.mark(t, "*") m.mark(u, "*")`, `mark "*" is already used`},
		{`m.move("sow", "x{1}")`, `move kind "sow" is declared twice`},
		{`m.move("k", "")`, "move kind k: empty token template"},
		{`m.move("k", "{1")`, `move kind k: template "{1": unclosed {`},
		{`m.move("k", "{5}")`, "unknown placeholder {5}"},
		{`m.move("k", "{x}")`, "unknown placeholder {x}"},
		{`m.move("k", "a {1}")`, "a token contains no spaces"},
		{`m.move("k", "{sites}-{1}")`, "{sites} cannot be mixed with numbered sites"},
		{`m.move("k", string.rep("y", 65))`, "at most 64 characters"},
		{`m.var("v") m.var("v")`, `variable "v" is declared twice`},
		{`m.var("v", { shared = true })`, "matombo.var options: unknown field shared (known: position)"},
		{`for i = 1, 65 do m.var("v" .. i) end`, "a game may declare at most 64 variables"},
		{`for i = 1, 65 do m.tag("t" .. i, {}) end`, "a board may have at most 64 tags"},
		{`for i = 1, 255 do m.move("k" .. i, "k{1}") end`, "a game may declare at most 255 move kinds"},
		{`m.declare { name = "x" }`, "matombo.declare is called twice"},
		{`m.board { rows = { "c" }, columns = 1 }`, "the board is declared twice"},
		{`local f = m.filter { colour = 1 }`, "matombo.filter: unknown field colour (known: owner, min, max, tag, not_tag, row, track, next_empty, supported, in_row, not_in_row)"},
		{`local f = m.filter { owner = "me" }`, `filter: owner must be a player number, "mover", "opponent" or "nobody", got "me"`},
		{`local f = m.filter { owner = 3 }`, "filter: owner 3 does not exist"},
		{`local f = m.filter { owner = {} }`, "filter: owner must be a player number or a word, got table"},
		{`local f = m.filter { min = "x" }`, `filter: min must be a whole number, got string "x"`},
		{`local f = m.filter { min = 1.5 }`, "filter: min must be a whole number, got number 1.5"},
		{`local f = m.filter { max = -1 }`, "filter: max must be at least 0"},
		{`local f = m.filter { min = 1e300 }`, "filter: min 1e+300 is out of range (at most 1073741823)"},
		{`local f = m.filter { max = 2^64 }`, "filter: max 1.8446744073709552e+19 is out of range (at most 1073741823)"},
		{`local f = m.filter { row = -2^63 }`, "filter: row -9223372036854775808 is out of range (at most 1073741823)"},
		{`local f = m.filter { tag = 9 }`, "filter: tag must be a tag (from matombo.tag, or its name), got number 9, which is no tag's handle (no tag is declared)"},
		{`local f = m.filter { not_tag = 0 }`, "filter: not_tag must be a tag (from matombo.tag, or its name), got number 0, which is no tag's handle (no tag is declared)"},
		{`local f = m.filter { row = 3 }`, "filter: row 3 does not exist"},
		{`local f = m.filter { track = 1 }`, "filter: track must be a track (from matombo.track, or its name), got number 1, which is no track's handle (no track is declared); 1 is the handle of the move kind sow"},
		{`local f = m.filter { next_empty = 2 }`, "filter: next_empty must be a track (from matombo.track, or its name), got number 2, which is no track's handle (no track is declared)"},
		{`local f = m.filter { supported = 1 }`, "filter: supported must be true or false, got number 1"},
	} {
		t.Run(c.body, func(t *testing.T) {
			_, err := loadSource(t, "atload", miniSource("atload", c.body))
			require.Error(t, err)
			var se *ScriptError
			require.ErrorAs(t, err, &se)
			assert.Contains(t, err.Error(), c.err)
			assert.Equal(t, 5, se.Pos.Line, "the error names the line of the call: %v", err)
			assert.Equal(t, Call("load"), se.Func)
		})
	}
}

// The script's declarations: the game, the board and the rules table.
func TestDeclarationErrors(t *testing.T) {
	good := `local m = matombo
m.declare { name = "d" }
m.board { rows = { "a" }, columns = 2 }
local K = m.move("k", "{1}")
return { setup = function() m.set_count(1, 1) end, legal = function() m.emit(K, 1) end, play = function() m.finish(0) end }
`
	_, err := loadSource(t, "d", good)
	require.NoError(t, err)
	for _, c := range []struct{ name, src, err string }{
		{"no return", strings.Replace(good, "return {", "local rules = {", 1), `the script must end with "return { setup = ..., legal = ..., play = ... }", but it returned nil`},
		{"no setup", strings.Replace(good, "setup = function() m.set_count(1, 1) end, ", "", 1), `the returned rules table needs a function "setup", got nil`},
		{"play not a function", strings.Replace(good, "play = function() m.finish(0) end", "play = 1", 1), `needs a function "play", got number`},
		{"blocked not a function", strings.Replace(good, "play = function", "blocked = {}, play = function", 1), `needs a function "blocked", got table`},
		{"unknown rule", strings.Replace(good, "play = function", "moves = 1, play = function", 1), "the returned rules table has unknown fields moves (known: setup, legal, play, blocked"},
		{"no declare", strings.Replace(good, `m.declare { name = "d" }`, "", 1), "call matombo.declare before matombo.board"},
		{"no board", strings.Replace(strings.Replace(good, `m.board { rows = { "a" }, columns = 2 }`, "", 1), "m.emit(K, 1)", "", 1), "the script never declared its board with matombo.board"},
		{"no moves", strings.Replace(strings.Replace(good, `local K = m.move("k", "{1}")`, "", 1), "m.emit(K, 1)", "", 1), "the script declared no move kinds (matombo.move)"},
		{"wrong name", strings.Replace(good, `name = "d"`, `name = "other"`, 1), `the script declares the game "other" but is loaded as "d"`},
		{"no name", strings.Replace(good, `name = "d"`, `title = "d"`, 1), "matombo.declare needs a name"},
		{"unknown declare field", strings.Replace(good, `name = "d"`, `name = "d", colour = "red"`, 1), "matombo.declare: unknown field colour"},
		{"players 0", strings.Replace(good, `name = "d"`, `name = "d", players = 0`, 1), "players must be a whole number from 1 to 8, got number 0"},
		{"players 9", strings.Replace(good, `name = "d"`, `name = "d", players = 9`, 1), "players must be a whole number from 1 to 8"},
		{"conserve not bool", strings.Replace(good, `name = "d"`, `name = "d", conserve = 1`, 1), "conserve must be true or false"},
		{"max_plies 0", strings.Replace(good, `name = "d"`, `name = "d", max_plies = 0`, 1), "max_plies must be a whole number from 1 to 1073741823"},
		{"params not a list", strings.Replace(good, `name = "d"`, `name = "d", params = 1`, 1), "params must be a list of parameter declarations"},
		{"param without default", strings.Replace(good, `name = "d"`, `name = "d", params = { { name = "n" } }`, 1), "parameter n needs a default"},
		{"param without name", strings.Replace(good, `name = "d"`, `name = "d", params = { { default = 1 } }`, 1), "params[1] needs a name"},
		{"param unknown field", strings.Replace(good, `name = "d"`, `name = "d", params = { { name = "n", default = 1, help = "x" } }`, 1), "params[1]: unknown field help"},
		{"param default not allowed", strings.Replace(good, `name = "d"`, `name = "d", params = { { name = "n", default = 5, values = { 1, 2 } } }`, 1), "parameter n: the default 5 is not among its values"},
		{"param values of another kind", strings.Replace(good, `name = "d"`, `name = "d", params = { { name = "n", default = 1, values = { 1, "two" } } }`, 1), "parameter n: value two: want an integer"},
		{"param fraction", strings.Replace(good, `name = "d"`, `name = "d", params = { { name = "n", default = 1.5 } }`, 1), "parameter n: default must be a whole number (a 32-bit integer), got 1.5"},
		{"param twice", strings.Replace(good, `name = "d"`, `name = "d", params = { { name = "n", default = 1 }, { name = "n", default = 2 } }`, 1), "parameter n is declared twice"},
		{"params beyond the bound", strings.Replace(good, `name = "d"`, `name = "d", params = (function() local t = {} for i = 1, 65 do t[i] = { name = "p" .. i, default = 1 } end return t end)()`, 1), "a game may declare at most 64 parameters, got 65"},
		{"values beyond the bound", strings.Replace(good, `name = "d"`, `name = "d", params = { { name = "n", default = 1, values = (function() local t = {} for i = 1, 257 do t[i] = i end return t end)() } }`, 1), "parameter n: at most 256 values may be listed, got 257"},
		{"param table default", strings.Replace(good, `name = "d"`, `name = "d", params = { { name = "n", default = {} } }`, 1), "parameter n: default must be a number, boolean or string, got table"},
		{"board both kinds", strings.Replace(good, `columns = 2`, `columns = 2, points = { a1 = 1 }`, 1), "board: a board has either rows and columns or points, not both"},
		{"board no columns", strings.Replace(good, `columns = 2`, `columns = 0`, 1), "board: a grid board needs columns >= 1, got 0"},
		{"board too big", strings.Replace(good, `columns = 2`, `columns = 5000`, 1), "board: a board may have at most 4096 sites, this one has 5000"},
		{"board bad row label", strings.Replace(good, `rows = { "a" }`, `rows = { "A" }`, 1), `board: row label "A" must be 1 to 8 lower-case letters`},
		{"board row twice", strings.Replace(good, `rows = { "a" }`, `rows = { "a", "a" }`, 1), `board: row label "a" is declared twice`},
		{"board no rows", strings.Replace(good, `rows = { "a" }`, `rows = {}`, 1), "rows must list at least one row label"},
		{"board columns text", strings.Replace(good, `columns = 2`, `columns = "2"`, 1), `columns must be a whole number, got string "2"`},
		{"board nothing", strings.Replace(good, `rows = { "a" }, columns = 2`, ``, 1), "board: a board needs rows and columns, or points"},
		{"board unknown field", strings.Replace(good, `columns = 2`, `columns = 2, colour = 1`, 1), "matombo.board: unknown field colour"},
		{"board style", strings.Replace(good, `columns = 2`, `columns = 2, style = "dots"`, 1), `style must be "counts", "pieces" or "checkered", got string "dots"`},
		{"checkered squares side by side", strings.Replace(good, `columns = 2`, `columns = 2, style = "checkered"`, 1), `a checkered board's points are squares of one colour: a2 (row a, position 2) is on the other colour from a1`},
		{"hand_label not a name", strings.Replace(good, `name = "d"`, `name = "d", hand_label = true`, 1), `hand_label must be a name of 1 to 32 characters for what a player holds in hand (e.g. "to place"), or false for a hand not shown, got boolean`},
		{"board line too short", strings.Replace(good, `columns = 2`, `columns = 2, lines = { { "a1" } }`, 1), "board: line 1 has 1 sites; a line needs at least 2"},
		{"board line unknown site", strings.Replace(good, `columns = 2`, `columns = 2, lines = { { "a1", "a3" } }`, 1), `board: line 1 (a1-a3) names "a3", which is not a site of the board`},
		{"board line site twice", strings.Replace(good, `columns = 2`, `columns = 2, lines = { { "a1", "a2", "a1" } }`, 1), "board: line 1 (a1-a2-a1) names a1 twice"},
		{"board picture missing row", strings.Replace(good, `columns = 2`, `columns = 2, picture = "x @ @"`, 1), "board: picture line 1 has @ but does not start with a row label"},
		{"board picture wrong count", strings.Replace(good, `columns = 2`, `columns = 2, picture = "a @"`, 1), "board: picture line 1 (row a) has 1 @, the row has 2 sites"},
		{"board picture no row", strings.Replace(good, `columns = 2`, `columns = 2, picture = "hello"`, 1), "board: picture does not draw row a"},
		{"point names", strings.Replace(good, `rows = { "a" }, columns = 2`, `points = { A1 = 1 }`, 1), `board: point name "A1" must be a row letter and a number, like a1`},
		{"point position", strings.Replace(good, `rows = { "a" }, columns = 2`, `points = { a1 = -1 }`, 1), "board: point a1: drawing position must be >= 0, got -1"},
		{"points clash", strings.Replace(good, `rows = { "a" }, columns = 2`, `points = { a1 = 1, a2 = 1 }`, 1), "board: points a1 and a2 have the same row and drawing position 1"},
		{"points empty", strings.Replace(good, `rows = { "a" }, columns = 2`, `points = {}`, 1), "board: a point board needs at least one point"},
		{"points bad value", strings.Replace(good, `rows = { "a" }, columns = 2`, `points = { a1 = "x" }`, 1), "points: a1 = x: want a point name and a whole drawing position"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := loadSource(t, "d", c.src)
			require.Error(t, err)
			var se *ScriptError
			require.ErrorAs(t, err, &se, "%T %v", err, err)
			assert.Contains(t, err.Error(), c.err)
			assert.Contains(t, err.Error(), "d.lua")
		})
	}
}

// openLinesProbe returns open_lines(1), the same count made in Lua over
// m.lines(), then both for player 2.
const openLinesProbe = `local function open(p)
  local n = 0
  for _, line in ipairs(m.lines()) do
    local mine, empty = 0, 0
    for _, s in ipairs(line) do
      local o = m.owner(s)
      if o == p then mine = mine + 1 elseif o == 0 then empty = empty + 1 end
    end
    if mine == #line - 1 and empty == 1 then n = n + 1 end
  end
  return n
end
return m.open_lines(1), open(1), m.open_lines(2), open(2)`
