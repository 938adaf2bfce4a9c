package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/safefile"
	"github.com/matombo/matombo/host/solve"
	"github.com/matombo/matombo/host/solve/shard"
)

const solveShardAbout = `
Beyond one machine: --shard-depth D splits the search engine's solve into
independent jobs, the positions D plies from the opening (a position
reached by several lines is one job). --plan lists them; --job K solves
job K alone (from 0) and writes its exact value as JSON (to --out FILE, or
standard output); --merge FILES... reads one result of every job and
prints the opening's value and each opening move's margin exactly as one
solve would. The jobs share nothing but the game: run them on any
machines with any batch scheduler, then merge the files with the same
game, variants, parameters and --shard-depth. Once one job's value is
known, --above V (or --below V) has another job settle only whether it
beats V for Player 1: a job that does not writes a bound, found with one
null-window search, and the merge still gives the opening's exact value
(the moves that lose to the best one get bounds).`

// shardFlags are solve's flags for a sharded solve.
type shardFlags struct {
	depth        int
	plan         bool
	job          int
	out          string
	merge        bool
	above, below string // thresholds of --job, as given
}

func (f *shardFlags) register(c *cli) {
	intVar(c.fs, &f.depth, "shard-depth", 0, 1, shard.MaxDepth, "split the solve into the positions `D` plies from the opening (with --plan, --job or --merge)")
	c.fs.BoolVar(&f.plan, "plan", false, "list the jobs of --shard-depth and stop")
	intVar(c.fs, &f.job, "job", 0, 0, shard.MaxPositions, "solve job `K` of --shard-depth (from 0) and write its result as JSON")
	textVar(c.fs, &f.out, "out", "", "name a file", "with --job: write the result to `FILE` (default: standard output)")
	c.fs.BoolVar(&f.merge, "merge", false, "merge the result files of every job of --shard-depth given as arguments")
	c.fs.StringVar(&f.above, "above", "", "with --job: settle only whether the job is worth more than `V` to Player 1 (+12, win+12, draw, loss-3); if not, its result is a bound")
	c.fs.StringVar(&f.below, "below", "", "with --job: settle only whether the job is worth less than `V` to Player 1; if not, its result is a bound")
}

// used reports whether any of the flags was given.
func (f *shardFlags) used(c *cli) bool {
	for _, name := range []string{"shard-depth", "plan", "job", "out", "merge", "above", "below"} {
		if c.given(name) {
			return true
		}
	}
	return false
}

// check says what is wrong with the combination of flags, as a usage
// error.
func (f *shardFlags) check(c *cli, files []string) error {
	modes := 0
	for _, on := range []bool{f.plan, c.given("job"), f.merge} {
		if on {
			modes++
		}
	}
	switch {
	case modes == 0:
		return usageErr{"--shard-depth: say what to do with the jobs: --plan, --job K or --merge FILES..."}
	case modes > 1:
		return usageErr{"--plan, --job and --merge: give one of them"}
	case !c.given("shard-depth"):
		return usageErr{fmt.Sprintf("--plan, --job and --merge need --shard-depth D (1 to %d), the same for every job and the merge", shard.MaxDepth)}
	case f.out != "" && !c.given("job"):
		return usageErr{"--out: only with --job"}
	case (c.given("above") || c.given("below")) && !c.given("job"):
		return usageErr{"--above and --below: only with --job (a job's threshold)"}
	case f.merge && len(files) == 0:
		return usageErr{"--merge: name the result files of the jobs, e.g. matombo solve kalah --shard-depth 2 --merge job-*.json"}
	case !f.merge && len(files) > 0:
		return usageErr{fmt.Sprintf("unexpected argument %q after the game (result files go with --merge)", files[0])}
	case c.given("engine") && !strings.EqualFold(c.fs.Lookup("engine").Value.String(), "search") && c.fs.Lookup("engine").Value.String() != "auto":
		return usageErr{"--shard-depth: the jobs are solved with the search engine (--engine search)"}
	case c.given("fresh"):
		return usageErr{"--fresh: a job is always solved afresh, and its result is not cached"}
	}
	return nil
}

// runSolveShard is solve with --shard-depth.
func runSolveShard(c *cli, e *env, g *host.Game, sf *solveFlags, f *shardFlags, files []string, asJSON bool) int {
	// The jobs are the search engine's, whatever --engine says (check
	// refuses retrograde): a game it cannot solve is refused before a plan
	// lists jobs that could never run, and errors name no auto choice.
	sf.engine, sf.sharded = solve.Search.String(), true
	if _, err := solve.Estimate(g, solve.WithEngine(solve.Search)); err != nil {
		return c.fail(cliSolveError(err, sf))
	}
	ctx := context.Background()
	plan, err := shard.NewPlan(ctx, g, f.depth)
	if err != nil {
		var de *shard.DepthError
		if errors.As(err, &de) {
			return c.usageError("--shard-depth %d: %s has more than %d positions within %d plies of the opening, the most a plan plays: choose a smaller depth", f.depth, gameLabel(g), shard.MaxPositions, f.depth)
		}
		return c.fail(err)
	}
	switch {
	case f.plan:
		return writePlan(c, e.stdout, g, plan, asJSON)
	case f.merge:
		return mergeResults(c, e.stdout, g, plan, files, asJSON)
	}
	return solveJob(c, e, g, plan, sf, f, asJSON)
}

// planReport is what --plan --json writes.
type planReport struct {
	Game        string         `json:"game"`
	Params      map[string]any `json:"params"`
	Fingerprint string         `json:"fingerprint"`
	Depth       int            `json:"depth"`
	Jobs        []shard.Job    `json:"jobs"`
}

func writePlan(c *cli, w io.Writer, g *host.Game, p *shard.Plan, asJSON bool) int {
	if asJSON {
		rep := planReport{Game: g.Name(), Params: paramMap(g), Fingerprint: g.Fingerprint(), Depth: p.Depth, Jobs: p.Jobs}
		if rep.Jobs == nil {
			rep.Jobs = []shard.Job{}
		}
		if err := json.NewEncoder(w).Encode(rep); err != nil {
			return c.fail(err)
		}
		return exitOK
	}
	if len(p.Jobs) == 0 {
		fmt.Fprintf(w, "%s: no jobs at depth %d: the game ends sooner on every line\n", gameLabel(g), p.Depth)
		return exitOK
	}
	lines := 0
	for _, j := range p.Jobs {
		lines += j.Lines
	}
	fmt.Fprintf(w, "%s: %d jobs at depth %d (%d lines of play; jobs 0 to %d)\n", gameLabel(g), len(p.Jobs), p.Depth, lines, len(p.Jobs)-1)
	jw, pw := len("job"), len("to move")
	for _, j := range p.Jobs {
		jw, pw = max(jw, len(fmt.Sprint(j.Index))), max(pw, len(playerName(j.ToMove)))
	}
	fmt.Fprintf(w, "  %-*s  %-*s  %s\n", jw, "job", pw, "to move", "tokens from the opening")
	for _, j := range p.Jobs {
		also := ""
		if j.Lines > 1 {
			also = fmt.Sprintf(" (and %d more lines)", j.Lines-1)
		}
		fmt.Fprintf(w, "  %-*d  %-*s  %s%s\n", jw, j.Index, pw, playerName(j.ToMove), strings.Join(j.Tokens, " "), also)
	}
	return exitOK
}

// solveJob solves one job and writes its result.
// With --out, it says what it found on standard output (the result's JSON
// with --json).
func solveJob(c *cli, e *env, g *host.Game, p *shard.Plan, sf *solveFlags, f *shardFlags, asJSON bool) int {
	if f.job >= len(p.Jobs) {
		if len(p.Jobs) == 0 {
			return c.usageError("--job %d: --shard-depth %d has no jobs (the game is over sooner)", f.job, f.depth)
		}
		return c.usageError("--job %d: --shard-depth %d has jobs 0 to %d (--plan lists them)", f.job, f.depth, len(p.Jobs)-1)
	}
	opts, maxTime, err := sf.options()
	if err != nil {
		return c.fail(err)
	}
	if f.out != "" {
		// Before hours of search, not after.
		if st, err := os.Stat(filepath.Dir(f.out)); err != nil || !st.IsDir() {
			return c.fail(fmt.Errorf("--out %s: no folder %s to write the result in", f.out, filepath.Dir(f.out)))
		}
		var se *safefile.Error
		if err := safefile.CheckOutput(f.out); errors.As(err, &se) {
			return c.usageError("--out %s: %s", f.out, se.Msg)
		}
	}
	var sides [2]*solve.Threshold // --above, --below
	for i, side := range []struct {
		name, text string
		option     func(solve.Threshold) solve.Option
	}{{"above", f.above, solve.WithAbove}, {"below", f.below, solve.WithBelow}} {
		if !c.given(side.name) {
			continue
		}
		t, err := parseThreshold(side.text)
		if err != nil {
			return c.usageError("--%s %q: %v", side.name, side.text, err)
		}
		sides[i] = &t
		opts = append(opts, side.option(t))
	}
	if lo, hi := sides[0], sides[1]; lo != nil && hi != nil && !lo.Less(*hi) {
		return c.usageError("--above %s and --below %s: no value lies between them", f.above, f.below)
	}
	opts = append(opts, solve.WithEngine(solve.Search))
	est, err := solve.Estimate(g, opts...)
	if err != nil {
		return c.fail(cliSolveError(err, sf))
	}
	j := p.Jobs[f.job]
	fmt.Fprintf(e.stderr, "job %d of %d (%s): ", j.Index, len(p.Jobs), strings.Join(j.Tokens, " "))
	describeEstimate(e.stderr, g, est, sf)
	run, stop := e.interruptContext(context.Background())
	defer stop()
	ctx, cancel := solveContext(run, maxTime)
	defer cancel()
	defer debug.SetGCPercent(debug.SetGCPercent(solveGCPercent))
	bar := newSolveBar(e.stderr, est)
	var last solve.Progress // what a job stopped had done
	progress := func(pr solve.Progress) {
		last = pr
		bar.update(pr)
	}
	opts = append(opts, solve.WithProgress(progress), solve.WithLog(func(msg string) {
		fmt.Fprintf(e.stderr, "matombo: %s\n", oneLine(msg))
	}))
	cpu0 := cpuTime()
	r, err := p.Solve(ctx, f.job, opts...)
	bar.finish()
	if err != nil {
		if ie, ok := interruption(ctx); ok {
			return c.fail(fmt.Errorf("job %d stopped: %w, %d positions searched (%.2f s of CPU); nothing is written", f.job, ie, last.Nodes, (cpuTime() - cpu0).Seconds()))
		}
		if errors.Is(err, context.DeadlineExceeded) {
			return c.fail(&flagError{err: err, msg: fmt.Sprintf("job %d stopped after --max-time %v, %d positions searched (%.2f s of CPU); nothing is written: raise --max-time (0 for no limit)",
				f.job, maxTime, last.Nodes, (cpuTime() - cpu0).Seconds())})
		}
		return c.fail(cliSolveError(err, sf))
	}
	if cpu := cpuTime(); cpu > 0 {
		r.CPUSeconds = (cpu - cpu0).Seconds()
	}
	r.Threads = sf.threads
	if f.out != "" {
		if err := writeResultFile(f.out, r); err != nil {
			return c.fail(err)
		}
	}
	if f.out == "" || asJSON {
		if err := shard.WriteResult(e.stdout, r); err != nil {
			return c.fail(err)
		}
		return exitOK
	}
	found := fmt.Sprintf("%s for Player 1 (%s)", r.Value, signed(&r.Margin))
	switch r.Bound {
	case solve.AtMost.String():
		found = fmt.Sprintf("at most %s for Player 1, not above %s (a bound, as --above asks)", signedInt(r.Margin), f.above)
	case solve.AtLeast.String():
		found = fmt.Sprintf("at least %s for Player 1, not below %s (a bound, as --below asks)", signedInt(r.Margin), f.below)
	}
	fmt.Fprintf(e.stdout, "job %d of %d (%s): %s, %d positions searched in %.2f s; written to %s\n",
		j.Index, len(p.Jobs), strings.Join(j.Tokens, " "), found, r.Positions, r.Seconds, f.out)
	return exitOK
}

// maxThresholdMargin bounds a threshold's margin (the solver's own
// limit).
const maxThresholdMargin = solve.MaxMargin

// parseThreshold reads a job's threshold for Player 1: a result (win,
// draw or loss), a signed margin, or both (win+12); a margin alone is a
// win when positive, a draw at 0 and a loss when negative, as in games
// where the larger score wins.
func parseThreshold(text string) (solve.Threshold, error) {
	const want = "want a margin for Player 1 (+12, 0, -3), a result (win, draw, loss) or both (win+12)"
	word, num := text, ""
	if i := strings.IndexAny(text, "+-0123456789"); i >= 0 {
		word, num = text[:i], text[i:]
	}
	var t solve.Threshold
	valueSet := false
	switch word {
	case "":
	case "win", "draw", "loss":
		for _, v := range []solve.Value{solve.Win, solve.Draw, solve.Loss} {
			if v.String() == word {
				t.Value, valueSet = v, true
			}
		}
	default:
		return t, errors.New(want)
	}
	if num == "" {
		if !valueSet {
			return t, errors.New(want)
		}
		return t, nil
	}
	n, err := strconv.Atoi(num)
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) && errors.Is(ne.Err, strconv.ErrRange) {
			return t, fmt.Errorf("a margin beyond ±%d, the most the solver tells apart", maxThresholdMargin)
		}
		return t, errors.New(want)
	}
	if n > maxThresholdMargin || n < -maxThresholdMargin {
		return t, fmt.Errorf("a margin beyond ±%d, the most the solver tells apart", maxThresholdMargin)
	}
	t.Margin = n
	if !valueSet {
		t.Value = solve.Value(min(max(n, -1), 1))
	}
	return t, nil
}

// writeResultFile writes a result through a temporary file renamed into
// place, so that a job stopped half-way leaves no partial result (a device
// or a pipe, such as /dev/stdout, is written to, not replaced).
func writeResultFile(path string, r shard.Result) error {
	err := safefile.WriteAtomic(path, 0o644, func(w io.Writer) error { return shard.WriteResult(w, r) })
	var se *safefile.Error
	if errors.As(err, &se) {
		return fmt.Errorf("--out %s: %s", path, se.Msg)
	}
	if err != nil {
		return fmt.Errorf("--out %s: %w", path, err)
	}
	return nil
}

// maxMergeFiles bounds the files --merge reads (the most jobs a plan has).
const maxMergeFiles = shard.MaxPositions

// shardReport is what a merge adds to solve's --json report.
type shardReport struct {
	Depth      int     `json:"depth"`
	Jobs       int     `json:"jobs"`
	Seconds    float64 `json:"seconds"`     // the jobs' wall time, added up
	CPUSeconds float64 `json:"cpu_seconds"` // their CPU time, added up
}

// mergedReport is what --merge --json writes: solve's report, with the
// shards.
type mergedReport struct {
	solveReport
	Shards shardReport `json:"shards"`
}

// mergeResults reads the result files and prints the solve they make up.
func mergeResults(c *cli, w io.Writer, g *host.Game, p *shard.Plan, files []string, asJSON bool) int {
	if len(files) > maxMergeFiles {
		return c.usageError("--merge: %d files, more than the %d a plan may have", len(files), maxMergeFiles)
	}
	results := make([]shard.Result, len(files))
	for i, name := range files {
		r, err := readResultFile(name)
		if err != nil {
			return c.fail(err)
		}
		results[i] = r
	}
	m, err := p.Merge(results, files)
	if err != nil {
		var me *shard.MissingError
		if errors.As(err, &me) {
			return c.fail(&flagError{err: err, msg: fmt.Sprintf("merge: %v: run them (--job K) and merge again", err)})
		}
		return c.fail(fmt.Errorf("merge: %w", err))
	}
	rep := solveReport{Game: g.Name(), Params: paramMap(g), Engine: solve.Search.String(), Positions: int(m.Positions),
		Value: m.Opening.Value.For(1, m.Opening.ToMove).String(), Fingerprint: g.Fingerprint()}
	margin := m.Opening.Margin
	if m.Opening.ToMove != 1 {
		margin = -margin
	}
	rep.Margin = &margin
	for i, mv := range m.Moves {
		hm := hintMove{Token: mv.Token, Value: mv.Value.String()}
		mg := mv.Margin
		hm.Margin = &mg
		if b := m.Bounds[i]; b != solve.Exact {
			hm.Bound = b.String()
		}
		if mv.Plies >= 0 {
			pl := mv.Plies
			hm.Plies = &pl
		}
		rep.Moves = append(rep.Moves, hm)
	}
	sh := shardReport{Depth: p.Depth, Jobs: len(p.Jobs), Seconds: m.Seconds, CPUSeconds: m.CPUSeconds}
	if asJSON {
		if err := json.NewEncoder(w).Encode(mergedReport{rep, sh}); err != nil {
			return c.fail(err)
		}
		return exitOK
	}
	writeSolveReport(w, g, rep)
	fmt.Fprintf(w, "  merged from %d jobs at depth %d: %.2f s of CPU in all (%.2f s of wall time added up)\n", sh.Jobs, sh.Depth, sh.CPUSeconds, sh.Seconds)
	return exitOK
}

// readResultFile reads one job's result, naming the file in errors.
func readResultFile(name string) (shard.Result, error) {
	// Through safefile: a FIFO or a device named as a result is refused,
	// not waited on, and a file over the limit is not read whole.
	data, err := safefile.ReadFile(name, shard.MaxResultBytes)
	if err != nil {
		return shard.Result{}, fmt.Errorf("merge: %w", err)
	}
	r, err := shard.ReadResult(bytes.NewReader(data))
	if err != nil {
		return shard.Result{}, fmt.Errorf("merge: %s: %w", name, err)
	}
	return r, nil
}
