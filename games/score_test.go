package games_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/games"
)

// scoreLabels gives the shipped games' score labels, and whether the final
// score decides the result (the larger wins, equal is a draw). Tsoro's
// score is won otherwise (by leaving the opponent without a move).
var scoreLabels = map[string]struct {
	label   string
	decides bool
}{
	"kalah":    {"seeds", true},
	"oware":    {"captured", true},
	"gore":     {"captured", true},
	"tsoro":    {"captured", false},
	"yematatu": {"", false},
}

// TestScores plays random games of every shipped game and variant and
// checks the scores: one whole number per player at every state, and at
// the end, where the score decides the game, a winner that agrees with the
// margin.
func TestScores(t *testing.T) {
	for _, c := range configs(t) {
		t.Run(c.label, func(t *testing.T) {
			t.Parallel()
			g, err := c.load(games.Library())
			require.NoError(t, err)
			want, known := scoreLabels[c.name]
			if known {
				assert.Equal(t, want.label, g.ScoreLabel())
			}
			r := g.NewRunner()
			defer r.Close()
			rng := rand.New(rand.NewPCG(7, uint64(len(c.label))))
			var sc []int
			for game := 0; game < 6; game++ {
				s := g.Start()
				for ply := 0; !s.Over() && ply < 3000; ply++ {
					sc, err = r.Score(s, sc[:0])
					require.NoError(t, err)
					if g.HasScore() {
						require.Len(t, sc, g.Players())
					} else {
						require.Empty(t, sc)
					}
					moves := s.Moves()
					require.NoError(t, r.Apply(s, moves[rng.IntN(len(moves))]))
				}
				if !s.Over() || !want.decides {
					continue
				}
				final, err := s.Score()
				require.NoError(t, err)
				margin := final[0] - final[1]
				winner := map[bool]int{true: 1, false: 2}[margin > 0]
				if margin == 0 {
					winner = 0
				}
				assert.Equal(t, winner, s.Outcome().Winner, "final score %v", final)
			}
		})
	}
}
