package solve

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/games"
)

// A memory budget too small for the table engine's first positions was
// refused as needing "about 0 B, more than the budget of 5 B": what a
// refusal says is needed is more than the budget, whatever the budget.
func TestTinyBudgetNeedsMoreThanIt(t *testing.T) {
	g, err := games.Library().Load("yematatu")
	require.NoError(t, err)
	for _, budget := range []int64{1, 5, 34, 35, 100, 1000, 10 << 10} {
		t.Run(fmt.Sprint(budget), func(t *testing.T) {
			_, err := Solve(context.Background(), g, WithEngine(Retrograde), WithMaxBytes(budget))
			var tl *TooLargeError
			require.True(t, errors.As(err, &tl), "%v", err)
			assert.Greater(t, tl.EstimateBytes, budget, "%v", err)
			assert.NotContains(t, err.Error(), "about 0 B")
		})
	}
}
