package games_test

import (
	"context"
	"testing"

	"github.com/matombo/matombo/games"
	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/solve"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The solved values the rules pages and docs/analysis.md state, for every
// shipped game small enough to solve: positions reachable from the
// opening (the finished ones among them), the opening's value for Player 1
// with its distance, and the won, drawn and lost positions for the player
// to move. Each solution is checked by one ply of lookahead.
func TestSolvedValues(t *testing.T) {
	tests := []struct {
		game, variant    string
		positions, over  int
		value            solve.Value // for Player 1
		plies            int         // -1 for a draw
		won, drawn, lost int
	}{
		{"tictactoe", "", 5478, 958, solve.Draw, -1, 2836, 1068, 1574},
		{"tapatan", "", 5390, 416, solve.Win, 9, 2997, 1208, 1185},
		{"tapatan", "not-centre-first", 5381, 416, solve.Draw, -1, 2988, 1209, 1184},
		{"tapatan", "centre-first", 3694, 356, solve.Win, 9, 2029, 708, 957},
		{"tapatan", "move-anywhere", 5390, 416, solve.Draw, -1, 3334, 972, 1084},
		{"achi", "", 5724, 1004, solve.Win, 11, 3535, 0, 2189},
		{"achi", "blocked-loses", 5716, 1016, solve.Win, 11, 3527, 0, 2189},
		{"achi", "three-pieces", 5390, 416, solve.Win, 9, 2997, 1208, 1185},
		{"nineholes", "", 5466, 314, solve.Draw, -1, 1994, 2742, 730},
		{"nineholes", "move-anywhere", 5470, 306, solve.Draw, -1, 2502, 2446, 522},
		{"shisima", "", 3200, 160, solve.Draw, -1, 1552, 1024, 624},
		{"shisima", "square", 3200, 160, solve.Draw, -1, 1552, 1024, 624},
		{"tantfant", "", 3080, 262, solve.Draw, -1, 1646, 662, 772},
		{"tantfant", "no-home-rows", 3120, 228, solve.Draw, -1, 1620, 780, 720},
		{"tantfant", "diagonals", 3272, 88, solve.Draw, -1, 760, 2304, 208},
	}
	lib := games.Library()
	for _, tt := range tests {
		t.Run(tt.game+"/"+tt.variant, func(t *testing.T) {
			var opts []host.Option
			if tt.variant != "" {
				opts = append(opts, host.WithVariant(tt.variant))
			}
			g, err := lib.Load(tt.game, opts...)
			require.NoError(t, err)
			sol, err := solve.Solve(context.Background(), g)
			require.NoError(t, err)
			assert.Equal(t, tt.positions, sol.Positions(), "positions")
			assert.Equal(t, tt.over, sol.Terminals(), "finished positions")
			open := sol.Opening()
			assert.Equal(t, tt.value, open.Value.For(1, open.ToMove), "the opening for Player 1")
			assert.Equal(t, tt.plies, open.Plies, "plies to the end")
			assert.Equal(t, solve.Counts{Won: tt.won, Drawn: tt.drawn, Lost: tt.lost}, sol.Counts())
			require.NoError(t, sol.Check(context.Background(), g))
		})
	}
}
