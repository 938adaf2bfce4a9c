package host_test

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/games"
	"github.com/matombo/matombo/host"
)

// TestApplyTo: Runner.ApplyTo makes the state that copying the position
// and applying the move makes (the same JSON, key, legal moves, result and
// ply), and leaves the state played from as it was, on random games of
// several shipped games, the games' repetition and irreversible moves
// included; dst is reused from one move to the next, as a search does.
func TestApplyTo(t *testing.T) {
	for _, name := range []string{"kalah", "oware", "gore", "bao", "baokiswahili", "draughts", "tsoro", "nineholes", "yematatu"} {
		t.Run(name, func(t *testing.T) {
			g, err := games.Library().Load(name)
			require.NoError(t, err)
			r := g.NewRunner()
			defer r.Close()
			rng := rand.New(rand.NewPCG(5, 6))
			s := g.Start()
			dst := &host.State{} // a zero state, then reused
			for ply := 0; ply < 150 && !s.Over(); ply++ {
				before := jsonOf(t, s)
				for _, m := range s.Moves() {
					want := s.Clone()
					require.NoError(t, r.Apply(want, m))
					require.NoError(t, r.ApplyTo(dst, s, m), "ply %d move %s", ply, g.Token(m))
					require.Equal(t, jsonOf(t, want), jsonOf(t, dst), "ply %d move %s", ply, g.Token(m))
					require.Equal(t, want.Key(), dst.Key())
					require.Equal(t, want.Legal(), dst.Legal())
					require.Equal(t, want.Outcome(), dst.Outcome())
					require.Equal(t, want.Ply(), dst.Ply())
					require.Same(t, g, dst.Game())
				}
				require.Equal(t, before, jsonOf(t, s), "ply %d: the state played from is unchanged", ply)
				require.NoError(t, r.Apply(s, s.Moves()[rng.IntN(len(s.Moves()))]))
			}
		})
	}
}

// TestApplyToFails: a move ApplyTo refuses leaves the state played from
// unchanged and makes dst a copy of it; with Record on, the effects are
// recorded as Apply records them; dst may be the state played from.
func TestApplyToFails(t *testing.T) {
	g, err := games.Library().Load("kalah")
	require.NoError(t, err)
	other, err := games.Library().Load("oware")
	require.NoError(t, err)
	r := g.NewRunner()
	defer r.Close()
	s := g.Start()
	require.NoError(t, s.Play("a3"))
	s2 := g.Start()
	require.NoError(t, s2.Play("a1"))
	illegal := s2.Moves()[0] // a1, empty after a1 is played
	cases := []struct {
		name string
		src  *host.State
		m    host.Move
		want string
	}{
		{"an illegal move", s, illegal, "illegal"},
		{"the zero move", s, host.Move{}, "illegal"},
		{"a state of another game", other.Start(), other.Start().Moves()[0], "runner of"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := jsonOf(t, c.src)
			dst := g.Start()
			require.NoError(t, dst.Play("a6"))
			err := r.ApplyTo(dst, c.src, c.m)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
			assert.Equal(t, before, jsonOf(t, c.src), "the state played from is unchanged")
			assert.Equal(t, before, jsonOf(t, dst), "dst is a copy of it")
		})
	}
	t.Run("recorded", func(t *testing.T) {
		r.Record(true)
		defer r.Record(false)
		want, dst := s.Clone(), &host.State{}
		m := s.Moves()[0]
		require.NoError(t, r.Apply(want, m))
		require.NoError(t, r.ApplyTo(dst, s, m))
		wantFx, ok := want.Effects()
		require.True(t, ok)
		assert.NotEmpty(t, wantFx)
		fx, ok := dst.Effects()
		require.True(t, ok)
		assert.Equal(t, wantFx, fx)
		assert.Equal(t, jsonOf(t, want), jsonOf(t, dst))
	})
	t.Run("onto itself", func(t *testing.T) {
		want, self := s.Clone(), s.Clone()
		m := s.Moves()[0]
		require.NoError(t, r.Apply(want, m))
		require.NoError(t, r.ApplyTo(self, self, m))
		assert.Equal(t, jsonOf(t, want), jsonOf(t, self))
	})
}

func jsonOf(t *testing.T, s *host.State) string {
	t.Helper()
	b, err := json.Marshal(s)
	require.NoError(t, err)
	return string(b)
}

// TestApplyToUnlisted: Runner.ApplyToUnlisted makes the position, key,
// ply and history ApplyTo makes, and its result when the game is over;
// once Runner.List lists its moves, the state is the one ApplyTo makes
// (the same JSON, legal moves and result), on random games of every
// shipped game. A move played from an unlisted state lists it first.
func TestApplyToUnlisted(t *testing.T) {
	lib := games.Library()
	for _, name := range lib.Games() {
		t.Run(name, func(t *testing.T) {
			g, err := lib.Load(name)
			require.NoError(t, err)
			r := g.NewRunner()
			defer r.Close()
			rng := rand.New(rand.NewPCG(7, 8))
			s := g.Start()
			want, dst := &host.State{}, &host.State{}
			for ply := 0; ply < 120 && !s.Over(); ply++ {
				before := jsonOf(t, s)
				for i, m := range s.Moves() {
					require.NoError(t, r.ApplyTo(want, s, m))
					require.NoError(t, r.ApplyToUnlisted(dst, s, i), "ply %d move %s", ply, g.Token(m))
					require.Equal(t, want.Key(), dst.Key())
					require.Equal(t, want.AppendPosition(nil), dst.AppendPosition(nil))
					require.Equal(t, want.Ply(), dst.Ply())
					require.Equal(t, want.Repetitions(), dst.Repetitions())
					if dst.Listed() {
						require.True(t, dst.Over(), "ply %d move %s: a game that goes on is unlisted", ply, g.Token(m))
					} else {
						require.False(t, dst.Over())
						require.Panics(t, func() { dst.Moves() })
					}
					require.NoError(t, r.List(dst))
					require.True(t, dst.Listed())
					require.Equal(t, jsonOf(t, want), jsonOf(t, dst), "ply %d move %s", ply, g.Token(m))
					require.Equal(t, want.Legal(), dst.Legal())
					require.Equal(t, want.Outcome(), dst.Outcome())
					require.Same(t, g, dst.Game())
				}
				require.Equal(t, before, jsonOf(t, s), "ply %d: the state played from is unchanged", ply)
				i := rng.IntN(len(s.Moves()))
				require.NoError(t, r.ApplyTo(want, s, s.Moves()[i]))
				next := &host.State{}
				require.NoError(t, r.ApplyToUnlisted(next, s, i))
				if !want.Over() && ply%2 == 0 { // played on from unlisted
					m2 := want.Moves()[rng.IntN(len(want.Moves()))]
					require.NoError(t, r.ApplyTo(dst, next, m2))
					require.NoError(t, r.Apply(want, m2))
					require.Equal(t, jsonOf(t, want), jsonOf(t, dst))
					require.True(t, next.Listed(), "ApplyTo lists the state it plays from")
				}
				s = want.Clone()
			}
		})
	}
}

// TestApplyToUnlistedFails: a move index out of range or a state of
// another game leaves dst a copy of the state played from; with Record on
// or onto itself, the move is played and listed as ApplyTo plays it.
func TestApplyToUnlistedFails(t *testing.T) {
	g, err := games.Library().Load("kalah")
	require.NoError(t, err)
	other, err := games.Library().Load("oware")
	require.NoError(t, err)
	r := g.NewRunner()
	defer r.Close()
	s := g.Start()
	for _, c := range []struct {
		name string
		src  *host.State
		i    int
		want string
	}{
		{"an index past the list", s, len(s.Moves()), "no legal move 6"},
		{"a negative index", s, -1, "no legal move -1"},
		{"a state of another game", other.Start(), 0, "runner of"},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := jsonOf(t, c.src)
			dst := &host.State{}
			err := r.ApplyToUnlisted(dst, c.src, c.i)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
			assert.Equal(t, before, jsonOf(t, c.src))
			assert.Equal(t, before, jsonOf(t, dst))
		})
	}
	want := &host.State{}
	require.NoError(t, r.ApplyTo(want, s, s.Moves()[2]))
	self := s.Clone()
	require.NoError(t, r.ApplyToUnlisted(self, self, 2))
	assert.True(t, self.Listed())
	assert.Equal(t, jsonOf(t, want), jsonOf(t, self))
	r.Record(true)
	defer r.Record(false)
	dst := &host.State{}
	require.NoError(t, r.ApplyToUnlisted(dst, s, 2))
	assert.True(t, dst.Listed())
	_, recorded := dst.Effects()
	assert.True(t, recorded)
}
