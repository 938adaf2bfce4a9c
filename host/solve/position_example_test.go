package solve_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/matombo/matombo/games"
	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/solve"
)

// The exact value of the position after a3 in Kalah(3,3) with empty
// captures, Player 2 to move.
func ExampleSolvePosition() {
	g, err := games.Library().Load("kalah", host.WithParam("pits", 3), host.WithParam("seeds", 3), host.WithVariant("empty-capture"))
	if err != nil {
		log.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "solve-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	s, err := g.Replay([]string{"a3"})
	if err != nil {
		log.Fatal(err)
	}
	r, err := solve.SolvePosition(context.Background(), s, solve.WithCacheDir(dir), solve.WithThreads(1), solve.WithEndgame(4))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("player %d to move: %s by %d\n", r.ToMove, r.Value, r.Margin)
	// Output:
	// player 2 to move: win by 6
}
