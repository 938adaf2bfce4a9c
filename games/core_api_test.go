package games_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/games"
	"github.com/matombo/matombo/host"
)

// What searches, solvers and servers rely on, checked on every shipped game
// and variant: exact positions, replays with history, moves that know
// their game, fingerprints.

// randomRecord plays a random game with a runner and returns the states
// along it (clones) and its record.
func randomRecord(t *testing.T, g *host.Game, seed uint64, maxPlies int) ([]*host.State, []string) {
	t.Helper()
	r := g.NewRunner()
	defer r.Close()
	rng := rand.New(rand.NewPCG(seed, 7))
	s := g.Start()
	states := []*host.State{s.Clone()}
	var record []string
	for !s.Over() && len(record) < maxPlies {
		ms := s.Moves()
		m := ms[rng.IntN(len(ms))]
		record = append(record, g.Token(m))
		require.NoError(t, r.Apply(s, m))
		states = append(states, s.Clone())
	}
	return states, record
}

func TestExactPositions(t *testing.T) {
	lib := games.Library()
	for _, c := range configs(t) {
		t.Run(c.label, func(t *testing.T) {
			g, err := c.load(lib)
			require.NoError(t, err)
			r := g.NewRunner()
			defer r.Close()
			dst := g.Start()
			for seed := uint64(0); seed < 3; seed++ {
				states, _ := randomRecord(t, g, seed, 300)
				for _, s := range states {
					enc := s.AppendPosition(nil)
					back, err := g.StateFromPosition(enc)
					require.NoError(t, err)
					assert.Equal(t, enc, back.AppendPosition(nil), "the encoding round-trips")
					assert.Equal(t, s.Key(), back.Key(), "equal positions have equal keys")
					if !s.Over() {
						assert.Equal(t, s.Legal(), back.Legal(), "a position rebuilt lists the same moves")
						assert.False(t, back.Over())
					}
					require.NoError(t, r.SetPosition(dst, enc))
					assert.Equal(t, enc, dst.AppendPosition(nil))
				}
				// Different positions have different encodings.
				seen := map[string]uint64{}
				for _, s := range states {
					k := string(s.AppendPosition(nil))
					if old, ok := seen[k]; ok {
						assert.Equal(t, old, s.Key(), "equal encodings, equal keys")
					}
					seen[k] = s.Key()
				}
			}
			_, err = g.StateFromPosition([]byte{1, 2, 3})
			var pe *host.PositionError
			require.ErrorAs(t, err, &pe, "a short encoding is refused")
			bad := append(g.Start().AppendPosition(nil), 0)
			require.ErrorAs(t, r.SetPosition(dst, bad), &pe, "trailing bytes are refused")
		})
	}
}

// A solver sets positions millions of times: SetPosition into a state it
// reuses must not allocate.
func TestSetPositionAllocates(t *testing.T) {
	lib := games.Library()
	for _, name := range lib.Games() {
		g, err := lib.Load(name)
		require.NoError(t, err)
		states, _ := randomRecord(t, g, 1, 12)
		enc := states[len(states)-1].AppendPosition(nil)
		r := g.NewRunner()
		dst := g.Start()
		require.NoError(t, r.SetPosition(dst, enc))
		buf := make([]byte, 0, 256)
		allocs := testing.AllocsPerRun(100, func() {
			if err := r.SetPosition(dst, enc); err != nil {
				t.Fatal(err)
			}
			buf = dst.AppendPosition(buf[:0])
		})
		r.Close()
		assert.Zero(t, allocs, "%s: allocations per SetPosition and AppendPosition", name)
	}
}

func TestReplayKeepsHistory(t *testing.T) {
	lib := games.Library()
	for _, c := range configs(t) {
		t.Run(c.label, func(t *testing.T) {
			g, err := c.load(lib)
			require.NoError(t, err)
			for seed := uint64(0); seed < 4; seed++ {
				states, record := randomRecord(t, g, seed, 2000)
				for _, cut := range []int{len(record) / 2, len(record) - 1, len(record)} {
					if cut < 0 {
						continue
					}
					s, err := g.Replay(record[:cut])
					require.NoError(t, err)
					want := states[cut]
					assert.Equal(t, jsonOf(t, want), jsonOf(t, s))
					assert.Equal(t, want.Repetitions(), s.Repetitions())
					assert.Equal(t, want.Key(), s.Key())
					assert.Equal(t, want.Outcome(), s.Outcome())
				}
			}
			_, err = g.Replay([]string{"no-such-token"})
			var re *host.ReplayError
			require.ErrorAs(t, err, &re)
			assert.Equal(t, 0, re.Index)
			var ie *host.IllegalMoveError
			assert.True(t, errors.As(err, &ie), "the cause is an IllegalMoveError")
		})
	}
}

func jsonOf(t *testing.T, s *host.State) string {
	b, err := json.Marshal(s)
	require.NoError(t, err)
	return string(b)
}

func TestMovesKnowTheirGame(t *testing.T) {
	lib := games.Library()
	var loaded []*host.Game
	for _, c := range configs(t) {
		g, err := c.load(lib)
		require.NoError(t, err)
		loaded = append(loaded, g)
	}
	for i, g := range loaded {
		s := g.Start()
		before := jsonOf(t, s)
		require.Error(t, s.Apply(host.NoMove), "%s: the zero Move is never legal", g.Name())
		assert.True(t, host.NoMove.IsZero())
		for j, other := range loaded {
			if i == j || other.Fingerprint() == g.Fingerprint() {
				continue
			}
			for _, m := range other.Start().Moves() {
				err := s.Apply(m)
				var ie *host.IllegalMoveError
				require.ErrorAs(t, err, &ie, "%s accepted a move of %s", g.Name(), other.Name())
			}
		}
		assert.Equal(t, before, jsonOf(t, s), "refused moves leave the state unchanged")
	}
}

func TestFingerprints(t *testing.T) {
	lib := games.Library()
	seen := map[string]string{}
	for _, c := range configs(t) {
		g, err := c.load(lib)
		require.NoError(t, err)
		again, err := c.load(games.Library())
		require.NoError(t, err)
		assert.Equal(t, g.Fingerprint(), again.Fingerprint(), "%s: loading twice gives the same fingerprint", c.label)
		assert.Len(t, g.Fingerprint(), 64)
		params := paramsOf(g)
		if old, ok := seen[g.Fingerprint()]; ok {
			assert.Equal(t, old, params, "%s: equal fingerprints only for equal parameters", c.label)
		}
		seen[g.Fingerprint()] = params
	}
	tsoro, err := lib.Load("tsoro")
	require.NoError(t, err)
	bonus, err := lib.Load("tsoro", host.WithParam("bonus", 3))
	require.NoError(t, err)
	assert.NotEqual(t, tsoro.Fingerprint(), bonus.Fingerprint(), "a parameter changes the fingerprint")
}

func paramsOf(g *host.Game) string {
	var b bytes.Buffer
	b.WriteString(g.Name())
	for _, p := range g.Params() {
		b.WriteString(" " + p.Name + "=")
		j, _ := json.Marshal(p.Value)
		b.Write(j)
	}
	return b.String()
}

// Positions that are set up rather than played know when they are decided:
// a Tsoro Yematatu position with three on a line is over, won by their
// owner, however it was set up.
func TestResultOfSetUpPositions(t *testing.T) {
	lib := games.Library()
	for _, variant := range []string{"triangle", "square"} {
		g, err := lib.Load("yematatu", host.WithVariant(variant))
		require.NoError(t, err)
		decided, open := 0, 0
		for seed := uint64(0); seed < 200; seed++ {
			states, _ := randomRecord(t, g, seed, 500)
			last := states[len(states)-1]
			back, err := g.NewState(last.Position())
			require.NoError(t, err)
			if last.Over() && last.Outcome().Reason == "three on a line" {
				decided++
				require.True(t, back.Over(), "a set-up position with three on a line is over")
				assert.Equal(t, last.Outcome().Winner, back.Outcome().Winner)
				assert.Equal(t, host.MethodPosition, back.Outcome().Method)
				assert.Equal(t, 1.0, back.Outcome().Score(back.Outcome().Winner))
			} else if !last.Over() {
				open++
				assert.False(t, back.Over())
			}
		}
		assert.Positive(t, decided, variant)
	}
}

// Many goroutines on a machine with every core busy play every shipped
// game with the default limits: not one budget error, because the budget
// that stops loops counts steps, not time.
func TestNoBudgetErrorsUnderLoad(t *testing.T) {
	lib := games.Library()
	var loaded []*host.Game
	for _, c := range configs(t) {
		g, err := c.load(lib)
		require.NoError(t, err)
		loaded = append(loaded, g)
	}
	goroutines, gamesEach := 64, 12
	if testing.Short() {
		goroutines, gamesEach = 16, 1
	}
	var mu sync.Mutex
	var failures []error
	plies := 0
	var wg sync.WaitGroup
	for w := 0; w < goroutines; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 3))
			n := 0
			for i := 0; i < gamesEach; i++ {
				g := loaded[(w+i)%len(loaded)]
				r := g.NewRunner()
				s := g.Start()
				k, err := r.Playout(s, rng, 3000)
				r.Close()
				n += k
				if err != nil {
					mu.Lock()
					failures = append(failures, err)
					mu.Unlock()
				}
			}
			mu.Lock()
			plies += n
			mu.Unlock()
		}()
	}
	wg.Wait()
	assert.Empty(t, failures)
	t.Logf("%d goroutines played %d plies", goroutines, plies)
}

// Parallel workers copy from one shared root and play on their copies, as
// a parallel tree search does: reads of a state that nothing changes are
// safe (run with -race).
func TestConcurrentReadsOfOneState(t *testing.T) {
	lib := games.Library()
	for _, name := range lib.Games() {
		g, err := lib.Load(name)
		require.NoError(t, err)
		states, _ := randomRecord(t, g, 5, 6)
		root := states[len(states)-1]
		want := jsonOf(t, root)
		var wg sync.WaitGroup
		for w := 0; w < 8; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := g.NewRunner()
				defer r.Close()
				rng := rand.New(rand.NewPCG(uint64(w), 1))
				c := g.Start()
				for i := 0; i < 20; i++ {
					c.CopyFrom(root)
					_ = root.Key()
					_ = root.Repetitions()
					_ = root.AppendMoves(nil)
					if _, err := r.Playout(c, rng, 50); err != nil {
						t.Error(err)
						return
					}
				}
			}()
		}
		wg.Wait()
		assert.Equal(t, want, jsonOf(t, root), "%s: the shared root is unchanged", name)
	}
}

// TestPlayoutsDoNotAllocate: a random playout of a shipped game whose
// rules are native parts allocates nothing a ply, once its runner has
// warmed up (bench's allocs_per_ply; a capture's scratch that escaped to
// the heap once cost draughts a tenth of its speed).
func TestPlayoutsDoNotAllocate(t *testing.T) {
	for _, name := range []string{"draughts", "drafti", "kalah", "oware", "yemutwelve"} {
		t.Run(name, func(t *testing.T) {
			g, err := games.Library().Load(name)
			require.NoError(t, err)
			r := g.NewRunner()
			defer r.Close()
			rng := rand.New(rand.NewPCG(3, 9))
			s, start := g.Start(), g.Start()
			plies := 0
			playout := func() {
				s.CopyFrom(start)
				k, err := r.Playout(s, rng, g.MaxPlies())
				require.NoError(t, err)
				plies += k
			}
			for range 20 {
				playout() // warm up: the runner's room grows to its largest
			}
			plies = 0
			allocs := testing.AllocsPerRun(50, playout)
			perPly := allocs * 51 / float64(plies) // AllocsPerRun runs it once more to warm up
			require.Greater(t, plies, 50*20, "the playouts play")
			assert.Less(t, perPly, 0.05, "%.2f allocations a playout, %d plies in all", allocs, plies)
		})
	}
}
