package games_test

import (
	"testing"

	"github.com/matombo/matombo/games"
	"github.com/matombo/matombo/host"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The shipped games say what each decision asks (State.Prompt), and an
// illegal token says why with it.
func TestShippedPrompts(t *testing.T) {
	lib := games.Library()
	load := func(name string, opts ...host.Option) *host.Game {
		g, err := lib.Load(name, opts...)
		require.NoError(t, err)
		return g
	}
	prompt := func(s *host.State) string {
		p, err := s.Prompt()
		require.NoError(t, err)
		return p
	}
	play := func(s *host.State, tokens ...string) {
		for _, tok := range tokens {
			require.NoError(t, s.Play(tok))
		}
	}

	tsoro := load("tsoro", host.WithVariant("4x8"))
	s := tsoro.Start()
	assert.Equal(t, "", prompt(s), "plain sowing needs no words")
	play(s, "a2")
	assert.Equal(t, "Your lap ended on your head a7: continue sowing or stop here", prompt(s))
	err := s.Play("xc3")
	require.ErrorContains(t, err, `illegal token "xc3": no take is possible now (Your lap ended on your head a7: continue sowing or stop here)`)
	play(s, "stop", "d1", "a1", "stop", "d6", "a7", "d2", "a5")
	assert.Equal(t, "Bonus capture: take one of your opponent's holes (2 left)", prompt(s))
	play(s, "xc3")
	assert.Equal(t, "Bonus capture: take one of your opponent's holes (1 left)", prompt(s))
	require.ErrorContains(t, s.Play("xa1"), "a1 is not possible for a take now (possible: c1 d1 d3 d5 d7 d8)")

	gore := load("gore")
	counts, owners, err := gore.ParseDiagram("b 5 6 2 4\na 0 1 5 3\n")
	require.NoError(t, err)
	s, err = gore.NewState(host.Position{Counts: counts, Owners: owners, Captured: []int{8, 14}, Hand: []int{0, 0}, ToMove: 1})
	require.NoError(t, err)
	assert.Equal(t, "Sow the counters of one of your holes; or offer 1 to 3 of your holes to your opponent, who pays 6 captured counters for each", prompt(s))
	require.ErrorContains(t, s.Play("offer:a3,a1"), "the sites are written in this order: offer:a1,a3")
	play(s, "offer:a1,a3")
	assert.Equal(t, "Player 1 offers a1, a3: accept to pay 12 of your captured counters and take them, or decline", prompt(s))
	require.ErrorContains(t, s.Play("b1"), "no sow is possible now (Player 1 offers a1, a3")

	yematatu := load("yematatu")
	s = yematatu.Start()
	assert.Equal(t, "Drop a piece from your hand on an empty point", prompt(s))
	play(s, "b2", "c3", "c1", "c2", "b1", "a1")
	assert.Equal(t, "Move one of your pieces along a line to the empty point next to it, or jump over a piece to the empty point beyond", prompt(s))
	require.ErrorContains(t, s.Play("b1-c3"), "after b1, c3 is not possible for a move now (possible: b3)")

	assert.Equal(t, "", prompt(load("kalah").Start()))
}

// Tsoro Yematatu's win names its three on a line (Y5), in play and in a
// set-up position; other games name no sites.
func TestShippedResultSites(t *testing.T) {
	g, err := games.Library().Load("yematatu")
	require.NoError(t, err)
	s := g.Start()
	for _, tok := range []string{"b1", "c3", "c1", "c2", "a1"} {
		require.NoError(t, s.Play(tok))
	}
	o := s.Outcome()
	require.True(t, o.Over)
	assert.Equal(t, "three on a line", o.Reason)
	var names []string
	for _, x := range o.Sites {
		names = append(names, g.Board().Site(x).Name)
	}
	assert.Equal(t, []string{"a1", "b1", "c1"}, names)

	set, err := g.NewState(s.Position())
	require.NoError(t, err)
	assert.Equal(t, o.Sites, set.Outcome().Sites, "the result of a set-up position names them too")

	k, err := games.Library().Load("kalah")
	require.NoError(t, err)
	ks := k.Start()
	for !ks.Over() {
		require.NoError(t, ks.Apply(ks.Moves()[0]))
	}
	assert.Empty(t, ks.Outcome().Sites)
}
