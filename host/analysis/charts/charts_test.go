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
