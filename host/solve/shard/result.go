package shard

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/matombo/matombo/host/solve"
)

// Format names the JSON of a job's result; a file of another format is
// refused.
const Format = "matombo solve job 1"

// MaxResultBytes bounds the JSON of one result that ReadResult reads.
const MaxResultBytes = 1 << 20

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
	Value     string  `json:"value"`     // for Player 1: win, draw or loss
	Margin    int     `json:"margin"`    // for Player 1: their score minus the other's at the end
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
// them): an exact value, found with a full window.
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

// Merged is the value of the opening and of each of its moves, found from
// the jobs' results.
type Merged struct {
	Opening    solve.Entry       // for the player to move at the opening; Plies is -1 (0 when the game is over)
	Moves      []solve.MoveValue // the opening's moves in the script's order, valued for that player
	Positions  int64             // searched by all the jobs
	Seconds    float64           // wall time of all the jobs, added up
	CPUSeconds float64           // CPU time of the jobs that measured it, added up
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
	list := ""
	for i, k := range e.Missing {
		if i == 10 {
			list += fmt.Sprintf(" and %d more", len(e.Missing)-10)
			break
		}
		if i > 0 {
			list += ", "
		}
		list += fmt.Sprint(k)
	}
	return fmt.Sprintf("%s: no result for job %s (of jobs 0 to %d)", e.Game, list, e.Jobs-1)
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
	vals := make([]score, len(p.Jobs))
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
		vals[r.Index] = score{v, r.Margin}
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
	out.Opening = value(root, vals).entry(mover)
	if root.over {
		out.Opening.Terminal, out.Opening.Plies = true, 0
	}
	for i, c := range root.children {
		e := value(c, vals).entry(mover)
		plies := -1
		if c.over {
			plies = 1
		}
		out.Moves = append(out.Moves, solve.MoveValue{Move: p.start.Moves()[i], Token: c.token, Value: e.Value, Margin: e.Margin, Plies: plies})
	}
	return out, nil
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

// value is n's score: its job's, the script's result when the game is
// over, else the best of its children's for the player to move.
func value(n *node, vals []score) score {
	switch {
	case n.job >= 0:
		return vals[n.job]
	case n.over:
		return n.final
	}
	var best score
	for i, c := range n.children {
		if v := value(c, vals); i == 0 || v.better(best, n.mover) {
			best = v
		}
	}
	return best
}
