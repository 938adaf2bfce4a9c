package games_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/matombo/matombo/games"
	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/player"
)

// The benchmarks of each shipped game at its default parameters (and Tsoro
// 4x8): one random playout, listing the legal tokens of a mid-game
// position, copying a state, and loading (with and without compiling) the
// script. Run with: go test -bench . -benchmem ./games
var benchGames = []struct {
	name  string
	label string
	opts  []host.Option
}{
	{"tsoro", "tsoro-4x21", nil},
	{"tsoro", "tsoro-4x8", []host.Option{host.WithParam("holes", 8)}},
	{"gore", "gore", nil},
	{"yematatu", "yematatu", nil},
	{"kalah", "kalah", nil},
	{"oware", "oware", nil},
	{"tictactoe", "tictactoe", nil},
	{"tapatan", "tapatan", nil},
	{"achi", "achi", nil},
	{"nineholes", "nineholes", nil},
	{"shisima", "shisima", nil},
	{"tantfant", "tantfant", nil},
	{"yemutwelve", "yemutwelve", nil},
	{"yemutwelve", "yemutwelve-flying", []host.Option{host.WithParam("flying", true)}},
	{"yemutwelve", "nine-mens-morris", []host.Option{host.WithVariant("nine-mens-morris")}},
	{"yemutwelve", "nine-mens-morris-stepping", []host.Option{host.WithVariant("nine-mens-morris"), host.WithParam("flying", false)}},
	{"yemutwelve", "morabaraba", []host.Option{host.WithVariant("morabaraba")}},
	{"bao", "bao", nil},
	{"bao", "bao-must-capture", []host.Option{host.WithVariant("must-capture")}},
	{"draughts", "draughts", nil},
	{"draughts", "draughts-openspiel", []host.Option{host.WithVariant("openspiel")}},
	{"baokiswahili", "baokiswahili", nil},
	{"bawo", "bawo", nil},
	{"drafti", "drafti", nil},
	{"drafti", "drafti-international", []host.Option{host.WithVariant("international")}},
}

// midGame plays random moves from the opening until ply n (or the end).
func midGame(b *testing.B, g *host.Game, n int) *host.State {
	s := g.Start()
	rng := rand.New(rand.NewPCG(42, 0))
	for s.Ply() < n && !s.Over() {
		m := s.Moves()
		if err := s.Apply(m[rng.IntN(len(m))]); err != nil {
			b.Fatal(err)
		}
	}
	return s
}

func BenchmarkPlayout(b *testing.B) { benchPlayouts(b, false, false) }

// BenchmarkRunnerPlayout is BenchmarkPlayout through one Runner kept for
// the whole run, as a search's worker does.
func BenchmarkRunnerPlayout(b *testing.B) { benchPlayouts(b, true, false) }

// BenchmarkRecordedPlayout is BenchmarkRunnerPlayout with every ply's
// effects recorded (Runner.Record), as the server and trace play: what
// recording costs when it is on. Off, it costs a nil check per primitive.
func BenchmarkRecordedPlayout(b *testing.B) { benchPlayouts(b, true, true) }

// benchPlayouts plays random games from the opening, with host.Playout or
// with one Runner for all of them, recording effects or not.
func benchPlayouts(b *testing.B, runner, record bool) {
	for _, bg := range benchGames {
		b.Run(bg.label, func(b *testing.B) {
			g, err := games.Library().Load(bg.name, bg.opts...)
			if err != nil {
				b.Fatal(err)
			}
			r := g.NewRunner()
			defer r.Close()
			r.Record(record)
			rng := rand.New(rand.NewPCG(1, 2))
			root := g.Start()
			s := g.Start()
			plies := 0
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				s.CopyFrom(root)
				var n int
				if runner {
					n, err = r.Playout(s, rng, 0)
				} else {
					n, err = host.Playout(s, rng, 0)
				}
				if err != nil {
					b.Fatal(err)
				}
				plies += n
			}
			b.ReportMetric(float64(plies)/float64(b.N), "plies/op")
			b.ReportMetric(float64(plies)/b.Elapsed().Seconds(), "plies/s")
		})
	}
}

// BenchmarkMCTS runs searches of the default computer player
// (mcts:iterations=1000, one goroutine) from the opening and reports
// iterations/s, as matombo bench --mcts 1000 does.
func BenchmarkMCTS(b *testing.B) {
	for _, bg := range benchGames {
		b.Run(bg.label, func(b *testing.B) {
			g, err := games.Library().Load(bg.name, bg.opts...)
			if err != nil {
				b.Fatal(err)
			}
			s := g.Start()
			iters := 0
			for b.Loop() {
				p, err := player.New(g, "mcts:iterations=1000")
				if err != nil {
					b.Fatal(err)
				}
				if _, err := p.Choose(context.Background(), s); err != nil {
					b.Fatal(err)
				}
				iters += p.(*player.MCTS).Stats().Iterations
			}
			b.ReportMetric(float64(iters)/b.Elapsed().Seconds(), "iterations/s")
		})
	}
}

// BenchmarkLegal lists the legal moves of a mid-game position: the script's
// legal function runs for a state set up from the position.
func BenchmarkLegal(b *testing.B) {
	for _, bg := range benchGames {
		b.Run(bg.label, func(b *testing.B) {
			g, err := games.Library().Load(bg.name, bg.opts...)
			if err != nil {
				b.Fatal(err)
			}
			pos := midGame(b, g, 11).Position()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := g.NewState(pos); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkLegalTokens writes the tokens of a mid-game legal list.
func BenchmarkLegalTokens(b *testing.B) {
	for _, bg := range benchGames {
		b.Run(bg.label, func(b *testing.B) {
			g, err := games.Library().Load(bg.name, bg.opts...)
			if err != nil {
				b.Fatal(err)
			}
			s := midGame(b, g, 11)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				_ = s.Legal()
			}
		})
	}
}

func BenchmarkCopy(b *testing.B) {
	for _, bg := range benchGames {
		g, err := games.Library().Load(bg.name, bg.opts...)
		if err != nil {
			b.Fatal(err)
		}
		s := midGame(b, g, 40)
		b.Run(bg.label+"/Clone", func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				_ = s.Clone()
			}
		})
		b.Run(bg.label+"/CopyFrom", func(b *testing.B) {
			dst := s.Clone()
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				dst.CopyFrom(s)
			}
		})
	}
}

// BenchmarkLoad loads a game: with a fresh library (compiling the script)
// and from a library that compiled it already.
func BenchmarkLoad(b *testing.B) {
	for _, bg := range benchGames {
		b.Run(bg.label+"/compile", func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := games.Library().Load(bg.name, bg.opts...); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(bg.label+"/cached", func(b *testing.B) {
			lib := games.Library()
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := lib.Load(bg.name, bg.opts...); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCopyAndApply copies a mid-game position and plays one of its
// moves, the inner step of a tree search: with State.Apply (a machine from
// the game's pool each time) and with a Runner.
func BenchmarkCopyAndApply(b *testing.B) {
	for _, bg := range benchGames {
		g, err := games.Library().Load(bg.name, bg.opts...)
		if err != nil {
			b.Fatal(err)
		}
		root := midGame(b, g, 4)
		moves := root.AppendMoves(nil)
		if len(moves) == 0 {
			b.Fatalf("%s: the game ended before ply 4", bg.label)
		}
		b.Run(bg.label+"/State.Apply", func(b *testing.B) {
			s := g.Start()
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				s.CopyFrom(root)
				if err := s.Apply(moves[i%len(moves)]); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(bg.label+"/Runner.Apply", func(b *testing.B) {
			r := g.NewRunner()
			defer r.Close()
			s := g.Start()
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				s.CopyFrom(root)
				if err := r.Apply(s, moves[i%len(moves)]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkPosition encodes a mid-game position and sets a state to it, a
// solver's inner step.
func BenchmarkPosition(b *testing.B) {
	for _, bg := range benchGames {
		g, err := games.Library().Load(bg.name, bg.opts...)
		if err != nil {
			b.Fatal(err)
		}
		root := midGame(b, g, 4)
		b.Run(bg.label+"/AppendPosition", func(b *testing.B) {
			buf := make([]byte, 0, 512)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				buf = root.AppendPosition(buf[:0])
			}
		})
		b.Run(bg.label+"/SetPosition", func(b *testing.B) {
			r := g.NewRunner()
			defer r.Close()
			enc := root.AppendPosition(nil)
			s := g.Start()
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if err := r.SetPosition(s, enc); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
