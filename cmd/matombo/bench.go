package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"runtime"
	"sync"
	"time"

	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/player"
)

const benchAbout = `
Measures the speed of random playouts: games in which every decision (a
ply: one token) is a uniformly random legal token, played with
host.Playout from the opening until the game ends or reaches its ply cap.
After a short warm-up (5% of T, at most 0.5 s) it plays for T seconds and
prints playouts/s, plies/s, the mean plies per game, and the allocations
and bytes allocated per ply (runtime.MemStats over the timed part). Then,
from 20 more playouts, the calls into the script's Lua functions per ply:
0 when every ply runs on native rule parts alone, more when a rule
function (play, legal) or a function in a part's slot is Lua.

With --parallel P it then measures P goroutines sharing the one loaded game,
each with its own state and random source, for the same duration, and prints
the speed-up over one goroutine. Goroutine w uses seed S+w.

With --mcts N it also measures the default computer player's search: MCTS
searches of N iterations each (mcts:iterations=N, one goroutine) from the
opening, one after another for T seconds, and prints iterations/s: the
speed a computer player's strength depends on.

--json writes one object: game, variant, seed, playouts, plies, seconds,
playouts_per_sec, plies_per_sec, mean_plies, allocs_per_ply, bytes_per_ply,
unfinished, script_calls_per_ply; with --parallel also parallel (P), speedup and parallel_run (the
same figures for the P goroutines); with --mcts also mcts_per_search (N),
mcts_searches, mcts_iterations (all searches'), mcts_seconds and
mcts_iterations_per_sec.`

// benchRun is the measurement of one run.
type benchRun struct {
	Goroutines     int     `json:"goroutines"`
	Playouts       int     `json:"playouts"`
	Plies          int     `json:"plies"`
	Unfinished     int     `json:"unfinished"`
	Seconds        float64 `json:"seconds"`
	PlayoutsPerSec float64 `json:"playouts_per_sec"`
	PliesPerSec    float64 `json:"plies_per_sec"`
	MeanPlies      float64 `json:"mean_plies"`
	AllocsPerPly   float64 `json:"allocs_per_ply"`
	BytesPerPly    float64 `json:"bytes_per_ply"`
}

// benchReport is what --json writes: the single-goroutine figures at the
// top level, the parallel run nested.
type benchReport struct {
	Game    string         `json:"game"`
	Variant map[string]any `json:"variant"`
	Seed    uint64         `json:"seed"`
	benchRun
	ScriptCallsPerPly float64   `json:"script_calls_per_ply"`
	Parallel          int       `json:"parallel,omitempty"`
	Speedup           float64   `json:"speedup,omitempty"`
	ParallelRun       *benchRun `json:"parallel_run,omitempty"`
	*mctsRun
}

// mctsRun is the measurement of MCTS searches (--mcts).
type mctsRun struct {
	PerSearch     int     `json:"mcts_per_search"`
	Iterations    int     `json:"mcts_iterations"`
	Searches      int     `json:"mcts_searches"`
	Seconds       float64 `json:"mcts_seconds"`
	IterationsSec float64 `json:"mcts_iterations_per_sec"`
}

// workerCount is what one goroutine of a run played.
type workerCount struct {
	playouts, plies, unfinished int
	err                         error
}

// runBench is `matombo bench GAME`.
func runBench(e *env, args []string) int {
	c := newCLI(e, "bench", "GAME [--seconds T] [--parallel P] [--mcts N] [--seed S] [--json] [--games DIR] [--variant NAME] [--param key=value]", benchAbout)
	var gf gameFlags
	gf.register(c.fs, true)
	seconds := c.floatFlag("seconds", 10, 0, maxSeconds, "measure for `T` seconds")
	parallel := c.intFlag("parallel", 1, 1, maxParallel, "also measure `P` goroutines and the speed-up over one")
	seed := c.uint64Flag("seed", 1, "seed `S` of the random choices")
	mcts := c.intFlag("mcts", 0, 0, maxBenchIterations, "also measure MCTS searches of `N` iterations from the opening")
	asJSON := c.fs.Bool("json", false, "write the figures as one JSON object")
	name, _, status, ok := c.parseGame(args, false)
	if !ok {
		return status
	}
	if !(*seconds > 0) || *seconds > 24*3600 {
		return c.usageError("--seconds %v: want a positive duration in seconds", *seconds)
	}
	if *parallel < 1 || *parallel > 1024 {
		return c.usageError("--parallel %d: want a number of goroutines from 1", *parallel)
	}
	if *mcts < 0 || *mcts > maxBenchIterations {
		return c.usageError("--mcts %d: want a number of iterations from 1 to %d", *mcts, maxBenchIterations)
	}
	g, err := gf.open(name)
	if err != nil {
		return c.fail(err)
	}
	d := time.Duration(*seconds * float64(time.Second))
	rep := benchReport{Game: g.Name(), Variant: paramMap(g), Seed: *seed}
	if rep.benchRun, err = measure(g, 1, *seed, d); err != nil {
		return c.fail(err)
	}
	if rep.ScriptCallsPerPly, err = scriptCallsPerPly(g, *seed); err != nil {
		return c.fail(err)
	}
	if *parallel > 1 {
		par, err := measure(g, *parallel, *seed, d)
		if err != nil {
			return c.fail(err)
		}
		rep.Parallel, rep.ParallelRun = *parallel, &par
		if rep.PliesPerSec > 0 {
			rep.Speedup = par.PliesPerSec / rep.PliesPerSec
		}
	}
	if *mcts > 0 {
		run, err := measureMCTS(g, *mcts, *seed, d)
		if err != nil {
			return c.fail(err)
		}
		rep.mctsRun = &run
	}
	if *asJSON {
		if err := json.NewEncoder(e.stdout).Encode(rep); err != nil {
			return c.fail(err)
		}
		return exitOK
	}
	writeBench(e.stdout, g, rep, d)
	return exitOK
}

// warmUp is the warm-up before a measurement of duration d.
func warmUp(d time.Duration) time.Duration { return min(d/20, 500*time.Millisecond) }

// measure warms up, then plays random playouts on n goroutines for d and
// returns the figures of the timed part.
func measure(g *host.Game, n int, seed uint64, d time.Duration) (benchRun, error) {
	if _, err := playouts(g, n, seed, warmUp(d)); err != nil {
		return benchRun{}, err
	}
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	counts, err := playouts(g, n, seed, d)
	elapsed := time.Since(start)
	runtime.ReadMemStats(&after)
	if err != nil {
		return benchRun{}, err
	}
	r := benchRun{Goroutines: n, Seconds: elapsed.Seconds()}
	for _, wc := range counts {
		r.Playouts += wc.playouts
		r.Plies += wc.plies
		r.Unfinished += wc.unfinished
	}
	r.PlayoutsPerSec = float64(r.Playouts) / r.Seconds
	r.PliesPerSec = float64(r.Plies) / r.Seconds
	r.MeanPlies = ratio(float64(r.Plies), float64(r.Playouts))
	r.AllocsPerPly = ratio(float64(after.Mallocs-before.Mallocs), float64(r.Plies))
	r.BytesPerPly = ratio(float64(after.TotalAlloc-before.TotalAlloc), float64(r.Plies))
	return r, nil
}

// callPlayouts is the number of playouts scriptCallsPerPly plays.
const callPlayouts = 20

// scriptCallsPerPly plays callPlayouts random playouts with one runner and
// returns its calls into the script's Lua functions per ply: 0 when every
// ply ran on native parts.
func scriptCallsPerPly(g *host.Game, seed uint64) (float64, error) {
	r := g.NewRunner()
	defer r.Close()
	rng := newRand(seed)
	plies := 0
	for range callPlayouts {
		s := g.Start()
		if err := r.List(s); err != nil {
			return 0, err
		}
		before := r.ScriptCalls()
		k, err := r.Playout(s, rng, g.MaxPlies())
		if err != nil {
			return 0, err
		}
		plies += k
		if r.ScriptCalls() < before {
			return 0, fmt.Errorf("host: a runner's script calls went down")
		}
	}
	return ratio(float64(r.ScriptCalls()), float64(plies)), nil
}

// maxBenchIterations bounds --mcts: one search keeps a node per iteration.
const maxBenchIterations = 1_000_000

// measureMCTS runs MCTS searches of n iterations from the opening, after a
// short warm-up, until d has passed.
func measureMCTS(g *host.Game, n int, seed uint64, d time.Duration) (mctsRun, error) {
	spec := fmt.Sprintf("mcts:iterations=%d,seed=%d", n, seed)
	search := func(until time.Time) (mctsRun, error) {
		r := mctsRun{PerSearch: n}
		start := time.Now()
		for r.Searches == 0 || time.Now().Before(until) {
			p, err := player.New(g, spec)
			if err != nil {
				return r, err
			}
			if _, err := p.Choose(context.Background(), g.Start()); err != nil {
				return r, err
			}
			if m, ok := p.(*player.MCTS); ok {
				r.Iterations += m.Stats().Iterations
			}
			r.Searches++
		}
		r.Seconds = time.Since(start).Seconds()
		r.IterationsSec = ratio(float64(r.Iterations), r.Seconds)
		return r, nil
	}
	if _, err := search(time.Now().Add(warmUp(d))); err != nil {
		return mctsRun{}, err
	}
	return search(time.Now().Add(d))
}

// ratio is a/b, 0 when b is 0.
func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

// playouts runs n goroutines playing playouts until d has passed; each
// finishes the playout it is in.
func playouts(g *host.Game, n int, seed uint64, d time.Duration) ([]workerCount, error) {
	counts := make([]workerCount, n)
	deadline := time.Now().Add(d)
	var wg sync.WaitGroup
	for w := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			counts[w] = playoutWorker(g, seed+uint64(w), deadline)
		}()
	}
	wg.Wait()
	for _, wc := range counts {
		if wc.err != nil {
			return nil, wc.err
		}
	}
	return counts, nil
}

// playoutWorker plays playouts from the opening until the deadline, with
// its own state and random source.
func playoutWorker(g *host.Game, seed uint64, deadline time.Time) workerCount {
	var wc workerCount
	rng := newRand(seed)
	start := g.Start()
	s := start.Clone()
	limit := g.MaxPlies()
	for time.Now().Before(deadline) {
		s.CopyFrom(start)
		k, err := host.Playout(s, rng, limit)
		wc.plies += k
		if err != nil {
			wc.err = fmt.Errorf("playout %d (seed %d): %w", wc.playouts+1, seed, err)
			return wc
		}
		wc.playouts++
		if !s.Over() {
			wc.unfinished++
		}
	}
	return wc
}

// writeBench writes the figures for people.
func writeBench(w io.Writer, g *host.Game, rep benchReport, d time.Duration) {
	fmt.Fprintf(w, "%s, seed %d: random playouts for %.1f s after a %.2f s warm-up\n", gameLabel(g), rep.Seed, d.Seconds(), warmUp(d).Seconds())
	writeBenchRun(w, rep.benchRun)
	if rep.ScriptCallsPerPly == 0 {
		fmt.Fprintf(w, "  0 calls into the script's Lua per ply: every ply ran on native rule parts\n")
	} else {
		fmt.Fprintf(w, "  %.2f calls into the script's Lua per ply: a rule function (play, legal, blocked...) or a part's slot is Lua\n", rep.ScriptCallsPerPly)
	}
	if rep.ParallelRun != nil {
		writeBenchRun(w, *rep.ParallelRun)
		fmt.Fprintf(w, "speed-up of %d goroutines over 1: %.2fx (GOMAXPROCS %d)\n", rep.Parallel, rep.Speedup, runtime.GOMAXPROCS(0))
	}
	if m := rep.mctsRun; m != nil {
		fmt.Fprintf(w, "MCTS from the opening (mcts:iterations=%d, 1 goroutine):\n", m.PerSearch)
		fmt.Fprintf(w, "  %d searches, %d iterations in %.2f s: %s iterations/s\n", m.Searches, m.Iterations, m.Seconds, grouped(m.IterationsSec))
	}
}

// writeBenchRun writes the figures of one run.
func writeBenchRun(w io.Writer, r benchRun) {
	fmt.Fprintf(w, "%s:\n", plural(r.Goroutines, "goroutine"))
	fmt.Fprintf(w, "  %d playouts, %d plies in %.2f s\n", r.Playouts, r.Plies, r.Seconds)
	fmt.Fprintf(w, "  %s playouts/s, %s plies/s, %.1f plies per game\n", grouped(r.PlayoutsPerSec), grouped(r.PliesPerSec), r.MeanPlies)
	fmt.Fprintf(w, "  %.2f allocations and %.1f bytes per ply\n", r.AllocsPerPly, r.BytesPerPly)
	if r.Unfinished > 0 {
		fmt.Fprintf(w, "  %d playouts stopped at the ply cap\n", r.Unfinished)
	}
}

// grouped writes a rate rounded to a whole number with thousands separated
// by commas, e.g. 1,234,567.
func grouped(x float64) string {
	s := fmt.Sprintf("%.0f", math.Round(x))
	var out []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 && s[i-1] != '-' {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}
