package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/matombo/matombo/host/diag"
	"github.com/matombo/matombo/host/player"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// flagSets returns every command's flags, as its --help defines them.
func flagSets(t *testing.T) map[string]*flag.FlagSet {
	t.Helper()
	out := map[string]*flag.FlagSet{}
	for _, cmd := range commands() {
		var made *cli
		e := &env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard, onCLI: func(c *cli) { made = c }}
		require.Equal(t, exitOK, cmd.run(e, []string{"--help"}), cmd.name)
		require.NotNil(t, made, "%s makes its command line with newCLI", cmd.name)
		out[cmd.name] = made.fs
	}
	return out
}

// TestNumericFlagsAreBounded checks the class, not cases: every numeric
// flag of every command is one of the bounded kinds (none of the flag
// package's own Int, Uint64, Float64 or Duration, which accept any value
// that fits), and a value far too large for it, even for 64 bits (a count,
// a duration, a size such as 16EiB), is a usage error (exit status 2) that
// names the limit.
func TestNumericFlagsAreBounded(t *testing.T) {
	huge := []string{"99999999999999999999999999", "9223372036854775807", "1e400"}
	for name, fs := range flagSets(t) {
		fs.VisitAll(func(f *flag.Flag) {
			typ := fmt.Sprintf("%T", f.Value)
			switch typ {
			case "*flag.intValue", "*flag.int64Value", "*flag.uintValue", "*flag.uint64Value", "*flag.float64Value", "*flag.durationValue":
				t.Errorf("matombo %s --%s is an unbounded %s: use cli.intFlag, uint64Flag or floatFlag", name, f.Name, typ)
				return
			case "main.intValue", "main.uint64Value", "main.floatValue", "main.countOrDirs":
			case "main.sizeValue":
				// Sizes past the limit, past 64 bits, in every unit.
				for _, v := range []string{"16EiB", "1EiB", "1PiB", "99999999999999999999999", "99999999999999999999999GiB", "9223372036854775807B"} {
					var out, errOut bytes.Buffer
					code := run([]string{name, "--" + f.Name, v}, strings.NewReader(""), &out, &errOut)
					assert.Equal(t, exitUsage, code, "matombo %s --%s %s: %s", name, f.Name, v, errOut.String())
					assert.Contains(t, errOut.String(), "-"+f.Name+" "+v+": too large: the limit is", "matombo %s --%s %s names the limit", name, f.Name, v)
				}
				return
			case "main.durationValue":
				for _, v := range []string{"99999999999999999999h", "2562048h", "100000h"} {
					var out, errOut bytes.Buffer
					code := run([]string{name, "--" + f.Name, v}, strings.NewReader(""), &out, &errOut)
					assert.Equal(t, exitUsage, code, "matombo %s --%s %s: %s", name, f.Name, v, errOut.String())
					assert.Contains(t, errOut.String(), "the limit is", "matombo %s --%s %s names the limit", name, f.Name, v)
				}
				return
			default:
				return // strings, booleans, lists
			}
			for _, v := range huge {
				if typ != "main.floatValue" && strings.Contains(v, "e") || typ == "main.uint64Value" && v != huge[0] {
					continue // 1e400 is a number only to floats; 2^63-1 is a seed
				}
				var out, errOut bytes.Buffer
				code := run([]string{name, "--" + f.Name, v}, strings.NewReader(""), &out, &errOut)
				assert.Equal(t, exitUsage, code, "matombo %s --%s %s: %s", name, f.Name, v, errOut.String())
				assert.Contains(t, errOut.String(), "the limit is", "matombo %s --%s %s names the limit", name, f.Name, v)
				assert.Contains(t, errOut.String(), "-"+f.Name+" "+v+":", "matombo %s names the flag and value", name)
			}
		})
	}
}

// The values the issue found harmful: each is a usage error naming the
// limit, found before any work starts.
func TestHugeFlagValues(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"analyze", "yematatu", "--games", "9223372036854775807", "--shard", "1/5000000000000000000"}, "--games 9223372036854775807: too large: the limit is 1000000000"},
		{[]string{"analyze", "yematatu", "--shard", "1/5000000000000000000"}, "--shard 1/5000000000000000000: the number of shards N: too large: the limit is 1000000000"},
		{[]string{"analyze", "yematatu", "--shard", "0/0"}, "--shard 0/0: the number of shards N: want a whole number from 1 to 1000000000"},
		{[]string{"move", "yematatu", "--player", "mcts:time=99999999999h"}, "time=99999999999h: too large: the limit is 24h0m0s"},
		{[]string{"play", "yematatu", "--p2", "alphabeta:depth=99999999999999999999"}, "depth=99999999999999999999: too large: the limit is 64"},
		{[]string{"analyze", "yematatu", "--shard", "0/99999999999999999999999"}, "the limit is 1000000000"},
		{[]string{"match", "yematatu", "--p1", "random", "--games", "10000000000"}, "--games 10000000000: too large: the limit is 1000000"},
		{[]string{"match", "yematatu", "--p1", "random", "--games", "9223372036854775807"}, "the limit is 1000000"},
		{[]string{"match", "yematatu", "--p1", "random", "--parallel", "1000000"}, "--parallel 1000000: too large: the limit is 64"},
		{[]string{"analyze", "yematatu", "--parallel", "1000000"}, "--parallel 1000000: too large: the limit is 64"},
		{[]string{"bench", "yematatu", "--parallel", "1000000"}, "--parallel 1000000: too large: the limit is 64"},
		{[]string{"bench", "yematatu", "--seconds", "1e300"}, "--seconds 1e300: too large: the limit is 86400"},
		{[]string{"bench", "yematatu", "--seconds", "NaN"}, "--seconds NaN: want a number above 0"},
		// Go's literals are no numbers to a flag or an option, decimal or
		// whole: 1_000 was 1000 seconds and 0x1p-1 half a second (the
		// values here are short, so that taking them fails fast).
		{[]string{"bench", "yematatu", "--seconds", "0.0_1"}, "--seconds 0.0_1: want a number above 0 and at most 86400"},
		{[]string{"bench", "yematatu", "--seconds", "0x1p-9"}, "--seconds 0x1p-9: want a number above 0 and at most 86400"},
		{[]string{"move", "yematatu", "--player", "mcts:c=1_0"}, "c=1_0: want a number from 0 to 100"},
		{[]string{"move", "yematatu", "--player", "mcts:minimax=0x1p-1"}, "minimax=0x1p-1: want "},
		{[]string{"check", "yematatu", "-n", "1_000"}, `-n 1_000: want a number of games, got "1_000"`},
		{[]string{"serve", "--workers", "100000000"}, "--workers 100000000: too large: the limit is 64"},
		{[]string{"selfplay", "yematatu", "--max-plies", "99999999999"}, "--max-plies 99999999999: too large: the limit is 1000000"},
		{[]string{"check", "yematatu", "-n", "-5"}, "-n -5: want a whole number from 1 to 1000000000"},
		{[]string{"selfplay", "yematatu", "--seed", "18446744073709551616"}, "--seed 18446744073709551616: too large: the limit is 18446744073709551615"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			r := matombo(t, "", tc.args...)
			assert.Equal(t, exitUsage, r.code, r.stderr)
			assert.Contains(t, r.stderr, tc.want)
		})
	}
}

// FuzzParseBounded: a bounded number either parses within its bounds or is
// refused; it never wraps around.
func FuzzParseBounded(f *testing.F) {
	for _, s := range []string{"0", "1", "64", "65", "-1", "9223372036854775807", "9223372036854775808", "-9223372036854775809", " 3", "x", ""} {
		f.Add(s, int64(1), int64(64))
	}
	f.Fuzz(func(t *testing.T, s string, lo, hi int64) {
		if lo > hi {
			return
		}
		n, err := diag.ParseBounded(s, lo, hi)
		if err == nil && (n < lo || n > hi) {
			t.Fatalf("%q parsed as %d, outside %d..%d", s, n, lo, hi)
		}
	})
}

// TestPlayerOptionsAreBounded checks the class, as TestNumericFlagsAreBounded
// does for flags: every numeric option of every player (as the help lists
// them), given a value far too large, even for 64 bits, is a usage error
// naming the limit in the flags' words, "too large: the limit is N".
func TestPlayerOptionsAreBounded(t *testing.T) {
	notNumeric := map[string]bool{"eval": true}
	huge := map[string]string{"time": "99999999999999999999h"} // a duration; the others are numbers
	checked := 0
	for _, line := range player.Describe() {
		name, rest, ok := strings.Cut(line, " (options ")
		require.True(t, ok, line)
		options, _, ok := strings.Cut(rest, "):")
		require.True(t, ok, line)
		for _, key := range strings.Split(options, ", ") {
			if notNumeric[key] {
				continue
			}
			value := huge[key]
			if value == "" {
				value = "99999999999999999999"
			}
			spec := name + ":" + key + "=" + value
			t.Run(spec, func(t *testing.T) {
				r := matombo(t, "", "move", "yematatu", "--player", spec)
				assert.Equal(t, exitUsage, r.code, r.stderr)
				assert.Contains(t, r.stderr, key+"="+value+": too large: the limit is ")
			})
			checked++
		}
	}
	assert.Greater(t, checked, 10, "the options were read from the help")
}

// TestEmptyFlagValues checks the class, as TestNumericFlagsAreBounded does
// for numbers: a flag given the empty string (--out "", or a shell
// variable that expanded to nothing) is a usage error naming the flag,
// never the flag not given. A string flag is a textFlag, which refuses ""
// as it parses, or is listed below with a command line showing that ""
// is refused after parsing, or with what "" means. --out "" used to write
// to standard output, serve --db "" to the default database, analyze
// --shard "" to play the whole run and --plot "" to draw nothing.
func TestEmptyFlagValues(t *testing.T) {
	kalah := []string{"kalah", "--param", "pits=3", "--param", "seeds=3"}
	refusedLater := map[string][]string{ // "command --flag": a command line with the flag ""
		"analyze --p1":   {"analyze", "yematatu", "--p1", ""},
		"analyze --p2":   {"analyze", "yematatu", "--p2", ""},
		"match --p1":     {"match", "yematatu", "--p1", "", "--p2", "random"},
		"match --p2":     {"match", "yematatu", "--p1", "random", "--p2", ""},
		"move --player":  {"move", "yematatu", "--player", ""},
		"play --p1":      {"play", "yematatu", "--p1", ""},
		"play --p2":      {"play", "yematatu", "--p2", ""},
		"play --hint":    {"play", "yematatu", "--hint", ""},
		"solve --engine": append(append([]string{"solve"}, kalah...), "--engine", ""),
		"hint --engine":  append(append([]string{"hint"}, kalah...), "--engine", ""),
		"solve --above":  append(append([]string{"solve"}, kalah...), "--shard-depth", "1", "--job", "0", "--above", ""),
		"solve --below":  append(append([]string{"solve"}, kalah...), "--shard-depth", "1", "--job", "0", "--below", ""),
		"serve --addr":   {"serve", "--db", ":memory:", "--addr", ""},
	}
	emptyMeans := map[string]string{
		"serve --base-path": "no prefix: the site at the root, as without the flag",
	}
	for name, fs := range flagSets(t) {
		fs.VisitAll(func(f *flag.Flag) {
			key := name + " --" + f.Name
			switch fmt.Sprintf("%T", f.Value) {
			case "main.textValue":
				err := fs.Set(f.Name, "")
				require.Error(t, err, "%s takes \"\"", key)
				assert.Contains(t, err.Error(), "empty: ", key)
				assert.Equal(t, f.DefValue, f.Value.String(), "%s keeps its value", key)
			case "*flag.stringValue":
				if args, ok := refusedLater[key]; ok {
					r := matombo(t, "", args...)
					assert.Equal(t, exitUsage, r.code, "matombo %s: %s", strings.Join(args, " "), r.stderr)
					assert.Contains(t, r.stderr, "-"+f.Name, "%s names the flag", key)
					return
				}
				if _, ok := emptyMeans[key]; !ok {
					t.Errorf("matombo %s is a string flag that takes \"\" for not given: use cli.textFlag, or list it here", key)
				}
			}
		})
	}
}
