package host

import (
	"math/rand/v2"
	"testing"
)

// Benchmarks of the hot paths. Run with
//
//	go test -run '^$' -bench . -benchmem ./host
//
// They measure; no test asserts a duration.

func benchGame(b *testing.B, name string) *Game {
	b.Helper()
	lib := testLibrary(b)
	g, err := lib.Load(name)
	if err != nil {
		b.Fatal(err)
	}
	return g
}

// midgame returns a state a few plies into a random game.
func midgame(b *testing.B, g *Game, plies int) *State {
	b.Helper()
	s := g.Start()
	if _, err := Playout(s, rand.New(rand.NewPCG(1, 2)), plies); err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkCycle is one copy + legal + apply cycle on kalah: copy a state
// (CopyFrom), read its legal moves (Moves) and apply one (Apply, which
// runs play and then legal in the script).
func BenchmarkCycle(b *testing.B) {
	g := benchGame(b, "kalah")
	s := midgame(b, g, 6)
	var c State
	c.CopyFrom(s)
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		c.CopyFrom(s)
		ms := c.Moves()
		if err := c.Apply(ms[i%len(ms)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkPlayout plays one random kalah game from the opening.
func BenchmarkPlayout(b *testing.B) {
	g := benchGame(b, "kalah")
	start := g.Start()
	rng := rand.New(rand.NewPCG(1, 2))
	var s State
	plies := 0
	b.ReportAllocs()
	for b.Loop() {
		s.CopyFrom(start)
		n, err := Playout(&s, rng, 0)
		if err != nil {
			b.Fatal(err)
		}
		plies += n
	}
	b.ReportMetric(float64(plies)/float64(b.N), "plies/op")
}

// BenchmarkClone clones a kalah state in mid-game.
func BenchmarkClone(b *testing.B) {
	g := benchGame(b, "kalah")
	s := midgame(b, g, 20)
	b.ReportAllocs()
	for b.Loop() {
		_ = s.Clone()
	}
}

// BenchmarkLoad loads kalah: with a new Library each time (the script is
// compiled) and from one Library (the compiled script is cached).
func BenchmarkLoad(b *testing.B) {
	b.Run("compile", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := testLibrary(b).Load("kalah"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("cached", func(b *testing.B) {
		lib := testLibrary(b)
		b.ReportAllocs()
		for b.Loop() {
			if _, err := lib.Load("kalah"); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkKey hashes a kalah position.
func BenchmarkKey(b *testing.B) {
	g := benchGame(b, "kalah")
	s := midgame(b, g, 20)
	var k uint64
	b.ReportAllocs()
	for b.Loop() {
		k += s.Key()
	}
	_ = k
}

// BenchmarkPlayToken is the token path: parse a token and play it on a
// copy.
func BenchmarkPlayToken(b *testing.B) {
	g := benchGame(b, "kalah")
	s := midgame(b, g, 6)
	tok := s.Legal()[0]
	var c State
	b.ReportAllocs()
	for b.Loop() {
		c.CopyFrom(s)
		if err := c.Play(tok); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkJSON writes a kalah state as JSON.
func BenchmarkJSON(b *testing.B) {
	g := benchGame(b, "kalah")
	s := midgame(b, g, 20)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.MarshalJSON(); err != nil {
			b.Fatal(err)
		}
	}
}
