package match

import (
	"math"
	"time"
)

// Z95 is the normal quantile of a two-sided 95% interval.
const Z95 = 1.959963984540054

// Wilson returns the 95% Wilson score interval of a proportion p observed
// over n trials (n > 0): from 0 to 1, never empty, also at p = 0 or 1.
func Wilson(p, n float64) (low, high float64) {
	if n <= 0 {
		return 0, 1
	}
	z2 := Z95 * Z95
	den := 1 + z2/n
	centre := (p + z2/(2*n)) / den
	half := Z95 * math.Sqrt(p*(1-p)/n+z2/(4*n*n)) / den
	return max(0, centre-half), min(1, centre+half)
}

// MaxElo is the largest Elo difference reported: the open end of an
// interval whose score is within 1/10,000 of 0 or 1.
const MaxElo = 1600

// Elo is the Elo difference whose expected score is s: -400 log10(1/s - 1),
// rounded to a tenth and kept within ±MaxElo.
func Elo(s float64) float64 {
	s = min(max(s, 1e-4), 1-1e-4)
	return math.Round(-400*math.Log10(1/s-1)*10)/10 + 0 // + 0: no negative zero
}

// EloInterval returns the Elo difference of a score over n games and its
// 95% confidence interval (from the Wilson interval of the score). A score
// of 0 or 1 is taken as half a game from it, so the estimate is finite.
func EloInterval(score, n float64) (elo, low, high float64) {
	lo, hi := Wilson(score, n)
	clamped := min(max(score, 0.5/n), 1-0.5/n)
	return Elo(clamped), Elo(lo), Elo(hi)
}

// Summary adds up the games of a match from the first entrant's side.
type Summary struct {
	Games     int        `json:"games"`  // games played to the end or the cap
	Failed    int        `json:"failed"` // games that failed, counted nowhere else
	Wins      [2]int     `json:"wins"`   // by entrant
	Draws     int        `json:"draws"`  // draws and games stopped at the cap
	Score     float64    `json:"score"`  // the first entrant's, a draw half a win
	ScoreLow  float64    `json:"score_low"`
	ScoreHigh float64    `json:"score_high"`
	Elo       float64    `json:"elo"` // the first entrant's Elo difference
	EloLow    float64    `json:"elo_low"`
	EloHigh   float64    `json:"elo_high"`
	PliesMean float64    `json:"plies_mean"`
	MsPerMove [2]float64 `json:"ms_per_move"` // mean thinking time by entrant
	// SearchPerMove is the mean search work per move by entrant:
	// alpha-beta's nodes, MCTS's iterations, 0 for other players. Unlike
	// the time it does not depend on the machine or its load.
	SearchPerMove [2]float64 `json:"search_per_move"`
}

// Summary adds up the games that did not fail.
func (r *Result) Summary() Summary {
	var sum Summary
	var think [2]time.Duration
	var moves [2]int
	var search [2]int64
	plies := 0
	for _, gm := range r.Games {
		if gm.Err != nil {
			sum.Failed++
			continue
		}
		sum.Games++
		if gm.Winner < 0 {
			sum.Draws++
		} else {
			sum.Wins[gm.Winner]++
		}
		plies += gm.Plies
		for i := range 2 {
			think[i] += gm.Think[i]
			moves[i] += gm.Moves[i]
			search[i] += gm.Search[i]
		}
	}
	if sum.Games == 0 {
		sum.ScoreHigh = 1
		return sum
	}
	n := float64(sum.Games)
	score := (float64(sum.Wins[0]) + float64(sum.Draws)/2) / n
	sum.ScoreLow, sum.ScoreHigh = Wilson(score, n)
	sum.Elo, sum.EloLow, sum.EloHigh = EloInterval(score, n)
	sum.Score = math.Round(score*1e4) / 1e4
	sum.PliesMean = float64(plies) / n
	for i := range 2 {
		if moves[i] > 0 {
			sum.MsPerMove[i] = math.Round(float64(think[i].Microseconds())/10/float64(moves[i])) / 100
			sum.SearchPerMove[i] = math.Round(float64(search[i])*10/float64(moves[i])) / 10
		}
	}
	return sum
}

// Failures returns the errors of the games that failed, in game order.
func (r *Result) Failures() []error {
	var out []error
	for _, gm := range r.Games {
		if gm.Err != nil {
			out = append(out, gm.Err)
		}
	}
	return out
}
