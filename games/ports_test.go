package games_test

import (
	"fmt"
	"hash/maphash"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/matombo/matombo/games"
	"github.com/matombo/matombo/host"
)

// Plain Go ports of the shipped games' rules, written for the benchmarks:
// the speed a game would have if its rules were hand-written Go instead of
// a script, the reference of docs/performance.md. Each port plays the
// rules of its rules page as the script does, lists its legal moves in the
// script's order, and counts repetitions the way a Go programmer would:
// a hash of each position in a map. TestPortsAgree plays the same random
// games with a port and with the script and compares every legal list,
// so the two measure the same games.
//
// The ports read only the board's names and lines from the loaded game;
// everything else is written out here.

// port is one game's rules in Go.
type port interface {
	reset()             // the opening, with its legal moves listed
	moves() int         // the number of legal moves; 0 once the game is over
	play(i int)         // plays the i-th legal move and lists the next decision's
	token(i int) string // the i-th legal move's token, as the script writes it
	over() bool
	winner() int // 0 for a draw or while the game goes on
}

// portGames are the games with a port, with the options of each variant
// measured.
var portGames = []struct {
	label string
	game  string
	opts  []host.Option
	make  func(g *host.Game) port
}{
	{"kalah", "kalah", nil, newKalahPort},
	{"oware", "oware", nil, newOwarePort},
	{"tsoro-4x21", "tsoro", nil, newTsoroPort},
	{"tsoro-4x8", "tsoro", []host.Option{host.WithParam("holes", 8)}, newTsoroPort},
	{"gore", "gore", nil, newGorePort},
	{"yematatu", "yematatu", nil, newYematatuPort},
	{"draughts", "draughts", nil, newDraughtsPort},
	{"draughts-openspiel", "draughts", []host.Option{host.WithVariant("openspiel")}, newDraughtsPort},
	{"drafti", "drafti", nil, newDraftiPort},
	{"drafti-international", "drafti", []host.Option{host.WithVariant("international")}, newDraftiPort},
}

// repetitions counts positions by their hash since the last irreversible
// move.
type repetitions struct {
	seed  maphash.Seed
	seen  map[uint64]int
	bytes []byte
}

func newRepetitions() repetitions {
	return repetitions{seed: maphash.MakeSeed(), seen: map[uint64]int{}}
}

// add counts the position encoded in r.bytes and returns how many times
// it has occurred.
func (r *repetitions) add() int {
	h := maphash.Bytes(r.seed, r.bytes)
	r.seen[h]++
	return r.seen[h]
}

func (r *repetitions) clear() { clear(r.seen) }

// portPlayout plays one random game on p from the opening, choosing as
// host.Playout does, and returns the number of plies.
func portPlayout(p port, rng *rand.Rand, maxPlies int) int {
	p.reset()
	n := 0
	for n < maxPlies {
		k := p.moves()
		if k == 0 {
			break
		}
		p.play(rng.IntN(k))
		n++
	}
	return n
}

// TestPortsAgree plays random games with each port and with the script,
// choosing the same moves, and compares the legal tokens of every decision
// and the results: the ports play the same games as the scripts.
func TestPortsAgree(t *testing.T) {
	games := 60
	if testing.Short() || raceEnabled {
		games = 4
	}
	for _, pg := range portGames {
		lib := gamesLibrary()
		g, err := lib.Load(pg.game, pg.opts...)
		if err != nil {
			t.Fatal(err)
		}
		cases := map[string]*host.Game{pg.label: g}
		if pg.opts == nil {
			for _, v := range g.Variants() {
				vg, err := lib.Load(pg.game, host.WithVariant(v.Name))
				if err != nil {
					t.Fatal(err)
				}
				cases[pg.label+"/"+v.Name] = vg
			}
		}
		for label, g := range cases {
			t.Run(label, func(t *testing.T) {
				t.Parallel()
				portAgrees(t, g, pg.make(g), games)
			})
		}
	}
}

// portAgrees plays games random games with p and with g's script.
func portAgrees(t *testing.T, g *host.Game, p port, games int) {
	r := g.NewRunner()
	defer r.Close()
	for i := range games {
		rng := rand.New(rand.NewPCG(uint64(i), 7))
		s := g.Start()
		p.reset()
		for ply := 0; ; ply++ {
			want := s.Legal()
			if s.Over() {
				want = nil
			}
			got := make([]string, p.moves())
			for k := range got {
				got[k] = p.token(k)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("game %d, ply %d: the port lists %v, the script %v", i, ply, got, want)
			}
			if len(got) == 0 || ply == g.MaxPlies() {
				break
			}
			k := rng.IntN(len(got))
			if err := r.Apply(s, s.Moves()[k]); err != nil {
				t.Fatal(err)
			}
			p.play(k)
		}
		if s.Over() != p.over() || s.Outcome().Winner != p.winner() {
			t.Fatalf("game %d: the port ends over=%v winner %d, the script over=%v winner %d", i, p.over(), p.winner(), s.Over(), s.Outcome().Winner)
		}
	}
}

// BenchmarkPortPlayout plays random games with the ports: the reference for
// BenchmarkRunnerPlayout, whose sub-benchmarks have the same names. Run the
// two in one go to compare them side by side:
//
//	go test -run '^$' -bench 'RunnerPlayout|PortPlayout' -count 6 ./games
func BenchmarkPortPlayout(b *testing.B) {
	for _, pg := range portGames {
		b.Run(pg.label, func(b *testing.B) {
			g, err := gamesLibrary().Load(pg.game, pg.opts...)
			if err != nil {
				b.Fatal(err)
			}
			p := pg.make(g)
			limit := g.MaxPlies()
			rng := rand.New(rand.NewPCG(1, 2))
			plies := 0
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				plies += portPlayout(p, rng, limit)
			}
			b.ReportMetric(float64(plies)/float64(b.N), "plies/op")
			b.ReportMetric(float64(plies)/b.Elapsed().Seconds(), "plies/s")
		})
	}
}

func gamesLibrary() *host.Library { return games.Library() }

// siteNames lists the names of g's sites in board order.
func siteNames(g *host.Game) []string {
	b := g.Board()
	names := make([]string, b.NumSites())
	for i := range names {
		names[i] = b.Site(i).Name
	}
	return names
}

// siteIndex returns the board index of the named site of g.
func siteIndex(g *host.Game, name string) int {
	i, ok := g.Board().Index(name)
	if !ok {
		panic(fmt.Sprintf("%s has no site %s", g.Name(), name))
	}
	return i
}

// intParam returns g's integer parameter name.
func intParam(g *host.Game, name string) int {
	v, ok := g.Param(name)
	if !ok {
		panic(fmt.Sprintf("%s has no parameter %s", g.Name(), name))
	}
	return v.(int)
}
