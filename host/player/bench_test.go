package player

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/matombo/matombo/games"
	"github.com/matombo/matombo/host"
)

// benchGames are the games of the speed figures in docs/players.md.
var benchGames = []struct {
	name    string
	variant string
}{
	{"tsoro", "4x8"}, {"tsoro", "standard"}, {"gore", "standard"}, {"yematatu", "triangle"}, {"yematatu", "square"}, {"kalah", "standard"}, {"oware", "abapa"},
}

func loadBench(b *testing.B, name, variant string) *host.Game {
	b.Helper()
	g, err := games.Library().Load(name, host.WithVariant(variant))
	if err != nil {
		b.Fatal(err)
	}
	return g
}

// BenchmarkPlayout is the baseline: random games from the opening, as
// `matombo bench` plays them (a copy of the opening, then host.Playout).
func BenchmarkPlayout(b *testing.B) {
	for _, bg := range benchGames {
		b.Run(bg.name+"-"+bg.variant, func(b *testing.B) {
			g := loadBench(b, bg.name, bg.variant)
			start, work := g.Start(), g.Start()
			rng := rand.New(rand.NewPCG(1, 2))
			for b.Loop() {
				work.CopyFrom(start)
				if _, err := host.Playout(work, rng, 0); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "playouts/s")
		})
	}
}

// BenchmarkMCTS runs MCTS searches from the opening with an iteration
// budget and reports iterations (playouts) per second, to compare with
// BenchmarkPlayout; threads=2 shows what root parallelism gains.
func BenchmarkMCTS(b *testing.B) {
	for _, threads := range []int{1, 2} {
		for _, bg := range benchGames {
			b.Run(fmt.Sprintf("%s-%s/threads=%d", bg.name, bg.variant, threads), func(b *testing.B) {
				g := loadBench(b, bg.name, bg.variant)
				s := g.Start()
				iters := 0
				for b.Loop() {
					p, err := New(g, fmt.Sprintf("mcts:iterations=2000,threads=%d", threads))
					if err != nil {
						b.Fatal(err)
					}
					if _, err := p.Choose(context.Background(), s); err != nil {
						b.Fatal(err)
					}
					iters += p.(*MCTS).Stats().Iterations
				}
				b.ReportMetric(float64(iters)/b.Elapsed().Seconds(), "playouts/s")
			})
		}
	}
}

// BenchmarkTimeBudget measures how long a search with a time budget of
// 100 ms takes: over-ms is the mean overrun in milliseconds, max-over-ms
// the largest.
func BenchmarkTimeBudget(b *testing.B) {
	for _, spec := range []string{"mcts:time=100ms", "alphabeta:time=100ms"} {
		for _, bg := range benchGames {
			b.Run(bg.name+"-"+bg.variant+"/"+spec, func(b *testing.B) {
				g := loadBench(b, bg.name, bg.variant)
				s := g.Start()
				var total, worst time.Duration
				for b.Loop() {
					p, err := New(g, spec)
					if err != nil {
						b.Fatal(err)
					}
					t0 := time.Now()
					if _, err := p.Choose(context.Background(), s); err != nil {
						b.Fatal(err)
					}
					over := time.Since(t0) - 100*time.Millisecond
					total += over
					worst = max(worst, over)
				}
				b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "over-ms")
				b.ReportMetric(float64(worst.Microseconds())/1000, "max-over-ms")
			})
		}
	}
}

// BenchmarkMCTSvsPlayout alternates, within one run, an MCTS search of
// 500 iterations from the opening and 500 random games from the opening
// (what `matombo bench` plays), so that both see the same machine load;
// it reports both rates and ratio-% = MCTS iterations per second as a
// percentage of random games per second. threads=2 reports the MCTS rate
// with two goroutines against the same single-goroutine playouts.
func BenchmarkMCTSvsPlayout(b *testing.B) {
	for _, threads := range []int{1, 2} {
		for _, bg := range benchGames {
			b.Run(fmt.Sprintf("%s-%s/threads=%d", bg.name, bg.variant, threads), func(b *testing.B) {
				g := loadBench(b, bg.name, bg.variant)
				start, work := g.Start(), g.Start()
				r := g.NewRunner()
				defer r.Close()
				rng := rand.New(rand.NewPCG(1, 2))
				const n = 500
				var tMCTS, tPlay time.Duration
				iters := 0
				for b.Loop() {
					p, err := New(g, fmt.Sprintf("mcts:iterations=%d,threads=%d", n, threads))
					if err != nil {
						b.Fatal(err)
					}
					t0 := time.Now()
					if _, err := p.Choose(context.Background(), start); err != nil {
						b.Fatal(err)
					}
					tMCTS += time.Since(t0)
					iters += p.(*MCTS).Stats().Iterations
					t0 = time.Now()
					for range n {
						work.CopyFrom(start)
						if _, err := r.Playout(work, rng, 0); err != nil {
							b.Fatal(err)
						}
					}
					tPlay += time.Since(t0)
				}
				mctsRate := float64(iters) / tMCTS.Seconds()
				playRate := float64(n*b.N) / tPlay.Seconds()
				b.ReportMetric(mctsRate, "mcts-iter/s")
				b.ReportMetric(playRate, "games/s")
				b.ReportMetric(100*mctsRate/playRate, "ratio-%")
			})
		}
	}
}
