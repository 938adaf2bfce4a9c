package analysis

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/matombo/matombo/host"
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
}

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
	if len(parts) == 0 {
		return nil, &MergeError{Reason: "no results to merge"}
	}
	first := parts[0]
	out := &Result{
		Game: first.Game, Title: first.Title, Variant: first.Variant, Params: maps.Clone(first.Params),
		Seed: first.Seed, Games: first.Games, P1: first.P1, P2: first.P2, MaxPlies: first.MaxPlies,
		Shards: first.Shards, Wins: make([]int, len(first.Wins)),
		Lengths: map[int]int{}, Reasons: map[string]int{}, Notes: map[string]int{},
	}
	for _, p := range parts {
		if err := p.validate(); err != nil {
			return nil, err
		}
		if err := sameRun(first, p); err != nil {
			return nil, err
		}
		for _, d := range p.Done {
			if slices.Contains(out.Done, d) {
				return nil, &MergeError{Reason: fmt.Sprintf("shard %d/%d of %s comes twice", d, p.Shards, p.label())}
			}
			out.Done = append(out.Done, d)
		}
		out.Played += p.Played
		for i, w := range p.Wins {
			out.Wins[i] += w
		}
		out.Draws += p.Draws
		out.Capped += p.Capped
		out.Turns += p.Turns
		out.Legal += p.Legal
		out.Captures += p.Captures
		out.LeadChanges += p.LeadChanges
		addCounts(out.Lengths, p.Lengths)
		addCounts(out.Reasons, p.Reasons)
		addCounts(out.Notes, p.Notes)
	}
	slices.Sort(out.Done)
	return out, nil
}

func addCounts[K comparable](dst, src map[K]int) {
	for k, n := range src {
		dst[k] += n
	}
}

// validate checks that a result read from a file makes sense.
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
	for _, d := range r.Done {
		if d < 0 || d >= r.Shards {
			return bad("shard %d of %d does not exist", d, r.Shards)
		}
	}
	total := 0
	for l, n := range r.Lengths {
		if l < 0 || n < 0 {
			return bad("%d games of %d plies", n, l)
		}
		total += n
	}
	counts := []int{r.Played, r.Wins[0], r.Wins[1], r.Draws, r.Capped, r.Turns, r.Legal, r.Captures, r.LeadChanges}
	for _, n := range counts {
		if n < 0 {
			return bad("a negative count")
		}
	}
	for _, m := range []map[string]int{r.Reasons, r.Notes} {
		for k, n := range m {
			if n < 0 {
				return bad("%d games ended %q", n, k)
			}
		}
	}
	if total != r.Played || r.Wins[0]+r.Wins[1]+r.Draws+r.Capped != r.Played || r.Played > r.Games {
		return bad("its counts do not add up to its %d games", r.Played)
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
	}
	return nil
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
