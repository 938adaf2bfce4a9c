package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/analysis"
	"github.com/matombo/matombo/host/analysis/charts"
	"github.com/matombo/matombo/host/diag"
	"github.com/matombo/matombo/host/player"
	"github.com/matombo/matombo/host/safefile"
	"github.com/matombo/matombo/host/solve"
)

const analyzeAbout = `
Plays many games between two players and measures the game: the wins of
each seat and the draws with 95% Wilson intervals, balance and the first
player's advantage, completion (games ended by a rule, not the ply cap),
the length in plies (mean, standard deviation, median, 95th percentile,
longest), decisions per turn, the branching factor (legal tokens per
decision), how the games ended and the notes of their results, captures
per game for games with captures, and the changes of the lead and the
margin at the end, read from the game's score when it has one (e.g.
Kalah's seeds), else from the captured totals. docs/analysis.md defines
each measure.

--variants all runs every named variant of the game, one row each (with
what the lead is read from, its changes and the final margin when the game
has a lead), then each variant's measures.
Players: any player spec (see 'matombo match --help' and docs/players.md),
e.g. random, greedy, mcts:iterations=500, alphabeta:depth=4, or perfect
(plays from the solution of 'matombo solve'). Game i plays with a seed
derived from --seed and i (it replaces a seed given in a spec), so the same
run gives the same figures, with any --parallel and any shards.

Beyond one machine: --shard I/N plays only the games I, I+N, I+2N, ... and
writes their raw counts as JSON; 'matombo analyze --merge FILES...' adds up
the shards of a run into exactly the report one run would print (with
--json and --plot as usual).`

// shardFile is what --shard writes and --merge reads.
type shardFile struct {
	Format  string             `json:"format"`
	Shard   string             `json:"shard"`
	Results []*analysis.Result `json:"results"`
}

// shardFormat is the format --shard writes. Format 2 results say what
// their lead is read from and hold the margins; --merge still reads the
// files of format 1 (shardFormat1) and merges them with each other.
const (
	shardFormat  = "matombo analyze shard 2"
	shardFormat1 = "matombo analyze shard 1"
)

// analyzeJSON is what --json writes with --variants all.
type analyzeJSON struct {
	Game     string            `json:"game"`
	Variants []analysis.Report `json:"variants"`
}

// runAnalyze is `matombo analyze GAME` and `matombo analyze --merge FILES`.
func runAnalyze(e *env, args []string) int {
	c := newCLI(e, "analyze", "GAME [--variant NAME | --variants all] [--param key=value] [--p1 SPEC --p2 SPEC] [--games N] [--seed S] [--parallel K] [--max-plies M] [--json] [--plot DIR] [--shard I/N]\n       matombo analyze --merge FILES... [--json] [--plot DIR]", analyzeAbout)
	var gf gameFlags
	gf.register(c.fs, false)
	count := 1000
	c.fs.Var(countOrDirs{count: &count, dirs: &gf.dirs}, "games", "play `N` games, or add the games of the folder DIR")
	c.fs.Var(countOrDirs{count: &count}, "n", "play `N` games")
	all := c.textFlag("variants", "", "the only value is all", "`all`: analyze every named variant of the game, one row each")
	p1 := c.fs.String("p1", "random", "the player `SPEC` of Player 1, e.g. mcts:iterations=500 or perfect")
	p2 := c.fs.String("p2", "random", "the player `SPEC` of Player 2")
	seed := c.uint64Flag("seed", 1, "the run's seed `S`")
	parallel := c.intFlag("parallel", 1, 1, maxParallel, "play `K` games at once")
	maxPlies := c.intFlag("max-plies", 0, 0, maxPliesFlag, "stop a game unfinished after `M` plies (default: the game's own cap, else 100000)")
	asJSON := c.fs.Bool("json", false, "write the measures as JSON")
	plotDir := c.textFlag("plot", "", "name a folder", "write charts as PNG and SVG into the folder `DIR`")
	shard := c.textFlag("shard", "", "want I/N, e.g. --shard 0/4", "play only shard `I/N` of the run and write its counts as JSON")
	merge := c.fs.Bool("merge", false, "merge the shard files given as arguments")
	pos, status, ok := c.parse(args)
	if !ok {
		return status
	}
	out := analyzeOutput{e: e, json: *asJSON, plot: *plotDir}
	if *merge {
		if len(pos) == 0 {
			return c.usageError("--merge: name the shard files, e.g. matombo analyze --merge shard-*.json")
		}
		for _, f := range []string{"shard", "variant", "variants", "param", "p1", "p2", "seed", "parallel", "max-plies", "games", "n"} {
			if c.given(f) {
				return c.usageError("--merge takes no --%s: the shard files say how the games were played", f)
			}
		}
		reps, err := mergeFiles(pos)
		if err != nil {
			return c.fail(err)
		}
		return out.write(c, reps, len(reps) > 1)
	}
	name, ok := c.oneGame(pos, false)
	if !ok {
		return exitUsage
	}
	switch {
	case *all != "" && *all != "all":
		return c.usageError("--variants %s: the only value is all", *all)
	case *all != "" && len(gf.variants) > 0:
		return c.usageError("--variants all and --variant do not go together")
	case *parallel < 1:
		return c.usageError("--parallel %d: want a positive number", *parallel)
	case *maxPlies < 0:
		return c.usageError("--max-plies %d: want a positive number", *maxPlies)
	}
	shardI, shardN := 0, 1
	if *shard != "" {
		var err error
		if shardI, shardN, err = parseShard(*shard); err != nil {
			return c.usageError("%v", err)
		}
		if *plotDir != "" {
			return c.usageError("--shard writes raw counts: plot after --merge")
		}
	}
	lib, err := gf.library()
	if err != nil {
		return c.fail(err)
	}
	gamesToRun, err := analyzeGames(&gf, lib, name, *all == "all")
	if err != nil {
		return c.fail(err)
	}
	for i, spec := range []string{*p1, *p2} {
		if err := checkSeatSpec(gamesToRun[0], spec); err != nil {
			return c.usageError("--p%d: %v", i+1, err)
		}
	}
	ctx, stop := e.interruptContext(context.Background())
	defer stop()
	players := newPlayerMaker(ctx, e.stderr)
	var results []*analysis.Result
	for _, g := range gamesToRun {
		bar := newProgressBar(e.stderr, variantLabel(g))
		res, err := analysis.Run(ctx, g,
			analysis.WithGames(count), analysis.WithSeed(*seed), analysis.WithPlayers(*p1, *p2),
			analysis.WithPlayerMaker(players.make), analysis.WithParallel(*parallel),
			analysis.WithShard(shardI, shardN), analysis.WithMaxPlies(*maxPlies), analysis.WithProgress(bar.update))
		bar.finish()
		if ie, ok := interruption(ctx); ok {
			return c.fail(fmt.Errorf("stopped: %w; nothing is written", ie))
		}
		if err != nil {
			return c.fail(err)
		}
		results = append(results, res)
	}
	if *shard != "" {
		enc := json.NewEncoder(e.stdout)
		if err := enc.Encode(shardFile{Format: shardFormat, Shard: *shard, Results: results}); err != nil {
			return c.fail(err)
		}
		return exitOK
	}
	var reps []analysis.Report
	for _, r := range results {
		reps = append(reps, analysis.Summarize(r))
	}
	return out.write(c, reps, *all == "all")
}

// checkSeatSpec checks the player spec of a seat against game g before
// the run, so that a bad one is refused naming its flag. A perfect player
// is left to the run: checking it would solve the game, which the run
// does once it starts.
func checkSeatSpec(g *host.Game, spec string) error {
	if sp, err := player.ParseSpec(spec); err == nil && sp.Name == "perfect" {
		return nil
	}
	return checkSpec(g, spec)
}

// analyzeGames loads the game, or each of its named variants.
func analyzeGames(gf *gameFlags, lib *host.Library, name string, all bool) ([]*host.Game, error) {
	g, err := gf.load(lib, name)
	if err != nil || !all {
		return []*host.Game{g}, err
	}
	vs := g.Variants()
	if len(vs) == 0 {
		return nil, usageErr{fmt.Sprintf("--variants all: %s has no named variants", name)}
	}
	var out []*host.Game
	for _, v := range vs {
		vf := *gf
		vf.variants = stringList{v.Name}
		vg, err := vf.load(lib, name)
		if err != nil {
			return nil, err
		}
		out = append(out, vg)
	}
	return out, nil
}

// variantLabel names a loaded game by its variants, for progress.
func variantLabel(g *host.Game) string {
	if v := g.ChosenVariants(); len(v) > 0 {
		return g.Name() + " " + strings.Join(v, "+")
	}
	return g.Name()
}

// parseShard parses I/N, with N at most maxGames.
func parseShard(s string) (int, int, error) {
	a, b, ok := strings.Cut(s, "/")
	if !ok {
		return 0, 0, fmt.Errorf("--shard %s: want I/N with 0 <= I < N, e.g. --shard 0/4", s)
	}
	n, err := diag.ParseBounded(b, 1, maxGames)
	if err != nil {
		return 0, 0, fmt.Errorf("--shard %s: the number of shards N: %v", s, err)
	}
	i, err := diag.ParseBounded(a, 0, n-1)
	if err != nil {
		return 0, 0, fmt.Errorf("--shard %s: want I/N with 0 <= I < N, e.g. --shard 0/4", s)
	}
	return int(i), int(n), nil
}

// maxShardFileBytes bounds one shard file that --merge reads (about
// 750,000 shards; merging one takes about a minute of CPU, most of it
// checking that each result reads one way only). Files are read as
// a stream, one result at a time, so memory does not grow with the file.
const maxShardFileBytes = 256 << 20

// mergeFiles reads shard files and merges the results of each variant,
// in time linear in what the files hold.
func mergeFiles(paths []string) ([]analysis.Report, error) {
	var order []string
	groups := map[string]*analysis.Merger{}
	for _, path := range paths {
		err := readShardFile(path, func(r *analysis.Result) error {
			key := r.Game + "\x00" + r.Variant
			m, seen := groups[key]
			if !seen {
				m = &analysis.Merger{}
				groups[key] = m
				order = append(order, key)
			}
			return m.Add(r)
		})
		if err != nil {
			return nil, err
		}
	}
	var reps []analysis.Report
	for _, key := range order {
		m, err := groups[key].Result()
		if err != nil {
			return nil, err
		}
		if !m.Complete() {
			return nil, fmt.Errorf("merge: the shards %s of %s are missing", m.Missing(10), strings.ReplaceAll(key, "\x00", " "))
		}
		reps = append(reps, analysis.Summarize(m))
	}
	return reps, nil
}

// readShardFile reads a shard file written by --shard through package
// safefile (a named pipe or /dev/zero is refused) and passes each of its
// results to add as it is read.
func readShardFile(path string, add func(*analysis.Result) error) error {
	f, err := safefile.Open(path, maxShardFileBytes)
	if err != nil {
		return err
	}
	defer f.Close()
	notShard := func(err error) error {
		var se *safefile.Error
		if errors.As(err, &se) {
			return err
		}
		var me *analysis.MergeError
		if errors.As(err, &me) {
			return fmt.Errorf("%s: %w", path, err)
		}
		return fmt.Errorf("%s: not a shard file of matombo analyze --shard (want JSON with \"format\": %q first): %v", path, shardFormat, err)
	}
	r := bufio.NewReaderSize(f, 1<<16)
	safefile.SkipBOM(r)
	dec := json.NewDecoder(r)
	if err := expectDelim(dec, '{'); err != nil {
		return notShard(err)
	}
	formatSeen := false
	// The file is read as a stream: its own keys are checked here, each
	// result's by analysis.CheckResultJSON.
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return notShard(err)
		}
		key, _ := tok.(string)
		if seen[key] {
			return fmt.Errorf("%s: the key %q is given twice", path, key)
		}
		seen[key] = true
		switch {
		case key == "format":
			var format string
			if err := dec.Decode(&format); err != nil {
				return notShard(err)
			}
			if format != shardFormat && format != shardFormat1 {
				return notShard(fmt.Errorf("format %q", format))
			}
			formatSeen = true
		case !formatSeen:
			return notShard(fmt.Errorf("%q comes before the format", key))
		case key == "shard":
			var shard string
			if err := dec.Decode(&shard); err != nil {
				return notShard(err)
			}
		case key == "results":
			if err := expectDelim(dec, '['); err != nil {
				return notShard(err)
			}
			for n := 1; dec.More(); n++ {
				var raw json.RawMessage
				if err := dec.Decode(&raw); err != nil {
					return notShard(err)
				}
				if err := analysis.CheckResultJSON(raw); err != nil {
					return fmt.Errorf("%s: result %d: %w", path, n, err)
				}
				var r analysis.Result
				if err := json.Unmarshal(raw, &r); err != nil {
					return notShard(err)
				}
				if err := add(&r); err != nil {
					return notShard(err)
				}
			}
			if err := expectDelim(dec, ']'); err != nil {
				return notShard(err)
			}
		default:
			return notShard(fmt.Errorf("unknown field %q", key))
		}
	}
	if err := expectDelim(dec, '}'); err != nil {
		return notShard(err)
	}
	if !formatSeen {
		return notShard(errors.New("no format"))
	}
	if _, err := dec.Token(); err != io.EOF {
		return notShard(errors.New("more after the shard's JSON object"))
	}
	return nil
}

// expectDelim reads the JSON delimiter want.
func expectDelim(dec *json.Decoder, want json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != want {
		return fmt.Errorf("want %q, got %v", want, tok)
	}
	return nil
}

// analyzeOutput writes reports as the flags ask.
type analyzeOutput struct {
	e    *env
	json bool
	plot string
}

func (o analyzeOutput) write(c *cli, reps []analysis.Report, many bool) int {
	if o.plot != "" {
		files, err := charts.Write(o.plot, reps)
		if err != nil {
			return c.fail(err)
		}
		fmt.Fprintf(o.e.stderr, "wrote %s\n", strings.Join(files, ", "))
	}
	if o.json {
		var v any = reps[0]
		if many {
			v = analyzeJSON{Game: reps[0].Game, Variants: reps}
		}
		enc := json.NewEncoder(o.e.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(v); err != nil {
			return c.fail(err)
		}
		return exitOK
	}
	writeAnalysis(o.e.stdout, reps)
	return exitOK
}

// writeAnalysis writes the reports for people: a table of the main figures
// when there are several, then each report's details.
func writeAnalysis(w io.Writer, reps []analysis.Report) {
	r0 := reps[0]
	fmt.Fprintf(w, "%s (%s): %s vs %s, %d games each, seed %d\n", r0.Title, r0.Game, r0.P1, r0.P2, r0.Games, r0.Seed)
	if len(reps) > 1 {
		writeVariantTable(w, reps)
	}
	for _, r := range reps {
		fmt.Fprintf(w, "\n%s", reportName(r))
		if p := paramsText(r.Params); p != "" {
			fmt.Fprintf(w, " [%s]", p)
		}
		fmt.Fprintln(w)
		for p, rate := range r.WinRates {
			fmt.Fprintf(w, "  %-22s %6d  %s\n", playerName(p+1)+" wins", rate.Count, rateText(rate))
		}
		fmt.Fprintf(w, "  %-22s %6d  %s\n", "draws", r.DrawRate.Count, rateText(r.DrawRate))
		fmt.Fprintf(w, "  %-22s %6d  %s  (the others stopped at the cap of %d plies)\n", "ended by a rule", r.Completion.Count, rateText(r.Completion), r.MaxPlies)
		writeBalance(w, r)
		fmt.Fprintf(w, "  length: mean %.1f plies (sd %.1f), median %d, 95th percentile %d, longest %d\n",
			r.PliesMean, r.PliesSD, r.PliesMedian, r.PliesP95, r.PliesMax)
		fmt.Fprintf(w, "  decisions per turn %.2f, branching factor %.2f legal tokens per decision\n", r.DecisionsPerTurn, r.BranchingMean)
		writeTally(w, r)
		writeCounts(w, "endings", r.Endings)
		writeCounts(w, "notes", r.Notes)
	}
}

// writeVariantTable writes the main figures of several reports, a row
// each. When some report has a lead, the lead's columns follow: what it is
// read from (the score's label, or "captured"), the lead changes per game,
// and the final margin's mean size and Player 1's mean; "-" where a
// report has no such figure.
func writeVariantTable(w io.Writer, reps []analysis.Report) {
	width := 12    // the variant column, as wide as the longest name
	leadWidth := 0 // the lead column, as wide as its longest text; 0 for none
	for _, r := range reps {
		width = max(width, len(reportName(r)))
		if r.HasLead {
			leadWidth = max(leadWidth, len("lead"), len(leadFrom(r)))
		}
	}
	fmt.Fprintf(w, "\n  %-*s %-20s %-20s %-20s %7s %6s %5s %9s", width, "variant", "Player 1 wins", "Player 2 wins", "draws", "ended", "plies", "p95", "branching")
	if leadWidth > 0 {
		fmt.Fprintf(w, "  %-*s %8s %6s %9s", leadWidth, "lead", "lead chg", "margin", "P1 margin")
	}
	fmt.Fprintln(w)
	for _, r := range reps {
		fmt.Fprintf(w, "  %-*s %-20s %-20s %-20s %6.1f%% %6.1f %5d %9.2f", width, reportName(r),
			rateText(r.WinRates[0]), rateText(r.WinRates[1]), rateText(r.DrawRate),
			100*r.Completion.Rate, r.PliesMean, r.PliesP95, r.BranchingMean)
		if leadWidth > 0 {
			fmt.Fprint(w, leadColumns(r, leadWidth))
		}
		fmt.Fprintln(w)
	}
}

// leadColumns is a report's lead columns of the variant table, the first
// width wide.
func leadColumns(r analysis.Report, width int) string {
	if !r.HasLead {
		return fmt.Sprintf("  %-*s %8s %6s %9s", width, "-", "-", "-", "-")
	}
	margin, p1 := "-", "-"
	if r.HasMargin {
		margin, p1 = fmt.Sprintf("%.1f", r.MarginMean), fmt.Sprintf("%+.1f", r.MarginP1Mean)
	}
	return fmt.Sprintf("  %-*s %8.2f %6s %9s", width, leadFrom(r), r.LeadChangesMean, margin, p1)
}

// leadFrom says in a word what a report's lead is read from: the score's
// label (e.g. "seeds"), or "captured" for the captured totals.
func leadFrom(r analysis.Report) string {
	if r.LeadFrom == analysis.LeadScore {
		return r.ScoreLabel
	}
	return "captured"
}

// writeTally writes the captures, the lead changes and the margins of a
// report, saying what the lead is read from.
func writeTally(w io.Writer, r analysis.Report) {
	if r.HasCaptures {
		fmt.Fprintf(w, "  captures per game %.1f\n", r.CapturesMean)
	}
	unit, from := leadFrom(r), "the captured totals"
	if r.LeadFrom == analysis.LeadScore {
		from = "the score (" + unit + ")"
	}
	if r.HasLead {
		fmt.Fprintf(w, "  lead changes per game %.2f, the lead read from %s\n", r.LeadChangesMean, from)
	}
	if r.HasMargin {
		over := ""
		if r.Completion.Count < r.Games {
			over = fmt.Sprintf(" over the %d games ended by a rule", r.Completion.Count)
		}
		fmt.Fprintf(w, "  final margin%s: %.1f %s per game, Player 1's mean %+.1f (sd %.1f)\n", over, r.MarginMean, unit, r.MarginP1Mean, r.MarginSD)
	}
}

func writeCounts(w io.Writer, title string, cs []analysis.Count) {
	if len(cs) == 0 {
		return
	}
	fmt.Fprintf(w, "  %s:\n", title)
	for _, c := range cs {
		fmt.Fprintf(w, "    %-24s %6d\n", c.Name, c.Games)
	}
}

// reportName names a report's row: the variant, else the game.
func reportName(r analysis.Report) string {
	if r.Variant != "" {
		return r.Variant
	}
	return r.Game
}

// paramsText writes parameters as sorted key=value pairs.
func paramsText(params map[string]any) string {
	var parts []string
	for k, v := range params {
		parts = append(parts, fmt.Sprintf("%s=%v", k, v))
	}
	slices.Sort(parts)
	return strings.Join(parts, " ")
}

// writeBalance writes the balance, the first player's advantage and share
// of the decided games; with no game decided, balance and share have no
// value and say so rather than read 0 (one seat winning every game).
func writeBalance(w io.Writer, r analysis.Report) {
	decided := 0
	for _, n := range r.Wins {
		decided += n
	}
	if decided == 0 {
		fmt.Fprintf(w, "  balance -, advantage of Player 1 %.3f, Player 1's share of decided games - (no game was decided)\n", r.AdvantageP1)
		return
	}
	fmt.Fprintf(w, "  balance %.3f, advantage of Player 1 %.3f, Player 1's share of decided games %s\n",
		r.Balance, r.AdvantageP1, rateText(r.P1Decisive))
}

// rateText writes a rate with its interval: "51.9% [49.7, 54.1]".
func rateText(r analysis.Rate) string {
	return fmt.Sprintf("%5.1f%% [%.1f, %.1f]", 100*r.Rate, 100*r.Low, 100*r.High)
}

// playerMaker makes the players of analyze's specs with player.New, each
// game's players with that game's seeds; perfect players of one game share
// one solution, loaded (or solved) once.
type playerMaker struct {
	ctx       context.Context // stops a solve for a perfect player
	log       io.Writer
	mu        sync.Mutex
	solutions map[*host.Game]*solve.Solution
}

func newPlayerMaker(ctx context.Context, log io.Writer) *playerMaker {
	return &playerMaker{ctx: ctx, log: log, solutions: map[*host.Game]*solve.Solution{}}
}

func (pm *playerMaker) make(g *host.Game, spec string, seed uint64) (analysis.Player, error) {
	if spec == "perfect" {
		pm.mu.Lock()
		defer pm.mu.Unlock()
		sol, ok := pm.solutions[g]
		if !ok {
			var err error
			if sol, err = perfectSolution(pm.ctx, pm.log, g); err != nil {
				return nil, fmt.Errorf("player perfect: %w", err)
			}
			pm.solutions[g] = sol
		}
		return player.FromSolution(sol), nil
	}
	sp, err := player.ParseSpec(spec)
	if err != nil {
		return nil, err
	}
	// The game's seed replaces any seed of the spec, so that every game of
	// the run plays differently and the same whatever the shards.
	p, err := player.New(g, sp.With("seed", strconv.FormatUint(seed, 10)).String(), player.WithSolutions(cliSolutions(pm.log)))
	var se *player.SpecError
	if errors.As(err, &se) {
		se.Spec = spec // name the spec as the user typed it
	}
	return p, err
}

// progressBar draws the progress of a run on a terminal.
type progressBar struct {
	w     io.Writer
	width int // of the terminal (outputWidth)
	label string
	on    bool
	shown int // last percentage drawn
}

func newProgressBar(w io.Writer, label string) *progressBar {
	return &progressBar{w: w, width: outputWidth(w), label: label, on: isTerminal(w), shown: -1}
}

// update draws the bar when the percentage changes.
func (b *progressBar) update(done, total int) {
	if !b.on || total == 0 {
		return
	}
	pct := done * 100 / total
	if pct == b.shown {
		return
	}
	b.shown = pct
	const width = 30
	fill := pct * width / 100
	fmt.Fprint(b.w, "\r"+progressLine(fmt.Sprintf("%s [%s%s] %3d%% %d/%d games", b.label, strings.Repeat("=", fill), strings.Repeat(" ", width-fill), pct, done, total), b.width))
}

// finish ends the bar's line.
func (b *progressBar) finish() {
	if b.on && b.shown >= 0 {
		fmt.Fprintln(b.w)
	}
}
