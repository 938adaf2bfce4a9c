package games_test

import (
	"testing"

	"github.com/matombo/matombo/games"
	"github.com/matombo/matombo/host"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A token that fits no move form is refused with an example of each kind
// of the game, taken from the position's legal moves where it has one of
// the kind, else the kind's form, which names no move, and "none now":
// one game of each family the library ships.
func TestMoveFormsByExample(t *testing.T) {
	const none = "it fits none of the ways this game writes its moves: "
	for _, c := range []struct {
		name, game, variant string
		diagram             string // a position of Goré, "" for the play below
		play                []string
		tok, reason         string
	}{
		{name: "sowing", game: "kalah", tok: "zz", reason: none + "a1 (sow)"},
		{name: "sowing with decisions in words", game: "tsoro", variant: "4x8", play: []string{"a2"}, tok: "zz",
			reason: none + "<site> (sow, none now), continue, stop, x<site> (take, none now)"},
		{name: "sowing in a direction", game: "baokiswahili", tok: "zz",
			reason: none + "b6-b7 (sow), <from>x<to> (capture, none now), safari (none now), stop (none now)"},
		{name: "three in a row, dropping", game: "tapatan", tok: "zz", reason: none + "a1 (drop), <from>-<to> (move, none now)"},
		{name: "three in a row, moving", game: "tapatan", play: []string{"b2", "a1", "c3", "a3", "c1", "c2"}, tok: "zz",
			reason: none + "<site> (drop, none now), b2-a2 (move)"},
		{name: "morris", game: "yemutwelve", tok: "zz", reason: none + "a1 (place), <from>-<to> (move, none now), x<site> (remove, none now)"},
		{name: "morris after a mill", game: "yemutwelve", play: []string{"a1", "g7", "b2", "g4", "c3"}, tok: "zz",
			reason: none + "<site> (place, none now), <from>-<to> (move, none now), xg4 (remove)"},
		{name: "draughts, sites by number", game: "draughts", tok: "c11-d15",
			reason: none + "12-16 (move), <from>x<to> (jump, none now), x<site> (jump_on, none now), where 12 is the number of the site c12"},
		{name: "draughts, a capture to make", game: "draughts", play: []string{"11-15", "22-18"}, tok: "zz",
			reason: none + "<from>-<to> (move, none now), 15x22 (jump), x<site> (jump_on, none now), where 15 is the number of the site d15"},
		{name: "draughts, a number alone", game: "draughts", tok: "12",
			reason: "12 alone is not a move: " + none + "12-16 (move), <from>x<to> (jump, none now), x<site> (jump_on, none now), where 12 is the number of the site c12; the legal moves that use 12: 12-16"},
		{name: "lists of sites", game: "gore", tok: "zz",
			reason: none + "a1 (sow), pass (none now), offer:<sites> (offer, 1 to 4 sites separated by commas, none now), accept (none now), decline (none now)"},
		{name: "lists of sites, offers to make", game: "gore", diagram: "b 5 6 2 4\na 0 1 5 3\n", tok: "zz",
			reason: none + "a2 (sow), pass (none now), offer:a1,a2 (offer, 1 to 4 sites separated by commas), accept (none now), decline (none now)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var opts []host.Option
			if c.variant != "" {
				opts = append(opts, host.WithVariant(c.variant))
			}
			g, err := games.Library().Load(c.game, opts...)
			require.NoError(t, err)
			s := g.Start()
			if c.diagram != "" {
				counts, owners, err := g.ParseDiagram(c.diagram)
				require.NoError(t, err)
				s, err = g.NewState(host.Position{Counts: counts, Owners: owners, Captured: []int{8, 14}, Hand: []int{0, 0}, ToMove: 1})
				require.NoError(t, err)
			}
			for _, tok := range c.play {
				require.NoError(t, s.Play(tok))
			}
			err = s.Play(c.tok)
			var ie *host.IllegalMoveError
			require.ErrorAs(t, err, &ie)
			assert.Equal(t, c.reason, ie.Reason)
			assert.Equal(t, host.CodeIllegalToken, ie.Code())
			assert.NotContains(t, ie.Reason, "{", "no template notation is left")
		})
	}
}
