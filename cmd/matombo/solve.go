package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/solve"
)

const solveAbout = `
Solves the game: the value of the opening for Player 1 under perfect play
(win, draw or loss, and for games whose script keeps a score, the margin:
Player 1's score minus Player 2's at the end), the plies to the end when
they are known (the winner hurries, the loser delays), and how many
positions are won, drawn and lost for the player to move.

Two engines, chosen with --engine (auto by default):
  retrograde  values every position reachable from the opening and keeps
              them all; any game, cycles included, whose positions fit in
              memory. A position from which either side can keep the game
              going for ever is a draw (margin 0), what a third-repetition
              rule gives under perfect play.
  search      values each of the opening's moves by alpha-beta search
              (MTD(f)) with a transposition table of bounded size and
              endgame databases, the opening's value being its best move's;
              games whose value is a score and that have no cycles, of any
              size.
auto takes search for games with a score whose positions may not fit in
--max-memory, retrograde otherwise. The game's ply cap is not applied.

Before starting, solve prints (on stderr) how much memory it will take at
most, and refuses a solve over --max-memory; it stops at --max-time. The
solution is cached under the user's cache directory, keyed by the game's
script, variants and parameters, so that a later solve, 'matombo hint' and
the perfect player load it (after checking it); a solve or hint whose
--engine names the other engine solves again. docs/analysis.md has the
details.`

// solveFlags are the flags of solve and hint that set the budget.
type solveFlags struct {
	engine    string
	maxPos    int
	maxMemory string
	maxTime   time.Duration
	threads   int
	endgame   int
	table     string
	anyCached bool // a cached solution of either engine answers (the perfect player's)
	sharded   bool // the solve is a sharded one's (--shard-depth), the search engine's
}

func (sf *solveFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&sf.engine, "engine", "auto", "the engine `E`: auto, retrograde or search")
	intVar(fs, &sf.maxPos, "max-positions", 0, 1, maxPositionsLimit, fmt.Sprintf("bound the engine that runs: the retrograde engine stores at most `N` positions (default %d), the search engine searches at most N (default: no limit)", solve.DefaultMaxPositions))
	sizeVar(fs, &sf.maxMemory, "max-memory", "2GiB", maxMemoryLimit, "refuse or stop a solve that needs more memory than `SIZE` (e.g. 512MiB, 8GiB)")
	durationVar(fs, &sf.maxTime, "max-time", 0, 0, maxDuration, "stop a solve after `DURATION` (e.g. 10m; 0: no limit)")
	intVar(fs, &sf.threads, "threads", runtime.NumCPU(), 1, runtime.NumCPU(), "solve with `N` goroutines (at most the machine's cores)")
	intVar(fs, &sf.endgame, "endgame", -1, -1, solve.MaxEndgame, "search engine: endgame databases of positions with at most `K` counters in play (-1: chosen from the budget)")
	sizeVar(fs, &sf.table, "table-memory", "", maxMemoryLimit, "search engine: the transposition table's `SIZE` (default: a quarter of --max-memory, at most 256MiB)")
}

// engineAccepts reports whether a cached solution of engine eng answers
// for --engine: any does for auto (and for a perfect player), else only
// the engine asked for.
func (sf *solveFlags) engineAccepts(eng solve.Engine) bool {
	return sf.anyCached || sf.engine == solve.Auto.String() || sf.engine == eng.String()
}

// maxPositionsLimit is the largest --max-positions: 2^32-2 (the
// positions a retrograde solve numbers), or the largest int on a 32-bit
// machine.
const maxPositionsLimit = int(min(math.MaxUint32-1, math.MaxInt))

// maxMemoryLimit is the largest --max-memory and --table-memory.
const maxMemoryLimit = 1 << 40

// options checks the flags and returns the solver's options.
func (sf *solveFlags) options() ([]solve.Option, time.Duration, error) {
	eng, err := solve.ParseEngine(sf.engine)
	if err != nil {
		return nil, 0, usageErr{"--engine: " + err.Error()}
	}
	if sf.maxPos < 0 || sf.maxPos > maxPositionsLimit {
		return nil, 0, usageErr{fmt.Sprintf("--max-positions %d: want 1 to %d", sf.maxPos, maxPositionsLimit)}
	}
	mem, err := parseBytes(sf.maxMemory)
	if err != nil {
		return nil, 0, usageErr{"--max-memory: " + err.Error()}
	}
	if sf.maxTime < 0 {
		return nil, 0, usageErr{"--max-time: want a positive duration"}
	}
	if sf.threads < 1 || sf.threads > runtime.NumCPU() {
		return nil, 0, usageErr{fmt.Sprintf("--threads %d: want 1 to %d (the machine's cores)", sf.threads, runtime.NumCPU())}
	}
	if sf.endgame < -1 || sf.endgame > solve.MaxEndgame {
		return nil, 0, usageErr{fmt.Sprintf("--endgame %d: want -1 to %d", sf.endgame, solve.MaxEndgame)}
	}
	if eng == solve.Retrograde && (sf.endgame != -1 || sf.table != "") {
		return nil, 0, usageErr{"--endgame and --table-memory set the search engine: they do nothing with --engine retrograde"}
	}
	opts := []solve.Option{solve.WithEngine(eng), solve.WithMaxBytes(mem), solve.WithThreads(sf.threads), solve.WithEndgame(sf.endgame)}
	if sf.maxPos > 0 {
		opts = append(opts, solve.WithMaxPositions(sf.maxPos))
	}
	if sf.table != "" {
		tb, err := parseBytes(sf.table)
		if err != nil {
			return nil, 0, usageErr{"--table-memory: " + err.Error()}
		}
		opts = append(opts, solve.WithTableBytes(tb))
	}
	return opts, sf.maxTime, nil
}

// parseBytes reads a size of at most maxMemoryLimit (see parseSize).
func parseBytes(s string) (int64, error) { return parseSize(s, maxMemoryLimit) }

// solveReport is what --json writes.
type solveReport struct {
	Game        string         `json:"game"`
	Params      map[string]any `json:"params"`
	Engine      string         `json:"engine"`
	Positions   int            `json:"positions"`
	Terminal    int            `json:"terminal"`
	Value       string         `json:"value"`
	Margin      *int           `json:"margin,omitempty"`
	Plies       *int           `json:"plies,omitempty"`
	Counts      *solve.Counts  `json:"counts,omitempty"`
	Moves       []hintMove     `json:"moves,omitempty"`
	Fingerprint string         `json:"fingerprint"`
	// Search is what the search engine did (when it ran in this command).
	Search *solve.SearchStats `json:"search,omitempty"`
}

// refusalReport is what --json writes when a solve is refused or stopped.
type refusalReport struct {
	Game          string `json:"game"`
	Error         string `json:"error"`
	Engine        string `json:"engine,omitempty"`
	EstimateBytes int64  `json:"estimate_bytes,omitempty"`
	MaxBytes      int64  `json:"max_bytes,omitempty"`
	Positions     int    `json:"positions,omitempty"`
}

// runSolve is `matombo solve GAME`.
func runSolve(e *env, args []string) int {
	c := newCLI(e, "solve", "GAME [--games DIR] [--variant NAME] [--param key=value] [--engine E] [--max-memory SIZE] [--max-time D] [--max-positions N] [--threads N] [--endgame K] [--fresh] [--json]\n"+
		"       matombo solve GAME [game and budget flags] --shard-depth D (--plan | --job K [--above V] [--below V] [--out FILE] | --merge FILES...) [--json]", solveAbout+"\n"+solveShardAbout)
	var gf gameFlags
	gf.register(c.fs, true)
	var sf solveFlags
	sf.register(c.fs)
	var shf shardFlags
	shf.register(c)
	fresh := c.fs.Bool("fresh", false, "solve again even when a cached solution exists")
	asJSON := c.fs.Bool("json", false, "write the result as one JSON object (a refusal too)")
	name, files, status, ok := c.parseGame(args, true)
	if !ok {
		return status
	}
	sharded := shf.used(c)
	if sharded {
		if err := shf.check(c, files); err != nil {
			return c.fail(err)
		}
	} else if len(files) > 0 {
		return c.usageError("unexpected argument %q after the game %s", files[0], name)
	}
	if _, _, err := sf.options(); err != nil {
		return c.fail(err)
	}
	g, err := gf.open(name)
	if err != nil {
		return c.fail(err)
	}
	if sharded {
		return runSolveShard(c, e, g, &sf, &shf, files, *asJSON)
	}
	ctx, stop := e.interruptContext(context.Background())
	defer stop()
	sol, err := solution(ctx, e.stderr, g, &sf, *fresh)
	if err != nil {
		if *asJSON {
			writeRefusal(e.stdout, g, err)
		}
		return c.fail(err)
	}
	rep, err := makeSolveReport(g, sol)
	if err != nil {
		return c.fail(err)
	}
	if *asJSON {
		if err := json.NewEncoder(e.stdout).Encode(rep); err != nil {
			return c.fail(err)
		}
		return exitOK
	}
	writeSolveReport(e.stdout, g, rep)
	return exitOK
}

// writeRefusal writes a refused or stopped solve as JSON.
func writeRefusal(w io.Writer, g *host.Game, err error) {
	rep := refusalReport{Game: g.Name(), Error: oneLine(err.Error())}
	var tl *solve.TooLargeError
	var se *stoppedError
	switch {
	case errors.As(err, &tl):
		rep.Engine, rep.EstimateBytes, rep.MaxBytes, rep.Positions = tl.Engine.String(), tl.EstimateBytes, tl.MaxBytes, tl.Positions
	case errors.As(err, &se):
		rep.Engine, rep.Positions = se.engine.String(), se.positions()
	}
	_ = json.NewEncoder(w).Encode(rep)
}

// makeSolveReport gathers what solve prints.
func makeSolveReport(g *host.Game, sol *solve.Solution) (solveReport, error) {
	open := sol.Opening()
	rep := solveReport{
		Game: g.Name(), Params: paramMap(g), Engine: sol.Engine().String(), Positions: sol.Positions(), Terminal: sol.Terminals(),
		Value: open.Value.For(1, open.ToMove).String(), Fingerprint: sol.Fingerprint(),
	}
	if sol.HasScore() {
		m := open.Margin
		if open.ToMove != 1 {
			m = -m
		}
		rep.Margin = &m
	}
	if open.Plies >= 0 {
		rep.Plies = &open.Plies
	}
	if st := sol.SearchStats(); st.Nodes > 0 || st.EndgameHits > 0 || st.Ends > 0 { // the search ran (it may have needed no position)
		rep.Search = &st
	}
	if sol.Engine() == solve.Retrograde {
		counts := sol.Counts()
		rep.Counts = &counts
		return rep, nil
	}
	mvs, err := sol.Moves(g.Start())
	if err != nil {
		return rep, err
	}
	for _, mv := range mvs {
		rep.Moves = append(rep.Moves, makeHintMove(sol, mv))
	}
	return rep, nil
}

// writeSolveReport writes the result for people.
func writeSolveReport(w io.Writer, g *host.Game, rep solveReport) {
	fmt.Fprintf(w, "%s: solved (%s engine)\n", gameLabel(g), rep.Engine)
	switch {
	case rep.Counts != nil:
		fmt.Fprintf(w, "  positions: %d reachable from the opening (%d of them over)\n", rep.Positions, rep.Terminal)
	case rep.Positions == 0 && rep.Search != nil && rep.Search.EndgameCounters > 0:
		fmt.Fprintf(w, "  positions: none searched; every opening move's value is known without search (the endgame database holds up to %d counters in play)\n", rep.Search.EndgameCounters)
	case rep.Positions == 0: // a cached solution, whose search statistics are not kept
		fmt.Fprintln(w, "  positions: none searched; every opening move's value is known without search")
	default:
		fmt.Fprintf(w, "  positions: %d searched\n", rep.Positions)
	}
	by := ""
	if rep.Margin != nil {
		by = fmt.Sprintf(" by %d", abs(*rep.Margin))
	}
	in := ""
	if rep.Plies != nil {
		in = fmt.Sprintf(" in %d plies", *rep.Plies)
	}
	switch rep.Value {
	case "win":
		fmt.Fprintf(w, "  opening: Player 1 wins%s%s with perfect play (%s)\n", by, in, signed(rep.Margin))
	case "loss":
		fmt.Fprintf(w, "  opening: Player 2 wins%s%s with perfect play (%s)\n", by, in, signed(rep.Margin))
	default:
		fmt.Fprintf(w, "  opening: a draw with perfect play (%s)\n", signed(rep.Margin))
	}
	if rep.Counts != nil {
		fmt.Fprintf(w, "  for the player to move: %d won, %d drawn, %d lost\n", rep.Counts.Won, rep.Counts.Drawn, rep.Counts.Lost)
	}
	if len(rep.Moves) > 0 {
		fmt.Fprintln(w, "  Player 1's first moves:")
		writeHintTable(w, rep.Moves, "    ")
	}
}

// signed writes a margin for Player 1 as +8, 0 or -3; "no score" without.
func signed(m *int) string {
	if m == nil {
		return "the game keeps no score"
	}
	if *m > 0 {
		return fmt.Sprintf("margin +%d for Player 1", *m)
	}
	return fmt.Sprintf("margin %d for Player 1", *m)
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// solution returns g's solution: the cached one unless fresh is set,
// else a new one, which it caches. It reports on w what it does. A solve
// that ctx stops is an error; when a signal stopped it, the error wraps
// the interruptedError.
func solution(ctx context.Context, w io.Writer, g *host.Game, sf *solveFlags, fresh bool) (*solve.Solution, error) {
	opts, maxTime, err := sf.options()
	if err != nil {
		return nil, err
	}
	keepCached := false // a retrograde solution, which a search's does not replace
	if !fresh {
		sol, err := solve.LoadCached(g)
		switch {
		case err == nil && sf.engineAccepts(sol.Engine()):
			return sol, nil
		case err == nil:
			fmt.Fprintf(w, "matombo: the cached solution is the %s engine's; solving with the %s engine (--engine)\n", sol.Engine(), sf.engine)
			keepCached = sol.Engine() == solve.Retrograde
		case !errors.Is(err, fs.ErrNotExist):
			fmt.Fprintf(w, "matombo: %v; solving again\n", oneLine(err.Error()))
		}
	}
	est, err := solve.Estimate(g, opts...)
	if err != nil {
		return nil, cliSolveError(err, sf)
	}
	describeEstimate(w, g, est, sf)
	ctx, cancel := solveContext(ctx, maxTime)
	defer cancel()
	defer debug.SetGCPercent(debug.SetGCPercent(solveGCPercent))
	start := time.Now()
	bar := newSolveBar(w, est)
	opts = append(opts, solve.WithProgress(bar.update), solve.WithLog(func(msg string) {
		fmt.Fprintf(w, "matombo: %s\n", oneLine(msg))
	}))
	sol, err := solve.Solve(ctx, g, opts...)
	bar.finish()
	if err != nil {
		if ie, ok := interruption(ctx); ok {
			return nil, fmt.Errorf("stopped: %w; nothing is cached", ie)
		}
		if errors.Is(err, context.DeadlineExceeded) {
			return nil, &stoppedError{err: err, maxTime: maxTime, engine: est.Engine, done: bar.now, most: est.Positions}
		}
		return nil, cliSolveError(err, sf)
	}
	fmt.Fprintf(w, "solved in %.2f s\n", time.Since(start).Seconds())
	if keepCached && sol.Engine() != solve.Retrograde {
		// The retrograde solution values every position: hint and the
		// perfect player answer from it without searching again.
		fmt.Fprintln(w, "not cached: the cache keeps the retrograde engine's solution, which values every position")
		return sol, nil
	}
	if path, err := solve.SaveCached(sol, g); err != nil {
		fmt.Fprintf(w, "matombo: the solution is not cached: %v\n", oneLine(err.Error()))
	} else {
		fmt.Fprintf(w, "cached in %s\n", path)
	}
	return sol, nil
}

// describeEstimate says before a solve what it will take.
func describeEstimate(w io.Writer, g *host.Game, est solve.Estimation, sf *solveFlags) {
	switch est.Engine {
	case solve.Search:
		fmt.Fprintf(w, "solving %s with the search engine: at most %s (--max-memory %s)\n", gameLabel(g), solve.FormatBytes(est.Bytes), sf.maxMemory)
	default:
		fmt.Fprintf(w, "solving %s with the retrograde engine: about %d bytes a position, at most %d positions (%s; --max-memory %s)\n",
			gameLabel(g), est.BytesPerPosition, est.Positions, solve.FormatBytes(est.Bytes), sf.maxMemory)
	}
}

// solveBar draws a solve's progress on a terminal: positions or nodes,
// their rate, and the memory against the estimate. It keeps the last
// progress, drawn or not, to say how far a stopped solve got
// (stoppedError).
type solveBar struct {
	w     io.Writer
	width int // of the terminal (outputWidth)
	est   solve.Estimation
	on    bool
	shown bool
	last  time.Time
	now   solve.Progress
}

func newSolveBar(w io.Writer, est solve.Estimation) *solveBar {
	return &solveBar{w: w, width: outputWidth(w), est: est, on: isTerminal(w)}
}

func (b *solveBar) update(p solve.Progress) {
	b.now = p
	if !b.on || time.Since(b.last) < 200*time.Millisecond {
		return
	}
	b.last = time.Now()
	secs := max(p.Elapsed.Seconds(), 1e-3)
	var line string
	switch {
	case p.Phase == "search":
		line = fmt.Sprintf("searching: %d positions, %.0f/s, %s", p.Nodes, float64(p.Nodes)/secs, solve.FormatBytes(p.Bytes))
	case p.Done >= 0 && p.Phase != "":
		const width = 20
		fill := int(p.Done * width)
		line = fmt.Sprintf("%s [%s%s] %3.0f%% %d positions, %.0f/s", p.Phase, strings.Repeat("=", fill), strings.Repeat(" ", width-fill), p.Done*100, p.Positions, float64(p.Positions)/secs)
	default:
		line = fmt.Sprintf("positions: %d, %.0f/s, %s of at most %s", p.Positions, float64(p.Expanded)/secs, solve.FormatBytes(p.Bytes), solve.FormatBytes(b.est.Bytes))
	}
	fmt.Fprint(b.w, "\r"+progressLine(line, b.width))
	b.shown = true
}

func (b *solveBar) finish() {
	if b.shown {
		fmt.Fprintln(b.w)
	}
}

// defaultSolveFlags are solve's flags at their defaults.
func defaultSolveFlags() *solveFlags {
	var sf solveFlags
	sf.register(flag.NewFlagSet("solve", flag.ContinueOnError))
	return &sf
}

// cliSolveError words the solver's errors, which name its Go options, with
// the command's flags.
func cliSolveError(err error, sf *solveFlags) error {
	var tl *solve.TooLargeError
	var ce *solve.CycleError
	switch {
	case errors.As(err, &tl):
		return &flagError{err: err, msg: tooLargeMessage(tl, sf)}
	case errors.As(err, &ce):
		msg := fmt.Sprintf("%s: a position repeats on a line of play, which the search engine does not handle: use --engine retrograde", ce.Game)
		switch {
		case sf.sharded:
			msg = fmt.Sprintf("%s: a position repeats on a line of play, which the search engine, the one a sharded solve runs, does not handle: solve the game whole with --engine retrograde (without --shard-depth)", ce.Game)
		case sf.engine == solve.Auto.String():
			msg = fmt.Sprintf("%s: a position repeats on a line of play, which the search engine does not handle (--engine auto chose it: the game keeps a score and its positions may not fit in --max-memory): use --engine retrograde, which stores every position reachable from the opening, with a --max-memory they fit in", ce.Game)
		}
		return &flagError{err: err, msg: msg}
	}
	return err
}

// tooLargeMessage says what limit a solve reached, and which flag to
// change.
func tooLargeMessage(e *solve.TooLargeError, sf *solveFlags) string {
	if e.Why != "" {
		return e.Error()
	}
	switch e.Limit {
	case solve.LimitSearched:
		return fmt.Sprintf("%s: the search engine searched %d positions, more than the %d allowed (--max-positions), without finishing: raise --max-positions, or give it --max-time instead",
			e.Game, e.Positions, e.MaxPositions)
	case solve.LimitPositions:
		return fmt.Sprintf("%s has more than %d positions reachable from the opening; storing them needs more than %s (about %d bytes a position): raise --max-positions to try anyway, or use --engine search",
			e.Game, e.MaxPositions, solve.FormatBytes(e.EstimateBytes), e.BytesPerPos)
	}
	if e.Positions > 0 {
		return fmt.Sprintf("%s has more positions than fit in %s (--max-memory): stopped after storing %d of them (about %d bytes a position); raise --max-memory, or use --engine search",
			e.Game, solve.FormatBytes(e.MaxBytes), e.Positions, e.BytesPerPos)
	}
	return fmt.Sprintf("solving %s with the %s engine needs about %s, more than the budget of %s (--max-memory)",
		e.Game, e.Engine, solve.FormatBytes(e.EstimateBytes), solve.FormatBytes(e.MaxBytes))
}

// stoppedError is a solve stopped by --max-time: its engine and how far
// it got, from the engine's last progress report. It unwraps to the
// solver's error.
type stoppedError struct {
	err     error
	maxTime time.Duration
	engine  solve.Engine
	done    solve.Progress // zero before the first report
	most    int            // the most positions the retrograde engine stores
}

func (e *stoppedError) Error() string {
	return fmt.Sprintf("stopped after --max-time %v%s; nothing is cached: raise --max-time (0 for no limit)", e.maxTime, e.workDone())
}

func (e *stoppedError) Unwrap() error { return e.err }

// workDone says how far the solve got, as ", 655877 positions stored",
// or nothing before its first progress report.
func (e *stoppedError) workDone() string {
	p := e.done
	switch {
	case p.Phase == "search":
		return fmt.Sprintf(", %d positions searched", p.Nodes)
	case p.Phase != "":
		return fmt.Sprintf(", building the %s (%d positions, %.0f%% of it)", p.Phase, p.Positions, p.Done*100)
	case p.Positions > 0:
		return fmt.Sprintf(", %d positions stored (at most %d)", p.Positions, e.most)
	}
	return ""
}

// positions is how many positions the engine stored or searched before
// it stopped; 0 while it built an endgame database, or before its first
// report.
func (e *stoppedError) positions() int {
	if e.done.Phase == "search" {
		return int(e.done.Nodes)
	}
	if e.done.Phase == "" {
		return e.done.Positions
	}
	return 0
}

// flagError is a solver error worded for the command line; it unwraps to
// the solver's.
type flagError struct {
	err error
	msg string
}

func (e *flagError) Error() string { return e.msg }

func (e *flagError) Unwrap() error { return e.err }

// solveGCPercent is the garbage collector's target while a solve runs: the
// solver's memory is a few large arrays, and a collector that let the heap
// grow to twice them would pass the estimate.
const solveGCPercent = 10

// solveContext is the context of a solve: parent, stopped after maxTime
// (--max-time) unless it is 0; cancel releases it.
func solveContext(parent context.Context, maxTime time.Duration) (ctx context.Context, cancel context.CancelFunc) {
	if maxTime > 0 {
		return context.WithTimeout(parent, maxTime)
	}
	return context.WithCancel(parent)
}
