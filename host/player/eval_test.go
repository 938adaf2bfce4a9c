package player

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/games"
	"github.com/matombo/matombo/host"
)

// yematatuWith loads Tsoro Yematatu with its evaluate function replaced by
// the Lua expression fn.
func yematatuWith(t *testing.T, fn string) *host.Game {
	t.Helper()
	src, err := os.ReadFile("../../games/yematatu/yematatu.lua")
	require.NoError(t, err)
	variants, err := os.ReadFile("../../games/yematatu/variants.yaml")
	require.NoError(t, err)
	script := strings.Replace(string(src), "evaluate = evaluate,", "evaluate = "+fn+",", 1)
	require.NotEqual(t, string(src), script)
	dir := filepath.Join(t.TempDir(), "yematatu")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "yematatu.lua"), []byte(script), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "variants.yaml"), variants, 0o644))
	lib := games.Library()
	require.NoError(t, lib.AddDir(filepath.Dir(dir)))
	g, err := lib.Load("yematatu")
	require.NoError(t, err)
	return g
}

// The shipped games score positions themselves; the players use that,
// clamped to -1..1, and report a failing evaluate as an error.
func TestScriptEvaluation(t *testing.T) {
	for _, name := range []string{"tsoro", "gore", "yematatu"} {
		g, err := games.Library().Load(name)
		require.NoError(t, err)
		assert.True(t, g.HasEvaluate(), name)
		r := g.NewRunner()
		e := evaluatorFor(g, r, nil)
		assert.IsType(t, &Script{}, e, name)
		assert.IsType(t, clamped{}, evaluatorFor(g, r, NewGeneric(g)), name)
		s := g.Start()
		v1, err := e.Evaluate(s, 1)
		require.NoError(t, err)
		v2, err := e.Evaluate(s, 2)
		require.NoError(t, err)
		assert.InDelta(t, 0, v1+v2, 0.11, "%s: the opening is about even", name) // tempo terms may differ
		r.Close()
	}

	big := yematatuWith(t, "function(p) return 5 end")
	r := big.NewRunner()
	defer r.Close()
	v, err := NewScript(big, r).Evaluate(big.Start(), 1)
	require.NoError(t, err)
	assert.Equal(t, 1.0, v)

	broken := yematatuWith(t, `function(p) error("no idea") end`)
	s := replay(t, broken, "c2", "b1")
	for _, spec := range []string{"greedy:seed=1", "alphabeta:depth=2"} {
		p, err := New(broken, spec)
		require.NoError(t, err)
		_, err = p.Choose(context.Background(), s)
		require.Error(t, err, spec)
		assert.Contains(t, err.Error(), "the script's evaluate", spec)
		assert.Contains(t, err.Error(), "no idea", spec)
		p, err = New(broken, spec+",eval=generic")
		require.NoError(t, err)
		_, err = p.Choose(context.Background(), s)
		assert.NoError(t, err, "%s with the generic evaluation", spec)
	}
}

// The generic evaluation: material in games that conserve counters,
// mobility otherwise; from -1 to 1, and opposite for the two sides.
func TestGenericEvaluation(t *testing.T) {
	g := load(t, "tsoro", "4x8")
	s := g.Start()
	e := NewGeneric(g)
	for _, st := range append(samplePositions(t, g, 9), s) {
		if st.Over() {
			continue
		}
		a, _ := e.Evaluate(st, 1)
		b, _ := e.Evaluate(st, 2)
		assert.InDelta(t, -a, b, 1e-9)
		assert.LessOrEqual(t, a, 1.0)
		assert.GreaterOrEqual(t, a, -1.0)
		assert.InDelta(t, materialBalance(st, 1), -materialBalance(st, 2), 1e-9)
	}
}
