package charts_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"

	"github.com/matombo/matombo/games"
	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/analysis"
	"github.com/matombo/matombo/host/analysis/charts"
)

func ExampleWrite() {
	var reps []analysis.Report
	for _, board := range []string{"triangle", "square"} {
		g, err := games.Library().Load("yematatu", host.WithVariant(board))
		if err != nil {
			panic(err)
		}
		res, err := analysis.Run(context.Background(), g, analysis.WithGames(100))
		if err != nil {
			panic(err)
		}
		reps = append(reps, analysis.Summarize(res))
	}
	dir, err := os.MkdirTemp("", "charts")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	files, err := charts.Write(dir, reps)
	if err != nil {
		panic(err)
	}
	for _, f := range files {
		fmt.Println(filepath.Base(f))
	}
	// Output:
	// lengths.png
	// lengths.svg
	// results.png
	// results.svg
}

// A run split into shards, as on several machines: each shard plays its
// share of the run's games, and Merge adds them up to exactly what one run
// gives; the merged report is summarized and drawn.
func Example_shards() {
	g, err := games.Library().Load("yematatu")
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "charts")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	const n = 3
	var shards []*analysis.Result
	for i := range n {
		res, err := analysis.Run(ctx, g, analysis.WithGames(300), analysis.WithSeed(7),
			analysis.WithParallel(runtime.NumCPU()), analysis.WithShard(i, n))
		if err != nil {
			panic(err)
		}
		shards = append(shards, res)
	}
	merged, err := analysis.Merge(shards...) // exact: the games of one run
	if err != nil {
		panic(err)
	}
	rep := analysis.Summarize(merged)                       // the measures
	files, err := charts.Write(dir, []analysis.Report{rep}) // PNG and SVG
	if err != nil {
		panic(err)
	}

	whole, err := analysis.Run(ctx, g, analysis.WithGames(300), analysis.WithSeed(7))
	if err != nil {
		panic(err)
	}
	fmt.Println("same as one run:", reflect.DeepEqual(analysis.Summarize(whole), rep))
	fmt.Printf("%d games, Player 1 wins %.0f%%, draws %.0f%%, %d charts\n", rep.Games, 100*rep.P1Rate, 100*rep.DrawShare, len(files))
	// Output:
	// same as one run: true
	// 300 games, Player 1 wins 57%, draws 4%, 4 charts
}
