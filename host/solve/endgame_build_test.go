package solve_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/host/solve"
)

// TestEndgameBuildMatchesReference: a database built by the builder, on
// one goroutine and on several, one side to move or both, holds the
// values a plain recursion gives every position (set up from its values,
// its moves played one by one), on small Kalah boards under both capture
// rules, its values coded in halves (as Kalah's always are) and whole.
func TestEndgameBuildMatchesReference(t *testing.T) {
	cases := []struct {
		m, k  int
		empty bool
	}{
		{2, 8, true}, {2, 8, false}, {2, 18, true}, {2, 18, false}, {3, 8, true}, {3, 8, false}, {3, 16, true}, {3, 16, false}, {4, 7, true}, {4, 7, false}, {6, 5, true}, {6, 5, false},
	}
	for _, c := range cases {
		for _, threads := range []int{1, 3} {
			for _, sym := range []bool{true, false} {
				for _, whole := range []bool{false, true} {
					t.Run(fmt.Sprintf("Kalah(%d)/empty=%v/k=%d/threads=%d/sym=%v/whole=%v", c.m, c.empty, c.k, threads, sym, whole), func(t *testing.T) {
						g := loadKalah(t, c.m, 6, c.empty)
						n, err := solve.EndgameMatchesReference(g, c.k, threads, sym, whole)
						require.NoError(t, err)
						assert.Positive(t, n)
					})
				}
			}
		}
	}
}
