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
// the kind, else made of the board's first sites: one game of each family
// the library ships.
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
			reason: none + "a1 (sow), continue, stop, xa1 (take)"},
		{name: "sowing in a direction", game: "baokiswahili", tok: "zz",
			reason: none + "b6-b7 (sow), a1xa2 (capture), safari, stop"},
		{name: "three in a row, dropping", game: "tapatan", tok: "zz", reason: none + "a1 (drop), a1-a2 (move)"},
		{name: "three in a row, moving", game: "tapatan", play: []string{"b2", "a1", "c3", "a3", "c1", "c2"}, tok: "zz",
			reason: none + "a1 (drop), b2-a2 (move)"},
		{name: "morris", game: "yemutwelve", tok: "zz", reason: none + "a1 (place), a1-a4 (move), xa1 (remove)"},
		{name: "morris after a mill", game: "yemutwelve", play: []string{"a1", "g7", "b2", "g4", "c3"}, tok: "zz",
			reason: none + "a1 (place), a1-a4 (move), xg4 (remove)"},
		{name: "draughts, sites by number", game: "draughts", tok: "c11-d15",
			reason: none + "12-16 (move), 1x2 (jump), x1 (jump_on), where 12 is the number of the site c12"},
		{name: "draughts, a capture to make", game: "draughts", play: []string{"11-15", "22-18"}, tok: "zz",
			reason: none + "1-2 (move), 15x22 (jump), x1 (jump_on), where 1 is the number of the site a1"},
		{name: "draughts, a number alone", game: "draughts", tok: "12",
			reason: "12 alone is not a move: " + none + "12-16 (move), 1x2 (jump), x1 (jump_on), where 12 is the number of the site c12; the legal moves that use 12: 12-16"},
		{name: "lists of sites", game: "gore", tok: "zz",
			reason: none + "a1 (sow), pass, offer:a1,a2 (offer, 1 to 4 sites separated by commas), accept, decline"},
		{name: "lists of sites, offers to make", game: "gore", diagram: "b 5 6 2 4\na 0 1 5 3\n", tok: "zz",
			reason: none + "a2 (sow), pass, offer:a1,a2 (offer, 1 to 4 sites separated by commas), accept, decline"},
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
