package host_test

import (
	"fmt"
	"log"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/games"
	"github.com/matombo/matombo/host"
)

// TestAppendCountsAndOwners: the bulk reads equal Count and Owner of each
// site, on random games of several shipped games, and append after what
// dst holds.
func TestAppendCountsAndOwners(t *testing.T) {
	for _, name := range []string{"kalah", "oware", "gore", "bao", "draughts"} {
		t.Run(name, func(t *testing.T) {
			g, err := games.Library().Load(name)
			require.NoError(t, err)
			rng := rand.New(rand.NewPCG(1, 2))
			s := g.Start()
			counts, owners := []int{-7}, []int{-7}
			for ply := 0; ply < 60 && !s.Over(); ply++ {
				counts = s.AppendCounts(counts[:1])
				owners = s.AppendOwners(owners[:1])
				require.Len(t, counts, 1+g.Board().NumSites())
				require.Len(t, owners, 1+g.Board().NumSites())
				require.Equal(t, -7, counts[0])
				for i := range g.Board().NumSites() {
					require.Equal(t, s.Count(i), counts[1+i], "ply %d site %d", ply, i)
					require.Equal(t, s.Owner(i), owners[1+i], "ply %d site %d", ply, i)
				}
				require.NoError(t, s.Apply(s.Moves()[rng.IntN(len(s.Moves()))]))
			}
		})
	}
}

// Read every site's count and owner at once, into buffers kept between
// positions.
func ExampleState_AppendCounts() {
	g, err := games.Library().Load("kalah", host.WithParam("pits", 3), host.WithParam("seeds", 2))
	if err != nil {
		log.Fatal(err)
	}
	s := g.Start()
	var counts, owners []int
	counts = s.AppendCounts(counts[:0])
	owners = s.AppendOwners(owners[:0])
	fmt.Println(counts, owners)
	// Output:
	// [2 2 2 0 2 2 2 0] [1 1 1 1 2 2 2 2]
}
