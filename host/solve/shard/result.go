package shard

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strconv"
	"time"

	"github.com/matombo/matombo/host/diag"
	"github.com/matombo/matombo/host/internal/strictjson"
	"github.com/matombo/matombo/host/solve"
)

// Format names the JSON of a job's result; a file of another format is
// refused.
const Format = "matombo solve job 1"

// MaxResultBytes bounds the JSON of one result that ReadResult reads.
const MaxResultBytes = 1 << 20

// maxResultDepth is how deeply a result's JSON may nest: a result's is 2
// deep (the result, its lists, its parameters and its search's figures).
const maxResultDepth = 4

// Result is a solved job, as its JSON file holds it.
type Result struct {
	Format      string         `json:"format"`
	Game        string         `json:"game"`
	Variants    []string       `json:"variants,omitempty"` // chosen when the game was loaded
	Params      map[string]any `json:"params,omitempty"`   // the game's, after the variants
	Fingerprint string         `json:"fingerprint"`
	Depth       int            `json:"depth"` // the plan's
	Jobs        int            `json:"jobs"`  // the plan's number of jobs
	Job
	Value  string `json:"value"`  // for Player 1: win, draw or loss
	Margin int    `json:"margin"` // for Player 1: their score minus the other's at the end
	// Bound is empty when Value and Margin are the job's exact value;
	// "at most" or "at least" (for Player 1) when the job was solved with
	// a threshold (solve.WithAbove, solve.WithBelow) its position did
	// not pass.
	Bound     string  `json:"bound,omitempty"`
	Positions int64   `json:"positions"` // searched
	Seconds   float64 `json:"seconds"`   // of wall time
	// CPUSeconds is the CPU time of the process that solved the job, when
	// it measured it (user plus system).
	CPUSeconds float64            `json:"cpu_seconds,omitempty"`
	Threads    int                `json:"threads,omitempty"`
	Search     *solve.SearchStats `json:"search,omitempty"`
}

// forPlayer1 returns a result's value and margin for Player 1.
func forPlayer1(e solve.Entry) (solve.Value, int) {
	if e.ToMove == 1 {
		return e.Value, e.Margin
	}
	return -e.Value, -e.Margin
}

// Solve solves job k of the plan with the search engine and the options
// given (its table, databases, threads and budgets, as solve.Solve takes
// them): an exact value, found with a full window, or with solve.WithAbove
// or solve.WithBelow, a bound when the job's position does not pass the
// threshold (Result.Bound). A job that cannot beat what another job's
// position is known to be worth needs no more for the merge.
func (p *Plan) Solve(ctx context.Context, k int, opts ...solve.Option) (Result, error) {
	s, err := p.Position(k)
	if err != nil {
		return Result{}, err
	}
	start := time.Now()
	pr, err := solve.SolvePosition(ctx, s, opts...)
	if err != nil {
		return Result{}, fmt.Errorf("job %d (%s): %w", k, tokensText(p.Jobs[k].Tokens), err)
	}
	v, m := forPlayer1(pr.Entry)
	r := Result{
		Format: Format, Game: p.Game, Params: map[string]any{}, Fingerprint: p.Fingerprint, Depth: p.Depth, Jobs: len(p.Jobs),
		Job: p.Jobs[k], Value: v.String(), Margin: m, Positions: pr.Stats.Nodes, Seconds: time.Since(start).Seconds(),
	}
	if b := pr.Bound; b != solve.Exact {
		if pr.ToMove != 1 {
			b = b.Flip()
		}
		r.Bound = b.String()
	}
	r.Variants = p.g.ChosenVariants()
	for _, pv := range p.g.Params() {
		r.Params[pv.Name] = pv.Value
	}
	if pr.Stats.Nodes > 0 {
		st := pr.Stats
		r.Search = &st
	}
	return r, nil
}

// tokensText writes a line of tokens, "the opening" when it is empty.
func tokensText(t []string) string {
	if len(t) == 0 {
		return "the opening"
	}
	b := []byte{}
	for i, s := range t {
		if i > 0 {
			b = append(b, ' ')
		}
		b = append(b, s...)
	}
	return string(b)
}

// WriteResult writes r as one line of JSON.
func WriteResult(w io.Writer, r Result) error {
	return json.NewEncoder(w).Encode(r)
}

// ReadResult reads one result written by WriteResult: one JSON object of
// at most MaxResultBytes, of this Format, with nothing after it.
func ReadResult(rd io.Reader) (Result, error) {
	data, err := io.ReadAll(io.LimitReader(rd, MaxResultBytes+1))
	if err != nil {
		return Result{}, err
	}
	if len(data) > MaxResultBytes {
		return Result{}, fmt.Errorf("more than %d bytes: not a job's result (shard.MaxResultBytes)", MaxResultBytes)
	}
	// Read one way only: a key given twice, which encoding/json would
	// take the last of and another reader the first, or a key in another
	// case, is refused (package strictjson).
	if err := strictjson.Check(data, reflect.TypeFor[Result](), maxResultDepth); err != nil {
		return Result{}, fmt.Errorf("not a job's result (want the JSON object of 'matombo solve --job' with \"format\": %q): %w", Format, err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var r Result
	if err := dec.Decode(&r); err != nil {
		return Result{}, fmt.Errorf("not a job's result (want the JSON object of 'matombo solve --job' with \"format\": %q): %w", Format, err)
	}
	if dec.More() {
		return Result{}, errors.New("more after the result's JSON object")
	}
	if r.Format != Format {
		return Result{}, fmt.Errorf("format %q: want %q", r.Format, Format)
	}
	if _, ok := parseValue(r.Value); !ok {
		return Result{}, fmt.Errorf("value %q: want win, draw or loss", r.Value)
	}
	if _, ok := parseBound(r.Bound); !ok {
		return Result{}, fmt.Errorf("bound %q: want %q, %q or none", r.Bound, solve.AtMost.String(), solve.AtLeast.String())
	}
	if r.Positions < 0 || r.Seconds < 0 || r.CPUSeconds < 0 {
		return Result{}, errors.New("a negative count of positions or seconds")
	}
	return r, nil
}

// parseValue reads win, draw or loss.
func parseValue(s string) (solve.Value, bool) {
	for _, v := range []solve.Value{solve.Win, solve.Draw, solve.Loss} {
		if v.String() == s {
			return v, true
		}
	}
	return 0, false
}

// parseBound reads a result's bound: none, "at most" or "at least".
func parseBound(s string) (solve.Bound, bool) {
	for _, b := range []solve.Bound{solve.AtMost, solve.AtLeast} {
		if b.String() == s {
			return b, true
		}
	}
	return solve.Exact, s == ""
}

// Merged is the value of the opening and of each of its moves, found from
// the jobs' results.
type Merged struct {
	Opening solve.Entry       // for the player to move at the opening; Plies is -1 (0 when the game is over)
	Moves   []solve.MoveValue // the opening's moves in the script's order, valued for that player
	// Bounds says, move by move, whether Moves holds its exact value or a
	// bound for the opening's player (results with bounds do not settle
	// every move, only the best).
	Bounds     []solve.Bound
	Positions  int64   // searched by all the jobs
	Seconds    float64 // wall time of all the jobs, added up
	CPUSeconds float64 // CPU time of the jobs that measured it, added up
}

// MergeError says what is wrong with one result given to Merge.
type MergeError struct {
	Name string // the result's name (its file)
	Err  error
}

func (e *MergeError) Error() string { return fmt.Sprintf("%s: %v", e.Name, e.Err) }

func (e *MergeError) Unwrap() error { return e.Err }

// MissingError is returned when jobs of the plan have no result.
type MissingError struct {
	Game    string
	Missing []int
	Jobs    int
}

func (e *MissingError) Error() string {
	return fmt.Sprintf("%s: no result for job %s (of jobs 0 to %d)", e.Game, listJobs(e.Missing), e.Jobs-1)
}

// listJobs writes job numbers, the first ten of them.
func listJobs(jobs []int) string {
	first := make([]string, min(len(jobs), 10))
	for i := range first {
		first[i] = strconv.Itoa(jobs[i])
	}
	return diag.ShortListOf(first, len(jobs))
}

// Merge combines one result of every job of the plan into the opening's
// value and its moves' (names[i] names results[i] in errors, as a file).
// A result of another game, parameters or rules (another fingerprint), of
// another plan, of a job the plan does not have, one that disagrees with
// the plan about its job, and two results of one job are refused with a
// *MergeError naming the result; jobs without a result are a
// *MissingError.
func (p *Plan) Merge(results []Result, names []string) (*Merged, error) {
	if len(names) != len(results) {
		return nil, fmt.Errorf("%d results but %d names", len(results), len(names))
	}
	vals := make([]span, len(p.Jobs))
	from := make([]int, len(p.Jobs))
	for i := range from {
		from[i] = -1
	}
	out := &Merged{}
	for i, r := range results {
		if err := p.check(r); err != nil {
			return nil, &MergeError{Name: names[i], Err: err}
		}
		if j := from[r.Index]; j >= 0 {
			return nil, &MergeError{Name: names[i], Err: fmt.Errorf("a second result of job %d (%s), after %s", r.Index, tokensText(r.Tokens), names[j])}
		}
		from[r.Index] = i
		v, _ := parseValue(r.Value)
		b, _ := parseBound(r.Bound)
		vals[r.Index] = resultSpan(score{v, r.Margin}, b)
		out.Positions += r.Positions
		out.Seconds += r.Seconds
		out.CPUSeconds += r.CPUSeconds
	}
	var missing []int
	for k, i := range from {
		if i < 0 {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		return nil, &MissingError{Game: p.Game, Missing: missing, Jobs: len(p.Jobs)}
	}
	root := p.root
	mover := root.mover
	open := value(root, vals)
	if !open.exact() {
		oe := &OpenError{Game: p.Game, Lo: open.lo.threshold(), Hi: open.hi.threshold(), NoLo: open.noLo, NoHi: open.noHi}
		for k, v := range vals {
			if !v.exact() {
				oe.Bounded = append(oe.Bounded, k)
			}
		}
		return nil, oe
	}
	out.Opening = open.lo.entry(mover)
	if root.over {
		out.Opening.Terminal, out.Opening.Plies = true, 0
	}
	for i, c := range root.children {
		sp := value(c, vals)
		v, b := sp.lo, solve.Exact
		switch {
		case sp.exact():
		case !sp.noHi:
			v, b = sp.hi, solve.AtMost
		default:
			b = solve.AtLeast
		}
		if mover != 1 {
			b = b.Flip()
		}
		e := v.entry(mover)
		plies := -1
		if c.over {
			plies = 1
		}
		out.Moves = append(out.Moves, solve.MoveValue{Move: p.start.Moves()[i], Token: c.token, Value: e.Value, Margin: e.Margin, Plies: plies})
		out.Bounds = append(out.Bounds, b)
	}
	return out, nil
}

// OpenError is returned by Merge when results with bounds leave the
// opening's value open: each of them is below what the merge would need.
type OpenError struct {
	Game       string
	Lo, Hi     solve.Threshold // the opening's value for Player 1 lies between them
	NoLo, NoHi bool            // no bound on that side
	Bounded    []int           // the jobs whose results are bounds
}

func (e *OpenError) Error() string {
	lo, hi := "anything", "anything"
	if !e.NoLo {
		lo = e.Lo.String()
	}
	if !e.NoHi {
		hi = e.Hi.String()
	}
	return fmt.Sprintf("%s: the results leave the opening's value open, between %s and %s for Player 1: the bounds of jobs %s do not settle it (solve them again with a threshold nearer the other jobs' values, or without one)",
		e.Game, lo, hi, listJobs(e.Bounded))
}

// check says how r disagrees with the plan, or nil.
func (p *Plan) check(r Result) error {
	switch {
	case r.Fingerprint != p.Fingerprint:
		return fmt.Errorf("a result of %s %v (fingerprint %s), not of this game, variant and parameters (%s %s)", r.Game, r.Params, short(r.Fingerprint), p.Game, short(p.Fingerprint))
	case r.Depth != p.Depth || r.Jobs != len(p.Jobs):
		return fmt.Errorf("a job of a plan of depth %d with %d jobs, not of this plan (depth %d, %d jobs)", r.Depth, r.Jobs, p.Depth, len(p.Jobs))
	case r.Index < 0 || r.Index >= len(p.Jobs):
		return fmt.Errorf("job %d: the plan has jobs 0 to %d", r.Index, len(p.Jobs)-1)
	}
	j := p.Jobs[r.Index]
	if !slices.Equal(r.Tokens, j.Tokens) || r.ToMove != j.ToMove {
		return fmt.Errorf("job %d is %s (player %d to move) in the plan, not %s (player %d to move)", r.Index, tokensText(j.Tokens), j.ToMove, tokensText(r.Tokens), r.ToMove)
	}
	return nil
}

// short is the start of a fingerprint.
func short(f string) string { return f[:min(len(f), 12)] }

// score is a value and margin for Player 1.
type score struct {
	value  solve.Value
	margin int
}

// better reports whether a is better than b for player p: the result
// first, then the margin.
func (a score) better(b score, p int) bool {
	if p != 1 {
		a, b = b, a
	}
	if a.value != b.value {
		return a.value > b.value
	}
	return a.margin > b.margin
}

// entry is s as the entry of a position where player p is to move.
func (s score) entry(p int) solve.Entry {
	e := solve.Entry{Value: s.value, Margin: s.margin, Plies: -1, ToMove: p}
	if p != 1 {
		e.Value, e.Margin = -s.value, -s.margin
	}
	return e
}

// threshold is s as a solve.Threshold.
func (s score) threshold() solve.Threshold { return solve.Threshold{Value: s.value, Margin: s.margin} }

// span is what is known of a score for Player 1: it lies between lo and
// hi, or has no bound on a side marked no.
type span struct {
	lo, hi     score
	noLo, noHi bool
}

// resultSpan is a result's score and bound as a span.
func resultSpan(s score, b solve.Bound) span {
	switch b {
	case solve.AtMost:
		return span{hi: s, noLo: true}
	case solve.AtLeast:
		return span{lo: s, noHi: true}
	}
	return span{lo: s, hi: s}
}

// exact reports whether the span is one score.
func (s span) exact() bool { return !s.noLo && !s.noHi && s.lo == s.hi }

// value is what is known of n's score: its job's, the script's result
// when the game is over, else the best of its children's for the player
// to move, side by side (the best of the lower sides, the best of the
// upper sides).
func value(n *node, vals []span) span {
	switch {
	case n.job >= 0:
		return vals[n.job]
	case n.over:
		return span{lo: n.final, hi: n.final}
	}
	var best span
	for i, c := range n.children {
		v := value(c, vals)
		if i == 0 {
			best = v
			continue
		}
		best.lo, best.noLo = bestSide(best.lo, best.noLo, v.lo, v.noLo, n.mover, false)
		best.hi, best.noHi = bestSide(best.hi, best.noHi, v.hi, v.noHi, n.mover, true)
	}
	return best
}

// bestSide is the better for player p of two sides of spans, a missing
// side (none) being the worst lower side for Player 1 and the best upper
// one.
func bestSide(a score, aNone bool, b score, bNone bool, p int, upper bool) (score, bool) {
	// A missing side is beyond every score: below them on a lower side,
	// above them on an upper side.
	if aNone || bNone {
		aWins := bNone // b is the missing one
		if upper {
			aWins = aNone
		}
		if p != 1 { // Player 2 takes the lower
			aWins = !aWins
		}
		if aWins {
			return a, aNone
		}
		return b, bNone
	}
	if a.better(b, p) {
		return a, false
	}
	return b, false
}
