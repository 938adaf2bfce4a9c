package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/matombo/matombo/host/analysis"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAnalyzeGolden(t *testing.T) {
	for _, tc := range []struct {
		golden string
		args   []string
	}{
		{"analyze-yematatu-variants", []string{"yematatu", "--variants", "all", "--games", "300", "--parallel", "2"}},
		{"analyze-gore", []string{"gore", "-n", "20", "--max-plies", "200", "--seed", "3"}},
		{"analyze-kalah", []string{"kalah", "-n", "200"}},                                                  // the lead and margins of a score, no captures
		{"analyze-kalah-variants", []string{"kalah", "--variants", "all", "-n", "100", "--parallel", "2"}}, // the lead's columns in the table
	} {
		t.Run(tc.golden, func(t *testing.T) {
			r := matombo(t, "", append([]string{"analyze"}, tc.args...)...)
			require.Equal(t, exitOK, r.code, r.stderr)
			golden(t, tc.golden, r.stdout)
		})
	}
}

// The fields --json promises, for one variant and for all.
func TestAnalyzeJSON(t *testing.T) {
	keys := []string{"games", "wins", "draws", "p1_rate", "p1_rate_low", "p1_rate_high", "draw_rate", "plies_mean", "plies_sd", "plies_max", "branching_mean"}
	r := matombo(t, "", "analyze", "yematatu", "--json", "-n", "50")
	require.Equal(t, exitOK, r.code, r.stderr)
	var one map[string]any
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &one))
	for _, k := range keys {
		assert.Contains(t, one, k)
	}
	assert.EqualValues(t, 50, one["games"])

	r = matombo(t, "", "analyze", "yematatu", "--json", "-n", "50", "--variants", "all")
	require.Equal(t, exitOK, r.code, r.stderr)
	var all struct {
		Game     string           `json:"game"`
		Variants []map[string]any `json:"variants"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &all))
	require.Len(t, all.Variants, 2)
	for i, name := range []string{"triangle", "square"} {
		assert.Equal(t, name, all.Variants[i]["variant"])
		for _, k := range keys {
			assert.Contains(t, all.Variants[i], k)
		}
	}
}

// With --variants all, each variant's JSON object has the lead and the
// margins of a game with a score, as one variant's has.
func TestAnalyzeJSONVariantsLead(t *testing.T) {
	r := matombo(t, "", "analyze", "kalah", "--json", "-n", "20", "--variants", "all")
	require.Equal(t, exitOK, r.code, r.stderr)
	var all struct {
		Variants []map[string]any `json:"variants"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &all))
	require.NotEmpty(t, all.Variants)
	for _, v := range all.Variants {
		assert.Equal(t, "score", v["lead_from"], v["variant"])
		assert.Equal(t, "seeds", v["score_label"], v["variant"])
		for _, k := range []string{"lead_changes_mean", "margin_mean", "margin_p1_mean", "margin_sd", "margins"} {
			assert.Contains(t, v, k, v["variant"])
		}
	}
}

// Four shards written to files and merged print exactly what one run
// prints, as text and as JSON.
func TestAnalyzeShardsMerge(t *testing.T) {
	dir := t.TempDir()
	args := []string{"analyze", "yematatu", "--variants", "all", "-n", "101", "--seed", "9"}
	var files []string
	for i := 0; i < 4; i++ {
		r := matombo(t, "", append(args, "--shard", []string{"0/4", "1/4", "2/4", "3/4"}[i])...)
		require.Equal(t, exitOK, r.code, r.stderr)
		f := filepath.Join(dir, "shard-"+string(rune('0'+i))+".json")
		require.NoError(t, os.WriteFile(f, []byte(r.stdout), 0o644))
		files = append(files, f)
	}
	for _, extra := range [][]string{nil, {"--json"}} {
		one := matombo(t, "", append(args, extra...)...)
		require.Equal(t, exitOK, one.code, one.stderr)
		merged := matombo(t, "", append(append([]string{"analyze", "--merge"}, files...), extra...)...)
		require.Equal(t, exitOK, merged.code, merged.stderr)
		assert.Equal(t, one.stdout, merged.stdout)
	}

	r := matombo(t, "", "analyze", "--merge", files[0], files[2])
	assert.Equal(t, exitFail, r.code)
	assert.Contains(t, r.stderr, "the shards 1/4, 3/4 of yematatu triangle are missing")
	r = matombo(t, "", "analyze", "--merge", files[0], files[0])
	assert.Equal(t, exitFail, r.code)
	assert.Contains(t, r.stderr, "comes twice")
	r = matombo(t, "", "analyze", "--merge", filepath.Join("testdata", "list.golden"))
	assert.Equal(t, exitFail, r.code)
	assert.Contains(t, r.stderr, "not a shard file")
}

// A shard file whose JSON names a key twice, at its top level, in a
// result or in a result's map, reads two ways (encoding/json keeps the
// last, another reader the first, and a second "results" would count its
// games twice): --merge refuses it, naming the file and the key.
func TestAnalyzeMergeRefusesDuplicateKeys(t *testing.T) {
	r := matombo(t, "", "analyze", "yematatu", "-n", "4", "--shard", "0/1")
	require.Equal(t, exitOK, r.code, r.stderr)
	shard := strings.TrimSpace(r.stdout)
	dir := t.TempDir()
	for _, c := range []struct {
		name, old, new, want string
	}{
		{"results", `]}`, `],"results":[]}`, `the key "results" is given twice`},
		{"format", `"shard":`, `"format":"matombo analyze shard 1","shard":`, `the key "format" is given twice`},
		{"in a result", `"draws":`, `"draws":7,"draws":`, `result 1: the key "draws" is given twice`},
		{"in a result's map", `"params":{`, `"params":{"board":"square",`, `result 1: the key "board" is given twice`},
	} {
		t.Run(c.name, func(t *testing.T) {
			require.Contains(t, shard, c.old)
			f := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-")+".json")
			require.NoError(t, os.WriteFile(f, []byte(strings.Replace(shard, c.old, c.new, 1)), 0o644))
			r := matombo(t, "", "analyze", "--merge", f)
			assert.Equal(t, exitFail, r.code, r.stdout)
			assert.Equal(t, "matombo analyze: "+f+": "+c.want+"\n", r.stderr)
		})
	}
}

func TestAnalyzePlot(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "charts")
	r := matombo(t, "", "analyze", "yematatu", "-n", "30", "--plot", dir)
	require.Equal(t, exitOK, r.code, r.stderr)
	for _, f := range []string{"lengths.png", "lengths.svg", "results.png", "results.svg"} {
		assert.FileExists(t, filepath.Join(dir, f))
	}
	assert.Contains(t, r.stderr, "wrote ")
}

func TestAnalyzePerfect(t *testing.T) {
	isolateCache(t)
	r := matombo(t, "", "analyze", "yematatu", "--variant", "square", "--p1", "perfect", "-n", "40", "--json")
	require.Equal(t, exitOK, r.code, r.stderr)
	var rep struct {
		Wins []int `json:"wins"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &rep))
	assert.Equal(t, []int{40, 0}, rep.Wins, "Player 1 wins the square with perfect play")
}

// TestAnalyzePerfectSolvesAsPlayersDo: the perfect player of analyze
// solves an uncached game as every command's perfect player does (the
// retrograde engine, at most 2,000,000 positions, docs/players.md), not
// with solve's defaults (which gave Oware to an endless search), and
// plays from a cached solution of either engine, as match does.
func TestAnalyzePerfectSolvesAsPlayersDo(t *testing.T) {
	isolateCache(t)
	kalah := []string{"kalah", "--param", "pits=3", "--param", "seeds=2"}
	r := matombo(t, "", append(append([]string{"analyze"}, kalah...), "--p1", "perfect", "-n", "4")...)
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stderr, "with the retrograde engine: about ")
	assert.Contains(t, r.stderr, "at most 2000000 positions")

	r = matombo(t, "", append(append([]string{"solve"}, kalah...), "--engine", "search", "--fresh")...)
	require.Equal(t, exitOK, r.code, r.stderr)
	for _, cmd := range [][]string{{"analyze", "-n", "4"}, {"match", "--p2", "random", "--games", "2"}} {
		r = matombo(t, "", append(append(cmd[:1:1], kalah...), append(cmd[1:], "--p1", "perfect")...)...)
		require.Equal(t, exitOK, r.code, r.stderr)
		assert.NotContains(t, r.stderr, "solving", "the search engine's cached solution answers for %s", cmd[0])
	}
}

func TestAnalyzeErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"yematatu", "--variants", "some"}, exitUsage, "--variants some: the only value is all"},
		{[]string{"yematatu", "--variants", "all", "--variant", "square"}, exitUsage, "do not go together"},
		{[]string{"yematatu", "--shard", "4/4"}, exitUsage, "--shard 4/4: want I/N with 0 <= I < N"},
		{[]string{"yematatu", "--shard", "x"}, exitUsage, "--shard x"},
		{[]string{"yematatu", "--parallel", "0"}, exitUsage, "--parallel 0"},
		{[]string{"yematatu", "--p2", "genius"}, exitUsage, `player "genius": unknown player "genius" (valid: random, greedy, mcts, alphabeta, perfect)`},
		{[]string{"--merge"}, exitUsage, "--merge: name the shard files"},
		{[]string{"--merge", "f.json", "--seed", "3"}, exitUsage, "--merge takes no --seed"},
		{[]string{"yematatu", "--shard", "0/2", "--plot", "x"}, exitUsage, "plot after --merge"},
		{[]string{}, exitUsage, "name a game"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			r := matombo(t, "", append([]string{"analyze"}, tc.args...)...)
			assert.Equal(t, tc.code, r.code, r.stderr)
			assert.Contains(t, r.stderr, tc.want)
		})
	}
}

// FuzzParseShard: --shard I/N either parses into 0 <= I < N or is refused
// with the value in the message.
func FuzzParseShard(f *testing.F) {
	for _, s := range []string{"0/4", "3/4", "4/4", "-1/2", "1/0", "x", "1/2/3", " 1/2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		i, n, err := parseShard(s)
		if err != nil {
			if !strings.Contains(err.Error(), s) {
				t.Fatalf("error %q does not name %q", err, s)
			}
			return
		}
		if i < 0 || n < 1 || i >= n {
			t.Fatalf("%q parsed as %d/%d", s, i, n)
		}
	})
}

// One shard of a billion, merged alone, names the missing shards in a
// short message.
func TestMergeOneShardOfABillion(t *testing.T) {
	r := matombo(t, "", "analyze", "yematatu", "-n", "3", "--shard", "0/1000000000")
	require.Equal(t, exitOK, r.code, r.stderr)
	f := filepath.Join(t.TempDir(), "shard.json")
	require.NoError(t, os.WriteFile(f, []byte(r.stdout), 0o644))
	r = matombo(t, "", "analyze", "--merge", f)
	assert.Equal(t, exitFail, r.code)
	assert.Contains(t, r.stderr, "the shards 1/1000000000, 2/1000000000,")
	assert.Contains(t, r.stderr, "and 999999989 more of yematatu are missing")
	assert.Less(t, len(r.stderr), 400)
}

// A shard file whose counts were edited is refused, naming the file.
func TestMergeRefusesEditedCounts(t *testing.T) {
	r := matombo(t, "", "analyze", "yematatu", "-n", "4", "--shard", "0/1")
	require.Equal(t, exitOK, r.code, r.stderr)
	var sf map[string]any
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &sf))
	res := sf["results"].([]any)[0].(map[string]any)
	res["wins"] = []any{int64(math.MaxInt64), int64(math.MaxInt64)}
	res["draws"], res["capped"] = 6, 0
	b, err := json.Marshal(sf)
	require.NoError(t, err)
	f := filepath.Join(t.TempDir(), "edited.json")
	require.NoError(t, os.WriteFile(f, b, 0o644))
	r = matombo(t, "", "analyze", "--merge", f)
	assert.Equal(t, exitFail, r.code)
	assert.Contains(t, r.stderr, f+": merge: result of yematatu: its counts do not add up")
}

// Kalah's shards (a lead and margins read from its score) merge into what
// one run prints; shard files of format 1, written before the lead's
// source, still merge with each other (their report has no lead nor
// margins for Kalah, as then), but not with newer ones.
func TestAnalyzeMergeScoredAndOldShards(t *testing.T) {
	dir := t.TempDir()
	args := []string{"analyze", "kalah", "-n", "40", "--seed", "5"}
	var files, old []string
	for i, shard := range []string{"0/2", "1/2"} {
		r := matombo(t, "", append(args, "--shard", shard)...)
		require.Equal(t, exitOK, r.code, r.stderr)
		assert.Contains(t, r.stdout, `"format":"matombo analyze shard 2"`)
		f := filepath.Join(dir, fmt.Sprintf("shard-%d.json", i))
		require.NoError(t, os.WriteFile(f, []byte(r.stdout), 0o644))
		files = append(files, f)
		old = append(old, writeOldShard(t, dir, i, r.stdout))
	}
	for _, extra := range [][]string{nil, {"--json"}} {
		one := matombo(t, "", append(args, extra...)...)
		require.Equal(t, exitOK, one.code, one.stderr)
		merged := matombo(t, "", append(append([]string{"analyze", "--merge"}, files...), extra...)...)
		require.Equal(t, exitOK, merged.code, merged.stderr)
		assert.Equal(t, one.stdout, merged.stdout)
		if extra == nil {
			assert.Contains(t, one.stdout, "the lead read from the score (seeds)")
			continue
		}
		var rep map[string]any
		require.NoError(t, json.Unmarshal([]byte(one.stdout), &rep))
		assert.Equal(t, "score", rep["lead_from"])
		assert.Equal(t, "seeds", rep["score_label"])
		assert.Equal(t, false, rep["has_captures"])
		assert.Equal(t, true, rep["has_lead"])
		assert.Equal(t, true, rep["has_margin"])
		for _, k := range []string{"lead_changes_mean", "margin_mean", "margin_sd", "margins"} {
			assert.Contains(t, rep, k)
		}
	}

	r := matombo(t, "", "analyze", "--merge", old[0], old[1])
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.NotContains(t, r.stdout, "lead")
	assert.NotContains(t, r.stdout, "margin")
	r = matombo(t, "", "analyze", "--merge", old[0], files[1])
	assert.Equal(t, exitFail, r.code)
	assert.Contains(t, r.stderr, files[1]+": merge: the results before this one were written by an older matombo")
	r = matombo(t, "", "analyze", "--merge", files[0], old[1])
	assert.Equal(t, exitFail, r.code)
	assert.Contains(t, r.stderr, old[1]+": merge: this result was written by an older matombo")
}

// writeOldShard writes a shard file as matombo wrote them before the
// lead's source: format 1, without lead, score_label and margins.
func writeOldShard(t *testing.T, dir string, i int, shard string) string {
	t.Helper()
	var sf map[string]any
	require.NoError(t, json.Unmarshal([]byte(shard), &sf))
	sf["format"] = "matombo analyze shard 1"
	for _, r := range sf["results"].([]any) {
		for _, k := range []string{"lead", "score_label", "margins"} {
			delete(r.(map[string]any), k)
		}
	}
	b, err := json.Marshal(sf)
	require.NoError(t, err)
	f := filepath.Join(dir, fmt.Sprintf("old-%d.json", i))
	require.NoError(t, os.WriteFile(f, b, 0o644))
	return f
}

// The table of --variants all has the lead's columns when some variant
// has a lead: what it is read from, its changes per game, the final
// margin's size and Player 1's mean, "-" where a variant has none.
func TestVariantTableLeadColumns(t *testing.T) {
	rate := analysis.NewRate(5, 10)
	row := func(name string, lead func(*analysis.Report)) analysis.Report {
		r := analysis.Report{Variant: name, WinRates: []analysis.Rate{rate, rate}, DrawRate: analysis.NewRate(0, 10),
			Completion: analysis.NewRate(10, 10), PliesMean: 40, PliesP95: 60, BranchingMean: 4, LeadFrom: analysis.LeadCaptured}
		if lead != nil {
			lead(&r)
		}
		return r
	}
	score := func(r *analysis.Report) {
		r.LeadFrom, r.ScoreLabel, r.HasLead, r.LeadChangesMean = analysis.LeadScore, "seeds", true, 2.1
		r.HasMargin, r.MarginMean, r.MarginP1Mean = true, 10.4, -1.5
	}
	capped := func(r *analysis.Report) { r.HasLead, r.LeadChangesMean = true, 0.5 }
	const head = "\n  variant      Player 1 wins        Player 2 wins        draws                  ended  plies   p95 branching"
	const cols = "  50.0% [23.7, 76.3]   50.0% [23.7, 76.3]    0.0% [0.0, 27.8]    100.0%   40.0    60      4.00"
	tests := []struct {
		name string
		reps []analysis.Report
		want string
	}{
		{"no lead: no lead columns", []analysis.Report{row("a", nil), row("b", nil)},
			head + "\n  a           " + cols + "\n  b           " + cols + "\n"},
		{"a score, a captured lead without margin, none", []analysis.Report{row("a", score), row("b", capped), row("c", nil)},
			head + "  lead     lead chg margin P1 margin\n" +
				"  a           " + cols + "  seeds        2.10   10.4      -1.5\n" +
				"  b           " + cols + "  captured     0.50      -         -\n" +
				"  c           " + cols + "  -               -      -         -\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out strings.Builder
			writeVariantTable(&out, tt.reps)
			assert.Equal(t, tt.want, out.String())
		})
	}
}

// TestAnalyzeNoGameDecided: when no game is decided (perfect play of
// Tic-tac-toe draws), balance and Player 1's share of the decided games
// have no value, and the text says so instead of 0 (one seat winning all).
func TestAnalyzeNoGameDecided(t *testing.T) {
	isolateCache(t)
	r := matombo(t, "", "analyze", "tictactoe", "--p1", "perfect", "--p2", "perfect", "-n", "4")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stdout, "  balance -, advantage of Player 1 0.500, Player 1's share of decided games - (no game was decided)\n")
}
