package solve

import (
	"github.com/matombo/matombo/host"
)

// score is a position's value for Player 1, in the order the solver
// optimizes: the result first (a loss, a draw, a win), then, in games with
// a score, the margin score[0]-score[1] at the end. Player 1 maximizes it,
// Player 2 minimizes it, and play that never ends is worth 0 (a draw with
// a margin of 0). Negating a score gives it for Player 2.
type score int32

const (
	outcomeUnit = 1 << 24
	// MaxMargin is the largest margin the solver tells apart; larger ones
	// count as MaxMargin.
	MaxMargin = outcomeUnit/2 - 1
)

// makeScore returns the score of a result for Player 1 (1 a win, 0 a draw,
// -1 a loss) and a margin.
func makeScore(outcome, margin int) score {
	margin = min(max(margin, -MaxMargin), MaxMargin)
	return score(outcome*outcomeUnit + margin)
}

// outcome is 1 when Player 1 wins, -1 when they lose, 0 for a draw.
func (v score) outcome() int {
	switch {
	case v > outcomeUnit/2:
		return 1
	case v < -outcomeUnit/2:
		return -1
	}
	return 0
}

// margin is Player 1's score minus Player 2's at the end.
func (v score) margin() int { return int(v) - v.outcome()*outcomeUnit }

// forPlayer returns the score for player p.
func (v score) forPlayer(p int) score {
	if p == 1 {
		return v
	}
	return -v
}

// value is the result for player p.
func (v score) value(p int) Value { return Value(v.forPlayer(p).outcome()) }

// favours reports whether the score is a win for player p.
func (v score) favours(p int) bool { return v.forPlayer(p).outcome() > 0 }

// better reports whether a is better than b for player p.
func better(a, b score, p int) bool { return a.forPlayer(p) > b.forPlayer(p) }

// scorer computes the score of finished games.
type scorer struct {
	hasScore bool
	buf      []int
}

func newScorer(g *host.Game) *scorer { return &scorer{hasScore: g.HasScore()} }

// final returns the score of the finished game s, with r (or the game's
// pool when r is nil).
func (sc *scorer) final(r *host.Runner, s *host.State) (score, error) {
	outcome := 0
	switch s.Outcome().Winner {
	case 1:
		outcome = 1
	case 2:
		outcome = -1
	}
	margin := 0
	if sc.hasScore {
		var err error
		if r != nil {
			sc.buf, err = r.Score(s, sc.buf[:0])
		} else {
			sc.buf, err = s.Score()
		}
		if err != nil {
			return 0, err
		}
		if len(sc.buf) >= 2 {
			margin = sc.buf[0] - sc.buf[1]
		}
	}
	return makeScore(outcome, margin), nil
}
