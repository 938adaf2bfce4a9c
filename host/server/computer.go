package server

import (
	"context"
	"errors"
	"time"

	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/store"
)

// worker plays computer moves and ends games on time until the server
// closes: it claims a game whose seat to move is a computer's or whose
// running clock has run out, and does what is due. The number of workers
// caps the computer moves thought about at once.
func (s *Server) worker(owner string) {
	for {
		if s.ctx.Err() != nil {
			return
		}
		sg, err := s.store.Claim(s.ctx, owner, s.opt.lease)
		if err == nil {
			s.play(sg, owner)
			continue
		}
		if !errors.Is(err, store.ErrNotFound) && s.ctx.Err() == nil {
			s.log.Error("claiming a computer move", "err", err)
		}
		t := time.NewTimer(s.opt.poll)
		select {
		case <-s.ctx.Done():
			t.Stop()
			return
		case <-s.wake:
		case <-t.C:
		}
		t.Stop()
	}
}

// play does what a claimed game is due: ends it on time when its clock
// has run out (by this server's clock: when the store's clock is a little
// ahead, it waits for the deadline), else makes the computer's move.
func (s *Server) play(sg *store.Game, owner string) {
	if d := sg.Clock.Deadline(); !sg.Over() && !d.IsZero() && (!sg.ComputerDue || !d.After(time.Now())) {
		if wait := time.Until(d); wait > 0 {
			if wait > s.opt.lease/2 {
				// The store's clock is well ahead of this server's: keep
				// the lease (so that no worker claims the game again at
				// once) and look again when it has run out.
				return
			}
			select {
			case <-s.ctx.Done():
				return
			case <-time.After(wait):
			}
		}
		got, err := s.flag(s.ctx, sg)
		if err != nil {
			if s.ctx.Err() == nil {
				s.log.Error("ending a game on time", "id", sg.ID, "err", err)
			}
			return
		}
		if got != sg {
			s.syncCache(got)
		}
		return
	}
	s.playComputer(sg, owner)
}

// syncCache brings the cached state of a game to sg, when it is cached.
func (s *Server) syncCache(sg *store.Game) {
	e := s.cache.get(sg.ID)
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.game != nil {
		if err := s.sync(e, sg); err != nil {
			s.log.Error("rebuilding a game", "id", sg.ID, "err", err)
		}
	}
}

// playComputer makes the computer's move in a claimed game. It thinks
// without holding the game's lock, so that the game can be read meanwhile;
// the store refuses the move if another was made first.
func (s *Server) playComputer(sg *store.Game, owner string) {
	e := s.cache.get(sg.ID)
	e.mu.Lock()
	err := s.sync(e, sg)
	var st *host.State
	if err == nil {
		st = e.state.Clone()
	}
	g := e.game
	e.mu.Unlock()
	if err != nil {
		s.log.Error("rebuilding a game for the computer", "id", sg.ID, "err", err)
		return // the lease runs out; the game stays due for a server that can rebuild it
	}
	p := st.ToMove()
	if st.Over() || sg.Over() || !sg.ComputerDue || p < 1 || p > len(sg.Seats) || sg.Seats[p-1].Player == humanSeat {
		s.release(sg.ID, owner)
		return
	}
	spec := sg.Seats[p-1].Player
	think := s.opt.think
	if sg.Clock != nil && sg.Clock.Running == p {
		// A timed computer thinks for at most a tenth of its time left.
		think = min(think, max(sg.Clock.Left(p, time.Now())/10, time.Millisecond))
	}
	ctx, cancel := context.WithTimeout(s.ctx, think)
	defer cancel()
	next := st.Clone()
	m, err := s.choose(ctx, st, spec)
	if err == nil {
		err = next.ApplyRecorded(m)
	}
	if err != nil {
		s.log.Error("computer move", "id", sg.ID, "player", spec, "err", err)
		next.CopyFrom(st)
		if m, err = randomMove(next); err == nil {
			err = next.ApplyRecorded(m)
		}
		if err != nil {
			s.log.Error("random fallback move", "id", sg.ID, "err", err)
			s.release(sg.ID, owner)
			return
		}
	}
	result, due := outcome(next, sg.Seats)
	clock, late := afterMove(sg.Clock, p, toMove(next), time.Now())
	if late {
		if got, err := s.flag(s.ctx, sg); err == nil {
			s.syncCache(got)
		}
		return
	}
	ply := len(sg.Record)
	e.mu.Lock()
	defer e.mu.Unlock()
	got, err := s.store.Append(s.ctx, sg.ID, store.Move{Ply: ply, Token: g.Token(m), Result: result, ComputerDue: due, Clock: clock})
	if err != nil {
		if !errors.Is(err, store.ErrConflict) && s.ctx.Err() == nil {
			s.log.Error("storing a computer move", "id", sg.ID, "err", err)
		}
		return
	}
	if e.game == nil || !isPrefix(e.record, sg.Record) || len(e.record) != ply {
		if err := s.sync(e, got); err != nil {
			s.log.Error("rebuilding a game", "id", sg.ID, "err", err)
		}
		return
	}
	last := newMoveView(g, m)
	e.set(got, next, &last, p)
}

// release gives a claimed game back early.
func (s *Server) release(id, owner string) {
	if err := s.store.Release(s.ctx, id, owner); err != nil && s.ctx.Err() == nil {
		s.log.Error("releasing a claim", "id", id, "err", err)
	}
}

// choose asks the seat's player for a move in st, on a copy of st. A
// player that does not answer within ctx is abandoned.
func (s *Server) choose(ctx context.Context, st *host.State, spec string) (host.Move, error) {
	p, err := s.opt.players(st.Game(), spec)
	if err != nil {
		return host.Move{}, err
	}
	type answer struct {
		m   host.Move
		err error
	}
	c := make(chan answer, 1)
	view := st.Clone()
	go func() {
		m, err := p.Choose(ctx, view)
		c <- answer{m, err}
	}()
	select {
	case a := <-c:
		return a.m, a.err
	case <-ctx.Done():
		return host.Move{}, ctx.Err()
	}
}
