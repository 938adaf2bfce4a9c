package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/matombo/matombo/games"
	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/verify"
)

const checkAbout = `
Validates a rule script as its author needs: SCRIPT is a NAME.lua (its
folder is added as a folder of games and the game NAME checked; a
variants.yaml and rules.md beside it count when the folder is the game's
own folder, NAME/NAME.lua), DIR a game folder or a folder of games (each
game in it is checked). Only those files are used, and the shipped games a
script extends (matombo.extends), wherever the script is.

For each game, in steps reported as ok or FAIL with the problems (with
file:line where there is one):
  loads          the script compiles (syntax, undeclared globals) and its
                 declarations and setup run
  variants       every variant of its variants files loads
  parameters     every allowed value of every parameter loads (all
                 combinations when there are at most 64, else one
                 parameter at a time)
  openings       the opening of each configuration above is sane: legal
                 tokens listed once each without spaces, every one plays,
                 counts and owners in range, the diagram and the JSON read
                 back
  random games   N random games (--games N, default 200; seeds S, S+1, ...)
                 keep the invariants of package verify (thorough checks on
                 the first 5, a replay of every game on a reloaded script)
                 and end within the ply cap; each variant that changes a
                 parameter plays N/10 more
With --print, what the scripts print (Lua's print) goes to stderr, each
line after the game's name: a script author's tracing.
The exit status is 0 only when every step of every game is ok.`

// maxCombinations caps the parameter combinations check loads.
const maxCombinations = 64

// maxShown caps the problems shown per step.
const maxShown = 10

// step is the outcome of one step of a check.
type step struct {
	name     string
	summary  string   // what was checked, when ok
	problems []string // what is wrong
	skipped  bool
}

// config is one way to load a game: a label and its load options.
type config struct {
	label string
	opts  []host.Option
	flags []string // the same as command-line flags, for reproducing
	game  *host.Game
}

// gameChecker checks one game of a library.
type gameChecker struct {
	lib   *host.Library
	name  string
	file  string // the script the user named, "" for a folder
	dir   string // the folder of games, as --games DIR
	games int
	seed  uint64
	extra []host.Option // for every load: --print's log
}

// load loads the game with opts and the checker's own options.
func (gc *gameChecker) load(opts ...host.Option) (*host.Game, error) {
	return gc.lib.Load(gc.name, append(append([]host.Option(nil), opts...), gc.extra...)...)
}

// runCheck is `matombo check SCRIPT|DIR`.
func runCheck(e *env, args []string) int {
	c := newCLI(e, "check", "SCRIPT|DIR [--games N] [--seed S] [--print]", checkAbout)
	games := 200
	c.fs.Var(countOrDirs{count: &games}, "games", "how many random games `N` to play")
	c.fs.Var(countOrDirs{count: &games}, "n", "the same as --games `N`")
	seed := c.fs.Uint64("seed", 1, "seed `S` of the first random game; game i uses S+i")
	printed := c.fs.Bool("print", false, "show what the scripts print (Lua's print), on stderr")
	pos, status, ok := c.parse(args)
	if !ok {
		return status
	}
	switch {
	case len(pos) == 0:
		return c.usageError("name a script (NAME.lua) or a folder of games")
	case len(pos) > 1:
		return c.usageError("unexpected argument %q: check takes one script or folder", pos[1])
	}
	lib, names, file, err := checkTargets(pos[0])
	if err != nil {
		return c.fail(err)
	}
	dir := pos[0]
	if file != "" {
		dir = filepath.Dir(file)
	}
	bad := 0
	for i, name := range names {
		if i > 0 {
			fmt.Fprintln(e.stdout)
		}
		gc := &gameChecker{lib: lib, name: name, file: file, dir: dir, games: games, seed: *seed}
		if *printed {
			gc.extra = []host.Option{host.WithLog(&lockedWriter{w: e.stderr})}
		}
		if !gc.run(e.stdout) {
			bad++
		}
	}
	fmt.Fprintln(e.stdout)
	switch {
	case bad == 0:
		fmt.Fprintf(e.stdout, "check: %s, all ok\n", plural(len(names), "game"))
		return exitOK
	default:
		fmt.Fprintf(e.stdout, "check: %d of %s with problems\n", bad, plural(len(names), "game"))
		return exitFail
	}
}

// checkTargets makes the library of a SCRIPT or DIR argument and lists the
// games to check; file is the script when one was named.
func checkTargets(path string) (lib *host.Library, names []string, file string, err error) {
	info, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, "", fmt.Errorf("%s: no such script or folder", path)
	}
	if err != nil {
		return nil, nil, "", err
	}
	lib = host.NewLibrary()
	lib.SetBases(games.Library()) // a script may extend a shipped game
	if !info.IsDir() {
		name, ok := strings.CutSuffix(filepath.Base(path), ".lua")
		if !ok || name == "" {
			return nil, nil, "", usageErr{fmt.Sprintf("%s is neither a rule script (NAME.lua) nor a folder", path)}
		}
		if err := lib.AddDir(filepath.Dir(path)); err != nil {
			return nil, nil, "", err
		}
		return lib, []string{name}, path, nil
	}
	if err := lib.AddDir(path); err != nil {
		return nil, nil, "", err
	}
	names = lib.Games()
	if len(names) == 0 {
		return nil, nil, "", fmt.Errorf("%s holds no game scripts (a game is NAME/NAME.lua or NAME.lua)", path)
	}
	return lib, names, "", nil
}

// run checks the game, writing each step as it is done, and returns
// whether all were ok.
func (gc *gameChecker) run(w io.Writer) bool {
	fmt.Fprintf(w, "checking %s\n", gc.name)
	ok := true
	report := func(st step) {
		writeStep(w, st)
		ok = ok && len(st.problems) == 0
	}
	g, st := gc.loads()
	report(st)
	if g == nil {
		for _, name := range []string{"variants", "parameters", "openings", "random games"} {
			report(skipped(name))
		}
	} else {
		variants, st := gc.variants(g)
		report(st)
		params, st := gc.params(g)
		report(st)
		configs := slices.Concat([]config{{label: "defaults", game: g}}, variants)
		report(openings(slices.Concat(configs, params)))
		report(gc.randomGames(configs))
	}
	verdict := "ok"
	if !ok {
		verdict = "PROBLEMS"
	}
	fmt.Fprintf(w, "%s: %s\n", gc.name, verdict)
	return ok
}

// skipped is a step not taken because the game does not load.
func skipped(name string) step {
	return step{name: name, skipped: true, summary: "skipped: the game does not load"}
}

// writeStep writes one step: ok, FAIL with its problems, or skipped.
func writeStep(w io.Writer, st step) {
	switch {
	case len(st.problems) > 0:
		fmt.Fprintf(w, "  FAIL  %s\n", st.name)
		for i, p := range st.problems {
			if i == maxShown {
				fmt.Fprintf(w, "        ... and %d more\n", len(st.problems)-maxShown)
				break
			}
			for j, line := range strings.Split(p, "\n") {
				indent := "        "
				if j > 0 {
					indent += "  "
				}
				fmt.Fprintln(w, indent+strings.TrimSpace(line))
			}
		}
	case st.skipped:
		fmt.Fprintf(w, "  --    %s: %s\n", st.name, st.summary)
	default:
		fmt.Fprintf(w, "  ok    %s: %s\n", st.name, st.summary)
	}
}

// loads loads the game with its defaults.
func (gc *gameChecker) loads() (*host.Game, step) {
	st := step{name: "loads"}
	g, err := gc.load()
	if err != nil {
		st.problems = append(st.problems, errorText(err))
		return nil, st
	}
	if gc.file != "" && !sameFile(g.File(), gc.file) {
		st.problems = append(st.problems, fmt.Sprintf("%s: the game %s is loaded from %s, not from this script (a game folder %s/%s.lua comes first)", gc.file, gc.name, g.File(), gc.name, gc.name))
	}
	st.summary = fmt.Sprintf("%s from %s: %d players, %d sites, %s", g.Title(), g.File(), g.Players(), g.Board().NumSites(), plural(len(g.MoveKinds()), "move kind"))
	if g.MaxPlies() > 0 {
		st.summary += fmt.Sprintf(", ends within %d plies", g.MaxPlies())
	}
	if g.Conserves() {
		st.summary += ", conserves counters"
	}
	return g, st
}

// errorText is an error's message on one line.
func errorText(err error) string { return oneLine(err.Error()) }

// sameFile reports whether two paths name the same file.
func sameFile(a, b string) bool {
	ia, errA := os.Stat(a)
	ib, errB := os.Stat(b)
	if errA != nil || errB != nil {
		return filepath.Clean(a) == filepath.Clean(b)
	}
	return os.SameFile(ia, ib)
}

// variants loads every named variant.
func (gc *gameChecker) variants(g *host.Game) ([]config, step) {
	st := step{name: "variants"}
	var out []config
	var names []string
	for _, v := range g.Variants() {
		opts := []host.Option{host.WithVariant(v.Name)}
		vg, err := gc.load(opts...)
		if err != nil {
			st.problems = append(st.problems, fmt.Sprintf("variant %s: %s", v.Name, errorText(err)))
			continue
		}
		out = append(out, config{label: "variant " + v.Name, opts: opts, flags: []string{"--variant", v.Name}, game: vg})
		names = append(names, v.Name)
	}
	if len(names) == 0 {
		st.summary = "none declared"
	} else {
		st.summary = fmt.Sprintf("%d load (%s)", len(names), strings.Join(names, ", "))
	}
	return out, st
}

// params loads the game with every allowed value of every parameter.
func (gc *gameChecker) params(g *host.Game) ([]config, step) {
	st := step{name: "parameters"}
	var names []string
	var values [][]string
	total := 1
	for _, p := range g.ParamSpecs() {
		if a := p.Allowed(); len(a) > 0 {
			names = append(names, p.Name)
			values = append(values, a)
			total *= len(a)
		}
	}
	if len(names) == 0 {
		st.summary = "no parameter lists its allowed values"
		return nil, st
	}
	var combos [][]host.Override
	if total <= maxCombinations {
		combos = allCombinations(names, values)
		st.summary = fmt.Sprintf("all %s of %s load", plural(total, "combination"), strings.Join(names, ", "))
	} else {
		n := 0
		for i, name := range names {
			for _, v := range values[i] {
				combos = append(combos, []host.Override{{Name: name, Value: v}})
				n++
			}
		}
		st.summary = fmt.Sprintf("each of the %d allowed values of %s loads, one parameter at a time (%d combinations are too many)", n, strings.Join(names, ", "), total)
	}
	var out []config
	for _, combo := range combos {
		var opts []host.Option
		var label, flags []string
		for _, o := range combo {
			opts = append(opts, host.WithOverride(o))
			label = append(label, fmt.Sprintf("%s=%v", o.Name, o.Value))
			flags = append(flags, "--param", fmt.Sprintf("%s=%v", o.Name, o.Value))
		}
		pg, err := gc.load(opts...)
		if err != nil {
			st.problems = append(st.problems, fmt.Sprintf("%s: %s", strings.Join(label, " "), errorText(err)))
			continue
		}
		out = append(out, config{label: strings.Join(label, " "), opts: opts, flags: flags, game: pg})
	}
	return out, st
}

// allCombinations lists every combination of the values.
func allCombinations(names []string, values [][]string) [][]host.Override {
	out := [][]host.Override{nil}
	for i, name := range names {
		var next [][]host.Override
		for _, prefix := range out {
			for _, v := range values[i] {
				combo := append(slices.Clone(prefix), host.Override{Name: name, Value: v})
				next = append(next, combo)
			}
		}
		out = next
	}
	return out
}

// openings checks the opening of every configuration.
func openings(configs []config) step {
	st := step{name: "openings"}
	seen := map[string]bool{}
	n := 0
	for _, c := range configs {
		key := paramText(c.game)
		if seen[key] {
			continue
		}
		seen[key] = true
		n++
		for _, p := range openingProblems(c.game) {
			st.problems = append(st.problems, fmt.Sprintf("%s (%s): %s", c.label, key, p))
		}
	}
	st.summary = fmt.Sprintf("%s sane (legal tokens play, counts and owners in range, the diagram and the JSON read back)", plural(n, "distinct configuration"))
	return st
}

// openingProblems lists what is wrong with a game's opening state.
func openingProblems(g *host.Game) []string {
	var out []string
	s := g.Start()
	legal := s.Legal()
	switch {
	case s.Over():
		out = append(out, "the game is over at the opening: "+resultText(s.Outcome()))
	case len(legal) == 0:
		out = append(out, "no token is legal at the opening")
	}
	if p := s.ToMove(); p < 1 || p > g.Players() {
		out = append(out, fmt.Sprintf("the player to move is %d; players are 1 to %d", p, g.Players()))
	}
	for i := 0; i < g.Board().NumSites(); i++ {
		if s.Count(i) < 0 || s.Owner(i) < 0 || s.Owner(i) > g.Players() {
			out = append(out, fmt.Sprintf("%s holds %d counters of owner %d", g.Board().Site(i).Name, s.Count(i), s.Owner(i)))
		}
	}
	for p := 1; p <= g.Players(); p++ {
		if s.Captured(p) < 0 || s.Hand(p) < 0 {
			out = append(out, fmt.Sprintf("player %d has captured %d and %d in hand", p, s.Captured(p), s.Hand(p)))
		}
	}
	seen := map[string]bool{}
	for _, t := range legal {
		if seen[t] {
			out = append(out, fmt.Sprintf("the legal token %q is listed twice", t))
		}
		seen[t] = true
		if t == "" || strings.ContainsAny(t, " \t\r\n") {
			out = append(out, fmt.Sprintf("the legal token %q is empty or has spaces", t))
		}
		if err := s.Clone().Play(t); err != nil {
			out = append(out, fmt.Sprintf("the legal token %q fails: %v", t, err))
		}
	}
	out = append(out, diagramProblems(g, s)...)
	return append(out, jsonProblems(g, s)...)
}

// diagramProblems checks that the state's diagram reads back to the state.
func diagramProblems(g *host.Game, s *host.State) []string {
	counts, owners, err := g.ParseDiagram(s.Diagram())
	if err != nil {
		return []string{fmt.Sprintf("the opening's diagram does not read back: %v", err)}
	}
	for i := range counts {
		if counts[i] != s.Count(i) || owners[i] != s.Owner(i) {
			return []string{fmt.Sprintf("the opening's diagram reads back with %s holding %d of owner %d, not %d of owner %d", g.Board().Site(i).Name, counts[i], owners[i], s.Count(i), s.Owner(i))}
		}
	}
	return nil
}

// jsonProblems checks that the state's JSON reads back unchanged.
func jsonProblems(g *host.Game, s *host.State) []string {
	b, err := s.MarshalJSON()
	if err != nil {
		return []string{fmt.Sprintf("the opening cannot be written as JSON: %v", err)}
	}
	back, err := g.StateFromJSON(b)
	if err != nil {
		return []string{fmt.Sprintf("the opening's JSON does not read back: %v", err)}
	}
	again, _ := back.MarshalJSON()
	if !bytes.Equal(again, b) {
		return []string{fmt.Sprintf("the opening's JSON changes on a round trip:\n%s\n%s", b, again)}
	}
	return nil
}

// randomGames plays random games on the defaults and fewer on each variant
// that changes a parameter, with package verify.
func (gc *gameChecker) randomGames(configs []config) step {
	st := step{name: "random games"}
	defaults := paramText(configs[0].game)
	var parts []string
	extra := 0
	for i, c := range configs {
		if i > 0 && paramText(c.game) == defaults {
			continue // a variant that plays the defaults, e.g. "standard"
		}
		n := gc.games
		if i > 0 {
			n = max(1, gc.games/10)
			extra++
		}
		stats, probs := gc.verify(c, n)
		st.problems = append(st.problems, gc.problemTexts(c, probs)...)
		if i == 0 {
			parts = append(parts, statsText(stats, gc.seed, plyCap(c.game, 0)))
		}
	}
	if extra > 0 {
		parts = append(parts, fmt.Sprintf("and %d each on %s", max(1, gc.games/10), plural(extra, "variant")))
	}
	st.summary = strings.Join(parts, "; ")
	return st
}

// problemTexts writes the problems verify found in one configuration. A
// script failure is written once, with the command that reproduces it,
// however many games ran into the same one.
func (gc *gameChecker) problemTexts(c config, probs []verify.Problem) []string {
	var out []string
	first := map[string]int{}      // cause -> index in out
	seeds := map[string][]uint64{} // cause -> the seeds of the repeats
	for _, p := range probs {
		if p.Cause == "" {
			out = append(out, fmt.Sprintf("%s: %s", c.label, p.String()))
			continue
		}
		if _, ok := first[p.Cause]; ok {
			seeds[p.Cause] = append(seeds[p.Cause], p.Seed)
			continue
		}
		first[p.Cause] = len(out)
		out = append(out, fmt.Sprintf("%s: %s\n  reproduce: %s", c.label, p.String(), gc.reproduce(c, p)))
	}
	for cause, i := range first {
		if s := seeds[cause]; len(s) > 0 {
			out[i] += fmt.Sprintf("\n  the same failure in %d more %s (%s)", len(s), map[bool]string{true: "game", false: "games"}[len(s) == 1], seedList(s))
		}
	}
	return out
}

// reproduce is the command line that plays into a script failure again:
// the seed's random game when the failure is on its path, else a trace of
// its record and the failing token.
func (gc *gameChecker) reproduce(c config, p verify.Problem) string {
	args := []string{"matombo"}
	if p.OnPath {
		args = append(args, "selfplay", gc.name, "--games", gc.dir)
		args = append(args, c.flags...)
		args = append(args, "--seed", strconv.FormatUint(p.Seed, 10), "-n", "1")
	} else {
		args = append(args, "trace", gc.name, "--games", gc.dir)
		args = append(args, c.flags...)
		args = append(args, strings.Join(append(append([]string(nil), p.Record...), p.Token), " "))
	}
	for i, a := range args {
		args[i] = shellQuote(a)
	}
	return strings.Join(args, " ")
}

// shellQuote quotes a word for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=./:,@+") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// seedList writes seeds briefly: "seeds 2, 3, 4" or "seeds 2, 3, ... 20".
func seedList(seeds []uint64) string {
	var parts []string
	for i, s := range seeds {
		if i == 3 && len(seeds) > 4 {
			parts = append(parts, "...", strconv.FormatUint(seeds[len(seeds)-1], 10))
			break
		}
		parts = append(parts, strconv.FormatUint(s, 10))
	}
	word := "seeds "
	if len(seeds) == 1 {
		word = "seed "
	}
	return word + strings.Join(parts, ", ")
}

// verify runs package verify on a configuration.
func (gc *gameChecker) verify(c config, n int) (verify.Stats, []verify.Problem) {
	opts := c.opts
	return verify.Run(c.game, verify.Options{
		Games:         n,
		Seed:          gc.seed,
		Thorough:      true,
		ThoroughGames: min(n, 5),
		MaxProblems:   max(20, n), // a failure repeated in every game is counted, see problemTexts
		Replay:        true,
		Reload:        func() (*host.Game, error) { return gc.load(opts...) },
	})
}

// statsText summarizes verify's statistics.
func statsText(st verify.Stats, seed uint64, limit int) string {
	var wins []string
	for p, n := range st.Wins {
		wins = append(wins, fmt.Sprintf("P%d %d", p+1, n))
	}
	mean := 0.0
	if st.Games > 0 {
		mean = float64(st.Plies) / float64(st.Games)
	}
	return fmt.Sprintf("%s (seeds %d-%d) end within %d plies: wins %s, draws %d; mean %.0f plies, longest %d; %d positions checked thoroughly",
		plural(st.Games, "game"), seed, seed+uint64(st.Games)-1, limit, strings.Join(wins, ", "), st.Draws, mean, st.Longest, st.Checked)
}
