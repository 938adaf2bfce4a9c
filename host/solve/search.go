package solve

import (
	"context"
	"errors"

	"github.com/matombo/matombo/host"
)

// searched is what the search engine found.
type searched struct {
	opening Entry
	moves   []MoveValue
	nodes   int64
}

func (sr *searched) lookup(ctx context.Context, sol *Solution, s *host.State) (Entry, error) {
	return Entry{}, errors.New("search lookups: not built yet")
}

type searchPlan struct{ tableBytes, dbBytes int64 }

func (p searchPlan) bytes() int64 { return p.tableBytes + p.dbBytes }

func planSearch(g *host.Game, cfg *config) searchPlan { return searchPlan{} }

func searchable(g *host.Game) error {
	if !g.HasScore() {
		return &UnsupportedError{Game: g.Name(), Reason: "the search engine needs a game whose value is a score"}
	}
	return nil
}

func solveSearch(ctx context.Context, g *host.Game, cfg *config) (*Solution, error) {
	return nil, errors.New("the search engine is not built yet")
}

func (sr *searched) openingMoves(s *host.State) ([]MoveValue, bool) { return nil, false }

func (sr *searched) check(sol *Solution) error { return nil }

// MaxEndgame is the most counters an endgame database may hold in play.
const MaxEndgame = 48

// WithEndgame sets the search engine's endgame databases: positions with
// at most k counters in play (-1: chosen from the budget; 0: none).
func WithEndgame(k int) Option { return func(c *config) { c.endgame = k } }

// WithTableBytes sets the size of the search engine's transposition table.
func WithTableBytes(n int64) Option { return func(c *config) { c.tableBytes = n } }
