package charts_test

import (
	"context"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/games"
	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/analysis"
	"github.com/matombo/matombo/host/analysis/charts"
)

func reports(t *testing.T, variants ...string) []analysis.Report {
	t.Helper()
	var reps []analysis.Report
	for _, v := range variants {
		g, err := games.Library().Load("yematatu", host.WithVariant(v))
		require.NoError(t, err)
		r, err := analysis.Run(context.Background(), g, analysis.WithGames(50))
		require.NoError(t, err)
		reps = append(reps, analysis.Summarize(r))
	}
	return reps
}

func TestWrite(t *testing.T) {
	for _, tc := range [][]string{{"triangle"}, {"triangle", "square"}} {
		dir := filepath.Join(t.TempDir(), "plots")
		files, err := charts.Write(dir, reports(t, tc...))
		require.NoError(t, err)
		require.Equal(t, []string{
			filepath.Join(dir, "lengths.png"), filepath.Join(dir, "lengths.svg"),
			filepath.Join(dir, "results.png"), filepath.Join(dir, "results.svg"),
		}, files)
		for _, f := range files {
			data, err := os.ReadFile(f)
			require.NoError(t, err)
			if strings.HasSuffix(f, ".png") {
				cfg, err := png.DecodeConfig(strings.NewReader(string(data)))
				require.NoError(t, err, f)
				assert.Greater(t, cfg.Width, 300, f)
			} else {
				assert.Contains(t, string(data), "<svg", f)
				for _, v := range tc {
					assert.Contains(t, string(data), v, f)
				}
			}
		}
	}
}

func TestWriteIntoAFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	_, err := charts.Write(file, reports(t, "square"))
	assert.ErrorContains(t, err, "plots:")
}

// TestLegendClearsTheData: the axes reach above the data by the room the
// legend takes at the top, so that no line or point runs under it, and
// the results' markers at 0 and 1 are drawn whole, the ticks within
// [0, 1].
func TestLegendClearsTheData(t *testing.T) {
	reps := reports(t, "triangle", "square")
	lengths, err := charts.Lengths(reps)
	require.NoError(t, err)
	peak := 0.0
	for _, r := range reps {
		for _, n := range r.Lengths {
			peak = max(peak, float64(n)/float64(r.Games))
		}
	}
	assert.LessOrEqual(t, peak, 0.85*lengths.Y.Max, "two legend entries take the top 15%")

	results, err := charts.Shares(reps)
	require.NoError(t, err)
	assert.Less(t, results.Y.Min, 0.0)
	assert.Greater(t, results.Y.Max, 1.2, "three legend entries above the shares")
	for _, tick := range results.Y.Tick.Marker.Ticks(results.Y.Min, results.Y.Max) {
		assert.True(t, tick.Value >= 0 && tick.Value <= 1, "tick %v", tick.Value)
	}
}
