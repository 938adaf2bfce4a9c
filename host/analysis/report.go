package analysis

import (
	"math"
	"sort"

	"github.com/matombo/matombo/host/match"
)

// Rate is a proportion of games with its 95% Wilson score interval.
type Rate struct {
	Count int     `json:"count"`
	Rate  float64 `json:"rate"`
	Low   float64 `json:"low"`
	High  float64 `json:"high"`
}

// NewRate returns k of n with its 95% Wilson score interval.
func NewRate(k, n int) Rate {
	if n == 0 {
		return Rate{}
	}
	p := float64(k) / float64(n)
	low, high := match.Wilson(p, float64(n))
	return Rate{Count: k, Rate: p, Low: low, High: high}
}

// Count is one way games ended, with how many did.
type Count struct {
	Name  string `json:"name"`
	Games int    `json:"games"`
}

// Report holds the measures of a run; docs/analysis.md defines them. The
// flat fields named in the JSON (p1_rate, plies_mean, ...) repeat the main
// figures for scripts.
type Report struct {
	Game     string         `json:"game"`
	Title    string         `json:"title"`
	Variant  string         `json:"variant,omitempty"`
	Params   map[string]any `json:"params"`
	Seed     uint64         `json:"seed"`
	P1       string         `json:"p1"`
	P2       string         `json:"p2"`
	MaxPlies int            `json:"max_plies"`

	Games      int    `json:"games"`
	Wins       []int  `json:"wins"`
	Draws      int    `json:"draws"`
	WinRates   []Rate `json:"win_rates"`
	DrawRate   Rate   `json:"draw"`
	Completion Rate   `json:"completion"`

	P1Rate     float64 `json:"p1_rate"`
	P1RateLow  float64 `json:"p1_rate_low"`
	P1RateHigh float64 `json:"p1_rate_high"`
	DrawShare  float64 `json:"draw_rate"`

	Balance      float64 `json:"balance"`
	AdvantageP1  float64 `json:"advantage_p1"`
	P1Decisive   Rate    `json:"p1_decisive"`
	Drawishness  float64 `json:"drawishness"`
	CompletionOK float64 `json:"completion_rate"`

	PliesMean   float64 `json:"plies_mean"`
	PliesSD     float64 `json:"plies_sd"`
	PliesMedian int     `json:"plies_median"`
	PliesP95    int     `json:"plies_p95"`
	PliesMax    int     `json:"plies_max"`

	DecisionsPerTurn float64 `json:"decisions_per_turn"`
	BranchingMean    float64 `json:"branching_mean"`

	Endings []Count `json:"endings"`
	Notes   []Count `json:"notes"`

	HasCaptures  bool    `json:"has_captures"`
	CapturesMean float64 `json:"captures_mean,omitempty"`

	// LeadFrom is what the lead and the margins are read from: LeadScore
	// (the game's score, called ScoreLabel) or LeadCaptured.
	LeadFrom        string  `json:"lead_from"`
	ScoreLabel      string  `json:"score_label,omitempty"`
	HasLead         bool    `json:"has_lead"` // a game with a score, or one where something was captured
	LeadChangesMean float64 `json:"lead_changes_mean,omitempty"`

	// The margin at the end of the games ended by a rule: Player 1's
	// tally less Player 2's, where the tally is what LeadFrom says.
	HasMargin    bool        `json:"has_margin"`
	MarginMean   float64     `json:"margin_mean,omitempty"`    // the mean of its size: what the winner won by, per game
	MarginP1Mean float64     `json:"margin_p1_mean,omitempty"` // its mean, for Player 1
	MarginSD     float64     `json:"margin_sd,omitempty"`      // its standard deviation (of the games, n-1)
	Margins      map[int]int `json:"margins,omitempty"`        // games per margin, for Player 1

	// Lengths is the number of games of each length in plies, for plots.
	Lengths map[int]int `json:"lengths"`
}

// Summarize computes the measures of a result.
func Summarize(r *Result) Report {
	n := r.Played
	rep := Report{
		Game: r.Game, Title: r.Title, Variant: r.Variant, Params: r.Params, Seed: r.Seed,
		P1: r.P1, P2: r.P2, MaxPlies: r.MaxPlies,
		Games: n, Wins: append([]int(nil), r.Wins...), Draws: r.Draws,
		DrawRate: NewRate(r.Draws, n), Completion: NewRate(n-r.Capped, n),
		Endings: sortedCounts(r.Reasons), Notes: sortedCounts(r.Notes),
		Lengths: r.Lengths,
	}
	for _, w := range r.Wins {
		rep.WinRates = append(rep.WinRates, NewRate(w, n))
	}
	p1 := rep.WinRates[0]
	rep.P1Rate, rep.P1RateLow, rep.P1RateHigh = p1.Rate, p1.Low, p1.High
	rep.DrawShare = rep.DrawRate.Rate
	rep.Drawishness = rep.DrawRate.Rate
	rep.CompletionOK = rep.Completion.Rate
	w1, w2 := r.Wins[0], r.Wins[1]
	if w1+w2 > 0 {
		rep.Balance = 1 - math.Abs(float64(w1-w2))/float64(w1+w2)
		rep.P1Decisive = NewRate(w1, w1+w2)
	}
	if n > 0 {
		rep.AdvantageP1 = (float64(w1) + float64(r.Draws)/2) / float64(n)
	}
	rep.PliesMean, rep.PliesSD, rep.PliesMedian, rep.PliesP95, rep.PliesMax = lengthStats(r.Lengths)
	plies := 0
	for l, k := range r.Lengths {
		plies += l * k
	}
	if r.Turns > 0 {
		rep.DecisionsPerTurn = float64(plies) / float64(r.Turns)
	}
	if plies > 0 {
		rep.BranchingMean = float64(r.Legal) / float64(plies)
	}
	if r.Captures > 0 && n > 0 {
		rep.HasCaptures = true
		rep.CapturesMean = float64(r.Captures) / float64(n)
	}
	rep.LeadFrom, rep.ScoreLabel = r.Lead, r.ScoreLabel
	if rep.LeadFrom == "" { // a result of before the lead's source: the captured totals
		rep.LeadFrom = LeadCaptured
	}
	if n > 0 && (rep.LeadFrom == LeadScore || rep.HasCaptures) {
		rep.HasLead = true
		rep.LeadChangesMean = float64(r.LeadChanges) / float64(n)
	}
	if rep.HasLead && n > r.Capped && len(r.Margins) > 0 {
		rep.HasMargin = true
		rep.Margins = r.Margins
		rep.MarginMean, rep.MarginP1Mean, rep.MarginSD = marginStats(r.Margins)
	}
	return rep
}

// marginStats computes the mean size, the mean and the standard deviation
// (of the games, n-1) of the margins, in floats: a sum of margins can
// exceed an int.
func marginStats(margins map[int]int) (size, mean, sd float64) {
	keys := make([]int, 0, len(margins))
	n := 0.0
	for k, c := range margins {
		keys = append(keys, k)
		n += float64(c)
	}
	if n == 0 {
		return 0, 0, 0
	}
	sort.Ints(keys) // sums of floats in a fixed order: the same figures every time
	for _, k := range keys {
		c := float64(margins[k])
		size += math.Abs(float64(k)) * c
		mean += float64(k) * c
	}
	size, mean = size/n, mean/n
	if n > 1 {
		ss := 0.0
		for _, k := range keys {
			d := float64(k) - mean
			ss += d * d * float64(margins[k])
		}
		sd = math.Sqrt(ss / (n - 1))
	}
	return size, mean, sd
}

// lengthStats computes the mean, standard deviation (of the games, n-1),
// median, 95th percentile (nearest rank) and maximum of the lengths.
func lengthStats(lengths map[int]int) (mean, sd float64, median, p95, longest int) {
	keys := make([]int, 0, len(lengths))
	n, sum := 0, 0
	for l, k := range lengths {
		keys = append(keys, l)
		n += k
		sum += l * k
	}
	if n == 0 {
		return 0, 0, 0, 0, 0
	}
	sort.Ints(keys) // sums of floats in a fixed order: the same figures every time
	mean = float64(sum) / float64(n)
	ss := 0.0
	for _, l := range keys {
		d := float64(l) - mean
		ss += d * d * float64(lengths[l])
	}
	if n > 1 {
		sd = math.Sqrt(ss / float64(n-1))
	}
	rank := func(q float64) int { // nearest rank: the smallest length with at least q of the games
		need := int(math.Ceil(q * float64(n)))
		seen := 0
		for _, l := range keys {
			seen += lengths[l]
			if seen >= need {
				return l
			}
		}
		return keys[len(keys)-1]
	}
	return mean, sd, rank(0.5), rank(0.95), keys[len(keys)-1]
}

// sortedCounts lists counts by decreasing number of games, then by name.
func sortedCounts(m map[string]int) []Count {
	out := make([]Count, 0, len(m))
	for k, v := range m {
		out = append(out, Count{Name: k, Games: v})
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].Games > out[j].Games || out[i].Games == out[j].Games && out[i].Name < out[j].Name
	})
	return out
}
