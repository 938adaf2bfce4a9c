package host

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// luaOppositeCapture is the ring game's play with capture_rule's opposite
// capture written in Lua: the last counter in an empty site of the mover's
// takes the facing site's counters and itself when the facing site holds
// MIN or more, and, with EMPTY true, does so even when the facing site is
// empty.
const luaOppositeCapture = `(function()
  local function cap(p, last, was_empty)
    if not was_empty or m.owner(last) ~= p then return 0 end
    local opp = m.opposite(last, 3 - p)
    if not EMPTY and m.count(opp) < MIN then return 0 end
    return m.capture(opp, p) + m.capture(last, p)
  end
  return function(p, kind, from)
    local last, empty = sow(p, from)
    ending(p, cap(p, last, empty))
  end
end)()`

// TestCaptureEmptyOpposite: capture_rule with empty_opposite captures the
// last counter alone when the facing site is empty, and with opposite_min
// only when the facing site holds that many; each plays exactly as the
// same capture written in Lua over random games, and each field changes
// some games.
func TestCaptureEmptyOpposite(t *testing.T) {
	const games = 40
	for _, c := range []struct {
		fields string // capture_rule's fields besides the opposite capture's
		empty  bool
		min    int
	}{
		{"", false, 1},
		{"empty_opposite = true", true, 1},
		{"opposite_min = 1", false, 1},
		{"opposite_min = 2", false, 2},
		{"opposite_min = 3", false, 3},
	} {
		spec := fmt.Sprintf(`{ sow = { track = RING }, capture = { owner = "mover", was_empty = true, opposite = { 2, 1 }, with_last = true, %s }, sowings = { kind = SOW, from = MINE } }`, c.fields)
		native, err := loadSource(t, "ring", ringSource(spec, "nil", "nil"))
		require.NoError(t, err)
		viaLua, err := loadSource(t, "ring", ringSource(spec, "nil",
			fmt.Sprintf("(function() local EMPTY, MIN = %v, %d; return %s end)()", c.empty, c.min, luaOppositeCapture)))
		require.NoError(t, err)
		plain, err := loadSource(t, "ring", ringSource(`{ sow = { track = RING }, capture = { owner = "mover", was_empty = true, opposite = { 2, 1 }, with_last = true }, sowings = { kind = SOW, from = MINE } }`, "nil", "nil"))
		require.NoError(t, err)
		differ := 0
		for n := range games {
			rng := rand.New(rand.NewPCG(uint64(n), 7))
			a, b, d := native.Start(), viaLua.Start(), plain.Start()
			same := true // the plain capture's game has followed a's
			for ply := 0; !a.Over() && ply < 200; ply++ {
				require.Equal(t, a.Legal(), b.Legal(), "%s: game %d ply %d", c.fields, n, ply)
				tok := a.Legal()[rng.IntN(len(a.Legal()))]
				require.NoError(t, a.Play(tok))
				require.NoError(t, b.Play(tok))
				require.Equal(t, a.Key(), b.Key(), "%s, game %d, after %s:\n%s\n%s", c.fields, n, tok, a.Diagram(), b.Diagram())
				require.Equal(t, a.Captured(1), b.Captured(1))
				require.Equal(t, a.Captured(2), b.Captured(2))
				if same && (d.Play(tok) != nil || d.Key() != a.Key()) {
					same = false
				}
			}
			if !same {
				differ++
			}
		}
		if c.empty || c.min > 1 {
			assert.Positive(t, differ, "%s changes some of the games", c.fields)
		} else {
			assert.Zero(t, differ, "%q plays as the plain opposite capture", c.fields)
		}
	}
}

// TestCaptureOppositeFieldsNeedOpposite: empty_opposite or opposite_min
// without opposite, or both together, is an error naming them.
func TestCaptureOppositeFieldsNeedOpposite(t *testing.T) {
	for _, c := range []struct{ fields, want string }{
		{"counts = { 2 }, empty_opposite = true", "empty_opposite needs opposite"},
		{"counts = { 2 }, opposite_min = 2", "opposite_min needs opposite"},
		{"opposite = { 2, 1 }, empty_opposite = true, opposite_min = 2", "give empty_opposite (the opposite site may be empty) or opposite_min (it must hold that many), not both"},
		{"opposite = { 2, 1 }, opposite_min = 0", "opposite_min"},
	} {
		_, err := loadSource(t, "ring", ringSource(`{ sow = { track = RING }, capture = { `+c.fields+` }, sowings = { kind = SOW, from = MINE } }`, "nil", "nil"))
		require.Error(t, err, c.fields)
		assert.Contains(t, err.Error(), c.want, c.fields)
	}
}
