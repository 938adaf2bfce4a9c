package analysis

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strings"

	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/diag"
	"github.com/matombo/matombo/host/internal/strictjson"
)

// Result holds the raw counts of the games of a run, or of some of its
// shards: whole numbers only, so that shards add up exactly. Summarize
// turns it into measures. It is what `matombo analyze --shard` writes as
// JSON.
type Result struct {
	Game     string         `json:"game"`
	Title    string         `json:"title"`
	Variant  string         `json:"variant,omitempty"` // the named variant, when one was chosen
	Params   map[string]any `json:"params"`
	Seed     uint64         `json:"seed"`
	Games    int            `json:"games"` // games of the whole run
	P1       string         `json:"p1"`
	P2       string         `json:"p2"`
	MaxPlies int            `json:"max_plies"`
	Shards   int            `json:"shards"`      // N of --shard I/N
	Done     []int          `json:"shards_done"` // the shards these counts hold

	Played      int            `json:"played"`
	Wins        []int          `json:"wins"` // per seat
	Draws       int            `json:"draws"`
	Capped      int            `json:"capped"`  // stopped at the ply cap
	Lengths     map[int]int    `json:"lengths"` // plies -> games
	Turns       int            `json:"turns"`
	Legal       int            `json:"legal"` // legal moves summed over every decision
	Reasons     map[string]int `json:"reasons"`
	Notes       map[string]int `json:"notes"`
	Captures    int            `json:"captures"`     // captured totals at the end, summed
	LeadChanges int            `json:"lead_changes"` // summed over games

	// Lead is what the lead and the margins are read from: LeadScore or
	// LeadCaptured. Results of matombo before 2026-12-06 have none: their
	// lead is the captured totals' and they hold no margins; they merge
	// with each other only.
	Lead       string      `json:"lead,omitempty"`
	ScoreLabel string      `json:"score_label,omitempty"` // what the game calls its score, with LeadScore
	Margins    map[int]int `json:"margins,omitempty"`     // Player 1's tally less Player 2's at the end -> games ended by a rule
}

// CheckResultJSON reports why data, one result's JSON as --shard writes
// it, does not read one way only (package strictjson): it is not UTF-8,
// it gives a key twice, a key is not spelled exactly as Result writes it,
// it nests deeper than a result does, or something follows it. A key given
// twice would count differently for encoding/json, which keeps the last,
// and for another reader, which keeps the first.
func CheckResultJSON(data []byte) error {
	return strictjson.Check(data, reflect.TypeFor[Result](), maxResultDepth)
}

// maxResultDepth is how deeply a result's JSON may nest: a result's is 2
// deep (the result, its lists and maps).
const maxResultDepth = 4

// newResult returns the empty result of a run.
func newResult(g *host.Game, cfg config, limit int) *Result {
	params := map[string]any{}
	for _, p := range g.Params() {
		params[p.Name] = p.Value
	}
	r := &Result{
		Game: g.Name(), Title: g.Title(), Params: params, Seed: cfg.seed, Games: cfg.games,
		P1: cfg.p1, P2: cfg.p2, MaxPlies: limit, Shards: cfg.shards, Done: []int{cfg.shard},
		Wins: make([]int, 2), Lengths: map[int]int{}, Reasons: map[string]int{}, Notes: map[string]int{},
		Lead: leadFrom(g), Margins: map[int]int{},
	}
	if r.Lead == LeadScore {
		r.ScoreLabel = g.ScoreLabel()
	}
	if v := g.ChosenVariants(); len(v) > 0 {
		r.Variant = strings.Join(v, "+")
	}
	return r
}

// add counts one game.
func (r *Result) add(rec record) {
	r.Played++
	r.Lengths[rec.plies]++
	r.Turns += rec.turns
	r.Legal += rec.legal
	r.Captures += rec.captures
	r.LeadChanges += rec.leadChanges
	switch {
	case !rec.over:
		r.Capped++
		return
	case rec.winner == 0:
		r.Draws++
	case rec.winner <= len(r.Wins):
		r.Wins[rec.winner-1]++
	}
	reason := rec.reason
	if reason == "" {
		reason = "(no reason given)"
	}
	r.Reasons[reason]++
	r.Margins[rec.margin]++
	for _, n := range rec.notes {
		r.Notes[n]++
	}
}

// MergeError reports shards that cannot be merged.
type MergeError struct{ Reason string }

func (e *MergeError) Error() string { return "merge: " + e.Reason }

// Merge adds up the counts of shards of one run. They must be of the same
// game, parameters, seed, number of games, players and number of shards,
// each shard at most once; the result of all N shards equals the result of
// one run.
func Merge(parts ...*Result) (*Result, error) {
	var m Merger
	for _, p := range parts {
		if err := m.Add(p); err != nil {
			return nil, err
		}
	}
	return m.Result()
}

// Merger adds up the shards of one run one at a time, as Merge does, so
// that a caller reading many shards holds only the sum. Adding a shard
// costs time linear in its size. The zero Merger is empty.
type Merger struct {
	out  *Result
	done map[int]bool
}

// Add checks a shard's counts (see Merge) and adds them. A shard refused
// leaves the sum as it was.
func (m *Merger) Add(p *Result) error {
	if err := p.validate(); err != nil {
		return err
	}
	if m.out == nil {
		m.out = &Result{
			Game: p.Game, Title: p.Title, Variant: p.Variant, Params: maps.Clone(p.Params),
			Seed: p.Seed, Games: p.Games, P1: p.P1, P2: p.P2, MaxPlies: p.MaxPlies,
			Shards: p.Shards, Wins: make([]int, len(p.Wins)), Done: []int{},
			Lengths: map[int]int{}, Reasons: map[string]int{}, Notes: map[string]int{},
			Lead: p.Lead, ScoreLabel: p.ScoreLabel,
		}
		if p.Lead != "" {
			m.out.Margins = map[int]int{}
		}
		m.done = map[int]bool{}
	}
	out := m.out
	if err := sameRun(out, p); err != nil {
		return err
	}
	for _, d := range p.Done {
		if m.done[d] {
			return &MergeError{Reason: fmt.Sprintf("shard %d/%d of %s comes twice", d, p.Shards, p.label())}
		}
	}
	// Add into a copy of the scalars first, so that an overflow refuses
	// the shard without changing the sum.
	sum := *out
	sum.Wins = slices.Clone(out.Wins)
	var ok bool
	add := func(dst *int, n int) {
		if s, o := addInt(*dst, n); o {
			*dst = s
		} else {
			ok = false
		}
	}
	ok = true
	add(&sum.Played, p.Played)
	for i, w := range p.Wins {
		add(&sum.Wins[i], w)
	}
	add(&sum.Draws, p.Draws)
	add(&sum.Capped, p.Capped)
	add(&sum.Turns, p.Turns)
	add(&sum.Legal, p.Legal)
	add(&sum.Captures, p.Captures)
	add(&sum.LeadChanges, p.LeadChanges)
	for _, counts := range []struct{ dst, src map[string]int }{{out.Reasons, p.Reasons}, {out.Notes, p.Notes}} {
		for k, n := range counts.src {
			_, o := addInt(counts.dst[k], n)
			ok = ok && o
		}
	}
	for _, counts := range []struct{ dst, src map[int]int }{{out.Lengths, p.Lengths}, {out.Margins, p.Margins}} {
		for k, n := range counts.src {
			_, o := addInt(counts.dst[k], n)
			ok = ok && o
		}
	}
	if !ok || sum.Played > out.Games {
		return &MergeError{Reason: fmt.Sprintf("shards of %s: their counts add up to more games than the run's %d", p.label(), out.Games)}
	}
	sum.Lengths, sum.Reasons, sum.Notes, sum.Margins = out.Lengths, out.Reasons, out.Notes, out.Margins
	addCounts(sum.Lengths, p.Lengths)
	if sum.Margins != nil {
		addCounts(sum.Margins, p.Margins)
	}
	addCounts(sum.Reasons, p.Reasons)
	addCounts(sum.Notes, p.Notes)
	for _, d := range p.Done {
		m.done[d] = true
		sum.Done = append(sum.Done, d)
	}
	*out = sum
	return nil
}

// Result returns the sum of the shards added, their shards in order.
func (m *Merger) Result() (*Result, error) {
	if m.out == nil {
		return nil, &MergeError{Reason: "no results to merge"}
	}
	r := *m.out
	r.Done = slices.Clone(r.Done)
	slices.Sort(r.Done)
	r.Wins = slices.Clone(r.Wins)
	r.Lengths, r.Reasons, r.Notes = maps.Clone(r.Lengths), maps.Clone(r.Reasons), maps.Clone(r.Notes)
	r.Margins = maps.Clone(r.Margins)
	return &r, nil
}

// addInt adds two counts of at least 0; ok is false when the sum does not
// fit an int.
func addInt(a, b int) (sum int, ok bool) {
	if b > math.MaxInt-a {
		return 0, false
	}
	return a + b, true
}

func addCounts[K comparable](dst, src map[K]int) {
	for k, n := range src {
		dst[k] += n
	}
}

// Missing lists the shards of the run that r does not hold, as "I/N",
// at most limit of them (then how many more), so that a run of a billion
// shards gives a short message.
func (r *Result) Missing(limit int) string {
	have := make(map[int]bool, len(r.Done))
	for _, d := range r.Done {
		have[d] = true
	}
	var parts []string
	more := 0
	for i := 0; i < r.Shards; i++ {
		if have[i] {
			continue
		}
		if len(parts) == limit {
			more = r.Shards - len(have) - limit
			break
		}
		parts = append(parts, fmt.Sprintf("%d/%d", i, r.Shards))
	}
	return diag.ShortListOf(parts, len(parts)+more)
}

// validate checks that a result read from a file makes sense: counts of
// at least 0 that add up to the games its shards play, without wrapping
// around, and game lengths within its ply cap.
func (r *Result) validate() error {
	bad := func(format string, args ...any) error {
		return &MergeError{Reason: fmt.Sprintf("result of %s: ", r.label()) + fmt.Sprintf(format, args...)}
	}
	if len(r.Wins) != 2 {
		return bad("want wins of 2 seats, got %d", len(r.Wins))
	}
	if r.Shards < 1 || r.Games < 1 {
		return bad("%d shards of %d games: want at least 1 of each", r.Shards, r.Games)
	}
	if r.MaxPlies < 1 {
		return bad("a ply cap of %d: want at least 1", r.MaxPlies)
	}
	counts := []int{r.Played, r.Wins[0], r.Wins[1], r.Draws, r.Capped, r.Turns, r.Legal, r.Captures, r.LeadChanges}
	for _, n := range counts {
		if n < 0 {
			return bad("a negative count")
		}
	}
	seen := make(map[int]bool, len(r.Done))
	want := 0 // the games of its shards
	for _, d := range r.Done {
		if d < 0 || d >= r.Shards {
			return bad("shard %d of %d does not exist", d, r.Shards)
		}
		if seen[d] {
			return bad("shard %d/%d comes twice", d, r.Shards)
		}
		seen[d] = true
		want += shardGames(r.Games, d, r.Shards) // at most r.Games in all
	}
	total, ok := 0, true
	for l, n := range r.Lengths {
		if l < 0 || n < 0 {
			return bad("%d games of %d plies", n, l)
		}
		if l > r.MaxPlies {
			return bad("%d games of %d plies, beyond its ply cap of %d", n, l, r.MaxPlies)
		}
		if total, ok = addInt(total, n); !ok {
			break
		}
	}
	for _, m := range []map[string]int{r.Reasons, r.Notes} {
		for k, n := range m {
			if n < 0 {
				return bad("%d games ended %q", n, k)
			}
		}
	}
	ended := 0
	for _, n := range []int{r.Wins[0], r.Wins[1], r.Draws, r.Capped} {
		if ended, ok = addInt(ended, n); !ok {
			break
		}
	}
	if !ok || total != r.Played || ended != r.Played || r.Played > r.Games {
		return bad("its counts do not add up to its %d games", r.Played)
	}
	if err := r.validateMargins(); err != nil {
		return bad("%v", err)
	}
	if r.Played != want {
		return bad("it counts %d games, but its shards play %d", r.Played, want)
	}
	return nil
}

// maxMargin bounds a margin: scores and captured totals are within
// ±MaxInt32/2, so their differences are within ±MaxInt32.
const maxMargin = math.MaxInt32

// validateMargins checks the lead's source and the margins: one margin
// for each game ended by a rule, none in a result of before the margins.
func (r *Result) validateMargins() error {
	switch r.Lead {
	case "":
		if len(r.Margins) > 0 {
			return errors.New("margins without what they are read from (lead)")
		}
		return nil
	case LeadScore, LeadCaptured:
	default:
		return fmt.Errorf("a lead read from %q: want %q or %q", r.Lead, LeadScore, LeadCaptured)
	}
	total, ok := 0, true
	for k, n := range r.Margins {
		if n < 0 || k < -maxMargin || k > maxMargin {
			return fmt.Errorf("%d games won by a margin of %d", n, k)
		}
		if total, ok = addInt(total, n); !ok {
			break
		}
	}
	if !ok || total != r.Played-r.Capped {
		return fmt.Errorf("its margins do not add up to its %d games ended by a rule", r.Played-r.Capped)
	}
	return nil
}

// sameRun checks that b is a shard of a's run.
func sameRun(a, b *Result) error {
	diff := func(what string, x, y any) error {
		return &MergeError{Reason: fmt.Sprintf("the results are of different runs: %s %v and %v", what, x, y)}
	}
	switch {
	case a.Game != b.Game:
		return diff("game", a.Game, b.Game)
	case a.Variant != b.Variant:
		return diff("variant", a.Variant, b.Variant)
	case fmt.Sprint(a.Params) != fmt.Sprint(b.Params):
		return diff("parameters", a.Params, b.Params)
	case a.Seed != b.Seed:
		return diff("seed", a.Seed, b.Seed)
	case a.Games != b.Games:
		return diff("games", a.Games, b.Games)
	case a.P1 != b.P1 || a.P2 != b.P2:
		return diff("players", a.P1+" vs "+a.P2, b.P1+" vs "+b.P2)
	case a.MaxPlies != b.MaxPlies:
		return diff("ply cap", a.MaxPlies, b.MaxPlies)
	case a.Shards != b.Shards:
		return diff("number of shards", a.Shards, b.Shards)
	case len(a.Wins) != len(b.Wins):
		return diff("seats", len(a.Wins), len(b.Wins))
	case b.Lead == "" && a.Lead != "":
		return &MergeError{Reason: "this result was written by an older matombo (it has no lead's source and no margins), the ones before it by a newer one: run its shards again with this matombo"}
	case a.Lead == "" && b.Lead != "":
		return &MergeError{Reason: "the results before this one were written by an older matombo (they have no lead's source and no margins), this one by a newer one: run those shards again with this matombo"}
	case a.Lead != b.Lead || a.ScoreLabel != b.ScoreLabel:
		return diff("lead read from", leadText(a), leadText(b))
	}
	return nil
}

// leadText says what a result's lead is read from, for errors.
func leadText(r *Result) string {
	if r.Lead == LeadScore {
		return fmt.Sprintf("the score (%s)", r.ScoreLabel)
	}
	return "the captured totals"
}

// Complete reports whether the result holds every shard of its run.
func (r *Result) Complete() bool { return len(r.Done) == r.Shards }

// label names the game and variant.
func (r *Result) label() string {
	if r.Variant != "" {
		return r.Game + " (" + r.Variant + ")"
	}
	return r.Game
}
