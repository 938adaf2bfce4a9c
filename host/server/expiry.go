package server

import (
	"time"

	"github.com/matombo/matombo/host/store"
)

// pruneBatch is the most games one Prune deletes: a sweep of many old
// games is several short transactions, not one that holds the database.
const pruneBatch = 500

// expireGames deletes the games nobody has changed for the expiry
// (WithExpiry), at start and then every sweep interval, until the server
// closes.
func (s *Server) expireGames(p store.Pruner) {
	every := min(time.Minute, max(s.opt.expire/4, 10*time.Millisecond))
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		s.pruneOnce(p, time.Now())
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
		}
	}
}

// pruneOnce deletes, batch after batch, every game not changed since the
// expiry before now, and returns how many it deleted.
func (s *Server) pruneOnce(p store.Pruner, now time.Time) int {
	before := now.Add(-s.opt.expire)
	deleted := 0
	for s.ctx.Err() == nil {
		n, err := p.Prune(s.ctx, before, pruneBatch)
		deleted += n
		if err != nil {
			if s.ctx.Err() == nil {
				s.log.Error("deleting expired games", "err", err)
			}
			break
		}
		if n < pruneBatch {
			break
		}
	}
	if deleted > 0 {
		s.log.Info("deleted expired games", "games", deleted, "unchanged for", s.opt.expire.String())
	}
	return deleted
}
