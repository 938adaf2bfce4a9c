package player

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/games"
)

func TestParseSpec(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Spec
		err  string
	}{
		{"random", Spec{Name: "random"}, ""},
		{"mcts:iterations=5000", Spec{Name: "mcts", Settings: []Setting{{"iterations", "5000"}}}, ""},
		{" mcts : time=1s , seed=3 ", Spec{Name: "mcts", Settings: []Setting{{"time", "1s"}, {"seed", "3"}}}, ""},
		{"alphabeta:depth=6", Spec{Name: "alphabeta", Settings: []Setting{{"depth", "6"}}}, ""},
		{"", Spec{}, "no player name"},
		{":depth=3", Spec{}, "no player name"},
		{"mc ts", Spec{}, "characters other than letters"},
		{"mcts:", Spec{}, "nothing after the colon"},
		{"mcts:time", Spec{}, `option "time" is not key=value`},
		{"mcts:=3", Spec{}, `option "=3" has no valid key`},
		{"mcts:time=", Spec{}, "option time has no value"},
		{"mcts:time=1s,,seed=2", Spec{}, `option "" is not key=value`},
		{"mcts:seed=1,seed=2", Spec{}, "option seed is given twice"},
		{"mcts:a=b=c", Spec{}, "with = or :"},
		{"mcts:a=b:c", Spec{}, "with = or :"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseSpec(tc.in)
			if tc.err != "" {
				var se *SpecError
				require.ErrorAs(t, err, &se)
				assert.Contains(t, err.Error(), tc.err)
				assert.Equal(t, tc.in, se.Spec)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

// A parsed spec writes back to text that parses to the same spec.
func TestSpecString(t *testing.T) {
	sp, err := ParseSpec("mcts: iterations=10 ,seed=2")
	require.NoError(t, err)
	assert.Equal(t, "mcts:iterations=10,seed=2", sp.String())
	again, err := ParseSpec(sp.String())
	require.NoError(t, err)
	assert.Equal(t, sp, again)
}

// New refuses unknown names, options and bad values with the valid ones.
func TestNewErrors(t *testing.T) {
	g, err := games.Library().Load("yematatu")
	require.NoError(t, err)
	for _, tc := range []struct {
		spec    string
		msg     string
		allowed []string
	}{
		{"minimax", `unknown player "minimax"`, []string{"random", "greedy", "mcts", "alphabeta", "perfect"}},
		{"mcts:depth=3", `mcts has no option "depth"`, []string{"iterations", "time", "threads", "nodes", "c", "playout", "minimax", "eval", "seed"}},
		{"alphabeta:iterations=3", `alphabeta has no option "iterations"`, []string{"depth", "time", "nodes", "quiescence", "eval", "seed"}},
		{"greedy:eval=best", "eval=best: want script", nil},
		{"random:time=1s", `random has no option "time"`, []string{"seed"}},
		{"mcts:time=fast", "time=fast: want a positive duration", nil},
		{"mcts:time=-1s", "time=-1s: want a positive duration", nil},
		{"mcts:iterations=0", "iterations=0: want a whole number from 1", nil},
		{"alphabeta:depth=99", "depth=99: too large: the limit is 64", nil},
		// A number too large names the limit, past 64 bits too; a time
		// past a day would make a command asking for a move hang as long.
		{"alphabeta:depth=99999999999999999999", "depth=99999999999999999999: too large: the limit is 64", nil},
		{"mcts:iterations=99999999999999999999", "iterations=99999999999999999999: too large: the limit is 1099511627776", nil},
		{"mcts:time=25h", "time=25h: too large: the limit is 24h0m0s", nil},
		{"mcts:time=99999999999h", "time=99999999999h: too large: the limit is 24h0m0s", nil},
		{"greedy:seed=99999999999999999999", "seed=99999999999999999999: too large: the limit is 18446744073709551615", nil},
		{"greedy:seed=-1", "seed=-1: want a whole number from 0 to 18446744073709551615", nil},
		{"mcts:c=x", "c=x: want a number from 0 to 100", nil},
		{"mcts:c=-1", "c=-1: want a number from 0 to 100", nil},
		{"mcts:playout=0", "playout=0: want end (play to the end) or a whole number of plies from 1", nil},
		{"mcts:threads=1025", "threads=1025: too large: the limit is 1024", nil},
		{"mcts:threads=0", "threads=0: want a whole number from 1 to 1024", nil},
		{"mcts:nodes=0", "nodes=0: want a whole number from 1 to 1073741824", nil},
		{"mcts:minimax=-0.5", "minimax=-0.5: want a weight from 0 (none) to 1", nil},
		{"alphabeta:quiescence=-1", "quiescence=-1: want a whole number of plies from 0 (none) to 64", nil},
		// Every numeric option past its limit names the limit in the
		// words of the command line's flags (diag.TooLarge).
		{"alphabeta:quiescence=65", "quiescence=65: too large: the limit is 64", nil},
		{"alphabeta:quiescence=99999999999999999999", "quiescence=99999999999999999999: too large: the limit is 64", nil},
		{"mcts:playout=100001", "playout=100001: too large: the limit is 100000", nil},
		{"mcts:playout=99999999999999999999", "playout=99999999999999999999: too large: the limit is 100000", nil},
		{"mcts:c=100.5", "c=100.5: too large: the limit is 100", nil},
		{"mcts:c=1e400", "c=1e400: too large: the limit is 100", nil},
		{"mcts:minimax=2", "minimax=2: too large: the limit is 1", nil},
		{"mcts:nodes=1073741825", "nodes=1073741825: too large: the limit is 1073741824", nil},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			_, err := New(g, tc.spec)
			var se *SpecError
			require.True(t, errors.As(err, &se), "%v", err)
			assert.Contains(t, se.Error(), tc.msg)
			assert.Equal(t, tc.allowed, se.Allowed)
		})
	}
}

// alphabeta's quiescence option sets AlphaBetaConfig.Quiescence: 0 is
// none (-1), a number that many plies, no option the default.
func TestAlphaBetaQuiescenceOption(t *testing.T) {
	g, err := games.Library().Load("kalah")
	require.NoError(t, err)
	for _, tc := range []struct {
		spec string
		want int
	}{
		{"alphabeta:depth=2", DefaultQuiescence},
		{"alphabeta:depth=2,quiescence=0", -1},
		{"alphabeta:depth=2,quiescence=2", 2},
	} {
		p, err := New(g, tc.spec)
		require.NoError(t, err, tc.spec)
		assert.Equal(t, tc.want, p.(*AlphaBeta).Config().Quiescence, tc.spec)
	}
}

// Every name Names lists builds a player with no options, and Describe
// has a line for each.
func TestNames(t *testing.T) {
	g, err := games.Library().Load("yematatu")
	require.NoError(t, err)
	assert.Equal(t, []string{"random", "greedy", "mcts", "alphabeta", "perfect"}, Names())
	assert.Len(t, Describe(), len(Names()))
	for _, n := range Names() {
		p, err := New(g, n, WithSolutions(Solver()))
		require.NoError(t, err, n)
		assert.NotNil(t, p)
	}
}

// FuzzParseSpec: the parser never panics, and what it accepts writes back
// to text that parses to the same spec.
func FuzzParseSpec(f *testing.F) {
	for _, s := range []string{"random", "mcts:time=1s,seed=3", "alphabeta:depth=6", "mcts:", ":", "a:b=c,d=e", "x:=,"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		sp, err := ParseSpec(in)
		if err != nil {
			var se *SpecError
			require.ErrorAs(t, err, &se)
			return
		}
		require.NotEmpty(t, sp.Name)
		again, err := ParseSpec(sp.String())
		require.NoError(t, err, sp.String())
		require.Equal(t, sp, again)
	})
}
