package shard_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/matombo/matombo/games"
	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/solve"
	"github.com/matombo/matombo/host/solve/shard"
)

// A solve of Kalah(3,3) with empty captures split into the positions two
// plies in: each job could run on another machine (its Result written
// with WriteResult, read back with ReadResult); the merge gives the
// opening's value and each opening move's.
func Example() {
	g, err := games.Library().Load("kalah", host.WithParam("pits", 3), host.WithParam("seeds", 3), host.WithVariant("empty-capture"))
	if err != nil {
		log.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "shard-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	ctx := context.Background()
	plan, err := shard.NewPlan(ctx, g, 2)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d jobs; job 0 is %v, player %d to move\n", len(plan.Jobs), plan.Jobs[0].Tokens, plan.Jobs[0].ToMove)
	var results []shard.Result
	var names []string
	for k := range plan.Jobs {
		r, err := plan.Solve(ctx, k, solve.WithCacheDir(dir), solve.WithThreads(1), solve.WithEndgame(4), solve.WithTableBytes(1<<20))
		if err != nil {
			log.Fatal(err)
		}
		results = append(results, r)
		names = append(names, fmt.Sprintf("job-%d.json", k))
	}
	m, err := plan.Merge(results, names)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("opening: %s by %d for player %d\n", m.Opening.Value, m.Opening.Margin, m.Opening.ToMove)
	for _, mv := range m.Moves {
		fmt.Printf("%s %s %+d\n", mv.Token, mv.Value, mv.Margin)
	}
	// Output:
	// 8 jobs; job 0 is [a1 a2], player 2 to move
	// opening: win by 2 for player 1
	// a1 win +2
	// a2 win +2
	// a3 loss -6
}
