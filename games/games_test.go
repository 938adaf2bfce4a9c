package games_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"sync"
	"testing"

	"github.com/matombo/matombo/games"
	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/verify"
)

// configs returns every shipped game with its default parameters and each
// of its variants, read from the library, so that a game added to games/
// is covered without changing this file.
func configs(t testing.TB) []config {
	t.Helper()
	lib := games.Library()
	var out []config
	for _, name := range lib.Games() {
		g, err := lib.Load(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out = append(out, config{name: name, label: name})
		for _, v := range g.Variants() {
			out = append(out, config{name: name, label: name + "/" + v.Name, variants: []string{v.Name}})
		}
	}
	return out
}

type config struct {
	name, label string
	variants    []string
}

func (c config) load(lib *host.Library) (*host.Game, error) {
	return lib.Load(c.name, host.WithVariant(c.variants...))
}

// soakPlies reads MATOMBO_SOAK: the number of plies to check per game and
// variant in the long run (e.g. 1000000); 0 for the short run.
func soakPlies(t *testing.T) int {
	v := os.Getenv("MATOMBO_SOAK")
	if v == "" {
		return 0
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		t.Fatalf("MATOMBO_SOAK=%q: want a number of plies", v)
	}
	return n
}

// TestInvariants plays random games of every shipped game and variant and
// checks every invariant of package verify after every move: counters
// conserved, counts and owners valid, legal lists without duplicates,
// every legal token accepted and near-miss tokens rejected without a
// change, copies independent, JSON round trips, identical replays on a
// fresh load, and every game over within the game's declared cap.
//
// The default run is short; MATOMBO_SOAK=1000000 checks a million plies per
// game and variant (cheap checks on all of them, the thorough ones on the
// first games).
func TestInvariants(t *testing.T) {
	soak := soakPlies(t)
	for _, c := range configs(t) {
		t.Run(c.label, func(t *testing.T) {
			t.Parallel()
			lib := games.Library()
			g, err := c.load(lib)
			if err != nil {
				t.Fatal(err)
			}
			opt := verify.Options{
				Games: 12, Seed: 1, Thorough: true, ThoroughGames: 2, Replay: true,
				Reload: func() (*host.Game, error) { return c.load(games.Library()) },
			}
			if testing.Short() || raceEnabled {
				// Under the race detector (the README's test command) each
				// game costs ten times as much, and what the detector looks
				// for is in the concurrent tests; the invariants keep their
				// thorough checks on one game of every variant.
				opt.Games, opt.ThoroughGames = 3, 1
			}
			if g.MaxPlies() == 0 {
				t.Fatalf("%s declares no max_plies: every shipped game documents the cap by which it ends", c.label)
			}
			total := verify.Stats{}
			for batch := uint64(0); ; batch++ {
				opt.Seed = 1 + batch*uint64(opt.Games)
				st, probs := verify.Run(g, opt)
				for _, p := range probs {
					t.Errorf("%s: %s", c.label, p)
				}
				total.Games += st.Games
				total.Plies += st.Plies
				total.Longest = max(total.Longest, st.Longest)
				total.Unfinished += st.Unfinished
				if len(probs) > 0 || total.Plies >= soak {
					break
				}
				opt.Thorough, opt.Replay, opt.Games = false, false, 200
			}
			if total.Unfinished > 0 {
				t.Errorf("%d games did not end within %d plies", total.Unfinished, g.MaxPlies())
			}
			t.Logf("%s: %d games, %d plies, longest %d (cap %d)", c.label, total.Games, total.Plies, total.Longest, g.MaxPlies())
		})
	}
}

// TestConcurrentPlayouts plays random games of one loaded game from many
// goroutines at once (run it with -race) and checks that each game ends
// exactly as the same seed does alone.
func TestConcurrentPlayouts(t *testing.T) {
	lib := games.Library()
	for _, name := range lib.Games() {
		t.Run(name, func(t *testing.T) {
			g, err := lib.Load(name, variantFor(name)...)
			if err != nil {
				t.Fatal(err)
			}
			const workers, perWorker = 6, 5
			play := func(seed uint64) string {
				s := g.Start()
				n, err := host.Playout(s, rand.New(rand.NewPCG(seed, 1)), 0)
				if err != nil {
					return "error: " + err.Error()
				}
				j, _ := s.MarshalJSON()
				return fmt.Sprintf("%d %s", n, j)
			}
			want := make([]string, workers*perWorker)
			for i := range want {
				want[i] = play(uint64(i))
			}
			got := make([]string, len(want))
			var wg sync.WaitGroup
			for w := 0; w < workers; w++ {
				wg.Add(1)
				go func(w int) {
					defer wg.Done()
					for k := 0; k < perWorker; k++ {
						i := w*perWorker + k
						got[i] = play(uint64(i))
					}
				}(w)
			}
			wg.Wait()
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("seed %d: a game played concurrently differs from the same game alone", i)
				}
			}
		})
	}
}

// variantFor keeps the concurrent test quick on games whose default board
// is large.
func variantFor(name string) []host.Option {
	if name == "tsoro" {
		return []host.Option{host.WithParam("holes", 8)}
	}
	return nil
}

// TestEffectsLeadFromStateToState plays 200 random games (40 under the
// race detector) of every shipped game and variant with effects recorded and checks after every ply that
// the ply's effects, applied to the state before it, give the state after
// it (verify.Effects): counts, owners, captured totals, hands and whose
// decision is next.
func TestEffectsLeadFromStateToState(t *testing.T) {
	for _, c := range configs(t) {
		t.Run(c.label, func(t *testing.T) {
			t.Parallel()
			g, err := c.load(games.Library())
			if err != nil {
				t.Fatal(err)
			}
			n := 200
			switch {
			case testing.Short():
				n = 20
			case raceEnabled:
				// Under the race detector each game costs ten times as
				// much, and what it looks for is in the concurrent tests
				// (as TestInvariants says): 40 games a variant keep the
				// package's race run short.
				n = 40
			}
			r := g.NewRunner()
			defer r.Close()
			r.Record(true)
			plies, effects := 0, 0
			s, before := g.Start(), g.Start()
			for i := range n {
				rng := rand.New(rand.NewPCG(uint64(i), 22))
				s.CopyFrom(g.Start())
				for !s.Over() {
					before.CopyFrom(s)
					moves := s.Moves()
					if err := r.Apply(s, moves[rng.IntN(len(moves))]); err != nil {
						t.Fatalf("game %d ply %d: %v", i, s.Ply()+1, err)
					}
					if err := verify.Effects(before, s); err != nil {
						t.Fatalf("game %d: %v", i, err)
					}
					list, _ := s.Effects()
					plies++
					effects += len(list)
				}
			}
			t.Logf("%s: %d games, %d plies, %d effects", c.label, n, plies, effects)
		})
	}
}
