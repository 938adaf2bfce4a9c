package solve_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log"
	"os"

	"github.com/matombo/matombo/games"
	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/solve"
)

func ExampleSolve() {
	g, err := games.Library().Load("yematatu", host.WithVariant("square"))
	if err != nil {
		panic(err)
	}
	sol, err := solve.Solve(context.Background(), g)
	if err != nil {
		panic(err)
	}
	o := sol.Opening()
	fmt.Printf("%d positions; the opening is a %s for Player %d in %d plies\n", sol.Positions(), o.Value, o.ToMove, o.Plies)
	// Output: 5390 positions; the opening is a win for Player 1 in 9 plies
}

func ExampleSolution_Moves() {
	g, err := games.Library().Load("yematatu", host.WithVariant("square"))
	if err != nil {
		panic(err)
	}
	sol, err := solve.Solve(context.Background(), g)
	if err != nil {
		panic(err)
	}
	s := g.Start()
	for _, tok := range []string{"b2", "a1"} {
		if err := s.Play(tok); err != nil {
			panic(err)
		}
	}
	moves, err := sol.Moves(s)
	if err != nil {
		panic(err)
	}
	for _, mv := range moves {
		if mv.Value == solve.Win {
			fmt.Println(mv.Token, "wins in", mv.Plies, "plies")
		}
	}
	// Output:
	// b3 wins in 7 plies
	// c2 wins in 7 plies
}

// A game whose script keeps a score has margins: Kalah(3,3) with empty
// captures is a win by 2 for Player 1, with either of two first moves.
func ExampleSolve_margin() {
	g, err := games.Library().Load("kalah", host.WithParam("pits", 3), host.WithParam("seeds", 3), host.WithVariant("empty-capture"))
	if err != nil {
		panic(err)
	}
	sol, err := solve.Solve(context.Background(), g, solve.WithEngine(solve.Retrograde))
	if err != nil {
		panic(err)
	}
	o := sol.Opening()
	fmt.Printf("Player %d: %s by %d in %d plies\n", o.ToMove, o.Value, o.Margin, o.Plies)
	moves, err := sol.Moves(g.Start())
	if err != nil {
		panic(err)
	}
	for _, mv := range moves {
		fmt.Printf("%s: %s, margin %+d\n", mv.Token, mv.Value, mv.Margin)
	}
	// Output:
	// Player 1: win by 2 in 11 plies
	// a1: win, margin +2
	// a2: win, margin +2
	// a3: loss, margin -6
}

// The search engine with its options, on Kalah(3,3) with empty captures:
// an estimate first, then the solve, its check, the values of the moves of
// a position, a perfect player, and the solution written and read back.
func ExampleSolve_search() {
	g, err := games.Library().Load("kalah", host.WithParam("pits", 3), host.WithParam("seeds", 3), host.WithVariant("empty-capture"))
	if err != nil {
		panic(err)
	}
	ctx := context.Background()

	progress := func(p solve.Progress) { log.Printf("%s: %d positions searched", p.Phase, p.Nodes) }
	opts := []solve.Option{solve.WithEngine(solve.Search), solve.WithMaxBytes(64 << 20),
		solve.WithEndgame(6), solve.WithThreads(2), solve.WithProgress(progress)}
	est, err := solve.Estimate(g, opts...) // engine and memory, before starting
	if err != nil {
		panic(err)
	}
	fmt.Println(est.Engine, "engine, within the budget:", est.Bytes <= 64<<20)
	sol, err := solve.Solve(ctx, g, opts...)
	if err != nil {
		panic(err)
	}
	o := sol.Opening() // Value, Margin (for the mover), Plies
	fmt.Printf("Player %d: %s by %d\n", o.ToMove, o.Value, o.Margin)
	if err := sol.Check(ctx, g); err != nil { // the opening's value against its moves'
		panic(err)
	}
	s := g.Start()
	moves, err := sol.Moves(s) // each legal move's value, margin and distance
	if err != nil {
		panic(err)
	}
	for _, mv := range moves {
		fmt.Printf("%s: %s, margin %+d\n", mv.Token, mv.Value, mv.Margin)
	}
	m, err := sol.Player().Choose(ctx, s) // plays perfectly
	if err != nil {
		panic(err)
	}
	fmt.Println("perfect play:", g.Token(m))

	var file bytes.Buffer
	if _, err := sol.WriteTo(&file); err != nil {
		panic(err)
	}
	back, err := solve.Read(&file, g) // checked: its game and checksum
	if err != nil {
		panic(err)
	}
	fmt.Println("read back:", back.Opening() == o)
	// Output:
	// search engine, within the budget: true
	// Player 1: win by 2
	// a1: win, margin +2
	// a2: win, margin +2
	// a3: loss, margin -6
	// perfect play: a1
	// read back: true
}

// A Cache keeps solutions in a folder of the caller's; Solve keeps its
// endgame databases there when given WithCacheDir with the same folder.
// A solve too large for its bounds says which one it reached.
func ExampleNewCache() {
	dir, err := os.MkdirTemp("", "solutions")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	g, err := games.Library().Load("kalah", host.WithParam("pits", 2), host.WithParam("seeds", 3), host.WithVariant("empty-capture"))
	if err != nil {
		panic(err)
	}
	var logged []string // what the solve did without (a damaged database built again)
	sol, err := solve.Solve(context.Background(), g, solve.WithEngine(solve.Search), solve.WithEndgame(6),
		solve.WithCacheDir(dir), solve.WithLog(func(msg string) { logged = append(logged, msg) }))
	if err != nil {
		panic(err)
	}
	st := sol.SearchStats()
	fmt.Printf("Player 1: %+d, with a database of %d counters\n", sol.Opening().Margin, st.EndgameCounters)
	c := solve.NewCache(dir)
	if _, err := c.Save(sol, g); err != nil {
		panic(err)
	}
	back, err := c.Load(context.Background(), g)
	if err != nil {
		panic(err)
	}
	fmt.Println("read back:", back.Opening().Margin, len(logged), "logged")

	_, err = solve.Solve(context.Background(), g, solve.WithEngine(solve.Retrograde), solve.WithMaxPositions(10), solve.WithCacheDir(dir))
	var tl *solve.TooLargeError
	if errors.As(err, &tl) {
		fmt.Println(tl.Limit == solve.LimitPositions, err)
	}
	// Output:
	// Player 1: -2, with a database of 6 counters
	// read back: -2 0 logged
	// true kalah has more than 10 positions reachable from the opening; storing them needs more than 330 B (about 33 bytes a position): allow more (solve.WithMaxPositions) to try anyway, or solve it with the search engine (solve.Search)
}
