package charts_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

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
