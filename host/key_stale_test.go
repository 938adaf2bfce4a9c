package host

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// shuttleGame has no repetition function, so a move played unlisted
// leaves its key to compute; every script function that can run on such
// a state counts repetitions: "flip" moves the counter between a1 and a2,
// listing offers only "stop" once the position has occurred three times,
// and evaluate and score report the count.
const shuttleGame = `local m = matombo
m.declare { name = "shuttle", score_label = "seen" }
m.board { rows = { "a" }, columns = 2 }
local FLIP, STOP = m.move("flip", "flip"), m.move("stop", "stop")
return {
  setup = function() m.set_count("a1", 1) end,
  legal = function(p)
    if m.repetitions() < 3 then m.emit(FLIP) end
    m.emit(STOP)
  end,
  play = function(p, kind)
    if kind == STOP then m.finish(0, "stopped") return end
    local from, to = "a1", "a2"
    if m.count("a1") == 0 then from, to = "a2", "a1" end
    m.set_count(from, 0)
    m.set_count(to, 1)
  end,
  evaluate = function(p) return m.repetitions() end,
  score = function(over) return m.repetitions(), 0 end,
}
`

// TestKeyLeftToCompute: a move played by Runner.ApplyToUnlisted in a game
// without a repetition function leaves the key and the history's latest
// key to compute, and nothing can tell: Key, Repetitions, Evaluate, Score,
// the listing's own count, Resign and the JSON are those of ApplyTo's
// state, a stale state reused as a destination is set afresh, and its key
// is read concurrently without a race.
func TestKeyLeftToCompute(t *testing.T) {
	g, err := loadSource(t, "shuttle", shuttleGame)
	require.NoError(t, err)
	r := g.NewRunner()
	defer r.Close()
	s := g.Start()
	flip := s.Moves()[0]
	require.Equal(t, "flip", g.Token(flip))
	for ply := range 4 { // a1, a2, a1, a2, a1: the third a1 offers only stop
		want, dst := &State{}, &State{}
		require.NoError(t, r.ApplyTo(want, s, flip))
		require.NoError(t, r.ApplyToUnlisted(dst, s, 0))
		require.True(t, dst.k.KeyStale, "ply %d: the key is left to compute", ply)
		assert.Equal(t, want.Key(), dst.Key(), "ply %d", ply)
		assert.Equal(t, want.Repetitions(), dst.Repetitions(), "ply %d", ply)
		for p := 1; p <= 2; p++ {
			we, _, err := r.Evaluate(want, p)
			require.NoError(t, err)
			de, _, err := r.Evaluate(dst, p)
			require.NoError(t, err)
			assert.Equal(t, we, de, "ply %d: evaluate(%d) counts the position", ply, p)
		}
		ws, err := r.Score(want, nil)
		require.NoError(t, err)
		ds, err := r.Score(dst, nil)
		require.NoError(t, err)
		assert.Equal(t, ws, ds, "ply %d: score counts the position", ply)

		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() {
				assert.Equal(t, want.Key(), dst.Key())
				assert.Equal(t, want.Repetitions(), dst.Repetitions())
			})
		}
		wg.Wait()
		require.True(t, dst.k.KeyStale, "reading the key leaves the state as it is")

		resigned, wantResigned := dst.Clone(), want.Clone()
		require.NoError(t, resigned.Resign(1))
		require.NoError(t, wantResigned.Resign(1))
		assert.Equal(t, stateJSONText(t, wantResigned), stateJSONText(t, resigned), "ply %d: resigned", ply)

		reused := dst.Clone()
		require.NoError(t, r.ApplyTo(reused, s, flip), "a stale destination")
		assert.False(t, reused.k.KeyStale)
		assert.Equal(t, stateJSONText(t, want), stateJSONText(t, reused))

		require.NoError(t, r.List(dst))
		assert.False(t, dst.k.KeyStale, "listing computes the key")
		assert.Equal(t, want.Legal(), dst.Legal(), "ply %d: the listing counts the position", ply)
		assert.Equal(t, stateJSONText(t, want), stateJSONText(t, dst), "ply %d", ply)
		s = want
	}
	assert.Equal(t, []string{"stop"}, s.Legal(), "the third occurrence offers only stop")
}

// TestKeyComputedWithRepetitionFunction: a game with a repetition
// function needs the key at once, so a move played unlisted computes it.
func TestKeyComputedWithRepetitionFunction(t *testing.T) {
	g, err := loadSource(t, "irrev", irreversibleGame)
	require.NoError(t, err)
	r := g.NewRunner()
	defer r.Close()
	s, dst := g.Start(), &State{}
	require.NoError(t, r.ApplyToUnlisted(dst, s, 0))
	assert.False(t, dst.k.KeyStale)
	assert.False(t, dst.Listed())
}
