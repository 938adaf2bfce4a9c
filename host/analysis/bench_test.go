package analysis_test

import (
	"context"
	"testing"

	"github.com/matombo/matombo/host/analysis"
)

// BenchmarkRunKalah is `matombo analyze kalah --games 200` without the
// command: 200 games of Kalah between random players, its lead and
// margins read from its score (a native score_rule) after every ply.
func BenchmarkRunKalah(b *testing.B) {
	g := load(b, "kalah")
	for b.Loop() {
		if _, err := analysis.Run(context.Background(), g, analysis.WithGames(200)); err != nil {
			b.Fatal(err)
		}
	}
}
