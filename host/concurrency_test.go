package host

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gameRecord plays the random game of a seed on g, one move at a time
// through the public API, and returns its final JSON and its record.
func gameRecord(g *Game, seed uint64) (final, record string, err error) {
	s := g.Start()
	rng := rand.New(rand.NewPCG(seed, 99))
	var rec []string
	for !s.Over() {
		ms := s.Moves()
		m := ms[rng.IntN(len(ms))]
		rec = append(rec, g.Token(m))
		if err := s.Apply(m); err != nil {
			return "", "", err
		}
	}
	data, err := s.MarshalJSON()
	return string(data), fmt.Sprint(rec), err
}

// playoutFinal plays the same random game as gameRecord with Playout and
// returns its final JSON.
func playoutFinal(g *Game, seed uint64) (string, error) {
	s := g.Start()
	if _, err := Playout(s, rand.New(rand.NewPCG(seed, 99)), 0); err != nil {
		return "", err
	}
	data, err := s.MarshalJSON()
	return string(data), err
}

// TestConcurrentGames plays many random games concurrently on one loaded
// game (8 goroutines x 50 games, each goroutine in its own order) and
// checks each game's result equals the same seed's result played alone.
// Run it with -race.
func TestConcurrentGames(t *testing.T) {
	const goroutines, games = 8, 50
	for _, name := range []string{"kalah", "probe"} {
		t.Run(name, func(t *testing.T) {
			g := loadTest(t, name)
			want := make([]string, games)
			records := make([]string, games)
			for i := range want {
				var err error
				want[i], records[i], err = gameRecord(g, uint64(i))
				require.NoError(t, err)
				p, err := playoutFinal(g, uint64(i))
				require.NoError(t, err)
				require.Equal(t, want[i], p, "Playout plays the same game")
			}
			var wg sync.WaitGroup
			var mu sync.Mutex
			var bad []string
			for w := 0; w < goroutines; w++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := 0; i < games; i++ {
						seed := uint64((i*(w+1) + w) % games)
						var got, rec string
						var err error
						if i%2 == 0 {
							got, rec, err = gameRecord(g, seed)
						} else {
							got, err = playoutFinal(g, seed) // the fast path
							rec = records[seed]
						}
						if err != nil || got != want[seed] || rec != records[seed] {
							mu.Lock()
							bad = append(bad, fmt.Sprintf("goroutine %d, seed %d: %v\n%s", w, seed, err, got))
							mu.Unlock()
						}
					}
				}()
			}
			wg.Wait()
			assert.Empty(t, bad)
		})
	}
}

// TestConcurrentLoads loads games from one Library in many goroutines
// (sharing the compiled scripts) while states of one game are copied,
// printed and read back.
func TestConcurrentLoads(t *testing.T) {
	lib := testLibrary(t)
	g, err := lib.Load("probe")
	require.NoError(t, err)
	ref := stateJSONText(t, g.Start())
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 10; i++ {
				name := []string{"kalah", "probe", "probepts"}[(w+i)%3]
				lg, err := lib.Load(name, WithLimits(Limits{}))
				if err != nil {
					errs <- err
					return
				}
				s := lg.Start()
				if _, err := Playout(s, rand.New(rand.NewPCG(uint64(i), 1)), 20); err != nil {
					errs <- err
					return
				}
				c := g.Start()
				data, _ := c.MarshalJSON()
				if string(data) != ref {
					errs <- fmt.Errorf("the opening changed: %s", data)
					return
				}
				if _, err := g.StateFromJSON(data); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
