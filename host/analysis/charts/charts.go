// Package charts draws the results of package analysis with gonum/plot: the
// distribution of game lengths per variant, and the shares of wins and
// draws per variant with their 95% intervals. Each chart is written as PNG
// and SVG.
package charts

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"github.com/matombo/matombo/host/analysis"
	"github.com/matombo/matombo/host/safefile"
)

// label names a report in a legend or on an axis: its variant, else its
// game.
func label(r analysis.Report) string {
	if r.Variant != "" {
		return r.Variant
	}
	return r.Game
}

// title names what the reports are of.
func title(reps []analysis.Report, what string) string {
	if len(reps) == 0 {
		return what
	}
	return fmt.Sprintf("%s: %s (%s vs %s, %d games each)", reps[0].Title, what, reps[0].P1, reps[0].P2, reps[0].Games)
}

// Lengths charts the distribution of game lengths: for each report, the
// share of games per band of plies, as a line.
func Lengths(reps []analysis.Report) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title(reps, "game length")
	p.X.Label.Text = "plies"
	p.Y.Label.Text = "share of games"
	longest := 0
	for _, r := range reps {
		longest = max(longest, r.PliesMax)
	}
	width := bandWidth(longest)
	peak := 0.0
	for i, r := range reps {
		bands := map[int]int{}
		for l, n := range r.Lengths {
			bands[l/width] += n
		}
		var pts plotter.XYs
		for b := 0; b <= longest/width; b++ {
			share := 0.0
			if r.Games > 0 {
				share = float64(bands[b]) / float64(r.Games)
			}
			pts = append(pts, plotter.XY{X: float64(b*width) + float64(width-1)/2, Y: share})
			peak = max(peak, share)
		}
		line, err := plotter.NewLine(pts)
		if err != nil {
			return nil, fmt.Errorf("length chart of %s: %w", label(r), err)
		}
		line.Color = plotutil.Color(i)
		line.Width = vg.Points(1.5)
		p.Add(line)
		p.Legend.Add(label(r), line)
	}
	p.Legend.Top = true
	p.Y.Min = 0
	if peak > 0 {
		p.Y.Max = peak / (1 - legendRoom(len(reps)))
	}
	p.Add(plotter.NewGrid())
	return p, nil
}

// legendRoom is the share of the height of a chart's data (Write's charts
// are 4 inches high) that a legend of n entries takes at its top, with a
// margin: the axis reaches that much above the data, so that no line or
// point runs under the legend.
func legendRoom(n int) float64 { return min(0.6, 0.065*float64(n)+0.03) }

// bandWidth is the width in plies of a length band: about 60 bands up to
// the longest game, in a round number.
func bandWidth(longest int) int {
	for _, w := range []int{1, 2, 5, 10, 20, 50, 100, 200, 500, 1000} {
		if longest/w <= 60 {
			return w
		}
	}
	return int(math.Ceil(float64(longest) / 60))
}

// shares are proportions with their intervals, drawn as points with
// error bars.
type shares struct {
	plotter.XYs
	plotter.YErrors
}

// Shares charts, for each report, the shares of Player 1's wins, Player 2's
// wins and draws with their 95% Wilson intervals.
func Shares(reps []analysis.Report) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title(reps, "results")
	p.Y.Label.Text = "share of games (95% interval)"
	// Room below 0 and above 1 for whole markers, and above them for the
	// legend; the ticks stay within [0, 1].
	p.Y.Min, p.Y.Max = -0.03, 1/(1-legendRoom(3))
	p.Y.Tick.Marker = plot.ConstantTicks([]plot.Tick{{Value: 0, Label: "0.0"}, {Value: 0.25}, {Value: 0.5, Label: "0.5"}, {Value: 0.75}, {Value: 1, Label: "1.0"}})
	series := []struct {
		name   string
		offset float64
		rate   func(r analysis.Report) analysis.Rate
	}{
		{"Player 1 wins", -0.2, func(r analysis.Report) analysis.Rate { return r.WinRates[0] }},
		{"Player 2 wins", 0, func(r analysis.Report) analysis.Rate { return r.WinRates[1] }},
		{"draws", 0.2, func(r analysis.Report) analysis.Rate { return r.DrawRate }},
	}
	var names []string
	for _, r := range reps {
		names = append(names, label(r))
	}
	for k, s := range series {
		var data shares
		for i, r := range reps {
			rate := s.rate(r)
			data.XYs = append(data.XYs, plotter.XY{X: float64(i) + s.offset, Y: rate.Rate})
			data.YErrors = append(data.YErrors, struct{ Low, High float64 }{rate.Rate - rate.Low, rate.High - rate.Rate})
		}
		points, err := plotter.NewScatter(data)
		if err != nil {
			return nil, fmt.Errorf("result chart: %w", err)
		}
		points.Color = plotutil.Color(k)
		points.Shape = plotutil.Shape(k)
		points.Radius = vg.Points(3)
		bars, err := plotter.NewYErrorBars(data)
		if err != nil {
			return nil, fmt.Errorf("result chart: %w", err)
		}
		bars.Color = plotutil.Color(k)
		bars.LineStyle.Width = vg.Points(1.2)
		p.Add(points, bars)
		p.Legend.Add(s.name, points)
	}
	p.NominalX(names...)
	p.X.Min, p.X.Max = -0.6, float64(len(reps))-0.4
	p.Legend.Top = true
	p.Add(plotter.NewGrid())
	return p, nil
}

// Write draws both charts of the reports into dir as lengths.png,
// lengths.svg, results.png and results.svg, and returns the files written.
func Write(dir string, reps []analysis.Report) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("plots: %w", err)
	}
	lengths, err := Lengths(reps)
	if err != nil {
		return nil, err
	}
	results, err := Shares(reps)
	if err != nil {
		return nil, err
	}
	width := vg.Length(max(5, 1.2*float64(len(reps))+3)) * vg.Inch
	var files []string
	for _, c := range []struct {
		name string
		p    *plot.Plot
		w    vg.Length
	}{{"lengths", lengths, 7 * vg.Inch}, {"results", results, width}} {
		for _, ext := range []string{"png", "svg"} {
			path := filepath.Join(dir, c.name+"."+ext)
			if err := save(c.p, c.w, 4*vg.Inch, ext, path); err != nil {
				if se := (*safefile.Error)(nil); errors.As(err, &se) {
					return files, fmt.Errorf("plot %w", err) // it names the file
				}
				return files, fmt.Errorf("plot %s: %w", path, err)
			}
			files = append(files, path)
		}
	}
	sort.Strings(files)
	return files, nil
}

// save draws p in the format ext into path, as plot.Save does, but through
// package safefile: a named pipe or a device at path is written through or
// refused, never waited on forever.
func save(p *plot.Plot, w, h vg.Length, ext, path string) error {
	c, err := p.WriterTo(w, h, ext)
	if err != nil {
		return err
	}
	return safefile.WriteAtomic(path, 0o644, func(out io.Writer) error {
		_, err := c.WriteTo(out)
		return err
	})
}
