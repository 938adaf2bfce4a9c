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
// takes the facing site's counters and itself, and, with EMPTY true, does
// so even when the facing site is empty.
const luaOppositeCapture = `(function()
  local function cap(p, last, was_empty)
    if not was_empty or m.owner(last) ~= p then return 0 end
    local opp = m.opposite(last, 3 - p)
    if not EMPTY and m.count(opp) == 0 then return 0 end
    return m.capture(opp, p) + m.capture(last, p)
  end
  return function(p, kind, from)
    local last, empty = sow(p, from)
    ending(p, cap(p, last, empty))
  end
end)()`

// TestCaptureEmptyOpposite: capture_rule with empty_opposite captures the
// last counter alone when the facing site is empty, and plays exactly as
// the same capture written in Lua, with and without the field, over
// random games; the field changes some games.
func TestCaptureEmptyOpposite(t *testing.T) {
	const games = 40
	differ := 0
	var ends [2][games]uint64
	for e, empty := range []bool{false, true} {
		spec := fmt.Sprintf(`{ sow = { track = RING }, capture = { owner = "mover", was_empty = true, opposite = { 2, 1 }, empty_opposite = %v, with_last = true }, sowings = { kind = SOW, from = MINE } }`, empty)
		native, err := loadSource(t, "ring", ringSource(spec, "nil", "nil"))
		require.NoError(t, err)
		viaLua, err := loadSource(t, "ring", ringSource(spec, "nil",
			"(function() local EMPTY = "+fmt.Sprint(empty)+"; return "+luaOppositeCapture+" end)()"))
		require.NoError(t, err)
		for n := range games {
			rng := rand.New(rand.NewPCG(uint64(n), 7))
			a, b := native.Start(), viaLua.Start()
			for ply := 0; !a.Over() && ply < 200; ply++ {
				require.Equal(t, a.Legal(), b.Legal(), "game %d ply %d", n, ply)
				tok := a.Legal()[rng.IntN(len(a.Legal()))]
				require.NoError(t, a.Play(tok))
				require.NoError(t, b.Play(tok))
				require.Equal(t, a.Key(), b.Key(), "empty_opposite=%v, game %d, after %s:\n%s\n%s", empty, n, tok, a.Diagram(), b.Diagram())
				require.Equal(t, a.Captured(1), b.Captured(1))
				require.Equal(t, a.Captured(2), b.Captured(2))
			}
			ends[e][n] = a.Key()
		}
	}
	for n := range games {
		if ends[0][n] != ends[1][n] {
			differ++
		}
	}
	assert.Positive(t, differ, "empty_opposite changes some of the games")
}

// TestCaptureEmptyOppositeNeedsOpposite: the field without opposite is an
// error naming it.
func TestCaptureEmptyOppositeNeedsOpposite(t *testing.T) {
	_, err := loadSource(t, "ring", ringSource(`{ sow = { track = RING }, capture = { counts = { 2 }, empty_opposite = true }, sowings = { kind = SOW, from = MINE } }`, "nil", "nil"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "empty_opposite needs opposite")
}
