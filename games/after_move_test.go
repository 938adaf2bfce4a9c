package games_test

import (
	"io/fs"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/games"
	"github.com/matombo/matombo/host"
)

// Oware's feeding rule (O5) said as what a move leaves: when the
// opponent has no seeds, only the sowings after which they have some, or
// that end the game, are legal (m.after_move_rule, tried on a copy of the
// state, in a prefer_rule's keep). Oware's own script says it by where a
// sowing goes (sowings_rule's feeding: it reaches the opponent's row);
// both must list the same moves in every position of random games, the
// ends of the games included (no feeding move: no legal move).
func TestAfterMoveRuleFeedsAsOware(t *testing.T) {
	src, err := fs.ReadFile(games.FS(), "oware/oware.lua")
	require.NoError(t, err)
	script := strings.Replace(string(src), `name = "oware",`, `name = "owarefeed",`, 1)
	legal := `local legal = m.sowing_legal { sowings = o2_sowings, starving = ROW_OF, feeding = o5_feeding_moves }`
	require.Contains(t, script, legal)
	script = strings.Replace(script, legal, `local legal`, 1)
	play := "local play = m.sowing_play {\n  kind = SOW, sow = o2_sow, capture = o3_capture, irreversible = true, after_capture = o7_scores_decide,\n}\n"
	require.Contains(t, script, play)
	script = strings.Replace(script, play, play+`
local feeds = m.after_move_rule { play = play, cond = m.any_rule {
  m.over_rule {}, m.not_rule { cond = m.empty_rule { filter = ROW_OF, player = "next" } },
} }
legal = m.sowing_legal { sowings = o2_sowings, starving = ROW_OF, feeding = m.prefer_rule { moves = o2_sowings, when = feeds, keep = feeds } }
`, 1)
	lib := games.Library()
	require.NoError(t, lib.AddSource("owarefeed", script, ""))
	shipped, err := lib.Load("oware")
	require.NoError(t, err)
	composed, err := lib.Load("owarefeed")
	require.NoError(t, err)

	rng := rand.New(rand.NewPCG(5, 8))
	positions, starving := 0, 0
	for range 300 {
		a, b := shipped.Start(), composed.Start()
		var rec []string
		for ply := 0; ply < 400; ply++ {
			// The same moves (each script lists them in its own order).
			require.ElementsMatch(t, a.Legal(), b.Legal(), "ply %d %v\n%s", ply, rec, a.Diagram())
			require.Equal(t, a.Over(), b.Over(), "ply %d", ply)
			positions++
			if a.Over() {
				break
			}
			if rowEmpty(a, 3-a.ToMove()) {
				starving++ // the mover must feed
			}
			tok := a.Legal()[rng.IntN(len(a.Legal()))]
			rec = append(rec, tok)
			require.NoError(t, a.Play(tok))
			require.NoError(t, b.Play(tok))
		}
	}
	require.Greater(t, starving, 50, "positions where a player must feed were met")
	t.Logf("%d positions, %d where the mover must feed", positions, starving)
}

// rowEmpty reports whether player p's row of an Oware state holds no seed.
func rowEmpty(s *host.State, p int) bool {
	b := s.Game().Board()
	for i := 0; i < b.NumSites(); i++ {
		if s.Owner(i) == p && s.Count(i) > 0 {
			return false
		}
	}
	return true
}
