package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/host/solve"
	"github.com/matombo/matombo/host/solve/shard"
)

// kalahArgs are a small board's game flags; the database is kept small so
// that the jobs search.
var kalahArgs = []string{"kalah", "--param", "pits=3", "--param", "seeds=3", "--variant", "empty-capture", "--endgame", "4", "--threads", "1"}

func solveArgs(extra ...string) []string {
	return append(append([]string{"solve"}, kalahArgs...), extra...)
}

// runJobs solves every job of depth into dir and returns the files.
func runJobs(t *testing.T, dir string, depth int, game []string) []string {
	t.Helper()
	plan := matombo(t, "", append(append([]string{"solve"}, game...), "--shard-depth", fmt.Sprint(depth), "--plan", "--json")...)
	require.Equal(t, exitOK, plan.code, plan.stderr)
	var p planReport
	require.NoError(t, json.Unmarshal([]byte(plan.stdout), &p))
	require.NotEmpty(t, p.Jobs)
	var files []string
	for _, j := range p.Jobs {
		out := filepath.Join(dir, fmt.Sprintf("job-%d.json", j.Index))
		r := matombo(t, "", append(append([]string{"solve"}, game...), "--shard-depth", fmt.Sprint(depth), "--job", fmt.Sprint(j.Index), "--out", out)...)
		require.Equal(t, exitOK, r.code, r.stderr)
		assert.Contains(t, r.stdout, fmt.Sprintf("job %d of %d (%s): ", j.Index, len(p.Jobs), strings.Join(j.Tokens, " ")))
		files = append(files, out)
	}
	return files
}

// TestSolveShardMatchesSolve: plan, jobs and merge give the report of one
// solve, value and every opening move's margin, at several depths and
// under both capture rules.
func TestSolveShardMatchesSolve(t *testing.T) {
	isolateCache(t)
	for _, game := range [][]string{
		kalahArgs,
		{"kalah", "--param", "pits=3", "--param", "seeds=2", "--threads", "1"},
	} {
		whole := matombo(t, "", append(append([]string{"solve"}, game...), "--engine", "search", "--fresh", "--json")...)
		require.Equal(t, exitOK, whole.code, whole.stderr)
		var want solveReport
		require.NoError(t, json.Unmarshal([]byte(whole.stdout), &want))
		for _, depth := range []int{1, 2, 3} {
			t.Run(fmt.Sprintf("%s depth %d", strings.Join(game, " "), depth), func(t *testing.T) {
				files := runJobs(t, t.TempDir(), depth, game)
				m := matombo(t, "", append(append(append([]string{"solve"}, game...), "--shard-depth", fmt.Sprint(depth), "--json", "--merge"), files...)...)
				require.Equal(t, exitOK, m.code, m.stderr)
				var got mergedReport
				require.NoError(t, json.Unmarshal([]byte(m.stdout), &got))
				assert.Equal(t, want.Value, got.Value)
				assert.Equal(t, *want.Margin, *got.Margin)
				assert.Equal(t, want.Moves, got.Moves)
				assert.Equal(t, want.Fingerprint, got.Fingerprint)
				assert.Equal(t, len(files), got.Shards.Jobs)
				assert.Equal(t, depth, got.Shards.Depth)

				text := matombo(t, "", append(append(append([]string{"solve"}, game...), "--shard-depth", fmt.Sprint(depth), "--merge"), files...)...)
				require.Equal(t, exitOK, text.code, text.stderr)
				assert.Contains(t, text.stdout, fmt.Sprintf("merged from %d jobs at depth %d", len(files), depth))
			})
		}
	}
}

// TestSolveShardPlanGolden: the plan of a small board, for people.
func TestSolveShardPlanGolden(t *testing.T) {
	r := matombo(t, "", solveArgs("--shard-depth", "3", "--plan")...)
	require.Equal(t, exitOK, r.code, r.stderr)
	golden(t, "solve-shard-plan-kalah-3-3", r.stdout)
}

// TestSolveShardJobToStdout: without --out the result is the JSON on
// standard output, and the progress goes to standard error.
func TestSolveShardJobToStdout(t *testing.T) {
	isolateCache(t)
	r := matombo(t, "", solveArgs("--shard-depth", "1", "--job", "2")...)
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stderr, "job 2 of 3 (a3): solving")
	var res map[string]any
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &res))
	assert.Equal(t, "matombo solve job 1", res["format"])
	assert.Equal(t, []any{"a3"}, res["tokens"])
	assert.Equal(t, "loss", res["value"])
	assert.Equal(t, -6.0, res["margin"])
}

func TestSolveShardUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{solveArgs("--shard-depth", "2"), "--shard-depth: say what to do with the jobs: --plan, --job K or --merge FILES..."},
		{solveArgs("--plan"), "--plan, --job and --merge need --shard-depth D (1 to 12)"},
		{solveArgs("--shard-depth", "13", "--plan"), "--shard-depth 13: too large: the limit is 12"},
		{solveArgs("--shard-depth", "0", "--plan"), "--shard-depth 0: want a whole number from 1 to 12"},
		{solveArgs("--shard-depth", "1", "--plan", "--job", "0"), "--plan, --job and --merge: give one of them"},
		{solveArgs("--shard-depth", "1", "--job", "3"), "--job 3: --shard-depth 1 has jobs 0 to 2 (--plan lists them)"},
		{solveArgs("--shard-depth", "1", "--job", "-1"), "--job -1: want a whole number from 0 to 262144"},
		{solveArgs("--shard-depth", "1", "--plan", "--out", "x.json"), "--out: only with --job"},
		{solveArgs("--shard-depth", "1", "--merge"), "--merge: name the result files of the jobs"},
		{solveArgs("--shard-depth", "1", "--plan", "extra.json"), `unexpected argument "extra.json" after the game (result files go with --merge)`},
		{solveArgs("extra.json"), `unexpected argument "extra.json" after the game kalah`},
		{solveArgs("--shard-depth", "1", "--job", "0", "--engine", "retrograde"), "the jobs are solved with the search engine"},
		{solveArgs("--shard-depth", "1", "--job", "0", "--fresh"), "--fresh: a job is always solved afresh"},
		{solveArgs("--shard-depth", "1", "--plan", "--above", "+2"), "--above and --below: only with --job"},
		{solveArgs("--shard-depth", "1", "--job", "0", "--above", "wins"), `--above "wins": want a margin for Player 1 (+12, 0, -3), a result (win, draw, loss) or both (win+12)`},
		{solveArgs("--shard-depth", "1", "--job", "0", "--below", "+99999999999999999999"), `--below "+99999999999999999999": a margin beyond ±8388607`},
		{solveArgs("--shard-depth", "1", "--job", "0", "--above", "+2", "--below", "+2"), "--above +2 and --below +2: no value lies between them"},
		{[]string{"solve", "kalah", "--param", "pits=6", "--shard-depth", "12", "--plan"}, "--shard-depth 12: Kalah [kalah: pits=6 seeds=4 empty_capture=false] has more than 262144 positions within 12 plies of the opening, the most a plan plays: choose a smaller depth"},
	} {
		t.Run(strings.Join(tc.args[1:], " "), func(t *testing.T) {
			r := matombo(t, "", tc.args...)
			assert.Equal(t, exitUsage, r.code, r.stderr)
			assert.Contains(t, r.stderr, tc.want)
		})
	}
}

// TestSolveShardMergeErrors: results that do not make up the plan are
// refused, naming the file, and nothing is printed on standard output.
func TestSolveShardMergeErrors(t *testing.T) {
	isolateCache(t)
	dir := t.TempDir()
	files := runJobs(t, dir, 1, kalahArgs)
	other := runJobs(t, t.TempDir(), 1, []string{"kalah", "--param", "pits=3", "--param", "seeds=2", "--endgame", "4", "--threads", "1"})
	deeper := runJobs(t, t.TempDir(), 2, kalahArgs)
	junk := filepath.Join(dir, "junk.json")
	require.NoError(t, os.WriteFile(junk, []byte("{\"format\": \"matombo analyze shard 1\"}\n"), 0o644))
	huge := filepath.Join(dir, "huge.json")
	require.NoError(t, os.WriteFile(huge, make([]byte, shard.MaxResultBytes+1), 0o644))
	edited := filepath.Join(dir, "edited.json")
	data, err := os.ReadFile(files[1])
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(edited, []byte(strings.Replace(string(data), `"tokens":["a2"]`, `"tokens":["a3"]`, 1)), 0o644))
	for _, tc := range []struct {
		name  string
		files []string
		want  string
	}{
		{"missing", files[:2], "merge: kalah: no result for job 2 (of jobs 0 to 2): run them (--job K) and merge again"},
		{"duplicate", append(files[:3:3], files[0]), fmt.Sprintf("merge: %s: a second result of job 0 (a1), after %s", files[0], files[0])},
		{"another game", append(files[:3:3], other[0]), fmt.Sprintf("merge: %s: a result of kalah", other[0])},
		{"another depth", append(files[1:3:3], deeper[0]), fmt.Sprintf("merge: %s: a job of a plan of depth 2 with", deeper[0])},
		{"not a result", append(files[:3:3], junk), fmt.Sprintf("merge: %s: format \"matombo analyze shard 1\"", junk)},
		{"inconsistent", []string{files[0], edited, files[2]}, fmt.Sprintf("merge: %s: job 1 is a2 (player 2 to move) in the plan, not a3", edited)},
		{"no such file", append(files[:3:3], filepath.Join(dir, "nope.json")), "nope.json: no such file"},
		{"a folder", append(files[:3:3], dir), fmt.Sprintf("merge: %s: ", dir)},
		{"too large", append(files[:3:3], huge), fmt.Sprintf("merge: %s: file is larger than", huge)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := matombo(t, "", append(solveArgs("--shard-depth", "1", "--merge"), tc.files...)...)
			assert.NotEqual(t, exitOK, r.code)
			assert.Contains(t, r.stderr, tc.want)
			assert.Empty(t, r.stdout)
		})
	}
}

// TestSolveShardJobStopped: a job stopped by --max-time says how far it
// got, and writes no result.
func TestSolveShardJobStopped(t *testing.T) {
	isolateCache(t)
	out := filepath.Join(t.TempDir(), "job.json")
	r := matombo(t, "", "solve", "kalah", "--param", "pits=6", "--param", "seeds=4", "--endgame", "0", "--threads", "1", "--table-memory", "1MiB",
		"--shard-depth", "1", "--job", "0", "--max-time", "200ms", "--out", out)
	assert.Equal(t, exitFail, r.code, r.stderr)
	assert.Regexp(t, `matombo solve: job 0 stopped after --max-time 200ms, \d+ positions searched \([0-9.]+ s of CPU\); nothing is written: raise --max-time \(0 for no limit\)\n`, r.stderr)
	assert.NotContains(t, r.stderr, "deadline", "the command's words, not the script runner's")
	assert.NoFileExists(t, out)
	assert.Empty(t, r.stdout)
}

// TestSolveShardJobOutJSON: with --out and --json the result goes to the
// file and, as JSON, to standard output; a folder that does not exist is
// an error naming --out.
func TestSolveShardJobOutJSON(t *testing.T) {
	isolateCache(t)
	out := filepath.Join(t.TempDir(), "job.json")
	r := matombo(t, "", solveArgs("--shard-depth", "1", "--job", "1", "--out", out, "--json")...)
	require.Equal(t, exitOK, r.code, r.stderr)
	data, err := os.ReadFile(out)
	require.NoError(t, err)
	var fromFile, fromStdout map[string]any
	require.NoError(t, json.Unmarshal(data, &fromFile))
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &fromStdout))
	assert.Equal(t, fromFile, fromStdout)
	assert.Equal(t, []any{"a2"}, fromFile["tokens"])

	bad := filepath.Join(t.TempDir(), "no", "such", "job.json")
	r = matombo(t, "", solveArgs("--shard-depth", "1", "--job", "1", "--out", bad)...)
	assert.Equal(t, exitFail, r.code)
	assert.Contains(t, r.stderr, "--out "+bad+": ")
	assert.Empty(t, r.stdout)
}

// TestSolveShardAbove: the best opening move's job solved exactly and the
// others only --above its margin merge into the opening's exact value,
// with bounds for the other moves; every job above it leaves the opening
// open, an error that names the bounded jobs.
func TestSolveShardAbove(t *testing.T) {
	isolateCache(t)
	dir := t.TempDir()
	files := runJobs(t, dir, 1, kalahArgs)
	best, margins := 0, make([]int, len(files))
	for k, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		r, err := shard.ReadResult(strings.NewReader(string(data)))
		require.NoError(t, err)
		margins[k] = r.Margin
		if r.Margin > margins[best] {
			best = k
		}
	}
	above := fmt.Sprintf("%+d", margins[best])
	job := func(k int, out string) {
		r := matombo(t, "", solveArgs("--shard-depth", "1", "--job", fmt.Sprint(k), "--above", above, "--out", out)...)
		require.Equal(t, exitOK, r.code, r.stderr)
		if !strings.Contains(r.stdout, "(a bound, as --above asks)") {
			assert.Contains(t, r.stdout, "for Player 1 (margin ")
		}
	}
	bounded := append([]string(nil), files...)
	for k := range files {
		if k != best {
			bounded[k] = filepath.Join(dir, fmt.Sprintf("above-%d.json", k))
			job(k, bounded[k])
		}
	}
	m := matombo(t, "", append(solveArgs("--shard-depth", "1", "--json", "--merge"), bounded...)...)
	require.Equal(t, exitOK, m.code, m.stderr)
	var got mergedReport
	require.NoError(t, json.Unmarshal([]byte(m.stdout), &got))
	assert.Equal(t, margins[best], *got.Margin)
	bounds := 0
	for k, mv := range got.Moves {
		switch mv.Bound {
		case "":
			assert.Equal(t, margins[k], *mv.Margin, mv.Token)
		case "at most":
			bounds++
			assert.LessOrEqual(t, margins[k], *mv.Margin, mv.Token)
			assert.LessOrEqual(t, *mv.Margin, margins[best], mv.Token)
		default:
			t.Errorf("%s: bound %q", mv.Token, mv.Bound)
		}
	}
	assert.NotZero(t, bounds)
	text := matombo(t, "", append(solveArgs("--shard-depth", "1", "--merge"), bounded...)...)
	require.Equal(t, exitOK, text.code, text.stderr)
	assert.Contains(t, text.stdout, "at most ")

	bounded[best] = filepath.Join(dir, "above-best.json")
	job(best, bounded[best])
	open := matombo(t, "", append(solveArgs("--shard-depth", "1", "--merge"), bounded...)...)
	assert.Equal(t, exitFail, open.code)
	assert.Contains(t, open.stderr, "the results leave the opening's value open")
	assert.Empty(t, open.stdout)
}

func TestParseThreshold(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want solve.Threshold
		err  string
	}{
		{"+12", solve.Threshold{Value: solve.Win, Margin: 12}, ""},
		{"12", solve.Threshold{Value: solve.Win, Margin: 12}, ""},
		{"0", solve.Threshold{Value: solve.Draw}, ""},
		{"-3", solve.Threshold{Value: solve.Loss, Margin: -3}, ""},
		{"win", solve.Threshold{Value: solve.Win}, ""},
		{"draw", solve.Threshold{Value: solve.Draw}, ""},
		{"loss-2", solve.Threshold{Value: solve.Loss, Margin: -2}, ""},
		{"win+0", solve.Threshold{Value: solve.Win}, ""},
		{"", solve.Threshold{}, "want a margin"},
		{"+", solve.Threshold{}, "want a margin"},
		{"win+", solve.Threshold{}, "want a margin"},
		{"Win", solve.Threshold{}, "want a margin"},
		{"12win", solve.Threshold{}, "want a margin"},
		{"+8388608", solve.Threshold{}, "beyond ±8388607"},
		{"loss-99999999999999999999", solve.Threshold{}, "beyond ±8388607"},
	} {
		got, err := parseThreshold(tc.in)
		if tc.err != "" {
			require.Error(t, err, tc.in)
			assert.Contains(t, err.Error(), tc.err, tc.in)
			continue
		}
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, got, tc.in)
	}
}

// FuzzParseThreshold: no text crashes the parser, and what it accepts
// is a threshold the solver tells apart, read back the same when written
// as a result and a margin.
func FuzzParseThreshold(f *testing.F) {
	for _, s := range []string{"+12", "0", "-3", "win", "draw+1", "loss-99999999999", "w", "+-1", "win+12x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		th, err := parseThreshold(s)
		if err != nil {
			return
		}
		if th.Margin > solve.MaxMargin || th.Margin < -solve.MaxMargin {
			t.Fatalf("%q: margin %d beyond the solver's", s, th.Margin)
		}
		back, err := parseThreshold(fmt.Sprintf("%s%+d", th.Value, th.Margin))
		if err != nil || back != th {
			t.Fatalf("%q: %v written back as %v (%v)", s, th, back, err)
		}
	})
}

// TestSolveShardNeedsTheSearchEngine: the jobs are the search engine's, so
// a game it cannot solve (Tapatan keeps no score) is refused at --plan,
// before jobs that could never run are listed.
func TestSolveShardNeedsTheSearchEngine(t *testing.T) {
	isolateCache(t)
	r := matombo(t, "", "solve", "tapatan", "--shard-depth", "1", "--plan")
	assert.Equal(t, exitFail, r.code)
	assert.Empty(t, r.stdout)
	assert.Contains(t, r.stderr, "matombo solve: cannot solve tapatan: the search engine needs a game whose value is a score")
}
