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
	{"tictactoe", "tictactoe", nil, newTicTacToePort},
	{"tapatan", "tapatan", nil, newTapatanPort},
	{"achi", "achi", nil, newAchiPort},
	{"nineholes", "nineholes", nil, newNineHolesPort},
	{"shisima", "shisima", nil, newShisimaPort},
	{"tantfant", "tantfant", nil, newTantFantPort},
	{"bao", "bao", nil, newBaoPort},
	{"bao-must-capture", "bao", []host.Option{host.WithVariant("must-capture")}, newBaoPort},
	{"yemutwelve", "yemutwelve", nil, newMorrisPort},
	{"yemutwelve-flying", "yemutwelve", []host.Option{host.WithParam("flying", true)}, newMorrisPort},
	{"nine-mens-morris", "yemutwelve", []host.Option{host.WithVariant("nine-mens-morris")}, newMorrisPort},
	{"nine-mens-morris-stepping", "yemutwelve", []host.Option{host.WithVariant("nine-mens-morris"), host.WithParam("flying", false)}, newMorrisPort},
	{"morabaraba", "yemutwelve", []host.Option{host.WithVariant("morabaraba")}, newMorrisPort},
	{"draughts", "draughts", nil, newDraughtsPort},
	{"baokiswahili", "baokiswahili", nil, newBaoksPort},
	{"bawo", "bawo", nil, newBaoksPort},
	{"draughts-openspiel", "draughts", []host.Option{host.WithVariant("openspiel")}, newDraughtsPort},
	{"drafti", "drafti", nil, newDraftiPort},
	{"drafti-international", "drafti", []host.Option{host.WithVariant("international")}, newDraftiPort},
}

// portCombos are combinations of parameters whose rules differ from every
// named variant's, played by TestPortsAgree besides portGames and their
// variants.
var portCombos = []struct {
	label string
	game  string
	opts  []host.Option
}{
	{"tapatan/not-centre-first+move-anywhere", "tapatan", []host.Option{host.WithVariant("not-centre-first"), host.WithVariant("move-anywhere")}},
	{"tapatan/centre-first+move-anywhere", "tapatan", []host.Option{host.WithVariant("centre-first"), host.WithVariant("move-anywhere")}},
	{"achi/three-pieces+blocked-loses", "achi", []host.Option{host.WithVariant("three-pieces"), host.WithVariant("blocked-loses")}},
	{"tantfant/blocked-draw", "tantfant", []host.Option{host.WithParam("blocked", "draw")}},
	{"drafti/most+continue", "drafti", []host.Option{host.WithParam("capture", "most"), host.WithParam("crowning", "continue")}},
	{"drafti/most+stop", "drafti", []host.Option{host.WithParam("capture", "most"), host.WithParam("crowning", "stop"), host.WithParam("men_back", false)}},
	{"tantfant/diagonals+blocked-draw", "tantfant", []host.Option{host.WithVariant("diagonals"), host.WithParam("blocked", "draw")}},
	{"tantfant/no-home-rows+blocked-draw", "tantfant", []host.Option{host.WithVariant("no-home-rows"), host.WithParam("blocked", "draw")}},
	{"yemutwelve/morabaraba-stepping", "yemutwelve", []host.Option{host.WithVariant("morabaraba"), host.WithParam("flying", false)}},
	{"yemutwelve/diagonal-moves+flying", "yemutwelve", []host.Option{host.WithVariant("diagonal-moves"), host.WithParam("flying", true)}},
	{"yemutwelve/morabaraba-plain", "yemutwelve", []host.Option{host.WithVariant("morabaraba"), host.WithParam("board", "plain")}},
	{"yemutwelve/nine-mens-morris+morabaraba", "yemutwelve", []host.Option{host.WithVariant("nine-mens-morris"), host.WithParam("morabaraba", true), host.WithParam("pieces", 10)}},
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
// and the results: the ports play the same games as the scripts. It plays
// every entry of portGames, each named variant of those without options,
// and portCombos, each set of parameter values once: 200 games of each,
// enough for the rare ends and rules to come up (a full morris board,
// Morabaraba's ten moves at three pieces and its barred move back, Achi's
// pass, a blocked Tant Fant player); 4 under -short and the race detector.
func TestPortsAgree(t *testing.T) {
	games := 200
	if testing.Short() || raceEnabled {
		games = 4
	}
	type agreeCase struct {
		label string
		g     *host.Game
		make  func(g *host.Game) port
	}
	var cases []agreeCase
	lib := gamesLibrary()
	seen := map[string]bool{} // a game's parameter values: each set is played once
	add := func(label, name string, make func(g *host.Game) port, opts ...host.Option) {
		g, err := lib.Load(name, opts...)
		if err != nil {
			t.Fatalf("%s: %v", label, err)
		}
		if key := fmt.Sprint(name, g.Params()); !seen[key] {
			seen[key] = true
			cases = append(cases, agreeCase{label, g, make})
		}
	}
	makers := map[string]func(g *host.Game) port{}
	for _, pg := range portGames {
		makers[pg.game] = pg.make
		add(pg.label, pg.game, pg.make, pg.opts...)
		if pg.opts == nil {
			g, err := lib.Load(pg.game)
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range g.Variants() {
				add(pg.label+"/"+v.Name, pg.game, pg.make, host.WithVariant(v.Name))
			}
		}
	}
	for _, c := range portCombos {
		add(c.label, c.game, makers[c.game], c.opts...)
	}
	for _, c := range cases {
		t.Run(c.label, func(t *testing.T) {
			t.Parallel()
			portAgrees(t, c.g, c.make(c.g), games)
		})
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
