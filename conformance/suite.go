package conformance

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/diag"
)

// Status is the outcome of one scenario.
type Status int

const (
	Passed  Status = iota
	Failed         // an expectation did not hold
	Errored        // the scenario could not be run: bad file, unknown game, broken script
)

func (s Status) String() string {
	switch s {
	case Failed:
		return "FAIL"
	case Errored:
		return "ERROR"
	default:
		return "PASS"
	}
}

// MarshalText writes the status as pass, fail or error.
func (s Status) MarshalText() ([]byte, error) { return []byte(strings.ToLower(s.String())), nil }

// Result is the outcome of one scenario, or of a file that could not be
// parsed.
type Result struct {
	File     string   `json:"file"`
	Line     int      `json:"line"` // where the problem is, or the scenario starts
	Col      int      `json:"col,omitempty"`
	Game     string   `json:"game,omitempty"`
	Name     string   `json:"name,omitempty"`
	Rules    []string `json:"rules,omitempty"`
	Status   Status   `json:"status"`
	Step     int      `json:"step,omitempty"` // 1-based; 0 before any step
	StepName string   `json:"step_name,omitempty"`
	Token    string   `json:"token,omitempty"` // the token being played, if any
	Field    string   `json:"field,omitempty"` // the first field that differed
	Want     string   `json:"want,omitempty"`
	Got      string   `json:"got,omitempty"`
	Detail   string   `json:"detail,omitempty"` // e.g. both boards side by side
	Error    string   `json:"error,omitempty"`

	hung string // the time budget a call ran into, "" when none did
	// unchecked is why the scenario's rule labels were not checked (its
	// game has no rules page), "" when they were.
	unchecked string
}

// Report collects the results of a run.
type Report struct {
	Results []Result `json:"results"`
	Passed  int      `json:"passed"`
	Failed  int      `json:"failed"`
	Errored int      `json:"errored"`

	// Stopped is why the run's context stopped it before every scenario
	// had run (see RunContext), e.g. "interrupted"; "" for a whole run.
	Stopped string `json:"stopped,omitempty"`

	// Notes are what the run did not check, once each: a game without a
	// rules page, whose scenarios' rule labels are not checked.
	Notes []string `json:"notes,omitempty"`
}

func (r *Report) add(res Result) {
	r.Results = append(r.Results, res)
	switch res.Status {
	case Passed:
		r.Passed++
	case Failed:
		r.Failed++
	default:
		r.Errored++
	}
}

// OK reports whether every scenario ran and passed and none errored.
func (r *Report) OK() bool {
	return r.Failed == 0 && r.Errored == 0 && r.Passed > 0 && r.Stopped == ""
}

// Summary is the one-line count of the run, with why it stopped when it
// did not run to its end.
func (r *Report) Summary() string {
	sum := fmt.Sprintf("%d passed, %d failed, %d errored", r.Passed, r.Failed, r.Errored)
	if r.Stopped != "" {
		sum += "; stopped: " + r.Stopped
	}
	return sum
}

// Suite runs scenarios against the games of a library. It loads each
// combination of game, variants and parameters once.
type Suite struct {
	lib   *host.Library
	opts  []host.Option // given to every game loaded
	games map[string]gameOrErr
	order []string // the keys of games, oldest first

	rules func(game string) (string, bool) // rules pages kept outside the games' folders
	pages map[string]rulesPage             // by game name
}

// maxGames bounds the games a suite keeps loaded: each holds script
// machines and a watchdog, and a folder of 10,000 files may ask for
// 10,000 combinations of variants and parameters. Scenarios of one
// combination usually follow each other, so the oldest goes first.
const maxGames = 16

type gameOrErr struct {
	g   *host.Game
	err error
}

// NewSuite returns a suite that loads games from lib, each with opts
// (host.WithLimits, say) before a scenario's variants and parameters.
func NewSuite(lib *host.Library, opts ...host.Option) *Suite {
	return &Suite{lib: lib, opts: opts, games: map[string]gameOrErr{}, pages: map[string]rulesPage{}}
}

// Run runs the scenarios of the files and adds an errored result for each
// file error (as returned by LoadFiles). It is RunContext without a
// context: nothing but the scripts' per-call budgets bounds it.
func (r *Suite) Run(files []*File, fileErrs []error) *Report {
	return r.RunContext(context.Background(), files, fileErrs)
}

// RunContext is Run, stopped when ctx is done: the script call in
// progress stops between two instructions (see host.Runner.SetContext),
// its scenario errs with "stopped: " and the reason (diag.StopReason: the
// text of ctx's cause, e.g. "interrupted"), every scenario after it errs
// with "stopped: REASON (not run)", and the report's Stopped holds the
// reason. A stopped run is never OK. The scenarios that ran before keep
// their results.
func (r *Suite) RunContext(ctx context.Context, files []*File, fileErrs []error) *Report {
	rep := &Report{}
	for _, err := range fileErrs {
		res := Result{Status: Errored, Error: err.Error()}
		var fe *FileError
		if errors.As(err, &fe) {
			res.File, res.Line, res.Col, res.Error = fe.Pos.File, fe.Pos.Line, fe.Pos.Col, fe.Msg
		}
		rep.add(res)
	}
	hung := map[string]string{} // game -> why its scenarios are not run
	for _, f := range files {
		for _, s := range f.Scenarios {
			if reason := diag.StopReason(ctx); reason != "" {
				rep.Stopped = reason
				rep.add(notRun(s, reason))
				continue
			}
			if why, ok := hung[s.Game]; ok {
				rep.add(Result{File: s.File, Line: s.Line, Game: s.Game, Name: s.Name, Rules: s.Rules, Status: Errored, Error: why})
				continue
			}
			res := r.RunScenarioContext(ctx, s)
			if res.stopped() {
				rep.Stopped = diag.StopReason(ctx)
			}
			if res.hung != "" {
				hung[s.Game] = fmt.Sprintf("not run: a call of scenario %q (%s:%d) ran into the time budget (%s), and a script that hangs once hangs again, each call taking the whole budget",
					res.Name, res.File, res.Line, res.hung)
			}
			rep.add(res)
			if res.unchecked != "" && !slices.Contains(rep.Notes, res.unchecked) {
				rep.Notes = append(rep.Notes, res.unchecked)
			}
		}
	}
	return rep
}

// hungLimit is the limit of the time budget err ran into, "" when err is
// not a call stopped by the time budget. The time budget stops what the
// step count cannot see (a hang): a run does not call a game whose script
// hung again (see RunContext).
func hungLimit(err error) string {
	if be := diag.Hang(err); be != nil {
		return be.Limit
	}
	return ""
}

// stoppedPrefix starts the error of a scenario the run's context stopped,
// and notRunSuffix ends it for one that did not start.
const (
	stoppedPrefix = "stopped: "
	notRunSuffix  = " (not run)"
)

// notRun is the result of a scenario a stopped run did not start.
func notRun(sc *Scenario, reason string) Result {
	return Result{File: sc.File, Line: sc.Line, Game: sc.Game, Name: sc.Name, Rules: sc.Rules,
		Status: Errored, Error: stoppedPrefix + reason + notRunSuffix}
}

// stopped tells whether the run's context stopped the scenario.
func (res Result) stopped() bool {
	return res.Status == Errored && strings.HasPrefix(res.Error, stoppedPrefix)
}

// stop makes res the result of a scenario the context stopped at its
// step res.Step, and reports true, when err is the context's: a
// *host.CanceledError or ctx.Err(). Other errors are the scenario's own.
func stop(ctx context.Context, err error, res *Result) bool {
	if !diag.StoppedBy(ctx, err) {
		return false
	}
	reason := diag.StopReason(ctx)
	if reason == "" {
		reason = err.Error()
	}
	res.Status, res.Error = Errored, stoppedPrefix+reason
	res.Field, res.Want, res.Got, res.Detail = "", "", "", ""
	return true
}

func (r *Suite) game(ctx context.Context, s *Scenario) (*host.Game, error) {
	var key strings.Builder
	key.WriteString(s.Game + "|" + strings.Join(s.Variants, ",") + "|")
	for _, p := range s.Params {
		fmt.Fprintf(&key, "%s=%v;", p.Name, p.Value)
	}
	if c, ok := r.games[key.String()]; ok {
		return c.g, c.err
	}
	opts := append(slices.Clip(r.opts), host.WithVariant(s.Variants...))
	for _, p := range s.Params {
		opts = append(opts, host.WithOverride(host.Override{Name: p.Name, Value: p.Value, Source: fmt.Sprintf("%s:%d: params", s.File, p.Line)}))
	}
	g, err := r.lib.LoadContext(ctx, s.Game, opts...)
	if ctx.Err() != nil || diag.StoppedBy(ctx, err) {
		// Stopped, not broken: the next run loads it again.
		if g != nil {
			g.Close()
		}
		return nil, err
	}
	if len(r.order) == maxGames {
		if old := r.games[r.order[0]]; old.g != nil {
			old.g.Close()
		}
		delete(r.games, r.order[0])
		r.order = r.order[1:]
	}
	r.games[key.String()] = gameOrErr{g, err}
	r.order = append(r.order, key.String())
	return g, err
}

// Close closes the games the suite loaded. The suite stays usable: it
// loads them again when asked.
func (r *Suite) Close() {
	for _, c := range r.games {
		if c.g != nil {
			c.g.Close()
		}
	}
	r.games, r.order = map[string]gameOrErr{}, nil
}

// RunScenario runs one scenario.
func (r *Suite) RunScenario(sc *Scenario) Result {
	return r.RunScenarioContext(context.Background(), sc)
}

// RunScenarioContext runs one scenario, stopped when ctx is done as
// RunContext says: the result is then an error starting "stopped: ".
func (r *Suite) RunScenarioContext(ctx context.Context, sc *Scenario) Result {
	res := Result{File: sc.File, Line: sc.Line, Game: sc.Game, Name: sc.Name, Rules: sc.Rules}
	if reason := diag.StopReason(ctx); reason != "" {
		return notRun(sc, reason)
	}
	g, err := r.game(ctx, sc)
	if err != nil {
		if !stop(ctx, err, &res) {
			res.Status, res.Error, res.hung = Errored, loadingPrefix+err.Error(), hungLimit(err)
		}
		return res
	}
	if page := r.rulesPage(g); !page.found {
		res.unchecked = noRulesNote(g.Name())
	} else if err := CheckRules(sc, page.points, page.where); err != nil {
		var errs RuleErrors
		errors.As(err, &errs)
		res.Status, res.Line, res.Error = Errored, errs[0].Pos.Line, ruleErrorText(errs)
		return res
	}
	s, line, err := startState(ctx, g, sc.Start)
	if err != nil && stop(ctx, err, &res) {
		return res
	}
	if err != nil {
		res.Status, res.Error, res.hung = Errored, "start: "+err.Error(), hungLimit(err)
		if line > 0 {
			res.Line = line
		}
		return res
	}
	for i, st := range sc.Steps {
		res.Step, res.StepName = i+1, st.Name
		if err := ctx.Err(); err != nil {
			stop(ctx, err, &res)
			return res
		}
		if f := runStep(ctx, g, s, st, &res); f {
			return res
		}
	}
	// A pass is cited at the scenario's name, not at the last token checked.
	res.Step, res.StepName, res.Line, res.Token = 0, "", sc.Line, ""
	res.Status = Passed
	return res
}

// ruleErrorText is the error of a scenario whose rule labels name no
// point: one label's message without its place (the report writes the
// scenario at the label's line), or several, one a line, each at its
// own place.
func ruleErrorText(errs RuleErrors) string {
	if len(errs) == 1 {
		return errs[0].Msg()
	}
	return errs.Error()
}

// startState builds the start position. The returned line locates errors.
func startState(ctx context.Context, g *host.Game, st *Start) (*host.State, int, error) {
	s := g.Start()
	if st == nil {
		return s, 0, nil
	}
	pos := s.Position()
	if st.Board != nil {
		counts, owners, err := g.ParseDiagram(st.Board.Text)
		if err != nil {
			return nil, diagramLine(st.Board, err), err
		}
		pos.Counts, pos.Owners = counts, owners
	}
	if st.ToMove != nil {
		pos.ToMove = *st.ToMove
	}
	if st.Captured != nil {
		pos.Captured = st.Captured
	}
	if st.Hand != nil {
		pos.Hand = st.Hand
	}
	vars, err := varValues(g, st.Vars, st.VarSites)
	if err != nil {
		return nil, st.lines["vars"], err
	}
	for k, v := range vars {
		pos.Vars[k] = v
	}
	var opts []host.StateOption
	if st.AnyTotal {
		opts = append(opts, host.AnyTotal())
	}
	s, err = g.NewStateContext(ctx, pos, opts...)
	return s, st.lineOf(err), err
}

// startKeys are the keys of a start, by the field of host.Position each
// gives.
var startKeys = map[string]string{"Counts": "board", "Captured": "captured", "Hand": "hand", "ToMove": "to_move", "Vars": "vars"}

// lineOf is the line of the start's key that err, a position refused,
// is about (the unknown variable's vars:, the hand: of too many players),
// or the start's own line.
func (st *Start) lineOf(err error) int {
	var pe *host.PositionError
	if errors.As(err, &pe) {
		if line := st.lines[startKeys[pe.Key]]; line > 0 {
			return line
		}
	}
	return st.Line
}

func diagramLine(d *Diagram, err error) int {
	var de *host.DiagramError
	if errors.As(err, &de) && de.Line > 0 {
		return d.Line + de.Line - 1
	}
	return d.Line
}

// runStep runs one step; it fills res and returns true when the scenario
// stops here.
func runStep(ctx context.Context, g *host.Game, s *host.State, st *Step, res *Result) bool {
	for _, tok := range st.Play {
		if err := s.PlayTurnContext(ctx, tok.Text); err != nil {
			res.Line, res.Token = tok.Line, tok.Text
			if stop(ctx, err, res) {
				return true
			}
			res.Status = Failed
			res.Field, res.Want, res.Got = "play", "the token is legal", err.Error()
			var ill *host.IllegalMoveError
			if !errors.As(err, &ill) {
				res.Status, res.Error, res.hung = Errored, err.Error(), hungLimit(err)
			}
			res.Detail = s.Diagram()
			return true
		}
	}
	if st.Reject != nil {
		before, _ := s.MarshalJSON()
		err := s.PlayTurnContext(ctx, st.Reject.Text)
		after, _ := s.MarshalJSON()
		res.Line, res.Token = st.Reject.Line, st.Reject.Text
		if err != nil && stop(ctx, err, res) {
			return true
		}
		var ill *host.IllegalMoveError
		illegal := errors.As(err, &ill)
		code := host.ErrorCode(err)
		switch {
		case err == nil:
			res.Status, res.Field, res.Want, res.Got = Failed, "reject", "the token is rejected", "it was played"
			return true
		case st.ErrorCode != "" && code != st.ErrorCode && illegal:
			res.Status, res.Field, res.Want, res.Got = Failed, "error_code", "a rejection with the code "+st.ErrorCode, code+": "+err.Error()
			return true
		case !illegal && (st.ErrorCode == "" || code != st.ErrorCode):
			// A script that fails, or runs out of a budget, unless the
			// step expects it by its code.
			res.Status, res.Error, res.hung = Errored, err.Error(), hungLimit(err)
			return true
		case st.Error != "" && !strings.Contains(err.Error(), st.Error):
			res.Status, res.Field, res.Want, res.Got = Failed, "error", fmt.Sprintf("a message containing %q", st.Error), err.Error()
			return true
		case string(before) != string(after):
			res.Status, res.Field, res.Want, res.Got = Failed, "reject", "the state is unchanged", "the state changed"
			return true
		}
		if st.Why != "" {
			if why := s.WhyNotContext(ctx, st.Reject.Text); !strings.Contains(why, st.Why) {
				res.Status, res.Field, res.Want, res.Got = Failed, "why", fmt.Sprintf("a reason containing %q", st.Why), why
				return true
			}
		}
	}
	if st.Expect != nil {
		if field, line, want, got, detail, err := check(g, s, st.Expect); field != "" || err != nil {
			res.Line, res.Field, res.Want, res.Got, res.Detail = line, field, want, got, detail
			res.Status = Failed
			if err != nil {
				res.Status, res.Error, res.hung = Errored, err.Error(), hungLimit(err)
			}
			return true
		}
	}
	return false
}

func ints(v []int) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = strconv.Itoa(x)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func players(s *host.State, get func(int) int) []int {
	out := make([]int, s.Game().Players())
	for p := range out {
		out[p] = get(p + 1)
	}
	return out
}

// check compares the expectations in a fixed order and returns the first
// difference: the field, its line, the wanted and actual values and a
// detail text. err is set when an expectation cannot be evaluated.
func check(g *host.Game, s *host.State, e *Expect) (field string, line int, want, got, detail string, err error) {
	at := func(f string) int {
		if l, ok := e.lines[f]; ok {
			return l
		}
		return e.Line
	}
	if e.Board != nil {
		counts, owners, perr := g.ParseDiagram(e.Board.Text)
		if perr != nil {
			return "board", diagramLine(e.Board, perr), "", "", "", perr
		}
		var diffs []string
		for i := 0; i < g.Board().NumSites(); i++ {
			if counts[i] != s.Count(i) || owners[i] != s.Owner(i) {
				diffs = append(diffs, fmt.Sprintf("%s: want %s, got %s", g.Board().Site(i).Name, cell(g, i, counts[i], owners[i]), cell(g, i, s.Count(i), s.Owner(i))))
			}
		}
		if len(diffs) > 0 {
			return "board", e.Board.Line, strings.Join(diffs, "; "), "", sideBySide(e.Board.Text, s.Diagram()), nil
		}
	}
	for _, sc := range e.Sites {
		i, ok := g.Board().Index(sc.Name)
		if !ok {
			return "sites", sc.Line, "", "", "", fmt.Errorf("no site is named %q", sc.Name)
		}
		wc, wo, perr := g.ParseCell(i, sc.Cell)
		if perr != nil {
			return "sites", sc.Line, "", "", "", perr
		}
		if wc != s.Count(i) || wo != s.Owner(i) {
			return "sites", sc.Line, sc.Name + " = " + sc.Cell, sc.Name + " = " + cell(g, i, s.Count(i), s.Owner(i)), s.Diagram(), nil
		}
	}
	if e.Captured != nil {
		if c := players(s, s.Captured); !equalInts(c, e.Captured) {
			return "captured", at("captured"), ints(e.Captured), ints(c), "", nil
		}
	}
	if e.Hand != nil {
		if h := players(s, s.Hand); !equalInts(h, e.Hand) {
			return "hand", at("hand"), ints(e.Hand), ints(h), "", nil
		}
	}
	if e.ToMove != nil && *e.ToMove != s.ToMove() {
		return "to_move", at("to_move"), strconv.Itoa(*e.ToMove), strconv.Itoa(s.ToMove()), "", nil
	}
	if e.Ply != nil && *e.Ply != s.Ply() {
		return "ply", at("ply"), strconv.Itoa(*e.Ply), strconv.Itoa(s.Ply()), "", nil
	}
	legal := s.Legal()
	if e.Legal != nil {
		missing, extra := setDiff(*e.Legal, legal)
		if len(missing) > 0 || len(extra) > 0 {
			var d []string
			if len(missing) > 0 {
				d = append(d, "missing: "+strings.Join(missing, " "))
			}
			if len(extra) > 0 {
				d = append(d, "not expected: "+strings.Join(extra, " "))
			}
			return "legal", at("legal"), strings.Join(*e.Legal, " "), strings.Join(legal, " "), strings.Join(d, "\n"), nil
		}
	}
	for _, t := range e.LegalIncludes {
		if !contains(legal, t) {
			return "legal_includes", at("legal_includes"), t + " is legal", "legal: " + strings.Join(legal, " "), "", nil
		}
	}
	for _, t := range e.LegalExcludes {
		if contains(legal, t) {
			return "legal_excludes", at("legal_excludes"), t + " is not legal", "legal: " + strings.Join(legal, " "), "", nil
		}
	}
	out := s.Outcome()
	if e.Over != nil && *e.Over != out.Over {
		return "over", at("over"), strconv.FormatBool(*e.Over), strconv.FormatBool(out.Over), "", nil
	}
	if e.Winner != nil && *e.Winner != out.Winner {
		return "winner", at("winner"), strconv.Itoa(*e.Winner), strconv.Itoa(out.Winner), "", nil
	}
	if e.Notes != nil && strings.Join(*e.Notes, "\x00") != strings.Join(out.Notes, "\x00") {
		return "notes", at("notes"), fmt.Sprintf("%q", *e.Notes), fmt.Sprintf("%q", out.Notes), "", nil
	}
	if e.Reason != nil && *e.Reason != out.Reason {
		return "reason", at("reason"), strconv.Quote(*e.Reason), strconv.Quote(out.Reason), "", nil
	}
	vars, err := varValues(g, e.Vars, e.VarSites)
	if err != nil {
		return "vars", at("vars"), "", "", "", err
	}
	names := make([]string, 0, len(vars))
	for k := range vars {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		v, ok := s.Var(k)
		if !ok {
			return "vars", at("vars"), "", "", "", fmt.Errorf("the script declares no variable %q", k)
		}
		if v != vars[k] {
			_, asSite := e.VarSites[k]
			return "vars", at("vars"), k + " = " + varText(g, vars[k], asSite), k + " = " + varText(g, v, asSite), "", nil
		}
	}
	if e.Repetitions != nil && *e.Repetitions != s.Repetitions() {
		return "repetitions", at("repetitions"), strconv.Itoa(*e.Repetitions), strconv.Itoa(s.Repetitions()), "", nil
	}
	return "", 0, "", "", "", nil
}

// varValues is the variables a scenario gives by name: the numbers, and
// the sites' names as the sites' numbers from 1.
func varValues(g *host.Game, nums map[string]int, sites map[string]string) (map[string]int, error) {
	if len(sites) == 0 {
		return nums, nil
	}
	out := make(map[string]int, len(nums)+len(sites))
	for k, v := range nums {
		out[k] = v
	}
	for k, name := range sites {
		i, ok := g.Board().Index(name)
		if !ok {
			return nil, fmt.Errorf("variable %s: %q is no site of the board; give a site's name or a whole number", k, name)
		}
		out[k] = i + 1
	}
	return out, nil
}

// varText writes a variable's value; one expected as a site, with the
// site it names when it is one of the board's (from 1): "16 (b3)".
func varText(g *host.Game, v int, asSite bool) string {
	if b := g.Board(); asSite && v >= 1 && v <= b.NumSites() {
		return fmt.Sprintf("%d (%s)", v, b.Site(v-1).Name)
	}
	return strconv.Itoa(v)
}

// cell writes a site's count and owner as a diagram cell.
func cell(g *host.Game, i, count, owner int) string { return g.Cell(i, count, owner) }

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func contains(list []string, t string) bool {
	for _, x := range list {
		if x == t {
			return true
		}
	}
	return false
}

// setDiff returns what want has that got lacks, and the reverse.
func setDiff(want, got []string) (missing, extra []string) {
	for _, w := range want {
		if !contains(got, w) {
			missing = append(missing, w)
		}
	}
	for _, x := range got {
		if !contains(want, x) {
			extra = append(extra, x)
		}
	}
	return missing, extra
}

// sideBySide puts two diagrams next to each other under the headings
// expected and actual.
func sideBySide(want, got string) string {
	a := strings.Split(strings.TrimRight(want, "\n"), "\n")
	b := strings.Split(strings.TrimRight(got, "\n"), "\n")
	w := len("expected")
	for _, l := range a {
		w = max(w, len(l))
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "%-*s    %s\n", w, "expected", "actual")
	for i := 0; i < max(len(a), len(b)); i++ {
		var l, r string
		if i < len(a) {
			l = a[i]
		}
		if i < len(b) {
			r = b[i]
		}
		fmt.Fprintf(&sb, "%-*s    %s\n", w, l, r)
	}
	return sb.String()
}
