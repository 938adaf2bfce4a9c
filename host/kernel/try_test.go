package kernel

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tryFixture is a Ctx on a state of a 2x3 board of counts, with a move
// listed, a key, a ply and an effects recorder holding one effect.
func tryFixture(t *testing.T) *Ctx {
	t.Helper()
	b, err := NewBoard(BoardSpec{Rows: []string{"a", "b"}, Columns: 3})
	require.NoError(t, err)
	def := &Def{Board: b, Players: 2, Layout: NewLayout(b.NumSites(), 2, 0, 0), Tag: 7}
	s := &State{Cells: make([]int32, def.Layout.Size), Ply: 5, Key: 0xfeed}
	for i := range b.NumSites() {
		s.Cells[i] = int32(i + 1)
	}
	s.Moves = append(s.Moves, Move{N: 1, game: def.Tag})
	c := &Ctx{Def: def}
	c.Reset(s, Unmetered{}, 1)
	c.Rec = &Recorder{}
	c.Rec.Site(EffectTake, 0, 1)
	return c
}

// TestTryPutsEverythingBack: whatever a trial changes (cells, ply, key,
// result, listed moves, the next decider, irreversibility, recorded
// effects), the state and the Ctx are as they were after it, whether the
// trial succeeds or fails.
func TestTryPutsEverythingBack(t *testing.T) {
	boom := errors.New("boom")
	for _, tc := range []struct {
		name string
		err  error
	}{{"the trial succeeds", nil}, {"the trial fails", boom}} {
		t.Run(tc.name, func(t *testing.T) {
			c := tryFixture(t)
			cells := append([]int32(nil), c.S.Cells...)
			effects := append([]Effect(nil), c.Rec.List()...)
			seen := -1
			err := c.Try(func() error {
				assert.True(t, c.Trying())
				seen = c.S.Ply
				_, err := c.Add(0, 4)
				require.NoError(t, err)
				require.NoError(t, c.SetCount(3, 0))
				c.S.Ply, c.S.Key = 9, 1
				c.SetToMove(2)
				c.Irreversible = true
				c.Finish(2, "tried", nil, []int{1})
				c.S.Moves = append(c.S.Moves, Move{N: 1, game: c.Def.Tag}, Move{N: 1, game: c.Def.Tag})
				return tc.err
			})
			assert.ErrorIs(t, err, tc.err)
			assert.Equal(t, 5, seen, "the trial starts from the state")
			assert.False(t, c.Trying())
			assert.Equal(t, cells, c.S.Cells)
			assert.Equal(t, 5, c.S.Ply)
			assert.Equal(t, uint64(0xfeed), c.S.Key)
			assert.False(t, c.S.Result.Over)
			assert.Len(t, c.S.Moves, 1)
			assert.False(t, c.ToMoveSet)
			assert.False(t, c.Irreversible)
			assert.Equal(t, effects, c.Rec.List(), "a trial records nothing")
		})
	}
}

// TestTryNests: trials nest, each putting back its own state, at most
// MaxTries deep; the copies are charged to the call's steps.
func TestTryNests(t *testing.T) {
	c := tryFixture(t)
	var deep func(n int) (int, error)
	deep = func(n int) (int, error) {
		if n == 0 {
			return int(c.S.Cells[0]), nil
		}
		var got int
		err := c.Try(func() error {
			if _, err := c.Add(0, 1); err != nil {
				return err
			}
			var err error
			got, err = deep(n - 1)
			return err
		})
		return got, err
	}
	got, err := deep(MaxTries)
	require.NoError(t, err)
	assert.Equal(t, 1+MaxTries, got, "each level sees the levels above it")
	assert.Equal(t, int32(1), c.S.Cells[0])

	_, err = deep(MaxTries + 1)
	var re *RuleError
	require.ErrorAs(t, err, &re)
	assert.Contains(t, re.Msg, "tries nest at most 8 deep")
	assert.Equal(t, int32(1), c.S.Cells[0])

	c.own = Steps{Limit: 2}
	c.Steps = &c.own
	err = c.Try(func() error { t.Fatal("a trial over the budget ran"); return nil })
	assert.ErrorIs(t, err, ErrSteps)
}
