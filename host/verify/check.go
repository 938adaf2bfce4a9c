package verify

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/diag"
)

// The checks of a whole game (Check): what `matombo check` runs on a
// script, and what a server runs on a script someone uploads, before
// anyone plays it.

// CheckOptions configure Check. The zero value plays 200 random games
// from seed 0.
type CheckOptions struct {
	// Games is the number of random games on the default configuration
	// (default 200); every variant that changes a parameter plays a tenth
	// as many, at least one.
	Games int
	Seed  uint64 // game i plays with seed Seed+i

	// File, when set, is the script the caller means: a game loaded from
	// another file (a game folder of the same name comes first) is a
	// problem.
	File string

	// OnStep, when set, is called with each step as soon as it is done,
	// for a caller that shows progress.
	OnStep func(Step)

	// OnLoad, when set, is called with the game loaded with its
	// defaults as soon as it loads, for a caller that reads more of it
	// (its rules page, say) without loading it again. The game is closed
	// when the check returns: keep nothing of it that needs it open.
	OnLoad func(*host.Game)

	// Extra options are added to every load, after a configuration's own
	// (host.WithLog to see what the script prints, say).
	Extra []host.Option
}

// MaxCombinations caps the parameter combinations Check loads: with more,
// each allowed value of each parameter is loaded on its own.
const MaxCombinations = 64

// MaxSingleValues caps the variants Check loads, and the loads of its
// one-parameter-at-a-time check: a variants file may declare thousands of
// variants, a script thousands of parameters with thousands of values
// each, and each load runs the script again; past the cap the rest are
// counted, not loaded.
const MaxSingleValues = 256

// The steps of Check, in order.
const (
	StepLoads       = "loads"        // the script compiles, declares and sets up
	StepVariants    = "variants"     // every named variant loads
	StepParameters  = "parameters"   // every allowed value of every parameter loads
	StepOpenings    = "openings"     // the opening of each configuration is sane
	StepRandomGames = "random games" // random games keep the invariants of Run
)

// Report is what Check found, step by step.
type Report struct {
	Game  string
	Steps []Step

	// Stopped is why the check's context stopped it (see CheckContext),
	// "" when every step was taken.
	Stopped string
}

// OK reports whether every step was taken and passed.
func (r Report) OK() bool {
	if r.Stopped != "" {
		return false
	}
	for _, st := range r.Steps {
		if len(st.Findings) > 0 {
			return false
		}
	}
	return true
}

// Step is the outcome of one step of Check.
type Step struct {
	Name     string    // one of StepLoads, ... StepRandomGames
	Summary  string    // what was checked, when it passed or was skipped
	Findings []Finding // what is wrong; none when the step passed
	Skipped  bool      // not taken, because the game does not load
}

// Finding is one problem a step found.
type Finding struct {
	Config *Config // the configuration it is in, nil for none
	Msg    string  // what is wrong, with file:line where there is one

	// Problem is the problem of a random game, with what reproduces it;
	// nil for the other steps.
	Problem *Problem
	// Repeats are the seeds of further games that ran into the same
	// script failure as Problem; it is reported once.
	Repeats []uint64
}

// String is the finding on one line or a few: the configuration's label
// and the message.
func (f Finding) String() string {
	if f.Config == nil {
		return f.Msg
	}
	return f.Config.Label + ": " + f.Msg
}

// Config is one way to load a game: its defaults, a named variant or
// parameter values.
type Config struct {
	Label     string          // "defaults", "variant NAME" or "name=value ..."
	Variant   string          // the variant chosen, if any
	Overrides []host.Override // the parameters set, if any
	Game      *host.Game      // the game loaded so
}

// Options are the load options of the configuration.
func (c *Config) Options() []host.Option {
	var opts []host.Option
	if c.Variant != "" {
		opts = append(opts, host.WithVariant(c.Variant))
	}
	for _, o := range c.Overrides {
		opts = append(opts, host.WithOverride(o))
	}
	return opts
}

// Check checks the game name of lib as its script's author needs it, in
// steps: it loads; each named variant loads; each allowed value of each
// parameter loads (every combination, when there are at most
// MaxCombinations); the opening of each configuration is sane (legal
// tokens listed once each without spaces, every one plays, counts and
// owners in range, the diagram and the JSON read back); and random games
// keep the invariants of Run, with the thorough checks on the first five
// and a replay of every game on a reloaded script. A step that cannot be
// taken because the game does not load is marked skipped.
//
// It is CheckContext without a context: nothing but the script's per-call
// budgets bounds it.
func Check(lib *host.Library, name string, opt CheckOptions) Report {
	return CheckContext(context.Background(), lib, name, opt)
}

// CheckContext is Check, stopped when ctx is done: the script call in
// progress stops between two instructions (see host.Runner.SetContext),
// the step it was in has a finding "stopped: " and the reason
// (diag.StopReason: the text of ctx's cause, e.g. "interrupted") saying
// what was not done, the steps after it are skipped, and the report's
// Stopped holds the reason. A stopped check is never OK.
func CheckContext(ctx context.Context, lib *host.Library, name string, opt CheckOptions) Report {
	if opt.Games <= 0 {
		opt.Games = 200
	}
	c := &gameCheck{ctx: ctx, lib: lib, name: name, opt: opt}
	r := Report{Game: name}
	add := func(st Step) {
		r.Steps = append(r.Steps, st)
		if opt.OnStep != nil {
			opt.OnStep(st)
		}
	}
	// skipRest marks the steps after the last one added skipped, and
	// reports whether there were any.
	steps := []string{StepLoads, StepVariants, StepParameters, StepOpenings, StepRandomGames}
	skipRest := func(why string) {
		for _, name := range steps[len(r.Steps):] {
			add(Step{Name: name, Skipped: true, Summary: "skipped: " + why})
		}
	}
	stopped := func() bool {
		reason := c.stop
		if reason == "" {
			reason = diag.StopReason(ctx)
		}
		if reason == "" {
			return false
		}
		r.Stopped = reason
		skipRest("stopped: " + reason)
		return true
	}
	if stopped() {
		return r
	}
	g, st := c.loads()
	if g != nil && opt.OnLoad != nil {
		opt.OnLoad(g)
	}
	add(st)
	if g == nil {
		if !stopped() {
			skipRest("the game does not load")
		}
		return r
	}
	defer g.Close()
	var configs []*Config
	defer func() {
		// Each game holds script machines and a watchdog until closed:
		// a check of a thousand configurations must not keep them all.
		for _, cfg := range configs {
			cfg.Game.Close()
		}
	}()
	variants, st := c.variants(g)
	configs = append(configs, variants...)
	add(st)
	if stopped() {
		return r
	}
	params, st := c.params(g)
	configs = append(configs, params...)
	add(st)
	if stopped() {
		return r
	}
	played := slices.Concat([]*Config{{Label: "defaults", Game: g}}, variants)
	add(c.openings(slices.Concat(played, params)))
	if stopped() {
		return r
	}
	if c.hung != "" {
		skipRest(fmt.Sprintf("a call ran into the time budget (%s) above", c.hung))
		return r
	}
	add(c.randomGames(played))
	r.Stopped = c.stop
	return r
}

// gameCheck checks one game of a library.
type gameCheck struct {
	ctx  context.Context
	lib  *host.Library
	name string
	opt  CheckOptions
	stop string // why ctx stopped a step, "" while none was
	hung string // the time budget a call ran into, "" while none did
}

// hungText says what a step left after a call ran into the time budget.
func (c *gameCheck) hungText(notDone string) string {
	return fmt.Sprintf("%s: a call ran into the time budget (%s), and a script that hangs once hangs again, each call taking the whole budget", notDone, c.hung)
}

// halted reports whether ctx is done, or err is ctx stopping a call (a
// *host.CanceledError or ctx's error), and then notes why in c.stop.
func (c *gameCheck) halted(err error) bool {
	if c.ctx.Err() == nil && !diag.StoppedBy(c.ctx, err) {
		return false
	}
	if c.stop = diag.StopReason(c.ctx); c.stop == "" {
		c.stop = err.Error()
	}
	return true
}

// notDone says what a stopped step left: "3 of 5 configurations not
// played".
func notDone(left, total int, noun, verb string) string {
	return fmt.Sprintf("%d of %s not %s", left, plural(total, noun), verb)
}

// stopped is the finding of a step the context stopped, with what was
// not done.
func (c *gameCheck) stopped(notDone string) Finding {
	return Finding{Msg: fmt.Sprintf("stopped: %s; %s", c.stop, notDone)}
}

// load loads the game with opts and the extra options.
func (c *gameCheck) load(opts ...host.Option) (*host.Game, error) {
	return c.lib.LoadContext(c.ctx, c.name, slices.Concat(opts, c.opt.Extra)...)
}

// loads loads the game with its defaults.
func (c *gameCheck) loads() (*host.Game, Step) {
	st := Step{Name: StepLoads}
	g, err := c.load()
	if err != nil && c.halted(err) {
		st.Findings = append(st.Findings, c.stopped("the game was not loaded"))
		return nil, st
	}
	if err != nil {
		var problems host.Diagnostics
		if errors.As(err, &problems) {
			for _, p := range problems {
				st.Findings = append(st.Findings, Finding{Msg: oneLine(p.Error())})
			}
			return nil, st
		}
		st.Findings = append(st.Findings, Finding{Msg: oneLine(err.Error())})
		return nil, st
	}
	if c.opt.File != "" && !sameFile(g.File(), c.opt.File) {
		st.Findings = append(st.Findings, Finding{Msg: fmt.Sprintf("%s: the game %s is loaded from %s, not from this script (a game folder %s/%s.lua comes first)", c.opt.File, c.name, g.File(), c.name, c.name)})
	}
	st.Summary = fmt.Sprintf("%s from %s: %d players, %d sites, %s", g.Title(), g.File(), g.Players(), g.Board().NumSites(), plural(len(g.MoveKinds()), "move kind"))
	if g.MaxPlies() > 0 {
		st.Summary += fmt.Sprintf(", ends within %d plies", g.MaxPlies())
	}
	if g.Conserves() {
		st.Summary += ", conserves counters"
	}
	return g, st
}

// oneLine is a message on one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// sameFile reports whether two paths name the same file.
func sameFile(a, b string) bool {
	ia, errA := os.Stat(a)
	ib, errB := os.Stat(b)
	if errA != nil || errB != nil {
		return filepath.Clean(a) == filepath.Clean(b)
	}
	return os.SameFile(ia, ib)
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// variants loads every named variant.
func (c *gameCheck) variants(g *host.Game) ([]*Config, Step) {
	st := Step{Name: StepVariants}
	var out []*Config
	var names []string
	all := g.Variants()
	tried := all[:min(len(all), MaxSingleValues)]
	for i, v := range tried {
		cfg := &Config{Label: "variant " + v.Name, Variant: v.Name}
		vg, err := c.load(cfg.Options()...)
		if c.halted(err) {
			if vg != nil {
				vg.Close()
			}
			st.Findings = append(st.Findings, c.stopped(notDone(len(tried)-i, len(tried), "variant", "loaded")))
			break
		}
		if err != nil {
			st.Findings = append(st.Findings, Finding{Msg: fmt.Sprintf("variant %s: %s", v.Name, oneLine(err.Error()))})
			continue
		}
		cfg.Game = vg
		out = append(out, cfg)
		names = append(names, v.Name)
	}
	switch {
	case len(all) == 0:
		st.Summary = "none declared"
	case len(all) > MaxSingleValues:
		st.Summary = fmt.Sprintf("%d of the first %d of %d load (%s and more)", len(names), MaxSingleValues, len(all), strings.Join(names[:min(len(names), 8)], ", "))
	default:
		st.Summary = fmt.Sprintf("%d load (%s)", len(names), strings.Join(names, ", "))
	}
	return out, st
}

// params loads the game with every allowed value of every parameter.
func (c *gameCheck) params(g *host.Game) ([]*Config, Step) {
	st := Step{Name: StepParameters}
	var names []string
	var values [][]string
	total := 1 // saturates past MaxCombinations: 40 parameters of 4 values overflow an int
	for _, p := range g.ParamSpecs() {
		if a := p.Allowed(); len(a) > 0 {
			names = append(names, p.Name)
			values = append(values, a)
			if total <= MaxCombinations {
				total *= len(a)
			}
		}
	}
	switch {
	case len(g.ParamSpecs()) == 0:
		st.Summary = "none declared"
		return nil, st
	case len(names) == 0:
		st.Summary = "no parameter lists its allowed values"
		return nil, st
	}
	var combos [][]host.Override
	if total <= MaxCombinations {
		combos = Combinations(names, values)
		st.Summary = fmt.Sprintf("all %s of %s load", plural(total, "combination"), strings.Join(names, ", "))
	} else {
		n := 0
		for i, name := range names {
			for _, v := range values[i] {
				if n < MaxSingleValues {
					combos = append(combos, []host.Override{{Name: name, Value: v}})
				}
				n++
			}
		}
		shown := diag.ShortList(names, 8)
		if n > MaxSingleValues {
			st.Summary = fmt.Sprintf("the first %d of the %d allowed values of %s load, one parameter at a time (more than %d combinations are too many)", MaxSingleValues, n, shown, MaxCombinations)
		} else {
			st.Summary = fmt.Sprintf("each of the %d allowed values of %s loads, one parameter at a time (more than %d combinations are too many)", n, shown, MaxCombinations)
		}
	}
	var out []*Config
	for i, combo := range combos {
		if c.halted(nil) {
			st.Findings = append(st.Findings, c.stopped(notDone(len(combos)-i, len(combos), "configuration", "loaded")))
			break
		}
		var label []string
		for _, o := range combo {
			label = append(label, fmt.Sprintf("%s=%v", o.Name, o.Value))
		}
		cfg := &Config{Label: strings.Join(label, " "), Overrides: combo}
		pg, err := c.load(cfg.Options()...)
		if err != nil && c.halted(err) {
			st.Findings = append(st.Findings, c.stopped(notDone(len(combos)-i, len(combos), "configuration", "loaded")))
			break
		}
		if err != nil {
			st.Findings = append(st.Findings, Finding{Msg: fmt.Sprintf("%s: %s", cfg.Label, oneLine(err.Error()))})
			continue
		}
		cfg.Game = pg
		out = append(out, cfg)
	}
	return out, st
}

// Combinations lists every combination of the values of the named
// parameters, the last parameter varying fastest.
func Combinations(names []string, values [][]string) [][]host.Override {
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

// paramText writes a game's parameter values, e.g. "holes=6 seeds=4".
func paramText(g *host.Game) string {
	var parts []string
	for _, p := range g.Params() {
		parts = append(parts, fmt.Sprintf("%s=%v", p.Name, p.Value))
	}
	return strings.Join(parts, " ")
}

// openings checks the opening of every configuration.
func (gc *gameCheck) openings(configs []*Config) Step {
	st := Step{Name: StepOpenings}
	seen := map[string]bool{}
	n := 0
	for i, c := range configs {
		key := paramText(c.Game)
		if seen[key] {
			continue
		}
		probs, err := openingProblems(gc.ctx, c.Game)
		if err != nil && gc.halted(err) {
			st.Findings = append(st.Findings, gc.stopped(notDone(len(configs)-i, len(configs), "configuration", "checked")))
			break
		}
		seen[key] = true
		n++
		for _, p := range probs {
			st.Findings = append(st.Findings, Finding{Config: c, Msg: fmt.Sprintf("(%s) %s", key, p)})
		}
		if be := diag.Hang(err); be != nil {
			gc.hung = be.Limit
			if left := len(configs) - i - 1; left > 0 {
				st.Findings = append(st.Findings, Finding{Msg: gc.hungText(notDone(left, len(configs), "configuration", "checked"))})
			}
			break
		}
	}
	st.Summary = fmt.Sprintf("%s sane (legal tokens play, counts and owners in range, the diagram and the JSON read back)", plural(n, "distinct configuration"))
	return st
}

// OpeningProblems lists what is wrong with a game's opening state: a game
// over or without legal tokens, counts or owners out of range, a legal
// token listed twice, empty, with spaces or failing to play, and a diagram
// or JSON that does not read back.
func OpeningProblems(g *host.Game) []string {
	out, _ := openingProblems(context.Background(), g)
	return out
}

// openingProblems is OpeningProblems, stopped when ctx is done: err is
// then ctx stopping a call, and the problems are those found before.
func openingProblems(ctx context.Context, g *host.Game) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var out []string
	s := g.Start()
	legal := s.Legal()
	switch {
	case s.Over():
		out = append(out, "the game is over at the opening: "+outcomeText(s.Outcome()))
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
		err := s.Clone().PlayContext(ctx, t)
		if diag.StoppedBy(ctx, err) {
			return out, err
		}
		if err != nil {
			out = append(out, fmt.Sprintf("the legal token %q fails: %v", t, err))
		}
		if diag.Hang(err) != nil {
			return out, err // the other tokens would hang too
		}
	}
	out = append(out, diagramProblems(g, s)...)
	return append(out, jsonProblems(g, s)...), nil
}

// outcomeText describes how a game ended.
func outcomeText(o host.Outcome) string {
	text := "a draw"
	if o.Winner > 0 {
		text = fmt.Sprintf("Player %d wins", o.Winner)
	}
	var more []string
	if o.Reason != "" {
		more = append(more, o.Reason)
	}
	if more = append(more, o.Notes...); len(more) > 0 {
		text += " (" + strings.Join(more, "; ") + ")"
	}
	return text
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

// randomGames plays random games on the defaults and fewer on each
// variant that changes a parameter.
func (c *gameCheck) randomGames(configs []*Config) Step {
	st := Step{Name: StepRandomGames}
	defaults := paramText(configs[0].Game)
	var parts []string
	extra, same := 0, 0
	for i, cfg := range configs {
		if i > 0 && paramText(cfg.Game) == defaults {
			same++
			continue // a variant that plays the defaults, e.g. "standard"
		}
		n := c.opt.Games
		if i > 0 {
			n = max(1, c.opt.Games/10)
			extra++
		}
		if c.halted(nil) {
			st.Findings = append(st.Findings, c.stopped(notDone(len(configs)-i, len(configs), "configuration", "played")))
			break
		}
		opts := cfg.Options()
		stats, probs := RunContext(c.ctx, cfg.Game, Options{
			Games:         n,
			Seed:          c.opt.Seed,
			Thorough:      true,
			ThoroughGames: min(n, 5),
			MaxProblems:   max(20, n), // a failure repeated in every game is counted, see findings
			Replay:        true,
			Reload:        func() (*host.Game, error) { return c.load(opts...) },
		})
		st.Findings = append(st.Findings, findings(cfg, probs)...)
		if stats.Hung != "" {
			c.hung = stats.Hung
			if rest := len(configs) - i - 1; rest > 0 {
				st.Findings = append(st.Findings, Finding{Msg: c.hungText(fmt.Sprintf("%s more not played", plural(rest, "configuration")))})
			}
			break
		}
		if stats.Stopped != "" {
			c.stop = stats.Stopped
			if rest := len(configs) - i - 1; rest > 0 {
				st.Findings = append(st.Findings, c.stopped(fmt.Sprintf("%s more not played", plural(rest, "configuration"))))
			}
			break
		}
		if i == 0 {
			limit := cfg.Game.MaxPlies()
			if limit <= 0 {
				limit = 100000
			}
			parts = append(parts, statsText(stats, c.opt.Seed, limit))
		}
	}
	if extra > 0 {
		parts = append(parts, fmt.Sprintf("and %d each on %s", max(1, c.opt.Games/10), plural(extra, "variant")))
	}
	if same > 0 {
		verb := "is"
		if same > 1 {
			verb = "are"
		}
		parts = append(parts, fmt.Sprintf("%s %s the defaults", plural(same, "variant"), verb))
	}
	st.Summary = strings.Join(parts, "; ")
	return st
}

// findings turns the problems Run found in one configuration into
// findings. A script failure is one finding, with the seeds of the other
// games that ran into the same one.
func findings(cfg *Config, probs []Problem) []Finding {
	var out []Finding
	first := map[string]int{} // cause -> index in out
	for i := range probs {
		p := &probs[i]
		if p.Cause == "" {
			out = append(out, Finding{Config: cfg, Msg: p.String(), Problem: p})
			continue
		}
		if k, ok := first[p.Cause]; ok {
			out[k].Repeats = append(out[k].Repeats, p.Seed)
			continue
		}
		first[p.Cause] = len(out)
		out = append(out, Finding{Config: cfg, Msg: p.String(), Problem: p})
	}
	return out
}

// statsText summarizes Run's statistics.
func statsText(st Stats, seed uint64, limit int) string {
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
